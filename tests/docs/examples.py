"""The examples of the README and the documentation pages, read from their fenced blocks.

The convention (written out for authors in ``docs/examples.md``):

- A ``bash`` block is run with ``bash -e`` in an empty folder (``cpwords`` and ``python`` are the
  package under test; ``../shared/data`` is the real-data folder when it is present). When the
  next block is a fence with no language (or ``text``), that block is the output the commands
  print on stdout: the same lines, except that a time (``0.81 s``, ``73 ms``) matches any time,
  ``index built in`` and ``index cached in`` match each other (a first run builds the index),
  and a line ``...`` stands for any number of lines (the block is an excerpt).
- A ``pycon`` block (``>>>`` prompts) is run by :mod:`doctest`; a ``python`` block is run and
  must not raise.
- An HTML comment just before a block, ``<!-- example: WORD ... -->``, says how to run it:
  ``skip: REASON`` (not run: an install, a server, an hour-long study), ``slow`` (only with
  ``--runslow``), ``data`` (needs ``../shared/data``; implied when a command names it),
  ``dictionary=LANG`` (needs that curated dictionary), ``exit=N`` (the status it ends with).

Parsing is markdown-it-py's (CommonMark), the parser the documentation site's MyST uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parents[2]
#: The pages whose examples are run: the README, the site's own pages and the included cards.
PAGES = [
    "README.md",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")),
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "models").glob("*.md")),
]
RUN_LANGS = {"bash", "console", "sh", "shell"}
OUTPUT_LANGS = {"", "text"}
PYTHON_LANGS = {"python", "pycon"}
_MARKER = re.compile(r"<!--\s*example:(.*?)-->", re.S)
#: A time as the commands print it: 0.814 s, 73 ms, 1.2 min.
_TIME = re.compile(r"\b\d[\d,]*(?:\.\d+)?\s?(?:ms|s|min)\b")
#: Whether a cached index was read or built depends on what ran before: either matches either.
_INDEX = re.compile(r"\bindex (?:built|cached) in\b")


@dataclass
class Example:
    """One runnable block of a page, with the output the page shows for it (or None)."""

    page: str
    line: int
    lang: str
    code: str
    shown: str | None = None
    skip: str | None = None
    slow: bool = False
    data: bool = False
    dictionaries: list[str] = field(default_factory=list)
    exit: int = 0

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _apply_marker(ex: Example, text: str) -> None:
    """Read the words of an ``<!-- example: ... -->`` comment into ``ex``."""
    head, _, reason = text.partition("skip:")
    if _:
        ex.skip = " ".join(reason.split()) or "marked skip"
    for word in head.split():
        if word == "slow":
            ex.slow = True
        elif word == "data":
            ex.data = True
        elif word.startswith("dictionary="):
            ex.dictionaries.append(word.partition("=")[2])
        elif word.startswith("exit="):
            ex.exit = int(word.partition("=")[2])
        else:
            raise ValueError(f"{ex.id}: unknown word {word!r} in an example comment")


def _examples_of(page: str, tokens: list[Token]) -> Iterator[Example]:
    marker: str | None = None
    for i, tok in enumerate(tokens):
        if tok.type == "html_block":
            found = _MARKER.search(tok.content)
            marker = found.group(1) if found else None
            continue
        if tok.type != "fence" or tok.info.strip() not in RUN_LANGS | PYTHON_LANGS:
            marker = None
            continue
        assert tok.map is not None
        ex = Example(page, tok.map[0] + 1, tok.info.strip(), tok.content)
        if marker is not None:
            _apply_marker(ex, marker)
        marker = None
        ex.data = ex.data or "../shared/data" in ex.code
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            ex.lang in RUN_LANGS
            and nxt is not None
            and nxt.type == "fence"
            and nxt.info.strip() in OUTPUT_LANGS
        ):
            ex.shown = nxt.content
        yield ex


def collect(pages: list[str] = PAGES) -> list[Example]:
    """Every runnable block of ``pages`` (paths relative to the repository root)."""
    md = MarkdownIt("commonmark")
    out: list[Example] = []
    for page in pages:
        out += _examples_of(page, md.parse((ROOT / page).read_text(encoding="utf-8")))
    return out


def _normalise(text: str) -> list[str]:
    lines = [
        _INDEX.sub("index <built or cached> in", _TIME.sub("<time>", line.rstrip()))
        for line in text.splitlines()
    ]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _find(chunk: list[str], lines: list[str], start: int) -> int:
    """The first index >= start where ``chunk`` occurs in ``lines`` as consecutive lines."""
    for i in range(start, len(lines) - len(chunk) + 1):
        if lines[i : i + len(chunk)] == chunk:
            return i
    return -1


def mismatch(shown: str, printed: str) -> str | None:
    """None when ``printed`` is what the page ``shown``, else what differs (one message).

    Examples
    --------
    >>> mismatch("a\\n...\\nc 0.1 s", "a\\nb\\nc 12 ms\\n") is None
    True
    >>> mismatch("a\\nc", "a\\nb\\nc")
    "the page shows 'c' at line 2, the command prints 'b'"
    """
    want, got = _normalise(shown), _normalise(printed)
    if "..." not in want:
        for n, (w, g) in enumerate(zip(want, got, strict=False), start=1):
            if w != g:
                return f"the page shows {w!r} at line {n}, the command prints {g!r}"
        if len(want) != len(got):
            return f"the page shows {len(want)} lines, the command prints {len(got)}"
        return None
    return _excerpt_mismatch(want, got)


def _excerpt_mismatch(want: list[str], got: list[str]) -> str | None:
    chunks: list[list[str]] = [[]]
    for line in want:
        if line == "...":
            chunks.append([])
        else:
            chunks[-1].append(line)
    pos = 0
    for k, chunk in enumerate(chunks):
        if not chunk:
            continue
        at = _find(chunk, got, pos)
        anchored_start = k == 0
        anchored_end = k == len(chunks) - 1
        if anchored_end and at >= 0:
            at = _find(chunk, got, max(pos, len(got) - len(chunk)))
        if at < 0 or (anchored_start and at != 0):
            return f"the printed output has no {chunk!r} where the excerpt puts it"
        pos = at + len(chunk)
    return None
