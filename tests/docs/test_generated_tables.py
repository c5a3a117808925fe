"""The Wordsnake guide's whole-dictionary table is generated from the recorded study rows (as the
README's tables are), so it cannot drift from them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "guide_results", ROOT / "benchmarks" / "guide_results.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_guide_table_matches_the_recorded_rows() -> None:
    assert _module().current(), "run python benchmarks/guide_results.py"


def _row(instance: str, day: str, time: float, size: int = 100) -> dict[str, object]:
    return {"puzzle": "wordsnake", "kind": "exact", "method": "auto", "instance": instance,
            "status": "OPTIMAL", "objective": 1234.0, "size": size, "wall_time": time,
            "peak_memory_mb": 2048.0, "started_at": f"{day}T00:00:00+00:00"}  # fmt: skip


def test_the_newest_run_of_each_list_is_shown_and_rewriting_is_idempotent(tmp_path: Path) -> None:
    mod = _module()
    old, new = (tmp_path / rows for rows, _ in mod.STUDIES)
    for path, rows in (
        (old, [_row("enable1-whole", "2026-01-01", 19.0), _row("enable1-sample-n20000-seed1",
               "2026-01-01", 1.0, 20000), _row("enable1-sample-n20000-seed2", "2026-01-01",
               3.0, 20000)]),
        (new, [_row("enable1-whole", "2026-02-01", 2.5)]),
    ):  # fmt: skip
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    page = tmp_path / "guide.md"
    page.write_text(f"- item\n\n  {mod.START}\n  old\n  {mod.END}\nend\n", "utf-8")
    assert mod.rewrite(page, tmp_path) is True
    once = page.read_text("utf-8")
    assert mod.rewrite(page, tmp_path) is False and mod.current(page, tmp_path)
    assert "old" not in once and once.endswith("end\n")
    assert "| 2.50 s | 2.00 GiB | [2026-02-01]" in once and "19.0 s" not in once
    assert "| 2/2 proven | min-cost flow | 2.00 s |" in once  # the median of 1 s and 3 s
    assert all(line.startswith("  ") or not line for line in once.splitlines()[2:-1])
