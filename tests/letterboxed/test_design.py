"""Letter Boxed design: generated boxes re-checked by an independent brute force and the checker."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpwords
from cpwords.cli import main
from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import wordfreq_lexicon
from cpwords.letterboxed.models import design as letterboxed_design
from cpwords.letterboxed.models.design import (
    DIFFICULTY_BANDS,
    BoxGeneration,
    box_difficulty,
    draw_box,
    generate_boxes,
    zipf,
)
from cpwords.letterboxed.models.dp import LetterBoxedSolver, count_letterboxed
from cpwords.letterboxed.rules import (
    LetterBox,
    brute_force_short_solutions,
    is_playable,
    is_valid_letterboxed,
    letterboxed_problems,
)

WORDS = wordfreq_lexicon(20_000)


@pytest.fixture(scope="module")
def solver() -> LetterBoxedSolver:
    return LetterBoxedSolver(WORDS)


def pairs_by_product(box: LetterBox, words: list[str]) -> list[tuple[str, str]]:
    """Every 2-word solution by the plainest path: ordered pairs through the checker (pairs
    that do not chain are skipped first, since the checker rejects them anyway)."""
    playable = sorted({w for w in words if is_playable(w, box)})
    return [
        (a, b)
        for a, b in itertools.product(playable, repeat=2)
        if a[-1] == b[0] and is_valid_letterboxed(box, [a, b])
    ]


def assert_box_verified(box_row, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    box = box_row.box
    assert box.shape == (3, 3, 3, 3) and len(set(box.letters)) == 12
    one, two = brute_force_short_solutions(box, words)
    assert len(one) == box_row.counts[0] == 0
    assert len(two) == box_row.counts[1] >= 1
    assert tuple(box_row.solution) in set(two)
    assert box_row.words == 2
    assert box_row.letters == min(len(a) + len(b) for a, b in two)
    for chain in [box_row.solution, *two[:20]]:
        assert letterboxed_problems(box, list(chain), set(words)) == []
    assert box_row.verified


# ----------------------------------------------------------------------------- brute force


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("abcdefghijkl", min_size=3, max_size=7), min_size=1, max_size=25))
def test_brute_force_agrees_with_checker_over_all_pairs(words: list[str]) -> None:
    box = LetterBox(("abc", "def", "ghi", "jkl"))
    one, two = brute_force_short_solutions(box, words)
    assert two == pairs_by_product(box, words)
    assert one == sorted({w for w in words if is_valid_letterboxed(box, [w])})


def test_brute_force_agrees_with_the_dp_counts_on_random_boxes(solver: LetterBoxedSolver) -> None:
    rng = np.random.default_rng(2024)
    for _ in range(15):
        box = draw_box(rng)
        one, two = brute_force_short_solutions(box, WORDS)
        c = count_letterboxed(box, solver, max_words=2)
        assert c.by_words == (len(one), len(two))


# ----------------------------------------------------------------------------- generator


@pytest.mark.slow
def test_same_seed_same_boxes(solver: LetterBoxedSolver) -> None:
    a = generate_boxes(3, solver, seed=7)
    b = generate_boxes(3, LetterBoxedSolver(WORDS), seed=7)
    c = generate_boxes(3, solver, seed=8)
    assert [x.to_dict() | {"wall_time": 0} for x in a.boxes] == [
        x.to_dict() | {"wall_time": 0} for x in b.boxes
    ]
    assert [str(x.box) for x in a.boxes] != [str(x.box) for x in c.boxes]


@pytest.mark.slow
def test_generated_boxes_have_a_proven_two_word_optimum(solver: LetterBoxedSolver) -> None:
    g = generate_boxes(4, solver, seed=3)
    assert g.complete and len({str(b.box) for b in g.boxes}) == 4
    for b in g.boxes:
        assert_box_verified(b, WORDS)
        assert b.to_dict()["status"] == "OPTIMAL"
        # the reported counts are those of the public counting API
        assert count_letterboxed(b.box, solver, max_words=3).by_words == b.counts


@pytest.mark.slow
def test_unique_boxes_have_exactly_one_solution_by_brute_force(solver: LetterBoxedSolver) -> None:
    g = generate_boxes(3, solver, seed=11, unique=True)
    assert g.complete
    for b in g.boxes:
        assert_box_verified(b, WORDS)
        assert pairs_by_product(b.box, WORDS) == [tuple(b.solution)]
        assert b.unique and b.two_word_solutions == (tuple(b.solution),)
    assert g.rejected["too_many_2_word"] > 0  # the filter did reject boxes


def test_max_solutions_and_min_playable_hold(solver: LetterBoxedSolver) -> None:
    g = generate_boxes(3, solver, seed=5, max_solutions=3, min_playable=400)
    assert g.complete
    for b in g.boxes:
        assert_box_verified(b, WORDS)
        assert 1 <= b.counts[1] <= 3
        assert sum(is_playable(w, b.box) for w in set(WORDS)) == b.playable_words >= 400


@pytest.mark.slow
@pytest.mark.parametrize("band", ["easy", "hard", (1.5, 2.5)])
def test_a_difficulty_keeps_only_boxes_of_its_band(solver: LetterBoxedSolver, band: Any) -> None:
    g = generate_boxes(2, solver, seed=4, difficulty=band, max_draws=4000)
    low, high = DIFFICULTY_BANDS[band] if isinstance(band, str) else band
    assert g.boxes, "no box in the band"
    for b in g.boxes:
        assert_box_verified(b, WORDS)
        # the score recomputed by the public rating, not the one the generator stored
        assert low <= box_difficulty(b.box, solver).score < high
    # The same draws without the band: the banded boxes are its first boxes in the band.
    everyone = generate_boxes(30, solver, seed=4, max_draws=4000)
    inside = [str(b.box) for b in everyone.boxes if low <= b.difficulty.score < high]
    assert [str(b.box) for b in g.boxes] == inside[: len(g.boxes)]
    assert g.rejected["difficulty"] == len(
        everyone.boxes[
            : everyone.boxes.index(
                next(b for b in everyone.boxes if str(b.box) == str(g.boxes[-1].box))
            )
        ]
    ) - (len(g.boxes) - 1)


def test_generator_refuses_a_box_the_brute_force_contradicts(
    solver: LetterBoxedSolver, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = letterboxed_design.brute_force_short_solutions

    def one_pair_more(box: LetterBox, words):  # type: ignore[no-untyped-def]
        one, two = real(box, words)
        return one, [*two, ("zzz", "zzz")]

    monkeypatch.setattr(letterboxed_design, "brute_force_short_solutions", one_pair_more)
    with pytest.raises(CheckError, match="brute force"):
        generate_boxes(1, solver, seed=11, unique=True)


def test_generation_can_run_out_of_draws() -> None:
    g = generate_boxes(2, ["abc", "def"], max_draws=5)
    assert isinstance(g, BoxGeneration)
    assert not g.complete and g.draws == 5 and g.boxes == ()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"k": 0},
        {"k": 10**30},  # issue 48: accepted, it ran until the time limit
        {"k": 10_001},
        {"k": 1, "unique": True, "max_solutions": 2},
        {"k": 1, "max_solutions": 0},
        {"k": 1, "min_playable": -1},
        {"k": 1, "max_draws": 0},
        {"k": 1, "difficulty": "brutal"},
        {"k": 1, "difficulty": (3.0, 2.0)},
    ],
)
def test_generator_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        generate_boxes(lexicon=["abc"], **kwargs)  # type: ignore[arg-type]


def test_draw_box_weights_letters_by_frequency() -> None:
    rng = np.random.default_rng(0)
    seen = "".join(draw_box(rng).letters for _ in range(300))
    assert seen.count("e") > 250 and seen.count("q") < 60


# ----------------------------------------------------------------------------- difficulty


@pytest.mark.slow
def test_difficulty_counts_common_solutions(solver: LetterBoxedSolver) -> None:
    box = generate_boxes(1, solver, seed=3).boxes[0].box
    d = box_difficulty(box, solver)
    common = [w for w in WORDS if zipf(w) >= d.zipf_threshold]
    one, two = brute_force_short_solutions(box, common)
    assert d.common_solutions[:2] == (len(one), len(two))
    assert d.common_words == sum(is_playable(w, box) for w in set(common))
    assert d.score == round(max(0.0, 6 - math.log10(1 + sum(d.common_solutions))), 2)
    # fewer words accepted -> fewer common solutions -> not easier
    few = box_difficulty(box, [w for w in WORDS if zipf(w) >= 4.5])
    assert few.score >= d.score


def test_public_reexports() -> None:
    assert cpwords.generate_boxes is generate_boxes
    assert cpwords.box_difficulty is box_difficulty


# ----------------------------------------------------------------------------- CLI


@pytest.fixture(scope="module")
def dict_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("lex") / "words.txt"
    p.write_text("\n".join(WORDS) + "\n", "utf-8")
    return p


@pytest.mark.slow
def test_cli_generate_json(dict_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["letterboxed", "--generate", "2", "--unique", "--seed", "4"]
    with pytest.raises(SystemExit) as exc:
        main([*args, "--dict", str(dict_file), "--json"])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] == 2 and out["complete"] and out["unique"]
    for row in out["boxes"]:
        box = LetterBox(tuple(row["box"].split("-")))
        assert row["counts"]["2"] == 1 and row["verified"]
        assert brute_force_short_solutions(box, WORDS)[1] == [tuple(row["solution"])]


def test_cli_generate_human(dict_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["letterboxed", "--generate", "1", "--dict", str(dict_file), "--seed", "1"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "proven fewest words" in out and "difficulty" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--generate", "0"],
        ["--generate", "-3"],
        ["--generate", "x"],
        ["--generate", str(10**30)],  # issue 48: accepted, it ran until the time limit
        ["--generate", "10001"],
        ["--generate", "9" * 5000],
        ["--generate", "2", "--unique", "--max-solutions", "3"],
        ["--unique", "abc-def-ghi-jkl"],
        ["--max-solutions", "2", "abc-def-ghi-jkl"],
        ["--generate", "1", "abc-def-ghi-jkl"],
        ["--generate", "1", "--max-words", "3"],
        ["--generate", "1", "--method", "cpsat"],
        ["--generate", "1", "--min-playable", "-1"],
    ],
)
def test_cli_generate_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["letterboxed", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cpwords: error:") and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_doctests() -> None:
    import doctest

    from cpwords.letterboxed import rules
    from cpwords.letterboxed.models import difficulty

    for mod in (letterboxed_design, difficulty, rules):
        res = doctest.testmod(mod)
        assert res.failed == 0 and res.attempted > 0


@pytest.mark.slow
def test_generated_boxes_show_no_blocked_word(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 23, item 13: the generator drew its solutions from a frequency list with
    # profanity and slurs; a blocklist (the default one plus a file of one's own) rejects a
    # box whose solutions show a blocked word.
    def generate(*extra: str) -> dict[str, Any]:
        with pytest.raises(SystemExit) as exc:
            main(["letterboxed", "--generate", "1", "--seed", "4", "--json", *extra])
        assert exc.value.code == 0
        return json.loads(capsys.readouterr().out)

    first = generate()
    box = first["boxes"][0]
    shown = {*box["solution"], *(w for pair in box["two_word_solutions"] for w in pair)}
    mine = tmp_path / "mine.txt"
    mine.write_text(sorted(shown)[0] + "\n", encoding="utf-8")
    second = generate("--blocklist", str(mine))
    assert second["rejected"]["blocked"] >= 1
    assert second["solution"] != first["solution"]
    for pair in second["boxes"][0]["two_word_solutions"]:
        assert sorted(shown)[0] not in pair
    with pytest.raises(SystemExit) as exc:
        main(["letterboxed", "abc-def-ghi-jkl", "--no-blocklist"])
    assert exc.value.code == 2 and "needs --generate" in capsys.readouterr().err


def test_the_blocklist_is_better_profanity_plus_ones_own(tmp_path: Path) -> None:
    from cpwords.core.blocklist import load_blocklist

    default = load_blocklist()
    assert default.blocks("Fuck") and default.blocks("rape") and not default.blocks("rock")
    mine = tmp_path / "mine.txt"
    mine.write_text("\ufeffRock  # a name I do not want\n\n", encoding="utf-8")
    both = load_blocklist(mine)
    assert both.blocks("rock") and both.blocks("fuck") and str(mine) in both.source
    only = load_blocklist(mine, enabled=False)
    assert only.blocks("rock") and not only.blocks("fuck")
    assert not load_blocklist(enabled=False) and load_blocklist(enabled=False).source == "off"
    with pytest.raises(InputError, match="not found"):
        load_blocklist(tmp_path / "missing.txt")
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9\n")
    with pytest.raises(InputError, match="not UTF-8"):
        load_blocklist(tmp_path / "latin.txt")


@pytest.mark.slow
def test_a_box_counted_past_the_time_limit_is_dropped_and_the_stop_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 34, item 16: a 16x1 box took 42 s to count with --time-limit 5 (the limit was read
    # only between boxes). The count now reads it between chunks of word classes.
    import time as _time

    from cpwords.letterboxed.models import difficulty, dp

    seen: list[float | None] = []
    real = dp.count_tables

    def spy(c, max_words, deadline=None):  # type: ignore[no-untyped-def]
        seen.append(deadline)
        return real(c, max_words, deadline)

    monkeypatch.setattr(letterboxed_design, "count_tables", spy)
    monkeypatch.setattr(difficulty, "count_tables", spy)  # the difficulty's count too
    words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    t0 = _time.perf_counter()
    g = generate_boxes(1, words, max_draws=10_000, time_limit=0.5)
    assert _time.perf_counter() - t0 < 5
    assert g.stopped in ("time_limit", None) and all(d is not None for d in seen)
    # A count whose deadline has passed stops at once.
    box = dp.as_box("abc-def-ghi-jkl")
    classes = dp.build_classes(box, LetterBoxedSolver(words).playable(box))
    with pytest.raises(dp.CountStopped):
        dp.count_tables(classes, 3, deadline=_time.perf_counter() - 1)
