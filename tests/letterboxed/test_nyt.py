"""Letter Boxed on the 332 real New York Times puzzles of 2024 (../shared/data/letterboxed).

Each day's own accepted word list is the lexicon. The newspaper's 2-word solution must pass
our checker, and our proven optimum must never be worse than it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cpwords.core.lexicon import load_lexicon
from cpwords.core.result import Status
from cpwords.letterboxed.heuristics import build_trie, seed_baseline
from cpwords.letterboxed.models.dp import LetterBoxedSolver
from cpwords.letterboxed.rules import (
    is_playable,
    letterboxed_problems,
    objective_value,
    parse_box,
    score,
)
from cpwords.letterboxed.spec import solve_letterboxed

#: The dev set for the CP-SAT cross-check: every 12th puzzle of the file (28 puzzles); the
#: benchmark runs the cross-check on all 332.
DEV_EVERY = 30


@pytest.fixture(scope="module")
def puzzles(shared_data: Path) -> list[dict[str, Any]]:
    path = shared_data / "letterboxed" / "nyt-2024.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert len(rows) == 332
    return rows


@pytest.mark.slow
def test_every_nyt_solution_passes_and_the_optimum_is_never_worse(
    puzzles: list[dict[str, Any]],
) -> None:
    strictly_better = 0
    for p in puzzles:
        box = parse_box(p["sides"])
        lexicon = set(p["dictionary"])
        assert letterboxed_problems(box, p["nyt_solution"], lexicon) == [], p["date"]
        assert all(is_playable(w, box) for w in lexicon), p["date"]
        solver = LetterBoxedSolver(p["dictionary"])
        assert solver.playable_words(box) == sorted(lexicon)
        r = solve_letterboxed(box, solver)
        assert r.status is Status.OPTIMAL and r.verified, p["date"]
        assert letterboxed_problems(box, r.solution, lexicon) == []
        assert r.objective == objective_value(r.solution)
        assert score(r.solution) <= score(p["nyt_solution"]), p["date"]
        assert score(r.solution)[0] <= p["par"]
        strictly_better += score(r.solution) < score(p["nyt_solution"])
        # The seed's pair search never beats the proven optimum.
        base = seed_baseline(box, trie=build_trie(p["dictionary"]), pick="fewest-letters")
        assert base.objective is not None and base.objective >= r.objective
    assert strictly_better > 0  # the paper does not always print the shortest pair


@pytest.mark.slow
def test_two_word_counts_against_a_direct_pair_count(puzzles: list[dict[str, Any]]) -> None:
    for p in puzzles[::10]:
        box = parse_box(p["sides"])
        words = p["dictionary"]
        full = set(box.letters)
        starting: dict[str, list[str]] = {}
        for w in words:
            starting.setdefault(w[0], []).append(w)
        pairs = sum(
            1
            for a in words
            if set(a) != full
            for b in starting.get(a[-1], ())
            if set(a) | set(b) == full
        )
        count = LetterBoxedSolver(words).count(box, max_words=2)
        assert count.by_words[1] == pairs, p["date"]
        assert tuple(p["nyt_solution"]) in {
            tuple(s) for s in LetterBoxedSolver(words).count(box, 2, list_limit=None).solutions
        }


@pytest.mark.slow
def test_setcover_model_matches_the_dp_on_the_dev_set(puzzles: list[dict[str, Any]]) -> None:
    for p in puzzles[::DEV_EVERY]:
        box = parse_box(p["sides"])
        dp = LetterBoxedSolver(p["dictionary"]).solve(box)
        cp = solve_letterboxed(box, p["dictionary"], method="cpsat", time_limit=60)
        assert cp.status is Status.OPTIMAL, p["date"]
        assert cp.objective == dp.objective, p["date"]
        assert cp.verified


@pytest.mark.slow
def test_enable_lexicon_loaded_once_for_many_boxes(
    puzzles: list[dict[str, Any]], shared_data: Path
) -> None:
    enable = load_lexicon(shared_data / "enable1.txt")
    solver = LetterBoxedSolver(enable)
    words = enable.as_set()
    for p in puzzles[::25]:
        box = parse_box(p["sides"])
        r = solve_letterboxed(box, solver)
        if r.status is Status.INFEASIBLE:
            continue
        assert r.verified and letterboxed_problems(box, r.solution, words) == []
        assert sorted(w for w in words if is_playable(w, box)) == solver.playable_words(box)
