"""Issue 30: ``cpwords lexicons``, every lexicon cpwords knows and how to install it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.core import dictionaries
from cpwords.core.dictionaries import DICTIONARIES, dictionary_lexicon
from tests.conftest import run_cli


@pytest.fixture
def two_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A /usr/share/dict holding only wfrench and wswedish (two fixture files)."""
    monkeypatch.setattr(dictionaries, "DICT_DIR", tmp_path)
    monkeypatch.setattr(dictionaries, "HUNSPELL_DIR", tmp_path)
    monkeypatch.delenv("CPWORDS_DICT_DIR", raising=False)
    dictionary_lexicon.cache_clear()
    (tmp_path / "french").write_text("chat\nParis\nété\n", encoding="utf-8")
    (tmp_path / "swedish").write_bytes("bröd\nåka\n".encode("latin-1"))
    yield tmp_path
    dictionary_lexicon.cache_clear()


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["lexicons", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, res.output


def test_json_lists_every_dictionary_with_installed_flags(two_installed: Path) -> None:
    code, out = run("--json")
    assert code == 0
    rows = json.loads(out)
    assert isinstance(rows, list)
    by_name = {r["name"]: r for r in rows}
    keys = {"name", "lang", "language", "kind", "source", "licence", "installed", "words"}
    assert all(keys | {"install"} <= set(r) for r in rows)
    for d in DICTIONARIES:
        row = by_name[d.name]
        assert row["kind"] == "dictionary"
        assert row["lang"] == d.lang and row["language"] == d.language
        assert row["installed"] is (d.name in ("wfrench", "wswedish")), d.name
        assert row["install"] == f"apt-get install {d.name}"
    assert by_name["wfrench"]["words"] == 3 and by_name["wswedish"]["words"] == 2
    assert by_name["wdutch"]["words"] is None
    assert by_name["web2"]["installed"] is True and by_name["gcide"]["installed"] is True
    assert by_name["wordfreq:de:N"]["kind"] == "frequency list"
    assert "not a dictionary" in by_name["wordfreq:de:N"]["source"]


def test_text_is_a_table_with_install_commands(two_installed: Path) -> None:
    code, out = run()
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["name", "language", "kind"]
    assert "installed" in lines[0] and "words" in lines[0]
    french = next(line for line in lines if line.startswith("wfrench "))
    assert "French (fr)" in french and french.endswith(" yes")
    dutch = next(line for line in lines if line.startswith("wdutch "))
    assert dutch.endswith(" no: apt-get install wdutch")
    # Issue 47, item 6: the table was 220 columns wide; it fits 100 (the rest is in --json).
    assert max(map(len, lines)) <= 100
    assert lines[-1] == "source and licence of each: cpwords lexicons --json"
    assert any(line.startswith("wordfreq:fr:N ") for line in lines)
    assert any(line.startswith("enable1 ") for line in lines)


def test_help_has_an_example() -> None:
    code, out = run("--help")
    assert code == 0
    assert "cpwords lexicons --json" in out


def _truncate_json(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, dict[str, object] | str]:
    """``cpwords truncate ARGV --json``: (0, its row) or (exit status, stderr)."""
    code, out, err = run_cli(["truncate", *argv, "--json"], capsys)
    if code != 0:
        return code, err
    row = json.loads(out)
    assert isinstance(row, dict)
    return 0, row


@pytest.mark.slow
def test_every_name_lexicons_lists_works_in_dict(
    two_installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 47: `--dict enable1` and `--dict dict:fr` once said "dictionary not found"."""
    rows = [r for r in dictionaries.list_lexicons() if r.installed]
    names = [r.name for r in rows if not r.name.startswith("wordfreq:")]
    assert {"wfrench", "wswedish", "enable1", "letterpress", "truncate", "web2"} <= set(names)
    for name in [*names, "dict:fr", "wordfreq:de:100", "lang:fr"]:
        code, row = _truncate_json(["--dict", name], capsys)
        assert code == 0, (name, row)
        assert isinstance(row, dict) and row["lexicon_size"], name
    _, row = _truncate_json(["--dict", "dict:fr"], capsys)
    assert isinstance(row, dict) and row["lexicon"] == "wfrench" and row["lexicon_size"] == 2


def test_a_listed_dictionary_not_installed_says_how_to_install_it(
    two_installed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _truncate_json(["--dict", "wdutch"], capsys)
    assert code == 2 and err == (
        "cpwords: error: the Dutch dictionary (wdutch) is not installed: apt-get install wdutch\n"
    )
    code, err = _truncate_json(["--dict", "enable2"], capsys)
    assert code == 2 and err == (
        "cpwords: error: dictionary not found: enable2 (neither a file nor a lexicon name; "
        "cpwords lexicons lists the names)\n"
    )


def test_a_file_named_like_a_lexicon_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "enable1").write_text("la\nlap\nlaps\n", encoding="utf-8")
    code, row = _truncate_json(["--dict", "enable1"], capsys)
    assert code == 0 and isinstance(row, dict)
    assert row["lexicon"] == "enable1" and row["lexicon_size"] == 3 and row["length"] == 3


def test_snake_takes_a_lexicon_name_for_its_list(capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.cli.snake import _instance
    from cpwords.core.sources import lexicon_words

    inst = _instance("enable1", cyclic=False, proper=False)
    assert inst.name == "enable1" and len(inst.words) == 172_823 and "aardvark" in inst.words
    code, out, err = run_cli(["snake", "wordfreq:40", "--method", "greedy", "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["n"] == len(lexicon_words("wordfreq:40"))
