"""Where the real data is looked for, and how CI hides it (a fresh machine has none)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpwords.core.errors import InputError
from cpwords.core.lexicon import shared_data_dir


def test_cpwords_data_names_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path


@pytest.mark.parametrize("value", ["none", "/nonexistent/shared/data"])
def test_cpwords_data_naming_no_folder_hides_the_shared_data(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, a value naming no folder fell through to ../shared/data, so CI could not run the
    # tests as a fresh machine would.
    monkeypatch.setenv("CPWORDS_DATA", value)
    assert shared_data_dir() is None


def test_a_line_separator_inside_a_line_is_not_a_line_break() -> None:
    from cpwords.core.lexicon import parse_word_lines

    for sep in ("\u2028", "\u2029", "\x85", "\x0c"):
        with pytest.raises(InputError, match="line 2"):
            parse_word_lines(f"run\nab{sep}cd\n", "w.txt")
    assert parse_word_lines("run\r\nab\rcd\n", "w.txt") == ["run", "ab", "cd"]


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85", "\x0c", "\u00a0", "\u3000"])
def test_a_dict_line_with_a_separator_inside_is_not_cut_silently(
    sep: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Issue 48: "ab<U+2028>cd" in a --dict file was read as "ab" (the first field of
    # str.split(), which splits at any Unicode space): now the line is left out, and said so.
    from cpwords.core.lexicon import load_dictionary

    f = tmp_path / "d.txt"
    f.write_text(f"cat\nab{sep}cd\ndog 12 3.5\nefg\tx\n", encoding="utf-8")
    with caplog.at_level("WARNING", logger="cpwords"):
        lex = load_dictionary(f)
    assert lex.words == ("cat", "dog", "efg") and lex.skipped == 1
    assert "line 2" in caplog.text and "left out 1 line" in caplog.text


def test_folding_says_what_it_folded(caplog: pytest.LogCaptureFixture) -> None:
    from cpwords.core.lexicon import parse_word_lines

    with caplog.at_level("WARNING", logger="cpwords"):
        words = parse_word_lines("été\nete\nnoël\nकुछ\n", "w.txt", fold=True)
    assert words == ["ete", "ete", "noel", "कुछ"]  # the Devanagari vowel sign is a letter
    assert "accents folded in 2 of 4 words (é -> e 2, ë -> e 1)" in caplog.text
    assert "1 now the same as another word" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="cpwords"):
        parse_word_lines("run\nकुछ\n", "w.txt", fold=True)
    assert "folded" not in caplog.text


def test_a_long_language_code_is_quoted_short() -> None:
    from cpwords.core.lexicon import check_language_code

    with pytest.raises(InputError) as err:
        check_language_code("x" * 100_000)
    assert len(str(err.value)) < 200 and "100,000 characters" in str(err.value)
