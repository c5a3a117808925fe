"""A list with lines that are not words (issue 35, item 17): every bad line is named at once,
and ``--skip-invalid`` leaves them out with a note; a dictionary says the same when it skips."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.lexicon import parse_lexicon_text, parse_word_lines
from tests.conftest import run_cli

BAD = "run\nit's\nnausea\na1\nseasick\n# a comment\nsick le\nlemon\n"


def test_every_bad_line_is_named_in_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "bad.txt"
    f.write_text(BAD)
    code, out, err = run_cli(["chain", str(f)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert '3 lines that are not words: line 2 "it\'s"' in err
    assert "line 4 'a1'" in err and "line 7 'sick le'" in err and "--skip-invalid" in err


def test_skip_invalid_leaves_them_out_with_the_same_words(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "bad.txt"
    f.write_text(BAD)
    code, out, err = run_cli(["chain", str(f), "--skip-invalid", "--json"], capsys)
    assert json.loads(out)["list_size"] == 4
    assert code == 0, err
    note = "cpwords: note: " + str(f) + ": left out 3 lines that are not words: line 2"
    assert note in err
    # A dictionary skips such entries and says so in the same words (its lines' first field
    # is the word: 'sick le' reads as 'sick', as the Truncate format's 'word freq score').
    code, _, err = run_cli(["truncate", "--dict", str(f)], capsys)
    assert code == 0
    assert note.replace("left out 3 lines", "left out 2 lines") in err


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["run", "a1", "it's", "lemon", "x y", "Ünï"]), min_size=1))
def test_the_count_and_the_lines_named_are_the_bad_ones(lines: list[str]) -> None:
    bad = [i for i, line in enumerate(lines, start=1) if line in ("a1", "it's", "x y")]
    text = "\n".join(lines)
    if not bad:
        assert len(parse_word_lines(text, "l")) == len(lines)
        return
    with pytest.raises(InputError) as exc:
        parse_word_lines(text, "l")
    msg = str(exc.value)
    count = len(bad)
    assert msg.startswith(f"l: {count} line{'s' if count > 1 else ''} that ")
    named = [int(n) for n in re.findall(r"line (\d+) ", msg)]
    assert named == bad[:3]
    good = len(lines) - count
    if good:
        assert len(parse_word_lines(text, "l", skip_invalid=True)) == good
        entries = sum(line in ("a1", "it's") for line in lines)  # 'x y' reads as 'x'
        assert parse_lexicon_text(text, "l", alphabet="any").skipped == entries


def test_snake_takes_the_same_option_with_the_same_note(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "bad.txt"
    f.write_text(BAD)
    code, _, err = run_cli(["snake", str(f)], capsys)
    assert code == 2 and "3 lines that are not words" in err and "--skip-invalid" in err
    code, out, err = run_cli(["snake", str(f), "--skip-invalid", "--json"], capsys)
    assert code == 0 and "left out 3 lines that are not words" in err
    assert sorted(json.loads(out)["solution"]) == sorted(["run", "nausea", "seasick", "lemon"])
