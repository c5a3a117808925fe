"""Issue 47: a count of one is singular where the command line prints counts (`1 word`, not
`1 words`; `1 play`; `the last 1 letter`), many are plural."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpwords.chain.rules import chain_problems
from tests.conftest import run_cli


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))


def words_file(tmp_path: Path, *words: str) -> str:
    f = tmp_path / "w.txt"
    f.write_text("".join(w + "\n" for w in words), encoding="utf-8")
    return str(f)


def test_letterpress_says_one_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["letterpress", "tac", "--dict", words_file(tmp_path, "cat")], capsys)
    assert code == 0 and out.startswith(f"1 word from 'tac' in {tmp_path / 'w.txt'} (1 word);")
    f = words_file(tmp_path, "cat", "act", "dog")
    code, out, _ = run_cli(["letterpress", "tac", "--dict", f], capsys)
    assert code == 0 and out.startswith("2 words from 'tac' in ") and "(3 words);" in out


def test_truncate_says_one_play_and_one_sequence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(["truncate", "--dict", words_file(tmp_path, "a")], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].endswith("(1 word)")
    assert lines[2] == "length      1 play (proven longest: exhaustive DP)"
    assert lines[3] == "count       1 distinct longest sequence"
    code, out, _ = run_cli(["truncate", "--dict", words_file(tmp_path, "a", "i", "at")], capsys)
    lines = out.splitlines()
    assert lines[0].endswith("(3 words)") and lines[2].startswith("length      2 plays")
    assert lines[3] == "count       1 distinct longest sequence"


def test_chain_checker_says_the_last_letter() -> None:
    (problem,) = chain_problems(["ab", "cd"], {"ab", "cd"}, 1)
    assert problem == "link 1: 'cd' does not begin with 'b', the last 1 letter of 'ab'"
    (problem,) = chain_problems(["abc", "cde"], {"abc", "cde"}, 2)
    assert problem.endswith("the last 2 letters of 'abc'")


def test_chain_check_counts_one_word(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = words_file(tmp_path, "ab")
    code, out, _ = run_cli(["chain", f, "--check-text", "ab"], capsys)
    assert code == 0 and out.strip() == "valid: ab (1 word, 2 letters)"
