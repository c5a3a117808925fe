"""benchmarks/compare.py pairs two runs of a suite by task and reports what changed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("compare", ROOT / "benchmarks" / "compare.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


def test_the_report_pairs_tasks_and_counts_agreements(tmp_path: Path) -> None:
    base = {"suite": "tiny", "method": "auto", "status": "OPTIMAL"}
    old = _write(tmp_path / "old.jsonl", [
        {**base, "instance": "a", "objective": 10.0, "bound": 10.0, "wall_time": 2.0},
        {**base, "instance": "b", "objective": 7.0, "bound": 7.0, "wall_time": 1.0},
        {**base, "instance": "c", "objective": 1.0, "bound": 1.0, "wall_time": 1.0},
    ])  # fmt: skip
    new = _write(tmp_path / "new.jsonl", [
        {**base, "instance": "a", "objective": 10.0, "bound": 10.0, "wall_time": 1.0},
        {**base, "instance": "b", "status": "FEASIBLE", "objective": 6.0, "bound": 7.0,
         "wall_time": 4.0},
    ])  # fmt: skip
    text = _module().report(old, new, "1111111", "2222222", title="Tiny")
    assert text.startswith("# Tiny\n") and "1111111" in text and "2222222" in text
    a_line = "| a | auto | OPTIMAL / OPTIMAL | 10 / 10 | 10 / 10 | yes | yes | 2 s | 1 s | 0.50 |"
    assert a_line in text
    assert "| b | auto | OPTIMAL / FEASIBLE | 7 / 6 | 7 / 7 | **no** | yes |" in text
    assert "- Tasks paired: 2 (only in old: 1, only in new: 0)." in text
    assert "- Same answer (status and objective): 1/2." in text
    assert "- Same bound: 2/2." in text
    assert "- Time ratio new / old: median 2.25 (min 0.50, max 4.00, over 2 tasks)." in text


def test_the_command_prints_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = {"suite": "tiny", "instance": "a", "method": "auto", "status": "OPTIMAL",
           "objective": 3, "bound": 3, "wall_time": 1.0}  # fmt: skip
    old, new = _write(tmp_path / "o.jsonl", [row]), _write(tmp_path / "n.jsonl", [row])
    assert _module().main([str(old), str(new), "--old-commit", "x", "--new-commit", "y"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# tiny: x against y\n")
    assert "- Same answer (status and objective): 1/1." in out
