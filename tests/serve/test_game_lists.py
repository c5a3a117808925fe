"""Issue 47: the Letterpress and Truncate pages read the games' own lists, built as the command
line builds them (one resolver, :func:`cpwords.core.sources.read_dictionary`), so a page and
its command give the same words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cpwords.core.errors import InputError
from cpwords.core.wordlists import packaged_lexicon
from cpwords.serve import views
from tests.conftest import run_cli

#: The README's bag.
LETTERS = "ovrkqlwislrecrtgmvpfprzey"
#: The seed's chain to 'relapsed'.
SEED_CHAIN = ["a", "la", "lap", "laps", "lapse", "elapse", "elapsed", "relapsed"]


#: Every test's Letterpress index cache is private (tests/serve/conftest.py, with ``client``).
pytestmark = pytest.mark.usefixtures("private_cache")


def page_words(client: TestClient, **params: str) -> tuple[dict[str, Any], list[str]]:
    resp = client.get("/api/letterpress", params={"letters": LETTERS, **params})
    assert resp.status_code == 200, resp.text
    data = resp.json()
    return data, [w for _, ws in data["by_length"] for w in ws]


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run_cli([*argv, "--json"], capsys)
    assert code == 0, err
    row = json.loads(out)
    assert isinstance(row, dict)
    return row


def test_the_pages_defaults_are_the_commands() -> None:
    from cpwords.letterpress.models.index import DEFAULT_DICTIONARY as LP
    from cpwords.truncate.spec import DEFAULT_DICTIONARY as TR

    defaults = (views.LETTERPRESS_DEFAULT, views.TRUNCATE_DEFAULT)
    assert defaults == (LP, TR) == ("letterpress", "truncate")


@pytest.mark.slow
def test_letterpress_page_and_command_list_the_same_words(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    data, words = page_words(client)
    row = cli_json(capsys, "letterpress", LETTERS)
    assert data["lexicon"] == row["lexicon"] == "letterpress"
    assert data["lexicon_size"] == row["lexicon_size"] == 274_926
    assert sorted(words) == sorted(row["solution"]) and data["count"] == row["count"]
    game = packaged_lexicon("letterpress").as_set()
    assert set(words) <= game and "powerlifters" in words and "slipperflower" not in words


@pytest.mark.slow
def test_a_page_dictionary_is_read_as_dict_reads_it(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """web2 on the page is `--dict web2`: proper nouns left out (the page once read them in:
    iraq, utah, xmas)."""
    data, words = page_words(client, dict="web2")
    row = cli_json(capsys, "letterpress", LETTERS, "--dict", "web2")
    assert sorted(words) == sorted(row["solution"])
    assert data["lexicon_size"] == row["lexicon_size"] and not {"iraq", "utah"} & set(words)
    data, words = page_words(client, dict="enable1")
    row = cli_json(capsys, "letterpress", LETTERS, "--dict", "enable1")
    assert data["lexicon"] == row["lexicon"] == "enable1"
    assert sorted(words) == sorted(row["solution"])


def test_truncate_page_and_command_give_the_same_chains(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    resp = client.get("/api/truncate", params={"word": "relapsed", "direction": "to"})
    assert resp.status_code == 200, resp.text
    data = resp.json()
    row = cli_json(capsys, "truncate", "--ending", "relapsed", "--all")
    assert data["lexicon"] == row["lexicon"] == "truncate"
    assert data["lexicon_size"] == row["lexicon_size"] == 112_774
    assert data["listed"] == row["sequences"] and data["count"] == row["count"] == 3
    assert data["sequence"] == SEED_CHAIN


def test_a_page_reads_names_never_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file named like a dictionary in the server's folder is not read (the command line
    reads it: a file wins there)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "enable1").write_text("cat\nact\n", encoding="utf-8")
    assert len(views.page_lexicon("enable1")) == 172_823
    with pytest.raises(InputError, match=r"unknown dictionary 'shared:enable1\.txt'"):
        views.page_lexicon("shared:enable1.txt")


def test_a_page_takes_every_name_lexicons_lists(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """gcide is not among the page's choices, but `cpwords lexicons` lists it: the page reads
    it by name, as `--dict gcide` does."""
    assert "gcide" not in dict(views.dictionary_choices())
    params = {"word": "cat", "direction": "to", "dict": "gcide"}
    data = client.get("/api/truncate", params=params).json()
    row = cli_json(capsys, "truncate", "--end", "cat", "--all", "--dict", "gcide")
    assert data["lexicon_size"] == row["lexicon_size"] and data["listed"] == row["sequences"]
    resp = client.get("/api/truncate", params={**params, "dict": "gcidex"})
    assert resp.status_code == 400 and resp.json()["error"].startswith("unknown dictionary")
