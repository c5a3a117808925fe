"""The Letter Boxed page and its JSON answer against the command line: the same keys and values
as ``cpwords letterboxed --json``, a player's answer checked as ``--check-text`` checks it, one
dictionary menu."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from cpwords.cli._common import CHECK_KEYS, RESULT_KEYS
from cpwords.letterboxed.rules import letterboxed_problems, parse_box, split_solution
from tests.serve.conftest import LiveServer

BOX = "lua-sgc-yhk-zop"
#: Timings differ from run to run; everything else must agree.
TIMES = ("wall_time", "count_wall_time")


def cli_json(*args: str) -> tuple[int, dict[str, Any]]:
    """``cpwords letterboxed ARGS --json``: its exit code and its object."""
    res = CliRunner().invoke(cli, ["letterboxed", *args, "--json"])
    return res.exit_code, json.loads(res.stdout)


def test_the_pages_and_the_command_line_share_one_row_shape() -> None:
    """One definition of the rows (core.rows), re-exported by the command line."""
    from cpwords.core import rows

    assert rows.RESULT_KEYS is RESULT_KEYS and rows.CHECK_KEYS is CHECK_KEYS


@pytest.mark.slow
def test_api_answers_as_cpwords_letterboxed_json(live: LiveServer) -> None:
    """The API's object is the CLI's ``--all --max-words 2 --json`` object (plus the drawing):
    the same keys in the same order, the same values but the timings."""
    data = httpx.get(f"{live.url}/api/letterboxed", params={"box": BOX}, timeout=120).json()
    code, row = cli_json(BOX, "--all", "--max-words", "2")
    assert code == 0
    assert data.pop("svg").startswith("<svg")
    assert list(data)[: len(RESULT_KEYS)] == list(RESULT_KEYS)
    assert list(data) == list(row)
    assert {k: v for k, v in data.items() if k not in TIMES} == {
        k: v for k, v in row.items() if k not in TIMES
    }
    assert data["objective"] == data["bound"] and isinstance(data["wall_time"], float)


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["pucks slough hazy", "PLOUGH-HAZY", "psychology yakuza", "x"])
def test_an_answer_is_checked_as_check_text_checks_it(live: LiveServer, answer: str) -> None:
    """``?check=`` answers as ``--check-text ... --json`` does, key for key; the page shows the
    verdict and each problem, and keeps the solution hidden."""
    params = {"box": BOX, "check": answer}
    data = httpx.get(f"{live.url}/api/letterboxed", params=params, timeout=120).json()
    code, row = cli_json(BOX, "--check-text", answer)
    assert data == row and list(data)[: len(CHECK_KEYS)] == list(CHECK_KEYS)
    assert code == (0 if data["valid"] else 1)
    words = split_solution(answer)
    assert data["solution"] == words
    assert bool(letterboxed_problems(parse_box(BOX), words)) <= bool(data["problems"])
    page = httpx.get(f"{live.url}/letterboxed", params=params, timeout=120)
    assert page.status_code == 200
    verdict = html.unescape(re.search(r'id="verdict">([^<]*)<', page.text).group(1))  # type: ignore[union-attr]
    shown = "–".join(words).upper()
    assert verdict == f"{'valid' if data['valid'] else 'invalid'}: {shown}"
    listed = [html.unescape(p) for p in re.findall(r"<li>([^<]*)</li>", page.text)]
    assert all(p in listed for p in data["problems"])
    assert 'id="solution"' not in page.text and 'id="optimal"' not in page.text
    assert 'id="show-all"' in page.text


@pytest.mark.slow
def test_a_valid_answer_is_compared_with_the_proven_best(live: LiveServer) -> None:
    solved = httpx.get(f"{live.url}/api/letterboxed", params={"box": BOX}, timeout=120).json()
    best = " ".join(solved["solution"])
    page = httpx.get(f"{live.url}/letterboxed", params={"box": BOX, "check": best}).text
    assert "as few words and letters as the proven best" in page


def test_a_bad_box_is_refused_when_checking_too(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/api/letterboxed", params={"box": "abc", "check": "cab"})
    assert resp.status_code == 400 and "error" in resp.json()


def test_one_dictionary_menu_for_solving_and_generating(live: LiveServer) -> None:
    """One form: Solve sends it by GET, Generate by POST to the generator, one dictionary menu
    for both (two used to sit one above the other)."""
    page = httpx.get(f"{live.url}/letterboxed").text
    assert page.count('name="dict"') == 1 and page.count("<form") == 1
    assert 'formaction="/letterboxed/generate" formmethod="post"' in page
