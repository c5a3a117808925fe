"""Subcommands imported when they are used: ``cpwords --help`` lists them without importing any.

A command's module imports its puzzle (NumPy, SciPy, OR-Tools, HiGHS: most of a second), so the
group holds each command as the module that defines it and its one-line summary. The module is
imported the first time the command is looked up (to run it, or for its own ``--help``); the
group's help prints the summaries (tests/core/test_light_start.py checks that each is the
command's own first docstring line).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping

import click


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's subcommands by name, each imported from its module when first looked up.

    Iterating gives the names without importing anything; ``commands[name]`` (and ``.get``,
    ``.items()``, ``.values()``) imports the command's module, once.

    Parameters
    ----------
    where : mapping of str to (str, str)
        Each command's name to the module that defines it (as an attribute of that name, ``-``
        read as ``_``) and its one-line summary.
    """

    def __init__(self, where: Mapping[str, tuple[str, str]]) -> None:
        self.where = dict(where)
        self._loaded: dict[str, click.Command] = {}

    def summary(self, name: str) -> str | None:
        """The one-line summary of a command not imported yet (None once it is, or unknown)."""
        if name in self._loaded or name not in self.where:
            return None
        return self.where[name][1]

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            if name not in self.where:
                raise KeyError(name)
            module = importlib.import_module(self.where[name][0])
            command = getattr(module, name.replace("-", "_"))
            if not isinstance(command, click.Command):
                raise TypeError(f"{self.where[name][0]}.{name} is not a click command")
            self._loaded[name] = command
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self._loaded and name not in self.where:
            raise KeyError(name)
        self._loaded.pop(name, None)
        self.where.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*self.where, *self._loaded}))

    def __len__(self) -> int:
        return len({*self.where, *self._loaded})

    def __contains__(self, name: object) -> bool:
        return name in self.where or name in self._loaded


class LazyGroup(click.Group):
    """A click group over :class:`LazyCommands`: its help lists the commands from their
    summaries, importing none of them."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        commands = self.commands
        if not isinstance(commands, LazyCommands):
            super().format_commands(ctx, formatter)
            return
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            summary = commands.summary(name)
            # A command not imported yet is shortened as click shortens its own first line.
            command = commands[name] if summary is None else click.Command(name, help=summary)
            if not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
