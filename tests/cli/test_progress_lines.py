"""The progress line of the long stages (issue 47, item 5): ``chain``, ``grid --unique`` and
``letterboxed --generate`` report their stage and counts (CPWORDS_PROGRESS=lines: plain
lines; on a terminal one line updated in place, no spinner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cpwords.cli import main
from cpwords.cli._common import LINE_EVERY, LineTicker, Ticker, progress

POKEMON = Path(__file__).parents[1] / "chain" / "pokemon70.txt"


def run(
    capsys: pytest.CaptureFixture[str], *args: str, codes: tuple[int, ...] = (0,)
) -> tuple[dict, list[str]]:
    """The JSON row of a command and its progress lines (its exit status one of ``codes``)."""
    with pytest.raises(SystemExit) as exc:
        main([*args, "--json"])
    out, err = capsys.readouterr()
    assert (exc.value.code or 0) in codes, err
    lines = [x for x in err.splitlines() if x.startswith("cpwords: progress: ")]
    return json.loads(out), lines


@pytest.fixture(autouse=True)
def _lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CPWORDS_PROGRESS", "lines")


def test_grid_unique_says_the_classes_counted(capsys: pytest.CaptureFixture[str]) -> None:
    # Exit 1 where no unique puzzle is found (without wamerican, in the README's fast tests).
    row, lines = run(capsys, "grid", "--unique", "--top", "5000", codes=(0, 1))
    counting = [re.search(r"counting: ([\d,]+) of ([\d,]+) classes$", x) for x in lines]
    said = [(int(m[1].replace(",", "")), int(m[2].replace(",", ""))) for m in counting if m]
    assert said, lines
    assert all(of == row["counts"]["classes"] and 1 <= done <= of for done, of in said)
    assert len(said) < row["counts"]["classes"] or len(said) == 1  # not a line per class


def test_letterboxed_generate_says_the_boxes_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    row, lines = run(capsys, "letterboxed", "--generate", "2", "--seed", "3")
    drawing = [re.search(r"drawing: ([\d,]+) drawn, (\d+) of 2 found$", x) for x in lines]
    said = [(int(m[1].replace(",", "")), int(m[2])) for m in drawing if m]
    assert said, lines
    assert all(d <= row["draws"] and f <= row["found"] and f <= d for d, f in said)


def test_chain_says_its_stages_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    row, lines = run(capsys, "chain", str(POKEMON), "--skip-invalid")
    stages = [x.rsplit(": ", 1)[-1] for x in lines]
    rounds = [int(m[1]) for s in stages if (m := re.match(r"cut round (\d+), [\d,]+ cuts", s))]
    assert stages.index("starting search") < stages.index("cut round 1, 0 cuts")
    assert rounds == list(range(1, len(rounds) + 1)) and len(rounds) <= row["solver_info"]["rounds"]
    assert row["status"] == "OPTIMAL" and stages[-1] == "certificate"


def test_counts_lines_are_few_and_a_new_stage_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    ticker = LineTicker("job")
    for i in range(1000):  # far under LINE_EVERY seconds: the first counts only
        ticker.update(stage="one", counts=f"{i} done")
    ticker.update(stage="two", counts="0 done")
    err = capsys.readouterr().err.splitlines()
    assert LINE_EVERY >= 0.5
    assert err == ["cpwords: progress: job: one: 0 done", "cpwords: progress: job: two: 0 done"]
    assert ticker.counts == "0 done" and "two: 0 done" in Ticker.text(ticker)


def test_a_new_stage_starts_without_the_old_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CPWORDS_PROGRESS")
    with progress("job", spinner=False) as tick:  # stderr is no terminal here: silent
        tick.update(stage="drawing", counts="5 drawn")
        assert tick.text().startswith("job  drawing: 5 drawn  ")
        tick.update(stage="counting")
        assert "drawn" not in tick.text() and tick.counts is None
