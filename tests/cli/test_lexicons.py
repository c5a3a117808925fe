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
    assert "install" in lines[0] and "installed" in lines[0]
    french = next(line for line in lines if line.startswith("wfrench "))
    assert "French (fr)" in french and " yes " in french
    assert french.endswith("apt-get install wfrench")
    dutch = next(line for line in lines if line.startswith("wdutch "))
    assert " no " in dutch and dutch.endswith("apt-get install wdutch")
    assert any(line.startswith("wordfreq:fr:N ") for line in lines)
    assert any(line.startswith("enable1 ") for line in lines)


def test_help_has_an_example() -> None:
    code, out = run("--help")
    assert code == 0
    assert "cpwords lexicons --json" in out
