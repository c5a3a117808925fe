"""Truncate in the study: the longest sequence over dictionaries of growing size.

Instance tables (keys): ``lexicon`` (``truncate``, ``enable1``, ``letterpress``, ``wordfreq:N``
or a path), optionally with ``n`` and ``seed`` for a seeded sample of ``n`` of its words. All
three methods are exact (the seed's two searches are exhaustive, only slower), so the study
compares their solve times; the seeds' searches have no time limit of their own and are stopped
by the harness (status ``TIMEOUT``) when they run far past the suite's limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...heuristics.truncate import extend_search, shrink_search
from ...lexicon import Lexicon, lexicon_from_words
from ...models.truncate import solve_truncate
from ...puzzles.truncate import is_valid_truncate_sequence
from ...result import SolveResult
from ..adapter import MethodInfo, PuzzleAdapter
from ..sources import lexicon_words, sample_words


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> Lexicon:
    """The dictionary of one instance table."""
    if "lexicon" not in spec:
        raise InputError("a truncate instance needs a 'lexicon'")
    name = str(spec["lexicon"])
    if "n" in spec:
        words = sample_words(name, int(spec["n"]), int(spec.get("seed", 0)), base_dir)
        return lexicon_from_words(words, f"{name} sample n={spec['n']}")
    return lexicon_from_words(lexicon_words(name, str(base_dir)), name)


def _sequence(solution: Any) -> list[str]:
    seq = getattr(solution, "sequence", solution)
    return [str(w) for w in seq]


def run(
    lexicon: Lexicon,
    method: str,
    *,
    seed: int,
    time_limit: float,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """``dp``: the exact DP; ``seed-shrink`` / ``seed-extend``: the seed's searches."""
    if params:
        raise InputError(f"truncate methods take no params (got {', '.join(params)})")
    if method == "dp":
        return solve_truncate(lexicon)
    if method == "seed-shrink":
        return shrink_search(lexicon)
    return extend_search(lexicon)


def check(lexicon: Lexicon, result: SolveResult) -> bool:
    """A valid sequence over the dictionary, as long as the claimed objective."""
    seq = _sequence(result.solution)
    return is_valid_truncate_sequence(seq, lexicon.as_set()) and len(seq) == result.objective


ADAPTER = PuzzleAdapter(
    puzzle="truncate",
    sense="max",
    methods={
        "dp": MethodInfo("exact", description="DP over the truncation DAG (counts too)"),
        "seed-shrink": MethodInfo("exact", description="the seed's exhaustive shrink search"),
        "seed-extend": MethodInfo("exact", description="the seed's exhaustive extend search"),
    },
    make_instance=make_instance,
    run=run,
    size=len,
    check=check,
    size_label="dictionary words",
    spec_keys=frozenset({"lexicon", "n", "seed"}),
    solution_json=_sequence,
    objective_label="words in the sequence",
)
