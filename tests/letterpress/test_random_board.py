"""Random Letterpress boards drawn by the dictionary's own letter frequencies (issue 20)."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cpwords.cli import main
from cpwords.core.errors import InputError
from cpwords.core.languages import language_words
from cpwords.core.lexicon import letter_frequencies
from cpwords.letterpress.rules import can_spell
from cpwords.letterpress.spec import random_letterpress_board
from tests.conftest import needs_dictionary

WORDS = ["cat", "act", "taco", "coats", "moon", "noon", "zoom", "quiz", "jazz", "mood"]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(d))
    return d


@pytest.fixture(scope="module")
def french() -> list[str]:
    """The 20,000 most common words of wfrench (a list with accents)."""
    return language_words("fr", 20000)


@pytest.mark.parametrize("seed", range(8))
def test_letters_come_only_from_the_lexicon(seed: int) -> None:
    alphabet = set("".join(WORDS))
    board = random_letterpress_board(WORDS, seed=seed)
    assert len(board) == 25 and set(board) <= alphabet
    assert len(random_letterpress_board(WORDS, size=7, seed=seed)) == 7


def test_seeds_reproduce_and_differ() -> None:
    boards = [random_letterpress_board(WORDS, seed=s) for s in range(5)]
    assert boards == [random_letterpress_board(WORDS, seed=s) for s in range(5)]
    assert len(set(boards)) == 5
    # a generator is drawn from (its state advances): the same as the seed's first board
    rng = np.random.default_rng(3)
    assert random_letterpress_board(WORDS, seed=rng) == boards[3]
    assert random_letterpress_board(WORDS, seed=rng) != boards[3]


@pytest.mark.slow
@needs_dictionary("fr")
def test_french_boards_hold_accents_unless_folded(french: list[str]) -> None:
    accented = {ch for ch in "".join(french) if unicodedata.decomposition(ch)}
    assert accented  # é, è, à, ç...
    board = random_letterpress_board(french, size=400, seed=0, lang="fr")
    assert set(board) & accented
    folded = random_letterpress_board(french, size=400, seed=0, lang="fr", fold=True)
    assert len(folded) == 400
    assert not [ch for ch in folded if unicodedata.decomposition(ch)]


def test_letters_follow_the_lexicon_frequencies() -> None:
    words = ["aaab", "aab", "acc", "ad", "ab"]  # a: 8 of the 14 letters, b: 3, c: 2, d: 1
    want = letter_frequencies(words)
    assert want == {"a": 8 / 14, "b": 3 / 14, "c": 2 / 14, "d": 1 / 14}
    n = 20000
    got = Counter(random_letterpress_board(words, size=n, seed=11))
    for ch, p in want.items():
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(got[ch] / n - p) < 6 * sd, (ch, got[ch] / n, p)  # within 6 sigma


def test_api_rejects_bad_arguments() -> None:
    with pytest.raises(InputError):
        random_letterpress_board(WORDS, size=0)
    with pytest.raises(InputError):
        random_letterpress_board(WORDS, seed=-1)
    with pytest.raises(InputError):
        random_letterpress_board(["123"])


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    code = 0 if exc.value.code is None else int(exc.value.code)
    return code, json.loads(capsys.readouterr().out)


def test_cli_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "w.txt"
    f.write_text("\n".join(WORDS) + "\n")
    argv = ["letterpress", "--random-board", "--dict", str(f), "--seed", "5", "--json"]
    code, out = _json(argv, capsys)
    letters = out["letters"]
    assert isinstance(letters, str) and letters == random_letterpress_board(WORDS, seed=5)
    assert out["random_board"] is True and out["seed"] == 5
    spelled = sorted(w for w in WORDS if can_spell(w, letters))
    assert sorted(out["solution"]) == spelled  # type: ignore[call-overload]
    assert out["count"] == len(spelled) and code == (0 if spelled else 1)
    assert _json(argv, capsys)[1]["letters"] == letters  # the same seed, the same board
    _, other = _json([*argv[:-2], "6", "--json"], capsys)
    assert other["letters"] != letters and other["seed"] == 6
    # given letters: not random, no seed
    _, given = _json(["letterpress", "tacos", "--dict", str(f), "--json"], capsys)
    assert given["random_board"] is False and given["seed"] is None


def test_cli_text_and_best_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "w.txt"
    f.write_text("\n".join(WORDS) + "\n")
    with pytest.raises(SystemExit):
        main(["letterpress", "--random-board", "--dict", str(f), "--seed", "2"])
    rows = random_letterpress_board(WORDS, seed=2)
    assert "/".join(rows[i : i + 5] for i in range(0, 25, 5)) in capsys.readouterr().out
    colours = "bbbbb/...../...../...../rrrrr"
    argv = ["letterpress", "--random-board", "--board", colours, "--dict", str(f)]
    _, out = _json([*argv, "--seed", "2", "--json"], capsys)
    assert out["letters"] == rows and out["random_board"] is True and out["seed"] == 2
    word = out["word"]
    assert word is None or (isinstance(word, str) and can_spell(word, rows))


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["abc", "--random-board"],
        ["--random-board", "--seed", "-1"],
        ["--random-board", "--lang", "xx"],
        ["--random-board", "--board", "bbb"],
    ],
    ids=["no-letters", "letters-and-random", "negative-seed", "unknown-lang", "bad-colours"],
)
def test_bad_input_exits_2_with_one_line(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "w.txt"
    f.write_text("\n".join(WORDS) + "\n")
    with pytest.raises(SystemExit) as exc:
        main(["letterpress", *args, "--dict", str(f)])
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert not out and len(lines) == 1 and lines[0].startswith("cpwords: error:"), err
