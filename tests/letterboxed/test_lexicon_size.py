"""Letter Boxed's ``lexicon_size`` counts the lexicon's words, as every subcommand's does; the
words of 3+ letters (the only ones a box can use) are ``lexicon_size_3plus`` (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

WORDS = ["ab", "cd", "bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]


@pytest.fixture
def word_file(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return path


def test_lexicon_size_counts_every_word_and_3plus_those_a_box_can_use(
    word_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        ["letterboxed", "abc-def-ghi-jkl", "--dict", str(word_file), "--json"], capsys
    )
    row = json.loads(out)
    assert code == 0
    assert row["lexicon_size"] == len(WORDS)
    assert row["lexicon_size_3plus"] == sum(len(w) >= 3 for w in WORDS)
    code, out, _ = run_cli(["truncate", "--dict", str(word_file), "--json"], capsys)
    assert json.loads(out)["lexicon_size"] == row["lexicon_size"]  # the same count everywhere


def test_the_text_names_both_counts(word_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["letterboxed", "abc-def-ghi-jkl", "--dict", str(word_file)], capsys)
    assert code == 0
    assert f"({len(WORDS)} words, {sum(len(w) >= 3 for w in WORDS)} of 3+ letters)" in out
