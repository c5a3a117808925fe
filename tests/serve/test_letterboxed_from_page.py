"""Issue 47, item 3: the Letter Boxed page helps from where the player stands. The words so
far typed on the page (``?from=``) give the answer of ``cpwords letterboxed BOX --from PLAYS
[--hint N]``: whether the box is still solvable, the proven fewest words that finish it, the
graded hint, the same lines; the answer stays hidden until asked for; errors are the page's."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from cpwords.letterboxed.spec import hint_text
from tests.conftest import run_cli

#: The README's box, read in ENABLE: solvable after PUCKS (in 2 more words) or ZAP.
BOX = "lua-sgc-yhk-zop"
#: A box where ZAX is a dead end: no playable word of ENABLE starts with X.
DEAD_BOX = "zfv-wat-urk-cxe"

#: Every test's Letterpress index cache is private (tests/serve/conftest.py).
pytestmark = pytest.mark.usefixtures("private_cache")


def position(page: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The page's verdict: its data (``solvable``, ``fewest``) and its lines by key."""
    m = re.search(r'<table class="kv" id="position"([^>]*)>(.*?)</table>', page, re.S)
    assert m, "no verdict on the page"
    data = {k: json.loads(html.unescape(v)) for k, v in re.findall(r'data-(\w+)="([^"]*)"', m[1])}
    lines = re.findall(r'<th>([^<]*)</th><td id="position-[^"]*"[^>]*>([^<]*)</td>', m[2])
    return data, {k: html.unescape(v) for k, v in lines}


def command(
    capsys: pytest.CaptureFixture[str], box: str, *args: str
) -> tuple[int, dict[str, Any], dict[str, str]]:
    """``cpwords letterboxed BOX --dict enable1 ARGS``: its exit status, its ``--json``
    object and its text lines by key."""
    argv = ["letterboxed", box, "--dict", "enable1", *args]
    code, out, err = run_cli([*argv, "--json"], capsys)
    row = json.loads(out)
    again, text, _ = run_cli(argv, capsys)
    assert again == code, err
    lines = dict(line.split(maxsplit=1) for line in text.splitlines() if line[:1] != " ")
    return code, row, lines


@pytest.mark.slow
@pytest.mark.parametrize(
    ("box", "query", "args"),
    [
        (BOX, {"from": "pucks"}, ["--from", "pucks"]),
        (BOX, {"from": "ZAP"}, ["--from", "ZAP"]),
        (BOX, {"from": "pucks", "hint": "1"}, ["--from", "pucks", "--hint", "1"]),
        (BOX, {"from": "pucks", "hint": "2"}, ["--from", "pucks", "--hint", "2"]),
        (BOX, {"from": "pucks", "hint": "3"}, ["--from", "pucks", "--hint", "3"]),
        (BOX, {"from": "", "hint": "1"}, ["--hint", "1"]),
        (DEAD_BOX, {"from": "zax"}, ["--from", "zax"]),
        (DEAD_BOX, {"from": "zax", "hint": "2"}, ["--from", "zax", "--hint", "2"]),
    ],
)
def test_the_page_answers_as_the_command(
    client: TestClient,
    capsys: pytest.CaptureFixture[str],
    box: str,
    query: dict[str, str],
    args: list[str],
) -> None:
    """Still solvable or not, the proven fewest more words, the hint: the command's ``--json``
    values and its text lines, on the page."""
    resp = client.get("/letterboxed", params={"box": box, "dict": "enable1", **query})
    assert resp.status_code == 200
    data, lines = position(resp.text)
    code, row, said = command(capsys, box, *args)
    assert data == {"solvable": row["solvable"], "fewest": row["num_words"]}
    assert code == (0 if row["solvable"] else 1)
    assert lines["solvable"] == said["solvable"]
    assert lines["plays"] == said["plays"]
    if row["solvable"]:
        assert lines["solvable"] == f"yes, in {row['num_words']} more words at fewest (proven)"
    else:
        assert lines["solvable"] == f"no: {row['reason']}"
    if "hint" in query and row["solvable"]:
        assert lines["hint"] == said["hint"] == hint_text(row["hint"])
        assert len(row["hint"]["first_letter"]) == 1
        assert (row["hint"]["length"] is not None) == (int(query["hint"]) >= 2)
        assert (row["hint"]["word"] is not None) == (query["hint"] == "3")
    else:
        assert "hint" not in lines
    # The finish is not given away: not said, not drawn, no list of the box's answers.
    assert "finish" not in lines and 'id="optimal"' not in resp.text
    assert 'id="solution"' not in resp.text
    played = [w.lower() for w in re.split(r"[ ,]+", query["from"]) if w]
    drawn = re.findall(r'class="word"[^>]*data-word="([^"]*)"', resp.text)
    assert drawn == played


@pytest.mark.slow
def test_show_the_finish_is_the_commands(
    client: TestClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """Show the finish: the command's finish and score lines, the plays and the finish drawn."""
    query = {"box": BOX, "dict": "enable1", "from": "pucks", "finish": "1"}
    page = client.get("/letterboxed", params=query).text
    data, lines = position(page)
    _, row, said = command(capsys, BOX, "--from", "pucks")
    assert data["fewest"] == row["num_words"] == len(row["solution"])
    assert lines == {k: said[k] for k in ("plays", "solvable", "finish", "score")}
    assert lines["finish"] == "-".join(row["solution"]).upper()
    drawn = re.findall(r'data-word="([^"]*)"', page)
    assert drawn == ["pucks", *row["solution"]]


def test_the_page_has_the_field_and_the_buttons(client: TestClient) -> None:
    """Under any box: the words-so-far field, the three hints and the finish, in one form."""
    page = client.get("/letterboxed", params={"box": BOX, "dict": "enable1"}).text
    form = re.search(r'<form[^>]*id="from-form".*?</form>', page, re.S)
    assert form
    assert 'name="from"' in form[0] and "your words so far" in form[0]
    for level in (1, 2, 3):
        assert f'name="hint" value="{level}" id="hint-{level}"' in form[0]
    assert 'name="finish" value="1" id="show-finish"' in form[0]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ({"from": "pucks hazy"}, "play 2 'hazy' does not start with 's'"),
        ({"from": "pucks", "hint": "4"}, "a hint level is 1, 2 or 3, not 4"),
        ({"from": "pucks", "hint": "x"}, "hint must be a whole number"),
        ({"from": "pucks", "box": "abc"}, "4 sides"),
    ],
)
def test_errors_are_the_pages(client: TestClient, query: dict[str, str], said: str) -> None:
    """A play that breaks a rule, a bad hint level: the page's one line, no command-line flag,
    and the box's answer still hidden."""
    resp = client.get("/letterboxed", params={"box": BOX, "dict": "enable1", **query})
    assert resp.status_code == 400
    error = html.unescape(re.search(r'id="error">error: ([^<]*)<', resp.text)[1])  # type: ignore[index]
    assert said in error and "--" not in error
    assert 'id="solution"' not in resp.text and 'id="optimal"' not in resp.text
    assert 'class="word"' not in resp.text  # the box drawn bare (or not at all)
