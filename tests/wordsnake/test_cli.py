"""``cpwords snake`` end to end: output, JSON contract, and one-line errors for bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cpwords.cli import main
from cpwords.wordsnake.rules import snake_score

BAD = Path(__file__).parents[1] / "data" / "bad"


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_builtin_instance_human_output(capsys):
    code, out, _err = run(["snake"], capsys)
    assert code == 0
    assert re.search(r"^status\s+OPTIMAL$", out, re.M) and re.search(r"^verified\s+yes$", out, re.M)


def test_json_contract(tmp_path, capsys):
    f = tmp_path / "w.txt"
    f.write_text("# a comment\nRun\n\nnausea\nseasick\n")
    code, out, _ = run(["snake", str(f), "--json", "--compare"], capsys)
    assert code == 0
    data = json.loads(out)
    for key in ("status", "objective", "bound", "gap", "wall_time", "method", "solution"):
        assert key in data
    assert data["status"] == "OPTIMAL" and data["objective"] == 10
    assert data["solution"] == ["run", "nausea", "seasick"]
    assert snake_score(data["solution"]) == data["objective"]
    assert {row["method"] for row in data["comparison"]} >= {"layered", "local", "greedy"}
    assert all(row["objective"] <= data["objective"] for row in data["comparison"])


def test_single_word_and_duplicates(tmp_path, capsys):
    f = tmp_path / "one.txt"
    f.write_text("solo\n")
    code, out, _ = run(["snake", str(f), "--json"], capsys)
    assert code == 0 and json.loads(out)["objective"] == 0
    f.write_text("test\ntest\n")
    code, out, err = run(["snake", str(f), "--json"], capsys)
    assert code == 0 and json.loads(out)["objective"] == 16
    assert "repeated" in err and "test x2" in err


@pytest.mark.parametrize("path", sorted(BAD.glob("wordsnake_*.txt")), ids=lambda p: p.stem)
def test_bad_input_files(path, capsys):
    before = path.read_bytes()
    code, out, err = run(["snake", str(path)], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("cpwords: error:")
    assert path.read_bytes() == before  # nothing the user gave is touched


def test_bad_line_is_named(capsys):
    _, _, err = run(["snake", str(BAD / "wordsnake_space_in_word.txt")], capsys)
    assert "line 2" in err


@pytest.mark.parametrize(
    "args",
    [
        ["snake", "/no/such/file.txt"],
        ["snake", "."],
        ["snake", "--time-limit", "0"],
        ["snake", "--method", "magic"],
        ["snake", "--workers", "0"],
    ],
)
def test_bad_arguments(args, capsys):
    code, _out, err = run(args, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.slow
def test_console_script_subprocess(tmp_path):
    """The real entry point: no traceback, exit 2, one line on stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "cpwords", "snake", str(tmp_path / "missing.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr


def test_check_scores_a_proposed_order(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("run\nnausea\nseasick\n")
    order = tmp_path / "o.txt"
    order.write_text("seasick\nrun\nnausea\n")
    code, out, _ = run(["snake", str(words), "--check", str(order), "--json"], capsys)
    assert code == 0 and json.loads(out) == {
        "valid": True,
        "problems": [],
        "solution": ["seasick", "run", "nausea"],
        "objective": 1,
        "missing": [],
        "extra": [],
    }
    order.write_text("run\nnausea\nseasick\nseasick\n")
    code, out, _ = run(["snake", str(words), "--check", str(order), "--json"], capsys)
    assert code == 1 and json.loads(out)["extra"] == ["seasick"]


@pytest.mark.parametrize("as_json", [True, False])
def test_an_exact_method_stopped_without_any_ordering_answers_unknown(
    tmp_path, capsys, monkeypatch, as_json
):
    # The CLI once raised a TypeError (no ordering to measure) when an exact method returned
    # no solution, e.g. the naive model stopped by the limit while it was being built.
    import cpwords.wordsnake.exact.methods as models
    from cpwords.core.result import SolveResult, Status

    def stopped(instance, **_):
        info = {"reason": "the time limit does not leave time to build the model"}
        return SolveResult(Status.UNKNOWN, None, None, 0.1, None, "naive-circuit", solver_info=info)

    monkeypatch.setattr(models, "solve_naive_circuit", stopped)
    f = tmp_path / "w.txt"
    f.write_text("run\nnausea\nseasick\n")
    args = ["snake", str(f), "--method", "naive"] + (["--json"] if as_json else [])
    code, out, err = run(args, capsys)
    assert code == 1 and "Traceback" not in err
    if as_json:
        row = json.loads(out)
        assert row["status"] == "UNKNOWN" and row["solution"] is None and row["verified"] is None
        assert row["reason"].startswith("the time limit") and row["total_chars"] is None
    else:
        assert "no ordering: the time limit" in out and "UNKNOWN" in out


def test_a_limit_shorter_than_reading_and_checking_says_so(tmp_path, capsys):
    # 30,000 words of 12 letters: checking the answer alone is given about 0.27 s.
    from cpwords.wordsnake.spec import random_strings

    f = tmp_path / "w.txt"
    f.write_text("\n".join(random_strings("abcdefgh", 30_000, 3, 12, 12)) + "\n")
    code, out, err = run(["snake", str(f), "--time-limit", "0.1", "--json"], capsys)
    assert code == 0 and json.loads(out)["verified"] is True
    assert "note: --time-limit 0.1 s is less than reading this list" in err
    assert len(err.strip().splitlines()) == 1
    code, _, err = run(["snake", "--time-limit", "30"], capsys)
    assert code == 0 and "note" not in err
