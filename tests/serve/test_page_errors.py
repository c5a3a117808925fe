"""Errors on the pages name the pages' controls, never a command-line flag (issue 47, item 6):
the pages call the command line's functions, whose messages give the command line's advice."""

from __future__ import annotations

import html
import re

import click
import httpx
import pytest

from cpwords.cli import cli
from cpwords.serve.messages import page_error, page_message
from tests.serve.conftest import LiveServer

#: A command-line flag as a reader would see it in a message.
FLAG = re.compile(r"--[a-z]")


def error_line(text: str) -> str:
    m = re.search(r'id="error">error: ([^<]*)<', text)
    assert m, "no error line on the page"
    return html.unescape(m.group(1))


def every_flag() -> list[str]:
    """Every long option of every cpwords subcommand."""
    ctx = click.Context(cli)
    flags: set[str] = set()
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option):
                flags.update(o for o in (*param.opts, *param.secondary_opts) if o[:2] == "--")
    return sorted(flags)


def test_no_flag_of_the_command_line_is_left_in_a_page_message() -> None:
    flags = every_flag()
    assert len(flags) > 50 and "--skip-invalid" in flags
    for flag in flags:
        for text in (f"{flag} is wrong", f"give {flag} VALUE", f"(see {flag}).", f"x;{flag},"):
            said = page_message(text)
            assert not FLAG.search(said), (text, said)
            assert said.split()[-1].strip("(),.;")  # something still says what to change


def test_quoted_input_is_shown_as_typed() -> None:
    assert "'--lang'" in page_message("line 2 '--lang' is not a word")
    assert page_error("x" * 1000).startswith("x" * 60)  # cut as every answer is


@pytest.mark.parametrize("page", ["chain", "superstring"])
def test_a_pasted_list_with_a_bad_line_names_no_flag(live: LiveServer, page: str) -> None:
    data = {"words": "seasick\nkiln\nsea-2\nnausea\n"}
    resp = httpx.post(f"{live.url}/{page}", data=data, timeout=60)
    said = error_line(resp.text)
    assert resp.status_code == 400 and "line 3" in said and "sea-2" in said
    assert not FLAG.search(said), said
    api = httpx.post(f"{live.url}/api/{page}", data=data, timeout=60)
    assert api.status_code == 400 and api.json()["error"] == said


def test_the_grid_page_tells_an_unknown_language_by_its_field(live: LiveServer) -> None:
    resp = httpx.get(f"{live.url}/grid", params={"lang": "qu", "action": "check"}, timeout=60)
    said = error_line(resp.text)
    assert resp.status_code == 400 and "'qu'" in said and "language" in said
    assert not FLAG.search(said), said


def test_a_wordsnake_list_with_a_bad_line_names_no_flag(live: LiveServer) -> None:
    body = {"words": "alpha\nbeta\n3rd\n", "method": "exact", "time_limit": 5}
    resp = httpx.post(f"{live.url}/api/wordsnake/jobs", json=body, timeout=60)
    said = resp.json()["error"]
    assert resp.status_code == 400 and "3rd" in said
    assert not FLAG.search(said), said
