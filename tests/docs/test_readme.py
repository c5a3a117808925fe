"""The README is the front door: one screen of what cpwords is, how to start, one example per
puzzle and the recorded results (its examples are run by test_examples, its results table is
compared with the record by cpwords report --readme --check)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_reads_in_at_most_150_lines_without_issue_numbers() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert not re.search(r"\bissue \d+", text, flags=re.IGNORECASE)


def test_the_readme_shows_the_two_quick_start_commands_and_every_puzzle() -> None:
    text = README.read_text(encoding="utf-8")
    assert ".venv/bin/pip install -q -e '.[test]' && .venv/bin/cpwords snake" in text
    assert ".venv/bin/python -m pytest -n auto" in text
    for puzzle in ("snake", "truncate", "letterpress", "letterboxed", "grid"):
        assert f"cpwords {puzzle} " in text, puzzle
