"""Issue 23: one line, not a traceback, for every bad input; outputs the user cannot write."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cpwords.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def one_line(code: int, err: str) -> None:
    assert code == 2, err
    assert err.startswith("cpwords: error:") and err.count("\n") == 1, err
    assert "Traceback" not in err


# --------------------------------------------------------------------------------------------
# Limits beyond what the system's timers take, seeds beyond CP-SAT's 32 bits
# --------------------------------------------------------------------------------------------

LIMITED = [
    ["truncate"],
    ["letterpress", "abc"],
    ["letterboxed", "abc-def-ghi-jkl"],
    ["grid"],
    ["snake"],
]


@pytest.mark.parametrize("value", ["1e10", "1e308"])
@pytest.mark.parametrize("command", LIMITED, ids=lambda c: c[0])
def test_a_time_limit_too_long_for_the_timers_is_one_line(
    command: list[str], value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # setitimer raised OverflowError at 1e10 s (truncate, letterpress, letterboxed, grid).
    code, _, err = run([*command, "--time-limit", value], capsys)
    one_line(code, err)
    assert "--time-limit" in err and "longest" in err


def test_a_peer_time_limit_too_long_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["snake", "--compare", "--peers", "--peer-time-limit", "1e308"], capsys)
    one_line(code, err)


@pytest.mark.parametrize(
    "command",
    [
        ["snake", "--method", "cpsat"],
        ["snake", "--method", "naive"],
        ["letterboxed", "abc-def-ghi-jkl", "--method", "cpsat"],
        ["letterpress", "abc"],
        ["grid"],
    ],
    ids=lambda c: "-".join(c[:1] + c[-1:]),
)
def test_a_seed_beyond_32_bits_is_one_line(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # CP-SAT's random_seed is an int32: --seed 2147483648 raised a TypeError from its params.
    code, _, err = run([*command, "--seed", "2147483648"], capsys)
    one_line(code, err)
    assert "--seed" in err and "2147483647" in err


def test_a_cache_cap_beyond_any_disk_means_no_cap(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CPWORDS_CACHE_MAX_MB", "1e308")
    words = tmp_path / "w.txt"
    words.write_text("cat\nact\ntaco\n", encoding="utf-8")
    code, out, err = run(["letterpress", "tacos", "--dict", str(words), "--json"], capsys)
    assert code == 0 and "Traceback" not in err, err
    assert json.loads(out)["solution"] == ["act", "cat", "taco"]
    code, out, _ = run(["cache", "info", "--json"], capsys)
    assert code == 0 and json.loads(out)["files"] == 1


# --------------------------------------------------------------------------------------------
# Outputs the user cannot write (bench --out, bench --report, report --out, cache clear)
# --------------------------------------------------------------------------------------------


@pytest.fixture
def unwritable(tmp_path: Path) -> Iterator[Path]:
    """A folder (with one file in it) that this process cannot change: mode 555, and for root,
    who ignores modes, the immutable attribute (``chattr +i``)."""
    d = tmp_path / "ro"
    d.mkdir()
    (d / "index-v2-0.npz").write_bytes(b"x")
    d.chmod(0o555)
    immutable = False
    if os.geteuid() == 0:
        chattr = shutil.which("chattr")
        immutable = (
            bool(chattr)
            and subprocess.run([chattr or "chattr", "+i", str(d)], capture_output=True).returncode
            == 0
        )
    try:
        try:
            (d / "probe").touch()
        except OSError:
            pass
        else:
            pytest.skip("cannot make a folder unwritable here (root without chattr +i)")
        yield d
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(d)], capture_output=True)
        d.chmod(0o755)


SUITE = (
    '[suite]\nname = "perm"\ntime_limit = 5\n'
    '[[instances]]\npuzzle = "wordsnake"\nname = "five"\n'
    'words = ["run", "nausea", "seasick", "sickle", "lemon"]\n'
    '[[methods]]\npuzzle = "wordsnake"\nmethod = "greedy"\n'
)


def test_outputs_the_user_cannot_write_are_one_line(
    unwritable: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A PermissionError traceback before (run as an unprivileged user).
    suite = tmp_path / "suite.toml"
    suite.write_text(SUITE, encoding="utf-8")
    code, _, err = run(["bench", str(suite), "--out", str(unwritable / "r.jsonl"), "-q"], capsys)
    one_line(code, err)
    assert str(unwritable / "r.jsonl") in err

    out = tmp_path / "r.jsonl"
    # --report into a folder nobody may write: refused before the study, not after it
    code, _, err = run(
        ["bench", str(suite), "--out", str(out), "--report", str(unwritable / "rep"), "-q"], capsys
    )
    one_line(code, err)
    assert not out.exists()

    code, _, err = run(["bench", str(suite), "--out", str(out), "-q"], capsys)
    assert code == 0, err
    code, _, err = run(["report", str(out), "--out", str(unwritable / "rep")], capsys)
    one_line(code, err)

    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "letterpress").symlink_to(unwritable)
    code, _, err = run(["cache", "clear"], capsys)
    one_line(code, err)
    assert "index-v2-0.npz" in err


@pytest.mark.slow
def test_report_reads_results_from_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 23, item 12: `report -` said "results file not found: -".
    suite = tmp_path / "suite.toml"
    suite.write_text(SUITE, encoding="utf-8")
    out = tmp_path / "r.jsonl"
    code, _, err = run(["bench", str(suite), "--out", str(out), "-q"], capsys)
    assert code == 0, err
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            "from cpwords.cli import main; main()",
            "report",
            "-",
            "--out",
            str(tmp_path / "rep"),
            "--json",
        ],
        input=out.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["sources"] == ["-"]
    assert (tmp_path / "rep" / "report.md").is_file()


# --------------------------------------------------------------------------------------------
# A stop by the (default) time limit is said; a gap that is not zero never prints as zero
# --------------------------------------------------------------------------------------------


def _stopped_at_the_limit(instance, method, **kwargs):  # type: ignore[no-untyped-def]
    """What the seam returns for an exact solve the limit stopped (letterpress-en at 60 s)."""
    from cpwords.core.result import SolveResult, Status

    order = list(instance.words)
    return SolveResult(
        Status.FEASIBLE,
        9772166.0,
        9772190.0,
        60.0,
        order,
        "auto",
        solver_info={"stopped": "time_limit", "interrupted": False},
        verified=True,
    )


def test_a_stop_by_the_default_time_limit_is_said_and_its_gap_is_not_zero(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 23, item 9: "gap 0.00%" and no word of the (default, 60 s) limit.
    import cpwords.cli.snake as snake_cli

    monkeypatch.setattr(snake_cli, "solve_wordsnake", _stopped_at_the_limit)
    code, out, _ = run(["snake"], capsys)
    assert code == 0
    assert "0.00%" not in out and "0.00025%" in out
    assert "stopped     by the time limit of 600 s (the default; --time-limit sets it)" in out
    code, out, _ = run(["snake", "--time-limit", "30"], capsys)
    assert "by the time limit of 30 s: best ordering so far" in out and "default" not in out
    code, out, _ = run(["snake", "--json"], capsys)
    row = json.loads(out)
    assert row["stopped"] == "time_limit" and 0 < row["gap"] < 1e-5


def test_the_seam_marks_an_exact_solve_left_unproven_as_stopped_by_its_limit() -> None:
    from cpwords.core.spec import solve
    from cpwords.wordsnake.rules import WordsnakeInstance

    few = WordsnakeInstance(("run", "nausea", "seasick", "sickle", "lemon"))
    done = solve("wordsnake", few, "auto", time_limit=30)
    assert done.is_optimal and "stopped" not in done.solver_info
    heuristic = solve("wordsnake", few, "greedy", time_limit=30)
    assert "stopped" not in heuristic.solver_info

    import dataclasses

    from cpwords.core.result import SolveResult, Status
    from cpwords.wordsnake.spec import SPEC

    def unproven(instance, method, **kw):  # type: ignore[no-untyped-def]
        return SolveResult(Status.FEASIBLE, 30.0, 31.0, 1.0, list(instance.words), method)

    stub = dataclasses.replace(SPEC, run=unproven)
    stopped = solve(stub, few, "auto", time_limit=1, check=False)
    assert stopped.solver_info["stopped"] == "time_limit"


# --------------------------------------------------------------------------------------------
# Smaller (issue 23, item 12)
# --------------------------------------------------------------------------------------------


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", "from cpwords.cli import main; main()", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.slow
def test_snake_reads_stdin_as_it_reads_a_file() -> None:
    # A byte-order mark was refused on stdin only; Latin-1 was "not a word", not "not UTF-8".
    bom = _cli("snake", "-", "--json", stdin=b"\xef\xbb\xbfrun\nnausea\nseasick\n")
    assert bom.returncode == 0, bom.stderr
    assert json.loads(bom.stdout)["solution"] == ["run", "nausea", "seasick"]
    latin = _cli("snake", "-", stdin=b"caf\xe9\nrun\n")
    assert latin.returncode == 2 and b"not UTF-8" in latin.stderr
    assert latin.stderr.count(b"\n") == 1


@pytest.mark.slow
def test_grid_limit_caps_the_json_listing_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["grid", "--limit", "3", "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and len(row["solution"]) == 3 and len(row["quadruples"]) == 3
    assert row["count"] > 3 and row["counts"]["quadruples"] == row["count"]
    code, out, _ = run(["grid", "--limit", "3"], capsys)
    assert "--limit N or --json for all" in out and "--list" not in out


def test_grid_count_of_a_suffix_no_board_can_hold_is_bad_input(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(["grid", "--count", "ar,ld,at,zzz"], capsys)
    one_line(code, err)
    assert "'zzz'" in err


def test_export_connectivity_is_refused_with_a_cp_sat_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "w.txt"
    words.write_text("run\nnausea\nseasick\nsickle\n", encoding="utf-8")
    model = tmp_path / "m.pb"
    args = ["snake", str(words), "--export-model", str(model), "--export-connectivity", "none"]
    code, _, err = run(args, capsys)
    one_line(code, err)
    assert not model.exists()
