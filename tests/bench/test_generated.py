"""The README's Wordsnake study tables are generated from the recorded study rows."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "readme_results", ROOT / "benchmarks" / "readme_results.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_readme_block_matches_the_recorded_studies() -> None:
    mod = _module()
    text = (ROOT / "README.md").read_text("utf-8")
    a, b = text.index(mod.START), text.index(mod.END)
    assert text[a : b + len(mod.END)] == mod.block(), "run python benchmarks/readme_results.py"


def test_rewriting_is_idempotent_and_uses_only_proven_optima(tmp_path: Path) -> None:
    mod = _module()
    rows_file = tmp_path / "benchmarks/results/wordsnake-hard/wordsnake-hard.jsonl"
    rows_file.parent.mkdir(parents=True)
    base = {"puzzle": "wordsnake", "started_at": "2026-01-02T00:00:00", "time_limit": 10}
    rows = [
        {**base, "instance": "a", "method": "auto", "kind": "exact", "status": "OPTIMAL",
         "objective": 100, "wall_time": 0.5, "size": 10},
        {**base, "instance": "b", "method": "auto", "kind": "exact", "status": "FEASIBLE",
         "objective": 50, "wall_time": 10.0, "size": 20},
        {**base, "instance": "a", "method": "greedy", "kind": "heuristic", "status": "FEASIBLE",
         "objective": 90, "wall_time": 0.1, "size": 10},
        {**base, "instance": "b", "method": "greedy", "kind": "heuristic", "status": "FEASIBLE",
         "objective": 10, "wall_time": 0.1, "size": 20},
    ]  # fmt: skip
    rows_file.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{mod.START}\nold\n{mod.END}\noutro\n", "utf-8")
    assert mod.rewrite(readme, tmp_path) is True
    once = readme.read_text("utf-8")
    assert mod.rewrite(readme, tmp_path) is False and readme.read_text("utf-8") == once
    assert once.startswith("intro\n") and once.endswith("outro\n") and "old" not in once
    assert "| `auto` (10 s) | 1/2 | 0.50 s / 0.50 s | 10 |" in once
    # Instance b has no proven optimum: greedy is scored on a only (90 %).
    assert "| `greedy` (heuristic) | 90.00 % / 90.00 % | 0/1 |" in once
