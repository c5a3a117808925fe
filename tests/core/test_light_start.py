"""A light start (issue 49): ``import cpwords`` and ``cpwords --help`` load no NumPy, SciPy,
OR-Tools or HiGHS (they took 0.5 s of every start); a command's module is imported when it runs
or shows its own help."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import click
import pytest

from cpwords.cli import SUMMARIES, cli
from cpwords.cli._lazy import LazyCommands

#: What ``import cpwords`` and ``cpwords --help`` leave out.
HEAVY = ("numpy", "scipy", "ortools", "highspy")


def _loaded_after(code: str) -> tuple[list[str], list[str], str]:
    """Run ``code`` in a fresh interpreter: the heavy packages and the cpwords modules it
    loaded, and what it printed."""
    body = textwrap.indent(code, "    ")
    probe = f"""
import contextlib, io, json, sys
out = io.StringIO()
with contextlib.redirect_stdout(out):
{body}
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & {set(HEAVY)!r})
mods = sorted(m for m in sys.modules if m.startswith("cpwords"))
print(json.dumps({{"heavy": heavy, "cpwords": mods, "out": out.getvalue()}}))
"""
    res = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    seen = json.loads(res.stdout)
    return seen["heavy"], seen["cpwords"], seen["out"]


def test_import_cpwords_loads_nothing_heavy() -> None:
    heavy, modules, _ = _loaded_after("import cpwords")
    assert heavy == [] and "cpwords.wordsnake" not in modules


def test_the_help_loads_nothing_heavy_and_lists_every_command() -> None:
    code = "from cpwords.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    heavy, modules, out = _loaded_after(code)
    assert heavy == [] and not {f"cpwords.cli.{name}" for name in SUMMARIES} & set(modules)
    listed = out.split("Commands:\n", 1)[1]
    names = [line.split()[0] for line in listed.splitlines() if line.strip()]
    assert names == sorted(SUMMARIES)


def test_the_console_script_help_lists_every_command() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "cpwords", "--help"], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    for name, summary in SUMMARIES.items():
        assert f"  {name} " in res.stdout and summary in res.stdout


@pytest.mark.parametrize("name", sorted(SUMMARIES))
def test_each_summary_is_the_commands_own_first_line(name: str) -> None:
    command = cli.commands[name]
    assert isinstance(command, click.Command)
    assert command.help is not None and command.help.split("\n\n")[0] == SUMMARIES[name]


def test_a_command_is_imported_once_when_first_looked_up() -> None:
    commands = LazyCommands({"lexicons": ("cpwords.cli.lexicons", "List.")})
    assert list(commands) == ["lexicons"] and "lexicons" in commands
    assert commands.summary("lexicons") == "List."
    first = commands["lexicons"]
    assert commands["lexicons"] is first and commands.summary("lexicons") is None
    assert commands.get("nope") is None and len(commands) == 1
    del commands["lexicons"]
    assert list(commands) == []


def test_a_typo_is_told_the_nearest_command_without_importing_them() -> None:
    code = (
        "from cpwords.cli import main\ntry:\n    main(['snak'])\nexcept SystemExit as e:\n"
        "    print(e.code)"
    )
    heavy, _, out = _loaded_after(code)
    assert heavy == [] and out.strip() == "2"
