"""Letter Boxed in the study: the newspaper's real puzzles (with their par) or given boxes.

Instance tables (keys):

* ``dataset`` (a JSON-lines file of puzzles, e.g. ``"shared:letterboxed/nyt-2024.jsonl"``) with
  optional ``limit`` (first N puzzles), ``every`` (every k-th puzzle) and ``dates`` (a list):
  expanded into one instance per puzzle, named ``nyt-<date>``. The word list is the day's own
  accepted ``dictionary`` unless ``lexicon`` names another one.
* ``box`` (``"abc-def-ghi-jkl"``) with ``lexicon`` (see
  :func:`cpwords.bench.sources.lexicon_words`).

The objective is the exact model's ``1000 * words + letters`` (minimised); each row also stores
``measures = {"words": ..., "letters": ...}`` and the newspaper's ``par`` (in words) as its
reference, so the report compares the proven fewest words with the par.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...heuristics.letterboxed import build_trie, seed_baseline
from ...models.letterboxed import LetterBoxedSolver
from ...models.letterboxed_setcover import solve_letterboxed_setcover
from ...puzzles.letterboxed import (
    WORD_WEIGHT,
    LetterBox,
    letterboxed_problems,
    objective_value,
    parse_box,
)
from ...result import SolveResult
from ..adapter import MethodInfo, PuzzleAdapter
from ..sources import lexicon_words, resolve_path


@dataclass(frozen=True)
class LetterBoxedCase:
    """A box, its word list and the newspaper's par (when it is a real puzzle)."""

    box: LetterBox
    words: tuple[str, ...]
    par: int | None = None
    date: str | None = None

    @functools.cached_property
    def solver(self) -> LetterBoxedSolver:
        """The exact solver with this word list indexed (built once per case)."""
        return LetterBoxedSolver(self.words)

    @functools.cached_property
    def trie(self) -> Any:
        """The seed's trie of the word list (built once per case)."""
        return build_trie(self.words)

    @functools.cached_property
    def playable(self) -> int:
        """Number of playable words of the box (the instance size)."""
        return len(self.solver.playable(self.box))


@functools.lru_cache(maxsize=4)
def _dataset(path: str) -> tuple[dict[str, Any], ...]:
    rows = []
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                raise InputError(f"{path}, line {i}: not a JSON object") from None
    return tuple(rows)


def expand(spec: Mapping[str, Any], base_dir: Path) -> list[dict[str, Any]]:
    """One instance table per puzzle of a ``dataset`` (others pass through)."""
    if "dataset" not in spec or "date" in spec:
        return [dict(spec)]
    puzzles = _dataset(str(resolve_path(str(spec["dataset"]), base_dir)))
    dates = spec.get("dates")
    if dates is not None:
        wanted = set(dates)
        puzzles = tuple(p for p in puzzles if p.get("date") in wanted)
        missing = wanted - {p.get("date") for p in puzzles}
        if missing:
            raise InputError(f"dates not in {spec['dataset']}: {', '.join(sorted(missing))}")
    every = int(spec.get("every", 1))
    if every < 1:
        raise InputError("'every' must be at least 1")
    puzzles = puzzles[::every]
    if "limit" in spec:
        puzzles = puzzles[: int(spec["limit"])]
    base = {k: v for k, v in spec.items() if k not in ("limit", "every", "dates", "name")}
    return [dict(base, date=p["date"], name=f"nyt-{p['date']}") for p in puzzles]


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> LetterBoxedCase:
    """Build a :class:`LetterBoxedCase` from one (expanded) instance table."""
    if "dataset" in spec:
        if "date" not in spec:
            raise InputError("a dataset instance needs a 'date'")
        path = str(resolve_path(str(spec["dataset"]), base_dir))
        match = [p for p in _dataset(path) if p.get("date") == spec["date"]]
        if not match:
            raise InputError(f"no puzzle dated {spec['date']} in {spec['dataset']}")
        p = match[0]
        box = parse_box(p["sides"])
        if "lexicon" in spec:
            words = lexicon_words(str(spec["lexicon"]), str(base_dir))
        else:
            words = tuple(sorted(set(p["dictionary"])))
        return LetterBoxedCase(box, words, int(p["par"]), str(p["date"]))
    if "box" not in spec or "lexicon" not in spec:
        raise InputError("a letterboxed instance needs 'dataset', or 'box' with 'lexicon'")
    box = parse_box(str(spec["box"]))
    return LetterBoxedCase(box, lexicon_words(str(spec["lexicon"]), str(base_dir)))


def run(
    case: LetterBoxedCase,
    method: str,
    *,
    seed: int,
    time_limit: float,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """``dp``: the exact layered DP; ``setcover``: the CP-SAT set-cover / Euler-trail model;
    ``seed-first`` / ``seed-best``: the seed's pair search."""
    if params:
        raise InputError(f"letterboxed methods take no params (got {', '.join(params)})")
    if method == "dp":
        return case.solver.solve(case.box)
    if method == "setcover":
        playable = [w for w, _ in case.solver.playable(case.box)]
        return solve_letterboxed_setcover(
            case.box, playable, time_limit=time_limit, workers=workers, seed=seed
        )
    pick = {"seed-first": "first", "seed-best": "fewest-letters"}[method]
    return seed_baseline(case.box, trie=case.trie, pick=pick)


def check(case: LetterBoxedCase, result: SolveResult) -> bool:
    """The puzzle's independent checker, and the objective recomputed from the words."""
    words = list(result.solution)
    ok = not letterboxed_problems(case.box, words, frozenset(case.words))
    return ok and objective_value(words) == result.objective


def reference(case: LetterBoxedCase) -> dict[str, Any]:
    """The newspaper's par (words), for real puzzles."""
    if case.par is None:
        return {}
    return {"par": case.par, "par_measure": "words", "date": case.date}


def measures(case: LetterBoxedCase, result: SolveResult) -> dict[str, float]:
    """Words and letters of a solution (the two parts of the lexicographic objective)."""
    obj = float(result.objective or 0)
    return {"words": obj // WORD_WEIGHT, "letters": obj % WORD_WEIGHT}


ADAPTER = PuzzleAdapter(
    puzzle="letterboxed",
    sense="min",
    methods={
        "dp": MethodInfo("exact", description="layered DP over (letters needed, last letter)"),
        "setcover": MethodInfo("exact", description="CP-SAT set-cover / Euler-trail model"),
        "seed-first": MethodInfo("baseline", description="the seed's first two-word pair"),
        "seed-best": MethodInfo("baseline", description="the seed's fewest-letter pair"),
    },
    make_instance=make_instance,
    run=run,
    size=lambda case: case.playable,
    check=check,
    size_label="playable words",
    spec_keys=frozenset({"dataset", "limit", "every", "dates", "date", "box", "lexicon"}),
    expand=expand,
    reference=reference,
    measures=measures,
    objective_label="1000 * words + letters",
)
