"""Issue 30: English defaults without proper nouns (Letter Boxed; the grid's ``common_tokens``).

The default English lexicon is a dictionary's words ranked by frequency: ``wamerican`` where it
is installed, Webster's 2nd (``web2``, the ``english-words`` package) where it is not, never
wordfreq's own list (whose top words hold names such as ``khadija``). The answers of a small
run are checked to be words of the dictionary they came from, on a fixture ``wamerican``, on
the fallback (no dictionary installed, as CI's fresh-machine run) and on the real one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import clear_lexicon_caches, needs_dictionary, run_cli

_run = run_cli
_clear_caches = clear_lexicon_caches


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    _clear_caches()
    yield
    _clear_caches()


#: A tiny wamerican: the box abc-def-ghi-jkl takes the 2 words bechfag-gjdkil, or the one
#: proper noun Adgjbehkcfil.
TINY_AMERICAN = "bechfag\ngjdkil\nAdgjbehkcfil\nhouse\n"


@pytest.fixture
def tiny_american(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> set[str]:
    d = tmp_path / "dict"
    d.mkdir()
    (d / "american-english").write_text(TINY_AMERICAN, encoding="utf-8")
    monkeypatch.setenv("CPWORDS_DICT_DIR", str(d))
    return {w for w in TINY_AMERICAN.split() if w.islower()}


@pytest.fixture
def no_dictionary(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """No dictionary installed: the lower-case entries of web2 (its words, proper nouns out)."""
    from english_words import get_english_words_set

    monkeypatch.setenv("CPWORDS_DICT_DIR", "none")
    web2 = get_english_words_set(["web2"], alpha=True, lower=False)
    return {w for w in web2 if w.islower()}


def test_letter_boxed_reads_wamerican_without_proper_nouns(
    tiny_american: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["letterboxed", "abc-def-ghi-jkl", "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["lexicon"] == "wamerican top 100,000"
    assert res["solution"] and set(res["solution"]) <= tiny_american
    code, out, _ = _run(["letterboxed", "abc-def-ghi-jkl", "--json", "--proper-nouns"], capsys)
    res = json.loads(out)
    assert res["solution"] == ["adgjbehkcfil"]  # the one proper noun, asked for
    assert res["lexicon"] == "wamerican top 100,000 with proper nouns"


def test_without_wamerican_letter_boxed_says_it_reads_web2(
    no_dictionary: set[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(["letterboxed", "abc-def-ghi-jkl", "--json"], capsys)
    res = json.loads(out)
    assert code == 0
    assert (
        res["lexicon"].startswith("web2 top 100,000")
        and "apt-get install wamerican" in (res["lexicon"])
    )
    assert res["solution"] and set(res["solution"]) <= no_dictionary


def test_without_wamerican_the_grid_reads_web2_words(no_dictionary: set[str]) -> None:
    from cpwords.grid.rules import common_tokens

    tokens = common_tokens(3000)
    assert tokens.source.startswith("web2 top 3,000")
    assert tokens.words and set(tokens.words) <= no_dictionary


@needs_dictionary("en")
def test_real_letter_boxed_answer_is_wamerican_words(capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.core.dictionaries import dictionary_lexicon

    code, out, _ = _run(["letterboxed", "abc-def-ghi-jkl", "--json"], capsys)
    res = json.loads(out)
    assert code == 0 and res["lexicon"] == "wamerican top 100,000"
    words = set(dictionary_lexicon("en").words)  # proper nouns out
    assert set(res["solution"]) <= words
    assert "khadija" not in res["solution"]  # wordfreq's answer was GBF-FLECK-KHADIJA
