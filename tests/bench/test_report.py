"""The study report: references from proven optima only, bound-based scores kept apart, plots."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cpwords.bench import load_suite, read_rows, run_tasks, write_report
from cpwords.bench.analysis import analyse, fraction, score_rows
from cpwords.bench.plots import fitted_exponent, gap_series, instance_family, proof_time_exponents
from cpwords.bench.report import heuristic_table
from cpwords.bench.results import encode_row
from cpwords.core.errors import InputError

TESTS = Path(__file__).resolve().parent


def row(
    method: str,
    kind: str,
    status: str,
    obj: float | None,
    bound: float | None = None,
    *,
    inst: str = "i1",
    size: int = 10,
    sense: str = "max",
    verified: bool | None = True,
    seed: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "key": f"{inst}/{method}/{seed}",
        "puzzle": "toy",
        "instance": inst,
        "instance_id": inst,
        "method": method,
        "kind": kind,
        "seed": seed,
        "status": status,
        "objective": obj,
        "bound": bound,
        "gap": None,
        "wall_time": 0.5,
        "time_limit": 10,
        "size": size,
        "sense": sense,
        "verified": verified if obj is not None else None,
        **extra,
    }


@pytest.mark.slow
@given(st.integers(1, 1000), st.integers(0, 1000))
def test_fraction_is_at_most_one_for_a_result_no_better_than_the_reference(
    ref: int, worse_by: int
) -> None:
    assert 0 <= fraction(max(0, ref - worse_by), ref, "max") <= 1
    assert 0 < fraction(ref + worse_by, ref, "min") <= 1
    assert fraction(ref, ref, "max") == fraction(ref, ref, "min") == 1


def test_optimum_comes_only_from_verified_exact_proofs() -> None:
    an = analyse(
        [
            row("h", "heuristic", "FEASIBLE", 8),
            row("e", "exact", "OPTIMAL", 10, 10),
            row("e", "exact", "OPTIMAL", 12, 12, inst="i2", verified=False),
            row("h", "heuristic", "FEASIBLE", 9, inst="i2"),
            row("lucky", "heuristic", "OPTIMAL", 9, inst="i3"),  # a heuristic cannot prove
        ]
    )
    assert an.refs[("toy", "i1")].optimum == 10
    assert an.refs[("toy", "i2")].optimum is None  # the only proof failed its checker
    assert an.refs[("toy", "i3")].optimum is None
    assert any("REJECTED" in p for p in an.problems)
    bases = {s.row["instance"]: s.basis for s in score_rows(an, "toy")}
    assert bases == {"i1": "optimum", "i2": "none", "i3": "none"}


def test_without_a_proof_scores_are_against_the_best_bound_and_labelled() -> None:
    an = analyse(
        [
            row("e1", "exact", "FEASIBLE", 7, 12),
            row("e2", "exact", "FEASIBLE", 6, 11),  # the tighter upper bound
            row("h", "heuristic", "FEASIBLE", 5.5),
        ]
    )
    (score,) = score_rows(an, "toy")
    assert score.basis == "bound" and score.value == pytest.approx(0.5)
    table, records = heuristic_table(an, "toy")
    assert records[0]["vs_optimum_runs"] == 0 and records[0]["vs_bound_runs"] == 1
    assert "vs bound" in table and "50.0 %" in table


def test_min_sense_bound_is_the_largest_lower_bound() -> None:
    an = analyse(
        [
            row("e1", "exact", "FEASIBLE", 5, 2, sense="min"),
            row("e2", "exact", "FEASIBLE", 4, 3, sense="min"),
            row("h", "heuristic", "FEASIBLE", 6, sense="min"),
        ]
    )
    assert an.refs[("toy", "i1")].best_bound == 3
    (score,) = score_rows(an, "toy")
    assert score.value == pytest.approx(0.5)


def test_contradictions_are_reported() -> None:
    an = analyse(
        [
            row("e1", "exact", "OPTIMAL", 10, 10),
            row("e2", "exact", "OPTIMAL", 11, 11),
            row("e1", "exact", "OPTIMAL", 5, 5, inst="i2"),
            row("h", "heuristic", "FEASIBLE", 6, inst="i2"),
        ]
    )
    assert an.refs[("toy", "i1")].optimum is None
    assert any("DIFFERENT optima" in p for p in an.problems)
    assert any("beats the proven optimum" in p for p in an.problems)


def test_duplicate_keys_count_once() -> None:
    r = row("h", "heuristic", "FEASIBLE", 5)
    an = analyse([r, dict(r)])
    assert an.duplicates == 1 and len(an.rows) == 1


def _write_rows(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(encode_row(r) for r in rows))
    return path


@pytest.mark.slow
def test_report_files_and_png_plots(tmp_path: Path) -> None:
    import matplotlib.image

    rows = []
    for n in (5, 10, 20, 40):
        inst = f"n{n}"
        rows.append(
            row("exact", "exact", "OPTIMAL", n, n, inst=inst, size=n, reference={"par": n + 1})
        )
        rows.append(row("slow", "exact", "FEASIBLE", n - 1, n + 3, inst=inst, size=n))
        for seed in (1, 2):
            rows.append(
                row("greedy", "heuristic", "FEASIBLE", n - seed, inst=inst, size=n, seed=seed)
            )
    res = _write_rows(tmp_path / "r.jsonl", rows)
    report = write_report([res], tmp_path / "rep")
    text = report.read_text()
    for heading in ("## toy", "### Heuristics", "### Exact methods", "published par"):
        assert heading in text
    pngs = sorted(p.name for p in report.parent.glob("*.png"))
    assert pngs == [
        "toy-exact-time.png",
        "toy-gap-by-family.png",
        "toy-heuristics.png",
        "toy-par.png",
    ]
    for p in pngs:
        assert f"]({p})" in text
        img = matplotlib.image.imread(report.parent / p)
        assert img.shape[0] > 300 and img.shape[1] > 500
    assert "None: every solution passed" in text


def test_without_matplotlib_the_report_is_written_without_pictures_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import importlib.util

    from cpwords.bench import plots

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name)
    )
    monkeypatch.setattr(plots, "_NOTED", [])
    # As a library user has it (no CLI has routed the logger to stderr in this process).
    monkeypatch.setattr(logging.getLogger("cpwords"), "propagate", True)
    monkeypatch.setattr(logging.getLogger("cpwords"), "handlers", [])
    rows = [row("exact", "exact", "OPTIMAL", n, n, inst=f"n{n}", size=n) for n in (5, 10, 20)]
    rows += [row("greedy", "heuristic", "FEASIBLE", n - 1, inst=f"n{n}", size=n) for n in (5, 10)]
    res = _write_rows(tmp_path / "r.jsonl", rows)
    with caplog.at_level(logging.WARNING, logger="cpwords"):
        report = write_report([res], tmp_path / "rep")
    assert "### Heuristics" in report.read_text() and not list(report.parent.glob("*.png"))
    notes = [r.getMessage() for r in caplog.records if "matplotlib" in r.getMessage()]
    assert len(notes) == 1 and "pip install -e '.[plots]'" in notes[0]


def test_report_refuses_bad_inputs(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.txt"
    foreign.write_text("hello\n")
    with pytest.raises(InputError, match="not a cpwords results file"):
        write_report([foreign], tmp_path / "rep")
    good = _write_rows(tmp_path / "r.jsonl", [row("h", "heuristic", "FEASIBLE", 1)])
    with pytest.raises(InputError, match="not a directory"):
        write_report([good], foreign)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(InputError, match="no rows"):
        write_report([empty], tmp_path / "rep")


@pytest.mark.slow
def test_wordsnake_study_end_to_end(tmp_path: Path) -> None:
    """A tiny real study: exact and heuristics on sampled snakes, then the report."""
    words = ["run", "nausea", "seasick", "sickle", "lemon", "once", "cement", "entrance"]
    suite = tmp_path / "ws.toml"
    suite.write_text(
        '[suite]\npuzzle = "wordsnake"\ntime_limit = 10\n'
        f'[[instances]]\nname = "demo"\nwords = {words!r}\n'
        f'[[instances]]\nname = "demo-cyclic"\nwords = {words[:6]!r}\ncyclic = true\n'
        '[[methods]]\nmethod = "cpsat"\n'
        '[[methods]]\nmethod = "mip"\n'
        '[[methods]]\nmethod = "greedy"\nseeds = [1, 2, 3]\n'
        '[[methods]]\nmethod = "layered"\nseeds = [1, 2]\nparams = { iterations = 5 }\n'
    )
    out = tmp_path / "r.jsonl"
    summary = run_tasks(load_suite(suite).tasks, out, executor="serial")
    assert summary.errors == 0 and summary.ran == 2 * (1 + 1 + 3 + 2)
    report = write_report([out], tmp_path / "rep")
    an = analyse(read_rows(out))
    assert all(r["verified"] for r in an.rows)
    assert all(ref.optimum is not None for ref in an.refs.values())
    scores = score_rows(an, "wordsnake")
    assert scores and all(s.basis == "optimum" and 0 <= (s.value or 0) <= 1 for s in scores)
    assert "## wordsnake" in report.read_text()


def _cpwords(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from cpwords.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_report_never_overwrites_a_folder_cpwords_did_not_create(tmp_path: Path) -> None:
    # Issue 12: report --out DIR silently replaced the user's report.md in an existing folder.
    res = _write_rows(tmp_path / "r.jsonl", [row("h", "heuristic", "FEASIBLE", 1)])
    mine = tmp_path / "mine"
    mine.mkdir()
    precious = b"# my own report\r\n\x00\xff notes\n"
    (mine / "report.md").write_bytes(precious)
    bad = _cpwords("report", str(res), "--out", str(mine))
    assert bad.returncode == 2, bad.stderr
    assert bad.stderr.startswith("cpwords: error:") and bad.stderr.count("\n") == 1
    assert "--force" in bad.stderr
    assert (mine / "report.md").read_bytes() == precious
    assert sorted(p.name for p in mine.iterdir()) == ["report.md"]
    # A folder cpwords made is rewritten freely; --force overrides the refusal.
    ours = tmp_path / "ours"
    assert _cpwords("report", str(res), "--out", str(ours)).returncode == 0
    assert _cpwords("report", str(res), "--out", str(ours)).returncode == 0
    assert _cpwords("report", str(res), "--out", str(mine), "--force").returncode == 0
    assert (mine / "report.md").read_bytes() != precious


@pytest.mark.slow
def test_bench_report_refuses_a_foreign_folder_before_running(tmp_path: Path) -> None:
    suite = tmp_path / "s.toml"
    suite.write_text(
        '[suite]\npuzzle = "wordsnake"\n[[instances]]\nname = "t"\n'
        'words = ["run", "nausea", "seasick"]\n[[methods]]\nmethod = "greedy"\n'
    )
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "summary.json").write_bytes(b'{"mine": true}')
    out = tmp_path / "r.jsonl"
    bad = _cpwords("bench", str(suite), "--out", str(out), "--report", str(mine), "-q")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
    assert (mine / "summary.json").read_bytes() == b'{"mine": true}'
    assert not out.exists()  # refused before any work
    inside = _cpwords(
        "bench",
        str(suite),
        "--out",
        str(tmp_path / "rep" / "r.jsonl"),
        "--report",
        str(tmp_path / "rep"),
        "-q",
    )
    assert inside.returncode == 0, inside.stderr
    assert (tmp_path / "rep" / "report.md").is_file()


def test_instance_families_drop_the_size_and_seed_suffixes() -> None:
    assert instance_family("ab-n1000-seed3") == "ab"
    assert instance_family("enable-large-n100000-seed1") == "enable-large"
    assert instance_family("repeats-distinct20-n500-seed2") == "repeats-distinct20"
    assert instance_family("enable1") == "enable1"


def test_a_power_law_recovers_its_exponent_and_few_sizes_give_none() -> None:
    sizes = [100, 300, 1000, 3000, 10000]
    b = fitted_exponent(sizes, [0.001 * n**1.5 for n in sizes])
    assert b is not None and abs(b - 1.5) < 0.01
    assert fitted_exponent([100, 1000], [1.0, 10.0]) is None
    assert fitted_exponent([100, 100, 100], [1.0, 2.0, 3.0]) is None


def test_proof_time_exponents_use_proven_rows_only() -> None:
    rows = []
    for n in (10, 100, 1000):
        rows.append(
            row("fast", "exact", "OPTIMAL", n, n, inst=f"a-n{n}-seed1", size=n, wall_time=0.01 * n)
        )
        rows.append(row("slow", "exact", "FEASIBLE", n - 1, n + 1, inst=f"a-n{n}-seed1", size=n))
    rows.append(row("two", "exact", "OPTIMAL", 10, 10, inst="a-n10-seed1", size=10))
    exps = proof_time_exponents(analyse(rows), "toy")
    assert exps["fast"] is not None and abs(exps["fast"] - 1.0) < 1e-9
    assert "slow" not in exps and exps["two"] is None


def test_gap_series_scores_only_against_proven_optima_by_family_and_size() -> None:
    rows = [
        row("exact", "exact", "OPTIMAL", 100, 100, inst="ab-n10-seed1", size=10),
        row("exact", "exact", "OPTIMAL", 200, 200, inst="ab-n10-seed2", size=10),
        row("exact", "exact", "FEASIBLE", 50, 60, inst="cd-n20-seed1", size=20),
        row("greedy", "heuristic", "FEASIBLE", 90, inst="ab-n10-seed1", size=10),
        row("greedy", "heuristic", "FEASIBLE", 190, inst="ab-n10-seed2", size=10),
        row("greedy", "heuristic", "FEASIBLE", 40, inst="cd-n20-seed1", size=20),
    ]
    series = gap_series(analyse(rows), "toy")
    assert list(series) == ["ab"]  # cd has only a bound: left out
    ((size, pct),) = series["ab"]["greedy"]
    assert size == 10 and abs(pct - (90.0 + 95.0) / 2) < 1e-9


def test_an_exact_complete_listing_counts_as_proven_but_never_a_partial_one() -> None:
    from cpwords.bench.analysis import proven

    def row(status: str, kind: str = "exact", complete: bool | None = None) -> dict:
        info = {} if complete is None else {"complete": complete}
        return {"status": status, "kind": kind, "solver_info": info}

    assert proven(row("OPTIMAL"))
    assert proven(row("FEASIBLE", complete=True)) and proven(row("INFEASIBLE", complete=True))
    assert not proven(row("FEASIBLE", complete=False)) and not proven(row("FEASIBLE"))
    assert not proven(row("FEASIBLE", kind="heuristic", complete=True))
    assert not proven(row("UNKNOWN", complete=True)) and not proven(row("ERROR"))
