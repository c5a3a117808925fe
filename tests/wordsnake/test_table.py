"""The Wordsnake table: overlaps in brackets (or colour on a terminal), columns by display width.

Capitals marked the overlaps before: ``ß`` has no one-letter capital and Japanese or Hebrew have
no case at all, and double-width letters pushed the columns out of line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from wcwidth import wcswidth

from cpwords.wordsnake.draw import LEGEND, snake_table, table_lines
from cpwords.wordsnake.rules import pair_overlap, snake_score
from tests.conftest import run_cli

GERMAN = ["grüßen", "ßen", "engel"]
JAPANESE = ["しりとり", "とりい", "いぬ", "ぬま", "まくら"]
HEBREW = ["שלב", "לבנה", "נהר"]  # no final forms at the joins (ן is not נ)


def marked(cell: str) -> tuple[str, set[int]]:
    """A word cell read back: the word, and the indices of its letters in brackets."""
    word, shared = "", set()
    for run, inside in re.findall(r"\[([^\]]*)\]|([^\[\]]+)", cell):
        part = run or inside
        if run:
            shared |= set(range(len(word), len(word) + len(part)))
        word += part
    return word, shared


def rows(order: list[str], cyclic: bool = False) -> list[tuple[str, set[int], str, str]]:
    """The table's word rows: (word, shared indices, overlap, running score)."""
    text = snake_table(order, cyclic)
    lines = text.splitlines()
    assert lines[-1] == LEGEND["brackets"]
    out = []
    for line in lines[1 : 1 + len(order)]:
        rank, cell, overlap, score = line.split()
        assert rank.isdigit()
        word, shared = marked(cell)
        out.append((word, shared, overlap, score))
    return out


def expected_shared(order: list[str], i: int, cyclic: bool) -> set[int]:
    n, w = len(order), order[i]
    before = pair_overlap(order[i - 1], w) if i or (cyclic and n > 1) else 0
    after = pair_overlap(w, order[(i + 1) % n]) if i + 1 < n or (cyclic and n > 1) else 0
    return set(range(before)) | set(range(len(w) - after, len(w)))


@pytest.mark.parametrize("order", [GERMAN, JAPANESE, HEBREW], ids=["de", "ja", "he"])
def test_overlaps_in_brackets_and_no_letter_changes_case(order: list[str]) -> None:
    got = rows(order)
    assert [w for w, *_ in got] == order  # every letter as it is: no capitals, no ß -> SS
    for i, (_, shared, _, _) in enumerate(got):
        assert shared == expected_shared(order, i, False) != set()
    assert int(got[-1][3]) == snake_score(order)


def test_grussen_shares_three_letters() -> None:
    (w1, s1, _, _), (w2, s2, ov, score) = rows(["grüßen", "ßen"])
    assert (w1, s1, w2, s2) == ("grüßen", {3, 4, 5}, "ßen", {0, 1, 2})
    assert (ov, score) == ("3", "9")
    assert "grü[ßen]" in snake_table(["grüßen", "ßen"])


@pytest.mark.parametrize("order", [GERMAN, JAPANESE, HEBREW], ids=["de", "ja", "he"])
@pytest.mark.parametrize("cyclic", [False, True])
def test_columns_line_up_by_display_width(order: list[str], cyclic: bool) -> None:
    lines = snake_table(order, cyclic).splitlines()[:-1]  # the legend is free text
    # The last two columns are right-aligned: every line ends in the same display column...
    assert len({wcswidth(line) for line in lines}) == 1, lines
    # ... and the overlap column too (each word cell padded to one display width).
    ends = {wcswidth(line[: line.rstrip().rindex(" ")].rstrip()) for line in lines}
    assert len(ends) == 1, lines


@given(
    st.lists(st.text(alphabet="abß語ש", min_size=1, max_size=5), min_size=1, max_size=6),
    st.booleans(),
)
def test_brackets_mark_exactly_the_overlaps(order: list[str], cyclic: bool) -> None:
    lines = table_lines(order, cyclic)
    assert len(lines) == 1 + len(order) + (1 if cyclic and len(order) > 1 else 0)
    for i, line in enumerate(lines[1 : 1 + len(order)]):
        cell = "".join(t for t, _ in line[1:-1])
        word, shared = marked(cell)
        assert word == order[i] and shared == expected_shared(order, i, cyclic)
        # The segments marked shared are exactly the bracketed runs.
        assert all(t.startswith("[") == s for t, s in line[1:-1])
    widths = {wcswidth("".join(t for t, _ in line)) for line in lines}
    assert len(widths) == 1


def test_colour_segments_carry_no_brackets() -> None:
    for line in table_lines(JAPANESE, brackets=False):
        assert all("[" not in t for t, _ in line)
    shared = ["".join(t for t, s in line if s) for line in table_lines(JAPANESE, brackets=False)]
    assert shared[1:3] == ["とり", "とりい"]
    assert (
        len(
            {
                wcswidth("".join(t for t, _ in line))
                for line in table_lines(JAPANESE, brackets=False)
            }
        )
        == 1
    )


def test_cli_table_brackets_when_piped_colour_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lst = tmp_path / "de.txt"
    lst.write_text("\n".join(GERMAN) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["snake", str(lst), "--time-limit", "30"], capsys)
    assert code == 0 and "grü[ßen]" in out and LEGEND["brackets"] in out
    assert "ßEN" not in out and "SS" not in out
    code, out, _ = run_cli(["snake", str(lst), "--check-text", " ".join(GERMAN)], capsys)
    assert code == 0 and "[ßen]" in out and LEGEND["brackets"] in out
    # On a terminal: the shared letters in reverse video, no brackets.
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    code, out, _ = run_cli(["snake", str(lst), "--check-text", " ".join(GERMAN)], capsys)
    assert code == 0 and "[ßen]" not in out and LEGEND["colour"] in out
    assert re.search(r"grü\x1b\[[0-9;]*7[0-9;]*mßen", out), out
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, _ = run_cli(["snake", str(lst), "--check-text", " ".join(GERMAN)], capsys)
    assert code == 0 and "grü[ßen]" in out and "\x1b[" not in out
