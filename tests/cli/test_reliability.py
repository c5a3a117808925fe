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
        [sys.executable, "-c", "from cpwords.cli import main; main()", "report", "-", "--out",
         str(tmp_path / "rep"), "--json"],
        input=out.read_text(encoding="utf-8"), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["sources"] == ["-"]
    assert (tmp_path / "rep" / "report.md").is_file()
