"""Issue 47: one option name for one thing (truncate's --start/--end, as chain's; the old
--starting/--ending hidden aliases), and `superstring --out FILE` writing the superstring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from tests.conftest import run_cli

TRUNCATE = "a\nla\nlap\nlaps\nlapse\nelapse\nat\ncat\n"


@pytest.fixture
def truncate_list(tmp_path: Path) -> str:
    f = tmp_path / "t.txt"
    f.write_text(TRUNCATE, encoding="utf-8")
    return str(f)


def test_truncate_takes_start_and_end_as_chain_does(
    truncate_list: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for new, old, word in (("--end", "--ending", "lapse"), ("--start", "--starting", "la")):
        code, out, _ = run_cli(["truncate", "--dict", truncate_list, new, word, "--json"], capsys)
        row = json.loads(out)
        assert code == 0 and word in row["sequence"]
        code, out_old, _ = run_cli(
            ["truncate", "--dict", truncate_list, old, word, "--json"], capsys
        )
        old_row = json.loads(out_old)
        assert old_row["sequence"] == row["sequence"] and old_row["count"] == row["count"]
    code, out, _ = run_cli(["truncate", "--dict", truncate_list, "--end", "lapse"], capsys)
    assert out.splitlines()[1] == "sequence    a -> la -> lap -> laps -> lapse"


def test_truncate_refuses_a_name_and_its_old_name_together(
    truncate_list: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["truncate", "--dict", truncate_list, "--end", "lap", "--ending", "lap"]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and not out
    assert err == "cpwords: error: give --end only (--ending is its old name)\n"


def test_help_shows_the_new_names_only() -> None:
    helps = {c: CliRunner().invoke(cli, [c, "--help"]).output for c in ("truncate", "chain")}
    for text in helps.values():
        assert "--start WORD" in text and "--end WORD" in text
    options = helps["truncate"].split("Options:")[1]
    assert "--starting" not in options and "--ending" not in options


@pytest.fixture
def words(tmp_path: Path) -> Path:
    f = tmp_path / "l.txt"
    f.write_text("cat\natom\na\ntomato\n", encoding="utf-8")
    return f


def test_superstring_out_writes_the_superstring(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "s.txt"
    code, out, _ = run_cli(["superstring", str(words), "--out", str(out_file)], capsys)
    assert code == 0 and out_file.read_text(encoding="utf-8") == "catomato\n"
    assert out.splitlines()[0] == "catomato"
    assert f"written      {out_file} (8 letters)" in out.splitlines()
    other = tmp_path / "t.txt"
    code, out, _ = run_cli(
        ["superstring", str(words), "--out", str(other), "--method", "greedy", "--json"], capsys
    )
    row = json.loads(out)
    assert code == 0 and row["out"] == str(other)
    assert other.read_text(encoding="utf-8") == row["superstring"] + "\n"


def test_superstring_out_never_replaces_a_file(
    words: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out_file = Path("s.txt")
    out_file.write_text("mine\n", encoding="utf-8")
    for extra in ([], ["--force", "--svg", "s.svg"]):
        code, out, err = run_cli(
            ["superstring", str(words), "--out", str(out_file), *extra], capsys
        )
        assert code == 2 and not out and err.count("\n") == 1
        assert err == (
            "cpwords: error: --out s.txt: the file exists; cpwords does not replace it (remove "
            "it or name another file)\n"
        )
        assert out_file.read_text(encoding="utf-8") == "mine\n"
    code, _, err = run_cli(
        ["superstring", str(words), "--out", "n.txt", "--check-text", "catomato"],
        capsys,
    )
    assert code == 2 and "--out writes a solve's superstring" in err
    assert not Path("n.txt").exists() and not Path("s.svg").exists()
