"""Letterpress's spec: every word a bag of letters spells, by the index and the seed's ways.

Instance tables (keys): ``lexicon`` (``letterpress``, ``enable1``, ``wordfreq:N`` or a path, see
:func:`cpwords.bench.sources.lexicon_words`) and ``letters`` (the bag). All three methods are
exhaustive, so the study compares their query times (the index and the trie are built before the
clock starts, as the seed measures them) and checks that every listing is complete.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..heuristics.letterpress import Trie, naive_scan
from ..lexicon import Lexicon, lexicon_from_words
from ..models.letterpress import build_letterpress_index, find_letterpress_words
from ..puzzles.letterpress import can_spell, letterpress_problems, parse_letters
from ..result import SolveResult, Status
from ..spec import MethodInfo, PuzzleSpec, no_params
from .sources import lexicon_words


@dataclass(frozen=True)
class LetterpressQuery:
    """One bag of letters against one dictionary."""

    lexicon: Lexicon
    letters: str


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> LetterpressQuery:
    """The dictionary and the bag of one instance table."""
    if "lexicon" not in spec or "letters" not in spec:
        raise InputError("a letterpress instance needs a 'lexicon' and 'letters'")
    name = str(spec["lexicon"])
    lexicon = lexicon_from_words(lexicon_words(name, str(base_dir)), name)
    return LetterpressQuery(lexicon, parse_letters(str(spec["letters"])))


def run(
    query: LetterpressQuery,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """``index``: the cached-bitset index; ``trie`` / ``naive``: the seed's trie and scan."""
    no_params("letterpress", params)
    if method == "index":
        index = build_letterpress_index(query.lexicon.words)
        return find_letterpress_words(query.letters, index, verify=False)
    structure: Any = Trie(query.lexicon) if method == "trie" else None
    start = time.perf_counter()
    words = (
        structure.query(query.letters)
        if method == "trie"
        else naive_scan(query.lexicon, query.letters)
    )
    elapsed = time.perf_counter() - start
    return SolveResult(Status.FEASIBLE, float(len(words)), None, elapsed, words, method)


def problems(query: LetterpressQuery, result: SolveResult) -> list[str]:
    """Every listed word is spellable and in the dictionary, and none is missing."""
    words = list(result.solution)
    found = letterpress_problems(words, query.letters, query.lexicon.as_set())
    expected = sum(can_spell(w, query.letters) for w in query.lexicon.words)
    if not found and expected != len(words):
        found = [f"the listing has {len(words)} words, the dictionary spells {expected}"]
    return list(found)


def objective(query: LetterpressQuery, solution: Any) -> float:
    """Words listed."""
    return float(len(list(solution)))


SPEC = PuzzleSpec(
    puzzle="letterpress",
    sense="max",
    default_method="index",
    problems=problems,
    objective=objective,
    methods={
        "index": MethodInfo("exact", description="bitset index, one bitset per letter and count"),
        "trie": MethodInfo("baseline", description="the seed's trie (built before timing)"),
        "naive": MethodInfo("baseline", description="the seed's frequency-map scan"),
    },
    make_instance=make_instance,
    run=run,
    size=lambda q: len(q.lexicon),
    size_label="dictionary words",
    spec_keys=frozenset({"lexicon", "letters"}),
    # A listing can hold 57,000 words; the row keeps its size and its longest words (the full
    # listing is checked for soundness and completeness in the worker before it is dropped).
    solution_json=lambda words: {"count": len(words), "longest": list(words)[-10:]},
    objective_label="words spelled",
)
