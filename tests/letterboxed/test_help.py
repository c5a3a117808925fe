"""Issue 47, item 3: help from where the player stands (``--from``, ``--hint``).

The proven fewest words that finish a box after some plays, and the graded hints, against an
independent brute force: a shortest-path search over the game's states (letters used, last
letter) with every word as an arc, written here from the rules alone; on the 332 NYT boxes of
2024, a scan of every word of the day's dictionary.
"""

from __future__ import annotations

import heapq
import itertools
import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.letterboxed.models.dp import LetterBoxedSolver
from cpwords.letterboxed.rules import LetterBox, parse_box
from cpwords.letterboxed.spec import continue_box, hint_box
from tests.conftest import run_cli

WORDS = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
BOX = "abc-def-ghi-jkl"


def _playable(box: LetterBox, words: list[str]) -> list[str]:
    """The playable words of ``box``, sorted, by the rules written out again."""
    side = {ch: i for i, s in enumerate(box.sides) for ch in s}
    return sorted(
        {
            w
            for w in words
            if len(w) >= 3
            and all(ch in side for ch in w)
            and all(side[a] != side[b] for a, b in pairwise(w))
        }
    )


def brute_finish(box: LetterBox, words: list[str], plays: list[str]) -> tuple[int, int] | None:
    """Fewest (more words, letters) that finish the box after ``plays``, or None: Dijkstra over
    the states (letters used, last letter), lexicographic costs (1, len) per word."""
    playable = _playable(box, words)
    start_used = frozenset(ch for w in plays for ch in w)
    all_letters = frozenset(box.letters)
    start = (start_used, plays[-1][-1] if plays else None)
    if start_used == all_letters:
        return 0, 0
    heap: list[tuple[int, int, int, Any]] = [(0, 0, 0, start)]
    best = {start: (0, 0)}
    tie = itertools.count(1)
    while heap:
        k, letters, _, state = heapq.heappop(heap)
        if best.get(state) != (k, letters):
            continue
        used, last = state
        if used == all_letters:
            return k, letters
        for w in playable:
            if last is not None and w[0] != last:
                continue
            nxt = (used | frozenset(w), w[-1])
            cost = (k + 1, letters + len(w))
            if nxt not in best or cost < best[nxt]:
                best[nxt] = cost
                heapq.heappush(heap, (*cost, next(tie), nxt))
    return None


def brute_finishes(box: LetterBox, words: list[str], plays: list[str], k: int) -> set[tuple]:
    """Every finish of exactly ``k`` words (the box covered by the last and not before)."""
    if k == 0:
        return {()}
    playable = _playable(box, words)
    used0 = set(ch for w in plays for ch in w)
    out = set()
    for seq in itertools.product(playable, repeat=k):
        chain = [*plays[-1:], *seq]
        if any(a[-1] != b[0] for a, b in pairwise(chain)):
            continue
        used = set(used0)
        covered_at = None
        for i, w in enumerate(seq):
            used |= set(w)
            if used >= set(box.letters):
                covered_at = i
                break
        if covered_at == k - 1:
            out.add(seq)
    return out


@st.composite
def games(draw: st.DrawFn) -> tuple[LetterBox, list[str], list[str]]:
    """A small box (2 to 4 sides of 2 letters, or 2 or 3 of 3), a few playable words, a chain
    of plays."""
    per = draw(st.integers(2, 3))
    n_sides = draw(st.integers(2, 4 if per == 2 else 3))
    letters = "abcdefghijkl"[: n_sides * per]
    box = LetterBox(tuple(letters[i * per : (i + 1) * per] for i in range(n_sides)))
    side = {ch: i for i, s in enumerate(box.sides) for ch in s}

    def word() -> str:
        w = [draw(st.sampled_from(letters))]
        for _ in range(draw(st.integers(2, 7))):
            w.append(draw(st.sampled_from([c for c in letters if side[c] != side[w[-1]]])))
        return "".join(w)

    words = sorted({word() for _ in range(draw(st.integers(1, 12)))})
    plays: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        if set("".join(plays)) >= set(letters):
            break
        nxt = [w for w in words if not plays or w[0] == plays[-1][-1]]
        if not nxt:
            break
        plays.append(draw(st.sampled_from(nxt)))
    return box, words, plays


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_fewest_finish_and_the_hints_agree_with_a_brute_force(
    game: tuple[LetterBox, list[str], list[str]],
) -> None:
    _agrees_with_brute_force(*game)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_fewest_finish_and_the_hints_agree_with_a_brute_force_on_many_games(
    game: tuple[LetterBox, list[str], list[str]],
) -> None:
    _agrees_with_brute_force(*game)


def _agrees_with_brute_force(box: LetterBox, words: list[str], plays: list[str]) -> None:
    expected = brute_finish(box, words, plays)
    res = continue_box(box, plays, words, all_solutions=True)
    if expected is None:
        assert res.status is Status.INFEASIBLE and res.solution is None
        assert res.solver_info["reason"]
        hint = hint_box(box, plays, 3, words)
        assert hint.words_left is None and hint.word is None
        return
    k, letters = expected
    assert res.status is Status.OPTIMAL and res.verified
    assert (len(res.solution), sum(map(len, res.solution))) == (k, letters)
    assert res.objective == 1000 * k + letters
    if k <= 3:  # every fewest finish is listed, and only those
        fewest = {f for f in brute_finishes(box, words, plays, k) if sum(map(len, f)) == letters}
        assert {tuple(f) for f in res.solver_info["optimal_solutions"]} == fewest
    hints = [hint_box(box, plays, level, words) for level in (1, 2, 3)]
    assert all(h.words_left == k for h in hints)
    if k == 0:
        assert all(h.first_letter is None and h.word is None for h in hints)
        return
    word = hints[2].word
    assert word is not None and word == res.solution[0]
    assert hints[0].first_letter == hints[1].first_letter == word[0]
    assert (hints[0].length, hints[1].length, hints[2].length) == (None, len(word), len(word))
    assert hints[0].word is None and hints[1].word is None
    # the hinted word starts a fewest finish: one word less and its letters fewer after it
    assert brute_finish(box, words, [*plays, word]) == (k - 1, letters - len(word))


def test_no_plays_is_the_box_own_optimum() -> None:
    solver = LetterBoxedSolver(WORDS)
    res = continue_box(BOX, [], solver)
    assert res.solution == solver.solve(BOX).solution == ["bechfag", "gjdkil"]
    assert res.solver_info["next_letter"] is None and res.solver_info["left"] == "abcdefghijkl"


def test_plays_that_cover_the_box_need_no_more_words() -> None:
    res = continue_box(BOX, "BECHFAG-GJDKIL", WORDS)
    assert res.status is Status.OPTIMAL and res.solution == [] and res.objective == 0
    assert res.solver_info["left"] == "" and res.verified


def test_a_dead_end_is_reported_as_one() -> None:
    # DHL ends on l; the only word from l, LCFGJIK, ends on k, where no word starts.
    res = continue_box(BOX, ["dhl"], WORDS)
    assert res.status is Status.INFEASIBLE and res.solution is None
    assert "no chain of playable words starting with 'l'" in res.solver_info["reason"]
    # After DHL-LCFGJIK the next word starts with k, and none does: a dead end at once.
    res = continue_box(BOX, ["dhl", "lcfgjik"], WORDS)
    assert res.solver_info["reason"] == "no playable word starts with 'k'"
    assert hint_box(BOX, ["dhl", "lcfgjik"], 1, WORDS).words_left is None


@pytest.mark.parametrize(
    ("plays", "message"),
    [
        ("cab", "play 1 is not playable: 'cab' takes 'c' and 'a' in a row from the same side"),
        ("bead lid", "play 2 'lid' is not in the lexicon (<words>)"),
        ("bead lcfgjik", "play 2 'lcfgjik' does not start with 'd', the last letter of 'bead'"),
        (
            "bechfag gjdkil lcfgjik",
            "play 3 'lcfgjik' comes after every letter was used; the game ended",
        ),
    ],
)
def test_invalid_plays_are_one_clear_error(plays: str, message: str) -> None:
    with pytest.raises(InputError) as exc:
        continue_box(BOX, plays, WORDS)
    assert str(exc.value) == message


@pytest.fixture
def lb(tmp_path: Path) -> str:
    f = tmp_path / "lb.txt"
    f.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return str(f)


@pytest.mark.parametrize(
    "args",
    [
        ["--from", "cab"],
        ["--from", "bead,lid"],
        ["--from", "bead,lcfgjik"],
        ["--from", "bechfag,gjdkil,lcfgjik"],
        ["--from", ","],
        ["--from", "bead", "--max-words", "3"],
        ["--from", "bead", "--method", "cpsat"],
        ["--hint", "2", "--all"],
        ["--hint", "4"],
        ["--from", "bead", "--check-text", "bead dhl lcfgjik"],
        ["--generate", "1", "--hint", "1"],
    ],
)
def test_the_command_refuses_invalid_plays_in_one_line(
    lb: str, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    box = [] if "--generate" in args else [BOX]
    code, out, err = run_cli(["letterboxed", *box, "--dict", lb, *args], capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("cpwords: error: "), err


def test_the_command_finishes_hints_and_reports_a_dead_end(
    lb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(["letterboxed", BOX, "--dict", lb, "--from", "BEAD"], capsys)
    assert code == 0
    assert "plays     BEAD (8 letters left: C, F, G, H, I, J, K, L)" in out.splitlines()
    assert "solvable  yes, in 2 more words at fewest (proven)" in out.splitlines()
    assert "finish    DHL-LCFGJIK" in out.splitlines()
    shown = {
        level: run_cli(
            ["letterboxed", BOX, "--dict", lb, "--from", "bead", "--hint", level], capsys
        )[1]
        for level in ("1", "2", "3")
    }
    assert "hint      the next word starts with D" in shown["1"].splitlines()
    assert "hint      the next word starts with D and has 3 letters" in shown["2"].splitlines()
    assert "hint      the next word is DHL" in shown["3"].splitlines()
    assert all("LCFGJIK" not in text for text in shown.values())  # the finish stays hidden
    code, out, _ = run_cli(["letterboxed", BOX, "--dict", lb, "--from", "dhl"], capsys)
    assert code == 1 and "solvable  no: " in out


def test_the_command_json_keys(lb: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.core.rows import RESULT_KEYS

    code, out, _ = run_cli(["letterboxed", BOX, "--dict", lb, "--from", "bead", "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and tuple(row)[: len(RESULT_KEYS)] == RESULT_KEYS
    assert row["status"] == "OPTIMAL" and row["solution"] == ["dhl", "lcfgjik"]
    assert (row["num_words"], row["num_letters"], row["objective"]) == (2, 10, 2010)
    assert row["plays"] == ["bead"] and row["letters_left"] == "cfghijkl"
    assert row["next_letter"] == "d" and row["solvable"] is True and row["verified"] is True
    argv = ["letterboxed", BOX, "--dict", lb, "--from", "bead", "--hint", "1", "--json"]
    code, out, _ = run_cli(argv, capsys)
    row = json.loads(out)
    assert row["solution"] is None and row["hint"] == {
        "level": 1,
        "words_left": 2,
        "first_letter": "d",
        "length": None,
        "word": None,
    }
    argv = ["letterboxed", BOX, "--dict", lb, "--from", "dhl", "--json"]
    code, out, _ = run_cli(argv, capsys)
    row = json.loads(out)
    assert code == 1 and row["status"] == "INFEASIBLE" and row["solvable"] is False
    assert row["solution"] is None and row["reason"]


@pytest.mark.slow
def test_nyt_2024_after_the_paper_first_word_one_more_word_finishes_every_box(
    shared_data: Path,
) -> None:
    # The target of issue 47, item 3 (docs/reports/letterboxed-hints.md): after
    # nyt_solution[0], with the day's dictionary, --from says one more word on all 332 boxes,
    # and the fewest letters agree with a scan of every dictionary word.
    path = shared_data / "letterboxed" / "nyt-2024.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert len(rows) == 332
    for p in rows:
        box = parse_box(p["sides"])
        solver = LetterBoxedSolver(p["dictionary"])
        first = p["nyt_solution"][0]
        res = continue_box(box, [first], solver)
        left = set(box.letters) - set(first)
        finishers = [
            w for w in _playable(box, p["dictionary"]) if w[0] == first[-1] and left <= set(w)
        ]
        assert finishers and p["nyt_solution"][1] in finishers, p["date"]
        assert res.status is Status.OPTIMAL and res.verified, p["date"]
        assert len(res.solution) == 1 and res.solution[0] in finishers, p["date"]
        assert len(res.solution[0]) == min(map(len, finishers)), p["date"]
        hint = hint_box(box, [first], 2, solver)
        assert (hint.words_left, hint.first_letter, hint.length) == (
            1,
            first[-1],
            len(res.solution[0]),
        ), p["date"]


def test_finish_box_is_the_finish_or_the_hint_and_a_ctrl_c_is_a_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The library function behind --from and --hint: continue_box's finish, or hint_box's
    hint with its result; a Ctrl-C gives UNKNOWN with the position, not an exception."""
    from cpwords.letterboxed import modes, spec

    solver = LetterBoxedSolver(WORDS)
    box = parse_box(BOX)
    res, hint = spec.finish_box(box, "bead", solver)
    assert hint is None and res.solution == continue_box(BOX, "bead", WORDS).solution
    res, hint = spec.finish_box(box, "bead", solver, hint=3)
    assert hint is not None and hint.word == res.solution[0] == "dhl"

    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(modes, "continue_box", stop)  # finish_box's own module
    res, hint = spec.finish_box(box, "bead", solver)
    assert hint is None and res.status is Status.UNKNOWN and res.solution is None
    assert res.solver_info == {
        "interrupted": True,
        "box": BOX,
        "plays": ["bead"],
        "playable_words": len(solver.playable(box)),
    }
    monkeypatch.setattr(spec, "solve_letterboxed", stop)
    res = spec.solve_box_stoppable(box, solver, method="seed-first")
    assert res.status is Status.UNKNOWN and res.method == "seed-first"
    assert res.solver_info == {"interrupted": True} and res.sense == "min"
