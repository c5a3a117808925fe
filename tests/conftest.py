"""Shared fixtures: the real-data folder ../shared/data, skipped with a reason when absent."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest

from cpwords.core.lexicon import shared_data_dir


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ../shared/data (real inputs nobody on the project wrote)."""
    d = shared_data_dir()
    if d is None:
        pytest.skip(
            "the real puzzle data (ENABLE, the Truncate and Letterpress lists, NYT Letter Boxed "
            "days) is absent: put the project's shared/data folder at ../shared/data beside the "
            "checkout, or name it with CPWORDS_DATA=DIR"
        )
    return d


def needs_dictionary(lang: str) -> pytest.MarkDecorator:
    """Skip a test when the curated dictionary of ``lang`` (:mod:`cpwords.core.dictionaries`)
    is not installed, with a reason naming the command that installs it."""
    from cpwords.core.dictionaries import find_dictionary

    d = find_dictionary(lang)
    return pytest.mark.skipif(
        not d.installed(), reason=f"the {d.language} dictionary is absent: {d.install}"
    )


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in this process: (exit status, stdout, stderr)."""
    from cpwords.cli import main

    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    code = exc.value.code
    return (code if isinstance(code, int) else (0 if code is None else 1)), out, err


def grid_example(top: int = 5000) -> tuple[str, str, str]:
    """A puzzle of ``cpwords grid --top TOP`` on the lexicon installed here (wamerican's words,
    or web2's where it is absent): ``(quadruple, suffix fill, full fill)`` such as
    ``("ck,ll,nd,ss", "s1=ck,s2=ll,s3=nd,s4=ss", "s1=ck,...,c=ba,...")``, the first suffix
    quadruple whose example board shows no word of the default blocklist, and that board.
    Tests derive their boards from it rather than name suffixes that only one word list
    completes."""
    return _grid_example(top, os.environ.get("CPWORDS_DICT_DIR"))


@lru_cache(maxsize=4)
def _grid_example(top: int, dict_dir: str | None) -> tuple[str, str, str]:
    from cpwords.core.blocklist import load_blocklist
    from cpwords.grid.models.listing import enumerate_quadruples
    from cpwords.grid.rules import board_words, common_tokens, load_board

    board, block = load_board(None), load_blocklist()
    listing = enumerate_quadruples(board, common_tokens(top, 2, 2, False)).quadruples
    q = next(q for q in listing if not block.any_blocked(board_words(board, q.example)))
    suffixes = dict(zip(board.suffix_slots, q.suffixes, strict=True))
    return (
        ",".join(q.suffixes),
        ",".join(f"{slot}={token}" for slot, token in suffixes.items()),
        ",".join(f"{slot}={token}" for slot, token in q.example.items()),
    )


def clear_lexicon_caches() -> None:
    """Forget every dictionary and default lexicon read so far (the tests change what is
    installed)."""
    from cpwords.core import dictionaries, languages, sources
    from cpwords.letterboxed.models import dp

    dictionaries.dictionary_lexicon.cache_clear()
    dictionaries._ranked_english.cache_clear()
    languages.language_lexicon.cache_clear()
    languages._ranked_dictionary.cache_clear()
    languages._ranked_english.cache_clear()
    dp.builtin_lexicon.cache_clear()  # default_lexicon's and whole_lexicon's
    languages.language_scripts.cache_clear()
    sources.lexicon_words.cache_clear()


def _dictionary_place() -> tuple[object, object, str | None]:
    """Where the dictionaries are read from now (a test may point them at its own files)."""
    from cpwords.core import dictionaries

    return dictionaries.DICT_DIR, dictionaries.HUNSPELL_DIR, os.environ.get("CPWORDS_DICT_DIR")


#: Where the dictionaries are read from outside any test.
_SESSION_PLACE: list[tuple[object, object, str | None]] = []

#: Whether a test ran with the dictionaries pointed elsewhere (:func:`pytest_runtest_call`).
_MOVED = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test whose fixtures point the dictionaries elsewhere (tmp folders of a few words, or
    none) reads them afresh, and the lexicons it cached are forgotten after it: a later test of
    the same worker once generated French boxes from a three-word fake ``wfrench``."""
    if not _SESSION_PLACE:
        _SESSION_PLACE.append(_dictionary_place())
    moved = _dictionary_place() != _SESSION_PLACE[0]
    if moved:
        clear_lexicon_caches()
    item.stash[_MOVED] = moved
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """After a test that moved the dictionaries (:func:`pytest_runtest_call`), once its
    fixtures are undone: forget what it cached."""
    yield
    if item.stash.get(_MOVED, False):
        clear_lexicon_caches()


# The README's test command is the fast suite (every test not marked slow); `--runslow` runs the
# whole suite. The slow tests are those over about a second on the 2-core machine: real
# dictionaries, whole-list solves, subprocess CLI runs, the browser. CI runs the fast suite as a
# fresh machine does (no shared data, no dictionaries), writing the tests that skipped
# (`--skipped-to=FILE`), then, with the data, the slow tests and those (`--runslow --only-slow=
# FILE`): together, the whole suite once, every test with the data it needs.
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (the whole suite; the default is the fast part)",
    )
    parser.addoption(
        "--skipped-to",
        metavar="FILE",
        default=None,
        help="write the node ids of the tests that skipped to FILE, one a line (give it as "
        "--skipped-to=FILE: a bare path would be taken for a test path)",
    )
    parser.addoption(
        "--only-slow",
        metavar="FILE",
        default=None,
        help="with --runslow: run only the slow tests and those FILE names (a --skipped-to "
        "file; give it as --only-slow=FILE)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        only = config.getoption("--only-slow")
        if only is None:
            return
        wanted = set(Path(only).read_text(encoding="utf-8").split())
        keep = lambda item: "slow" in item.keywords or item.nodeid in wanted  # noqa: E731
    else:
        keep = lambda item: "slow" not in item.keywords  # noqa: E731
    dropped = [item for item in items if not keep(item)]
    if dropped:  # deselected, not skipped: the summary says "N deselected" in one line
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if keep(item)]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = _SKIPPED_TO.get("path")
    if path is not None and report.skipped:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(report.nodeid + "\n")


_SKIPPED_TO: dict[str, str] = {}


def pytest_configure(config: pytest.Config) -> None:
    # A shell's background job starts with SIGINT ignored, which Python then leaves ignored: the
    # stop tests' Ctrl-C to themselves (and to the commands they start, which inherit the
    # ignoring) would never arrive, and a test waiting for it would run forever. The tests run
    # as from a terminal: Python's own handler (a child started from here gets the default).
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    path = config.getoption("--skipped-to", default=None)
    if path is not None and not hasattr(config, "workerinput"):  # pytest-xdist: the controller
        Path(path).write_text("", encoding="utf-8")  # a new list for this run
        _SKIPPED_TO["path"] = path
