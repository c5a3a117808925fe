"""The README's Wordsnake study tables and the Wordsnake guide's whole-dictionary table are
generated from the recorded study rows (cpwords.bench.generated, ``cpwords report --readme``),
so they cannot drift from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpwords.bench import generated
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", generated.PAGES, ids=lambda p: p.path)
def test_the_pages_tables_match_the_recorded_rows(page: generated.Page) -> None:
    assert page.current(ROOT), "run cpwords report --readme"


def _write(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")


def test_the_readme_uses_only_proven_optima_and_rewriting_is_idempotent(tmp_path: Path) -> None:
    base = {"puzzle": "wordsnake", "started_at": "2026-01-02T00:00:00", "time_limit": 10}
    _write(
        tmp_path / "benchmarks/results/wordsnake-hard/wordsnake-hard.jsonl",
        [
            {
                **base,
                "instance": "a",
                "method": "auto",
                "kind": "exact",
                "status": "OPTIMAL",
                "objective": 100,
                "wall_time": 0.5,
                "size": 10,
            },
            {
                **base,
                "instance": "b",
                "method": "auto",
                "kind": "exact",
                "status": "FEASIBLE",
                "objective": 50,
                "wall_time": 10.0,
                "size": 20,
            },
            {
                **base,
                "instance": "a",
                "method": "greedy",
                "kind": "heuristic",
                "status": "FEASIBLE",
                "objective": 90,
                "wall_time": 0.1,
                "size": 10,
            },
            {
                **base,
                "instance": "b",
                "method": "greedy",
                "kind": "heuristic",
                "status": "FEASIBLE",
                "objective": 10,
                "wall_time": 0.1,
                "size": 20,
            },
        ],
    )
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{generated.README.start}\nold\n{generated.README.end}\noutro\n")
    assert not generated.README.current(tmp_path)
    assert generated.README.rewrite(tmp_path) is True
    once = readme.read_text("utf-8")
    assert generated.README.rewrite(tmp_path) is False and readme.read_text("utf-8") == once
    assert generated.README.current(tmp_path)
    assert once.startswith("intro\n") and once.endswith("outro\n") and "old" not in once
    assert generated.NOTE in once
    assert "| `auto` (10 s) | 1/2 | 0.50 s / 0.50 s | 10 |" in once
    # Instance b has no proven optimum: greedy is scored on a only (90 %).
    assert "| `greedy` (heuristic) | 90.00 % / 90.00 % | 0/1 |" in once
    # The note line is wording: another one leaves the tables current.
    readme.write_text(once.replace(generated.NOTE, "Made by hand."))
    assert generated.README.current(tmp_path)


def _row(instance: str, day: str, time: float, size: int = 100) -> dict[str, object]:
    return {
        "puzzle": "wordsnake",
        "kind": "exact",
        "method": "auto",
        "instance": instance,
        "status": "OPTIMAL",
        "objective": 1234.0,
        "size": size,
        "wall_time": time,
        "peak_memory_mb": 2048.0,
        "started_at": f"{day}T00:00:00+00:00",
    }


def test_the_guide_shows_the_newest_run_of_each_list(tmp_path: Path) -> None:
    old, new = (tmp_path / rows for rows, _ in generated.GUIDE_STUDIES)
    _write(
        old,
        [
            _row("enable1-whole", "2026-01-01", 19.0),
            _row("enable1-sample-n20000-seed1", "2026-01-01", 1.0, 20000),
            _row("enable1-sample-n20000-seed2", "2026-01-01", 3.0, 20000),
        ],
    )
    _write(new, [_row("enable1-whole", "2026-02-01", 2.5)])
    page = tmp_path / "guide.md"
    page.write_text(f"- item\n\n  {generated.GUIDE.start}\n  old\n  {generated.GUIDE.end}\nend\n")
    assert generated.GUIDE.rewrite(tmp_path, page) is True
    once = page.read_text("utf-8")
    assert generated.GUIDE.rewrite(tmp_path, page) is False and generated.GUIDE.current(
        tmp_path, page
    )
    assert "old" not in once and once.endswith("end\n")
    assert "| 2.50 s | 2.00 GiB | [2026-02-01]" in once and "19.0 s" not in once
    assert "| 2/2 proven | min-cost flow | 2.00 s |" in once  # the median of 1 s and 3 s
    assert all(line.startswith("  ") or not line for line in once.splitlines()[2:-1])


def test_the_command_checks_and_rewrites_the_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for page in generated.PAGES:
        target = tmp_path / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"{page.start}\nold\n{page.end}\n")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli(["report", "--readme", "--check"], capsys)
    assert code == 1 and out.count("out of date") == 2
    code, out, _ = run_cli(["report", "--readme"], capsys)
    assert code == 0 and out.count("updated") == 2
    code, out, _ = run_cli(["report", "--readme", "--check"], capsys)
    assert code == 0 and out.count("up to date") == 2
    (tmp_path / "README.md").write_text("no markers\n")
    code, _, err = run_cli(["report", "--readme"], capsys)
    assert code == 2 and "no <!-- results:wordsnake:start -->" in err
