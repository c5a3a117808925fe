"""Issue 47, item 3: the Letter Boxed API's help from where the player stands answers as
``cpwords letterboxed BOX --from PLAYS [--hint N] --json`` does, key for key."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from cpwords.cli import cli
from tests.serve.conftest import LiveServer

BOX = "lua-sgc-yhk-zop"


def cli_json(*args: str) -> tuple[int, dict[str, Any]]:
    res = CliRunner().invoke(cli, ["letterboxed", BOX, *args, "--json"])
    return res.exit_code, json.loads(res.stdout)


@pytest.mark.slow
@pytest.mark.parametrize(
    "params", [{"from": "pucks"}, {"from": "PUCKS", "hint": "2"}, {"hint": "1"}, {"from": "zap"}]
)
def test_the_api_helps_as_the_command_line_does(live: LiveServer, params: dict[str, str]) -> None:
    data = httpx.get(
        f"{live.url}/api/letterboxed", params={"box": BOX, **params}, timeout=120
    ).json()
    args = [f"--{k}={v}" for k, v in params.items()]
    code, row = cli_json(*args)
    assert code == 0 and data.pop("svg").startswith("<svg")
    assert list(data) == list(row)
    assert {k: v for k, v in data.items() if k != "wall_time"} == {
        k: v for k, v in row.items() if k != "wall_time"
    }
    if "hint" in params:
        assert data["solution"] is None and data["hint"]["level"] == int(params["hint"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("params", "error"),
    [
        ({"from": "pucks hazy"}, "play 2 'hazy' does not start with 's'"),
        ({"from": "pucks", "hint": "4"}, "a hint level is 1, 2 or 3, not 4"),
    ],
)
def test_invalid_plays_are_the_command_line_error(
    live: LiveServer, params: dict[str, str], error: str
) -> None:
    resp = httpx.get(f"{live.url}/api/letterboxed", params={"box": BOX, **params}, timeout=120)
    assert resp.status_code == 400 and resp.json()["error"].startswith(error)
