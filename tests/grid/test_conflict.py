"""An unfillable grid board: the conflicting slots named are infeasible and minimal.

The property is checked by brute force on small boards and word lists (every assignment of
the slots' tokens, by the rules written out again), never against a hard-coded answer.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from cpwords.core.result import Status
from cpwords.grid.models.conflict import grid_conflict, slots_conflict
from cpwords.grid.rules import Board, GridTokens, cut_words, grid_problems
from tests.conftest import run_cli

WORDS = [
    "ball",
    "bale",
    "tall",
    "tale",
    "call",
    "cale",
    "bell",
    "tell",
    "cell",
    "mall",
    "male",
    "hall",
    "hale",
    "pale",
    "pall",
    "mell",
    "hell",
    "sale",
    "tile",
    "mile",
]


def _fillable(
    board: Board, tokens: GridTokens, slots: Iterable[str], placed: Mapping[str, str]
) -> bool:
    """Brute force: can the constraints of ``slots`` (the sub-board they induce) all hold?"""
    slots = list(slots)
    kinds = board.kinds
    pairs = set(tokens.pairs)
    choices = {
        "prefix": sorted({p for p, _ in pairs}),
        "suffix": sorted({s for _, s in pairs}),
    }
    # every slot holds a token of its kind (a placed one stays, if it is a token at all)
    domains = [
        [t for t in choices[kinds[v]] if t == placed[v]] if v in placed else choices[kinds[v]]
        for v in slots
    ]
    edges = [(p, s) for p, s in board.edges if p in slots and s in slots]
    for values in itertools.product(*domains):
        fill = dict(zip(slots, values, strict=True))
        by_kind = [[fill[v] for v in slots if kinds[v] == k] for k in ("prefix", "suffix")]
        if any(len(set(vals)) < len(vals) for vals in by_kind):
            continue
        if all((fill[p], fill[s]) in pairs for p, s in edges):
            return True
    return False


def _random_board(rng: random.Random) -> Board:
    """A connected-enough bipartite board of 2-3 suffix and 2-3 prefix slots."""
    sufs = tuple(f"s{i}" for i in range(1, rng.randint(2, 3) + 1))
    pres = tuple(f"p{i}" for i in range(1, rng.randint(2, 3) + 1))
    edges = {(p, rng.choice(sufs)) for p in pres}
    edges |= {(rng.choice(pres), s) for s in sufs}
    edges |= {(p, s) for p in pres for s in sufs if rng.random() < 0.4}
    return Board("random", sufs, pres, tuple(sorted(edges)))


def _random_partial(board: Board, tokens: GridTokens, rng: random.Random) -> dict[str, str]:
    prefixes = [*sorted({p for p, _ in tokens.pairs}), "zz"]
    suffixes = sorted({s for _, s in tokens.pairs})
    out = {}
    for v in board.slots:
        if rng.random() < 0.3:
            out[v] = rng.choice(prefixes if v in board.prefix_slots else suffixes)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_named_slots_conflict_and_are_minimal_by_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    words = rng.sample(WORDS, rng.randint(5, 12))
    tokens = cut_words(words, 2, 2, "<words>")
    for _ in range(4):
        board = _random_board(rng)
        placed = _random_partial(board, tokens, rng)
        c = grid_conflict(board, tokens, placed)
        whole = _fillable(board, tokens, board.slots, placed)
        if whole:
            assert c.status is Status.FEASIBLE and c.slots == ()
            continue
        assert c.status is Status.INFEASIBLE and c.minimal and c.slots
        assert c.placed == {v: placed[v] for v in c.slots if v in placed}
        assert not _fillable(board, tokens, c.slots, placed)
        for v in c.slots:
            rest = [u for u in c.slots if u != v]
            assert _fillable(board, tokens, rest, placed), (c.slots, v)


def test_the_model_agrees_with_the_brute_force_on_every_subset() -> None:
    # Every subset of slots of a small board: the assumption model's answer is the brute force's.
    board = Board(
        "ring",
        ("s1", "s2"),
        ("p1", "p2", "p3"),
        (("p1", "s1"), ("p1", "s2"), ("p2", "s1"), ("p2", "s2"), ("p3", "s1")),
    )
    tokens = cut_words(["ball", "bale", "tall", "tale", "mall", "pale"], 2, 2, "<words>")
    placed = {"p1": "ta", "p3": "ma", "s2": "le"}
    for k in range(len(board.slots) + 1):
        for subset in itertools.combinations(board.slots, k):
            got = slots_conflict(board, tokens, subset, placed)
            want = (
                Status.FEASIBLE if _fillable(board, tokens, subset, placed) else Status.INFEASIBLE
            )
            assert got is want, subset


def test_unfillable_default_board_names_a_minimal_set(tmp_path: Path) -> None:
    # The default board, the 5,000 most common words: a fill of the first listed puzzle with
    # one prefix changed to another's token (two prefix slots with the same token).
    from cpwords.grid.rules import common_tokens, default_board
    from tests.conftest import grid_example

    board, tokens = default_board(), common_tokens(5000, 2, 2, False)
    full = dict(kv.split("=") for kv in grid_example(5000)[2].split(","))
    placed = dict(full) | {"n": full["e"]}
    c = grid_conflict(board, tokens, placed)
    assert c.status is Status.INFEASIBLE and c.minimal
    assert slots_conflict(board, tokens, c.slots, placed) is Status.INFEASIBLE
    for v in c.slots:
        rest = [u for u in c.slots if u != v]
        assert slots_conflict(board, tokens, rest, placed) is Status.FEASIBLE
    # the real board is fine: the checker passes the unchanged fill, nothing conflicts
    assert not grid_problems(board, full, tokens.words)
    assert grid_conflict(board, tokens, full).status is Status.FEASIBLE


def _board_file(tmp_path: Path) -> tuple[str, str]:
    board = {
        "name": "tiny",
        "suffix_slots": ["s1", "s2"],
        "prefix_slots": ["p1", "p2"],
        "edges": [["p1", "s1"], ["p1", "s2"], ["p2", "s1"]],
    }
    (tmp_path / "board.json").write_text(json.dumps(board))
    (tmp_path / "words.txt").write_text("ball\nbale\ntall\n")
    return str(tmp_path / "board.json"), str(tmp_path / "words.txt")


def test_cli_solve_json_names_the_conflict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board_path, words = _board_file(tmp_path)
    base = ["grid", "--board", board_path, "--dict", words, "--no-blocklist", "--json"]
    code, out, _ = run_cli([*base, "--solve-text", "p1=ta"], capsys)
    row = json.loads(out)
    assert code == 1 and row["status"] == "INFEASIBLE" and row["solution"] is None
    conflict = row["conflict"]
    assert conflict["minimal"] and conflict["placed"] == {"p1": "ta"} and "p1" in conflict["slots"]
    b = Board("tiny", ("s1", "s2"), ("p1", "p2"), (("p1", "s1"), ("p1", "s2"), ("p2", "s1")))
    tokens = cut_words(["ball", "bale", "tall"], 2, 2)
    assert not _fillable(b, tokens, conflict["slots"], {"p1": "ta"})
    code, out, _ = run_cli([*base, "--solve-text", "p1=ba"], capsys)
    row = json.loads(out)
    assert code == 0 and row["status"] == "FEASIBLE" and row["conflict"] is None


def test_cli_solve_text_says_unfillable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board_path, words = _board_file(tmp_path)
    argv = ["grid", "--board", board_path, "--dict", words, "--solve-text", "p1=ta"]
    code, out, _ = run_cli(argv, capsys)
    assert code == 1 and "unfillable" in out and "conflict" in out and "p1=ta" in out
    assert "minimal" in out
