"""benchmarks/audit_lists.py: the lists are the seed's, within the issue's sizes, and a short
audit runs the command line and counts its answers."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def mod(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    sys.modules.pop("audit_lists", None)
    return importlib.import_module("audit_lists")


def test_the_lists_are_the_seeds_and_of_the_issues_sizes(mod: ModuleType) -> None:
    lists = mod.draw_lists(202612071026, 40)
    assert lists == mod.draw_lists(202612071026, 40) != mod.draw_lists(202612071027, 40)
    assert all(56 <= len(words) <= 296 for words, _ in lists)
    assert all(set("".join(words)) <= set("abc") for words, _ in lists)
    assert all(2 <= len(w) <= 8 for words, _ in lists for w in words)
    assert 0 < sum(cyclic for _, cyclic in lists) < 40


@pytest.mark.slow
def test_a_short_audit_counts_every_answer(
    mod: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    code = mod.main(["--seed", "5", "--lists", "2", "--time-limit", "30"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == {"seed": 5} and len(lines) == 4
    rows, summary = lines[1:3], lines[3]
    assert summary["lists"] == 2 and summary["optimal"] == sum(
        r["status"] == "OPTIMAL" for r in rows
    )
    assert code == (0 if summary["optimal"] == 2 else 1)
    for r in rows:  # an OPTIMAL answer is proven: its bound is its score
        assert r["status"] != "OPTIMAL" or (r["objective"] == r["bound"] and r["gap"] == 0)
