"""cpwords.bench.tables, the report templates of ``cpwords report --table`` and ``--compare``:
the tables the reports of benchmarks/results/ quote, from tiny fake runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cpwords.bench import tables
from tests.conftest import run_cli


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps({"schema": "cpwords-bench/1", **r}) + "\n" for r in rows))
    return path


def test_the_comparison_pairs_tasks_and_counts_agreements(tmp_path: Path) -> None:
    base = {"suite": "tiny", "method": "auto", "status": "OPTIMAL"}
    old = _write(
        tmp_path / "old.jsonl",
        [
            {**base, "instance": "a", "objective": 10.0, "bound": 10.0, "wall_time": 2.0},
            {**base, "instance": "b", "objective": 7.0, "bound": 7.0, "wall_time": 1.0},
            {**base, "instance": "c", "objective": 1.0, "bound": 1.0, "wall_time": 1.0},
        ],
    )
    new = _write(
        tmp_path / "new.jsonl",
        [
            {**base, "instance": "a", "objective": 10.0, "bound": 10.0, "wall_time": 1.0},
            {
                **base,
                "instance": "b",
                "status": "FEASIBLE",
                "objective": 6.0,
                "bound": 7.0,
                "wall_time": 4.0,
            },
        ],
    )
    text = tables.compare_report(old, new, "1111111", "2222222", title="Tiny")
    assert text.startswith("# Tiny\n") and "1111111" in text and "2222222" in text
    a_line = "| a | auto | OPTIMAL / OPTIMAL | 10 / 10 | 10 / 10 | yes | yes | 2 s | 1 s | 0.50 |"
    assert a_line in text
    assert "| b | auto | OPTIMAL / FEASIBLE | 7 / 6 | 7 / 7 | **no** | yes |" in text
    assert "- Tasks paired: 2 (only in old: 1, only in new: 0)." in text
    assert "- Same answer (status and objective): 1/2." in text
    assert "- Same bound: 2/2." in text
    assert "- Time ratio new / old: median 2.25 (min 0.50, max 4.00, over 2 tasks)." in text


def test_the_command_prints_the_comparison(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = {
        "suite": "tiny",
        "instance": "a",
        "method": "auto",
        "status": "OPTIMAL",
        "objective": 3,
        "bound": 3,
        "wall_time": 1.0,
    }
    old, new = _write(tmp_path / "o.jsonl", [row]), _write(tmp_path / "n.jsonl", [row])
    args = ["report", "--compare", str(old), str(new), "--old-commit", "x", "--new-commit", "y"]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    assert out.startswith("# tiny: x against y\n")
    assert "- Same answer (status and objective): 1/1." in out
    code, out, err = run_cli(["report", "--compare", str(old), str(new)], capsys)
    assert code == 2 and "--old-commit and --new-commit" in err


def _snake(instance: str, method: str, kind: str, objective: float, **extra: object) -> dict:
    return {
        "puzzle": "wordsnake",
        "instance": instance,
        "method": method,
        "kind": kind,
        "status": "OPTIMAL" if kind == "exact" else "FEASIBLE",
        "objective": objective,
        "bound": objective if kind == "exact" else None,
        "size": 5,
        "wall_time": 0.5,
        **extra,
    }


def test_the_peers_table_scores_each_method_against_the_optimum() -> None:
    rows = [_snake("a", "auto", "exact", 100), _snake("a", "lkh", "heuristic", 98)]
    text = tables.peers_table(rows)
    assert text.splitlines()[0] == "| instance | words | optimum (or best / bound) | auto | lkh |"
    assert text.splitlines()[-1] == (
        "| a | 5 | **100** | 100 (100.00%) 0.50 s proof | 98 (98.00%, -2) 0.50 s |"
    )


def test_the_certificates_table_counts_the_verdicts() -> None:
    cert = {
        "status": "VALID",
        "bound": 10,
        "check_time": 0.1,
        "gzip_bytes": 2000,
        "list_gzip_bytes": 1000,
        "write_time": 0.01,
    }
    rows = [
        {
            **_snake("a", "auto", "exact", 10),
            "params": {"certificate": True},
            "certificate": cert,
            "solver_info": {"solve_time": 1.0},
        },
        {**_snake("a", "auto", "exact", 10), "solver_info": {"solve_time": 0.5}},
    ]
    text = tables.certificates_table(rows)
    assert "| a | 5 | OPTIMAL | 10 | VALID | 10 | 0 | 1.00 | 0.50 | 2.00 |" in text
    assert "- Certificates: 1 VALID." in text
    assert "- Check time / solve time: median 0.10 (max 0.10)." in text


def test_the_dictionary_report_takes_medians_over_seeds() -> None:
    rows = [
        _snake(
            f"enable1-sample-n5-seed{s}",
            m,
            "exact",
            10 + s,
            peak_memory_mb=100.0 * (1 + (m == "mip")),
        )
        for s in (1, 2, 3)
        for m in ("auto", "mip")
    ]
    text = tables.wordsnake_dictionary_report(rows)
    assert "| enable1-sample-n5 | 5 | auto | 3/3 | median 12 | - | 0.5 s | 100 MB |" in text
    assert "| enable1-sample-n5 | 5 | 1.00x | 2.00x |" in text


def test_the_superstring_table_sets_greedy_against_the_optimum() -> None:
    rows = [
        {
            "instance": "x",
            "method": "exact",
            "status": "OPTIMAL",
            "objective": 100,
            "bound": 100,
            "size": 7,
            "wall_time": 1.0,
            "measures": {"contained": 2},
            "certified": "VALID",
        },
        {
            "instance": "x",
            "method": "greedy",
            "status": "FEASIBLE",
            "objective": 104,
            "size": 7,
            "wall_time": 0.1,
        },
    ]
    line = tables.superstring_table(rows).splitlines()[-1]
    assert line.startswith("| x | 7 | 2 | 100 | 100 | OPTIMAL | 104 | +4 (4%) | 1.00 s | 0.10 s |")
    assert line.endswith("| VALID |")


def test_two_languages_runs_side_by_side() -> None:
    old = [
        {
            "instance": "fr",
            "status": "FEASIBLE",
            "objective": 90,
            "bound": 100,
            "wall_time": 10.0,
            "peak_memory_mb": 1024,
        }
    ]
    new = [
        {
            "instance": "fr",
            "status": "OPTIMAL",
            "objective": 100,
            "bound": 100,
            "wall_time": 5.0,
            "peak_memory_mb": 2048,
        }
    ]
    text = tables.wordsnake_languages_compare(old, new)
    assert "| fr | FEASIBLE -> OPTIMAL | 10 -> 0 | 10.0 s | 5.0 s | 0.50 |" in text


@pytest.mark.parametrize("name", ["peers", "certificates", "wordsnake-dictionary", "superstring"])
def test_the_command_prints_a_template(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _write(tmp_path / "r.jsonl", [_snake("a", "auto", "exact", 10)])
    code, out, err = run_cli(["report", str(rows), "--table", name], capsys)
    assert code == 0, err
    assert out == tables.table(name, [rows]) + "\n"


def test_the_modes_do_not_mix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = str(_write(tmp_path / "r.jsonl", [_snake("a", "auto", "exact", 10)]))
    for args in (
        [rows, "--table", "peers", "--compare"],
        [rows, "--table", "peers", "--out", "x"],
        [rows, "--check"],
        [rows, "--readme"],
        [rows],
        ["--table", "wordsnake-languages-compare", rows],
    ):
        code, _, err = run_cli(["report", *args], capsys)
        assert code == 2 and err.startswith("cpwords: error:"), (args, err)
