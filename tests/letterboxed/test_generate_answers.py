"""Issue 47, item 4: generated boxes whose answer a player knows.

The answer words are at or above the Zipf floor, the uniqueness is proven (and recounted here by
a plain enumeration of word pairs) on the whole lexicon, rare words included, and no box holds a
letter with its accented twin unless asked.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cpwords.core.alphabet import accent_twins, base_letter
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, wordfreq_lexicon, zipf
from cpwords.letterboxed.models.answers import (
    ANSWER_ZIPF,
    CommonPairs,
    answer_floor,
    deal_sides,
)
from cpwords.letterboxed.models.design import draw_box, draw_weights, generate_boxes
from cpwords.letterboxed.models.dp import LetterBoxedSolver
from cpwords.letterboxed.rules import LetterBox, box_script_problem, is_valid_letterboxed
from tests.conftest import clear_lexicon_caches, needs_dictionary, run_cli

#: A lexicon with words on both sides of the floors used below (Zipf about 3.3 to 7.7).
WORDS = wordfreq_lexicon(20_000)


@pytest.fixture(scope="module")
def solver() -> LetterBoxedSolver:
    return LetterBoxedSolver(WORDS)


def all_pairs(box: LetterBox, words: list[str]) -> list[tuple[str, str]]:
    """Every 2-word solution, by the plainest path: chained ordered pairs of the whole list
    through the checker (independent of the generator's DP and brute force)."""
    playable = sorted({w for w in words if _playable(box, w)})
    return [
        (a, b)
        for a, b in itertools.product(playable, repeat=2)
        if a[-1] == b[0] and not set(box.letters) <= set(a) and is_valid_letterboxed(box, [a, b])
    ]


@pytest.fixture
def fresh_dictionaries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The installed dictionaries read afresh: no lexicon or frequency table another test of the
    same worker cached (CI's parallel slow pass once gave these tests a French lexicon whose
    common-word pairs were empty: every draw rejected in 4 ms; they passed alone)."""
    from cpwords.core import frequencies, sources

    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)

    def clear() -> None:
        clear_lexicon_caches()
        frequencies._frequencies.cache_clear()
        sources.lexicon_words.cache_clear()

    clear()
    yield
    clear()


def common_words_of(lex: Lexicon, lang: str) -> int:
    """How many of ``lex``'s words an answer can be drawn from (with what was read, on failure)."""
    n = len(CommonPairs(lex.words, lang, ANSWER_ZIPF[lang], 12).words)
    assert n > 1000, (lex.source, len(lex), zipf("les", lang), n)
    return n


def _playable(box: LetterBox, w: str) -> bool:
    side = box.side_of
    return (
        len(w) >= 3
        and all(ch in side for ch in w)
        and all(side[a] != side[b] for a, b in itertools.pairwise(w))
    )


def test_unique_answers_are_common_and_unique_among_every_word(
    solver: LetterBoxedSolver,
) -> None:
    floor = 4.5  # well above the list's rarest words: uniqueness must count those too
    gen = generate_boxes(2, solver, seed=3, unique=True, min_zipf=floor, max_draws=5000)
    assert gen.complete and gen.settings["min_zipf"] == floor
    rare = [w for w in WORDS if zipf(w) < floor]
    assert len(rare) > 10_000
    for b in gen.boxes:
        assert all(zipf(w) >= floor for w in b.solution)
        assert b.answer_zipf == min(zipf(w) for w in b.solution)
        assert all_pairs(b.box, WORDS) == [tuple(b.solution)]
        assert b.unique and not accent_twins(b.box.letters)


def test_a_floor_answer_is_the_fewest_letters_of_the_common_solutions(
    solver: LetterBoxedSolver,
) -> None:
    floor = 4.0
    gen = generate_boxes(3, solver, seed=8, min_zipf=floor, max_solutions=50)
    assert gen.complete
    for b in gen.boxes:
        pairs = all_pairs(b.box, WORDS)
        common = [p for p in pairs if min(zipf(w) for w in p) >= floor]
        assert tuple(b.solution) in common
        assert sum(map(len, b.solution)) == min(len(x) + len(y) for x, y in common)
        assert b.letters == min(len(x) + len(y) for x, y in pairs)  # the whole list's optimum
        assert b.counts[1] == len(pairs)


def test_no_floor_draws_letters_by_frequency_as_before(solver: LetterBoxedSolver) -> None:
    gen = generate_boxes(2, solver, seed=1, min_zipf=0)
    assert gen.complete and gen.settings["min_zipf"] == 0
    assert all(b.answer_zipf is None for b in gen.boxes)


def test_the_floor_table_and_its_rule() -> None:
    assert {lang: answer_floor(lang) for lang in ANSWER_ZIPF} == ANSWER_ZIPF
    assert answer_floor("it") == 3.0 and answer_floor("xx") == 0.0
    assert answer_floor("de", 2.5) == 2.5 and answer_floor("en", 0) == 0.0
    for bad in (-1, 9, math.nan, math.inf):
        with pytest.raises(InputError):
            answer_floor("en", bad)


def test_accent_twins_by_base_letter() -> None:
    assert base_letter("ó") == "o" and base_letter("ñ") == "n" and base_letter("ß") == "ß"
    assert accent_twins("oóa") == [("o", "ó")]
    assert accent_twins("åäöa") == [("a", "ä", "å")]
    assert accent_twins("abc") == []


def test_letter_draws_leave_out_accent_twins_unless_asked() -> None:
    words = ["éléphant", "été", "élève", "façade", "noël", "où", "crème", "forêt", "août", "ça"]
    words += ["abcdefghijklmnopqrstuvwxyz"]
    weights = draw_weights(LetterBoxedSolver(words), "fr")
    rng = np.random.default_rng(0)
    boxes = [draw_box(rng, weights, allow_accent_twins=False) for _ in range(200)]
    assert not any(accent_twins(b.letters) for b in boxes)
    rng = np.random.default_rng(0)
    boxes = [draw_box(rng, weights) for _ in range(200)]
    assert any(accent_twins(b.letters) for b in boxes)  # the draws do hold twins otherwise


def test_common_pairs_leave_out_accent_twins_unless_asked() -> None:
    words = ["pâté", "étage", "hôtel", "lundi", "idée", "élan", "nation"]
    kept = {w for w, _ in CommonPairs(words, "fr", 0.0, 12).words}
    assert "pâté" in kept and "idée" not in kept  # idée: é with e
    assert "idée" in {w for w, _ in CommonPairs(words, "fr", 0.0, 12, accent_twins=True).words}


def test_a_deal_makes_both_words_playable() -> None:
    rng = np.random.default_rng(5)
    for a, b in [("bechfag", "gjdkil"), ("quake", "enlightenment"), ("jump", "prohibited")]:
        box = deal_sides([a, b], (4, 3), rng)
        if len(set(a + b)) == 12:
            assert box is not None and is_valid_letterboxed(box, [a, b])
        else:
            assert box is None


@pytest.mark.slow
@pytest.mark.parametrize(
    "lang", [pytest.param(lang, marks=needs_dictionary(lang)) for lang in ("fr", "de", "es")]
)
def test_default_boxes_of_a_language_have_no_accent_twins(
    lang: str, fresh_dictionaries: None
) -> None:
    from cpwords.letterboxed.models.dp import whole_lexicon

    lex = whole_lexicon(lang)
    common_words_of(lex, lang)
    gen = generate_boxes(3, lex, seed=2, unique=True, lang=lang)
    assert gen.complete
    for b in gen.boxes:
        assert not accent_twins(b.box.letters)
        assert min(zipf(w, lang) for w in b.solution) >= ANSWER_ZIPF[lang]
        assert all_pairs(b.box, list(lex.words)) == [tuple(b.solution)]


# ----------------------------------------------------------------------------- the command


@pytest.fixture
def common_list(tmp_path: Path) -> str:
    f = tmp_path / "words.txt"
    f.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return str(f)


def test_the_command_floor_and_json_keys(
    common_list: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["letterboxed", "--generate", "2", "--dict", common_list, "--min-zipf", "4", "--json"]
    code, out, _ = run_cli(argv, capsys)
    row = json.loads(out)
    assert code == 0 and row["min_zipf"] == 4.0 and row["allow_accent_twins"] is False
    for b in row["boxes"]:
        assert b["answer_zipf"] >= 4.0 and all(zipf(w) >= 4.0 for w in b["solution"])
    code, out, _ = run_cli([*argv[:-3], "--min-zipf", "0", "--json"], capsys)
    assert code == 0 and all(b["answer_zipf"] is None for b in json.loads(out)["boxes"])


@pytest.mark.parametrize(
    "args",
    [
        ["abc-def-ghi-jkl", "--min-zipf", "3"],
        ["abc-def-ghi-jkl", "--allow-accent-twins"],
        ["--generate", "1", "--min-zipf", "nan"],
        ["--generate", "1", "--min-zipf", "9"],
        ["--generate", "1", "--min-zipf", "-1"],
    ],
)
def test_the_command_refuses_bad_floors_in_one_line(
    common_list: str, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["letterboxed", *args, "--dict", common_list], capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("cpwords: error: "), err


def test_a_box_outside_the_language_script_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    box = LetterBox(("tae", "lin", "orc", "gsu"))
    assert box_script_problem(box, "ja") is not None
    assert box_script_problem(box, "fr") is None and box_script_problem(box, "xx") is None
    assert box_script_problem(LetterBox(("абв", "где", "жзи", "йкл")), "ru") is None
    code, out, err = run_cli(["letterboxed", "tae-lin-orc-gsu", "--lang", "ja"], capsys)
    assert code == 2 and not out and err.count("\n") == 1
    assert "LATIN" in err and "--lang ja" in err


def test_the_help_says_what_the_default_dictionary_is(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 47, item 6: the help said "100,000 most common words" as if an option set it.
    code, out, _ = run_cli(["letterboxed", "--help"], capsys)
    text = " ".join(out.split())
    assert code == 0 and "--top" not in text
    assert "a fixed cut, no option changes it" in text and "--generate reads all of it" in text
    assert "--min-zipf Z" in text and "--allow-accent-twins" in text


@pytest.mark.slow
@needs_dictionary("fr")
def test_generation_reads_the_whole_dictionary(
    capsys: pytest.CaptureFixture[str], fresh_dictionaries: None
) -> None:
    from cpwords.letterboxed.models.dp import DEFAULT_LEXICON_SIZE, whole_lexicon

    common_words_of(whole_lexicon("fr"), "fr")

    argv = ["letterboxed", "--generate", "1", "--unique", "--lang", "fr", "--json"]
    code, out, _ = run_cli(argv, capsys)
    row = json.loads(out)
    whole = whole_lexicon("fr")
    assert code == 0 and row["lexicon"] == whole.source == "wfrench"
    assert row["lexicon_size"] == len(whole) > DEFAULT_LEXICON_SIZE
    (box,) = row["boxes"]
    assert all_pairs(LetterBox(tuple(box["box"].split("-"))), list(whole.words)) == [
        tuple(box["solution"])
    ]


def test_ctrl_c_while_the_common_words_are_read_is_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C before the first draw (reading the common words under load, seen in CI) ends the
    generation like one during the draws: no box, ``stopped`` "interrupted", not an exception."""
    from cpwords.letterboxed.models import design

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(design, "CommonPairs", interrupted)
    monkeypatch.setattr(design, "draw_weights", interrupted)
    words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    for floor in (0.0, 3.0):
        gen = design.generate_boxes(2, words, min_zipf=floor, max_draws=5)
        assert gen.stopped == "interrupted" and gen.boxes == () and not gen.complete
