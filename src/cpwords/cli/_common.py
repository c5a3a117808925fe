"""Small helpers shared by the subcommands: options, JSON output, time limits and progress.

One place for the command-line conventions (README, "Conventions"): the same option names and
checks (``--time-limit``, ``--workers``, ``--seed``, ``--limit``, ``--dict``), the same JSON
rules (never ``NaN``/``Infinity``), the same exit statuses, and one ticking progress display.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from cpwords.core.errors import excerpt as _excerpt
from cpwords.core.interrupts import interrupt_name
from cpwords.core.lexicon import check_language_code
from cpwords.core.result import _json_default, json_safe
from cpwords.core.result import format_value as _fmt

# The rows' shapes live in core (the serve pages print them too); re-exported here for the CLI.
from cpwords.core.rows import CHECK_KEYS as CHECK_KEYS
from cpwords.core.rows import RESULT_KEYS as RESULT_KEYS
from cpwords.core.rows import check_row as check_row
from cpwords.core.rows import result_row as result_row
from cpwords.core.rows import stop_reason as stop_reason

#: Exit statuses shared by every subcommand.
EXIT_FOUND, EXIT_NONE, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130

F = TypeVar("F", bound=Callable[..., Any])


# ---------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------


def dumps(obj: Any) -> str:
    """Strict JSON text: non-finite numbers become ``null``, never ``NaN``/``Infinity``.

    A row (a dict with string keys) is written a value at a time, as :func:`json.dumps`
    writes it, a long list of words (a whole dictionary's ordering) in one pass over it
    (:func:`_word_list_json`).

    Examples
    --------
    >>> dumps({"a": float("nan"), "w": ["ab"] * 3})
    '{"a": null, "w": ["ab", "ab", "ab"]}'
    """
    if not isinstance(obj, dict) or not obj or set(map(type, obj)) != {str}:
        return _dumps(obj)
    return "{" + ", ".join(f"{_dumps(k)}: {_dumps_value(v)}" for k, v in obj.items()) + "}"


def _dumps(obj: Any) -> str:
    return json.dumps(json_safe(obj), default=_json_default, allow_nan=False)


#: The shortest list of words :func:`dumps` writes in one pass (shorter ones: json's way).
_LONG_LIST = 1000


def _dumps_value(value: Any) -> str:
    if type(value) in (list, tuple) and len(value) >= _LONG_LIST:
        text = _word_list_json(value)
        if text is not None:
            return text
    return _dumps(value)


def _word_list_json(words: list[Any] | tuple[Any, ...]) -> str | None:
    """``json.dumps(list(words))`` of strings without a backslash or a line feed: the words
    joined by line feeds, escaped once, each escaped line feed (the only ``\\n`` there) turned
    into the list's separator; None when a word is not such a string.

    Json's own way reads each of a dictionary's words twice (``json_safe``'s types, the
    encoder's string; 0.3 s on the French list's ordering after a solve, the words scattered in
    memory), and makes an escaped copy of each.

    Examples
    --------
    >>> words = ["été", "a\\"b", "ǅ"] * 400
    >>> _word_list_json(words) == json.dumps(words), _word_list_json(["a\\nb"] * 2)
    (True, None)
    """
    try:
        joined = "\n".join(words)
    except TypeError:  # not every item is a string
        return None
    if "\\" in joined or joined.count("\n") != len(words) - 1:
        return None
    return "[" + json.dumps(joined).replace("\\n", '", "') + "]"


def echo_json(obj: Any) -> None:
    """Print ``obj`` as one strict JSON object on stdout (see :func:`dumps`)."""
    click.echo(dumps(obj))


def stop_line(stopped: str | None, time_limit: float | None, default: bool, what: str) -> str:
    """The text line that says why a solve stopped (empty when it finished).

    Parameters
    ----------
    stopped : {None, "time_limit", "interrupted", "model_too_large"}
    time_limit : float or None
        The command's limit in seconds.
    default : bool
        Whether the limit is the subcommand's default (not given on the command line): said,
        since a user who set none would not expect one.
    what : str
        What is printed ("best ordering so far").
    """
    if stopped == "interrupted":
        return f"{'stopped':<10}  interrupted ({interrupt_name()}): {what}, not proven"
    if stopped == "time_limit":
        limit = "the time limit" if time_limit is None else f"the time limit of {time_limit:g} s"
        if default:
            limit += " (the default; --time-limit sets it)"
        return f"{'stopped':<10}  by {limit}: {what}, not proven"
    if stopped == "model_too_large":
        return (
            f"{'stopped':<10}  before the model's search: too large to stop on time: {what}, "
            "not proven"
        )
    return ""


def exit_status(status: str, interrupted: bool = False) -> int:
    """The exit status of a result: 130 interrupted, else 0 with an answer (OPTIMAL or
    FEASIBLE), 1 without (INFEASIBLE, UNKNOWN)."""
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_FOUND if status in ("OPTIMAL", "FEASIBLE") else EXIT_NONE


# ---------------------------------------------------------------------------------------------
# Shared options
# ---------------------------------------------------------------------------------------------


#: The longest time limit taken (about 11.6 days): longer ones overflow the system's timers
#: (``setitimer`` raised OverflowError at 1e10 s) and mean "no limit" anyway.
MAX_SECONDS = 1e6

#: The largest ``--seed`` (CP-SAT's ``random_seed`` is a 32-bit signed integer).
MAX_SEED = 2**31 - 1


class Seconds(click.ParamType):
    """A positive, finite number of seconds, at most :data:`MAX_SECONDS` (``nan``, ``inf``, 0,
    negatives and longer limits are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            x = float(value)
        else:
            try:
                x = float(str(value).strip())
            except ValueError:
                self.fail(f"{excerpt(str(value))!r} is not a number of seconds", param, ctx)
        if not math.isfinite(x) or x <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
        if x > MAX_SECONDS:
            self.fail(
                f"{value!r} is more than the longest limit, {MAX_SECONDS:.0f} s (about 11.6 days)",
                param,
                ctx,
            )
        return x


SECONDS = Seconds()


def time_limit_option(default: float | None) -> Callable[[F], F]:
    """``--time-limit SECONDS``: positive and finite; ``default`` None means no limit."""
    return click.option(
        "--time-limit",
        type=SECONDS,
        default=default,
        show_default="no limit" if default is None else f"{default:g} s",
        help=HELP["time_limit"],
    )


def workers_option(default: int = 1) -> Callable[[F], F]:
    """``--workers N``: solver threads (at least 1)."""
    return click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=default,
        show_default=True,
        metavar="N",
        help=HELP["workers"],
    )


def seed_option() -> Callable[[F], F]:
    """``--seed N``: the random seed (0 to :data:`MAX_SEED`)."""
    return click.option(
        "--seed",
        type=click.IntRange(min=0, max=MAX_SEED),
        default=0,
        show_default=True,
        metavar="N",
        help=HELP["seed"],
    )


#: The help text of every option shared by several subcommands: one wording everywhere (the
#: defaults, which differ, are shown after it).
HELP = {
    "dict_path": "Dictionary: a file ('-': stdin; one word a line; extra columns, the Truncate "
    "'word freq score' format, and '*' marks are ignored) or, where no file has that name, a "
    "name that cpwords lexicons lists (letterpress, truncate, enable1, web2, wfrench, dict:fr, "
    "wordfreq:de:10000).",
    "limit": "Show at most N results.",
    "check_file": "Check the answer in FILE ('-': stdin) with the independent checker instead "
    "of solving (exit 1 if it is not valid).",
    "check_text": "The same, with the answer given inline.",
    "time_limit": "Stop after this many seconds (wall time of the whole command); a stopped "
    'solve prints its best answer so far and says so (JSON: stopped = "time_limit").',
    "workers": "Solver threads.",
    "seed": "Random seed (solver and randomised steps).",
    "as_json": "Print one JSON object instead of text.",
    "force": "Write even where files cpwords did not create are in the way (same-named files "
    "are replaced).",
}

#: The order of the shared options, last in every subcommand's --help (README, "Conventions").
SHARED_ORDER = tuple(k for k in HELP if k != "force")

#: Said at the end of every solving subcommand's --help.
EPILOG = (
    "Conventions, as in every cpwords command: --json prints one object that starts with "
    "status, objective, bound, gap, method, wall_time, solution, counts, verified, "
    "interrupted, stopped (a checking mode: valid, problems, solution, objective). Exit status 0 "
    "found (or a valid --check), 1 none (or an invalid --check), 2 bad input, 130 "
    "interrupted: Ctrl-C prints the best answer so far, marked interrupted."
)

#: Letterpress's default English dictionary, as --help shows it.
LETTERPRESS_LIST = "letterpress, the game's own word list (shipped with cpwords)"

#: Truncate's default English dictionary, as --help shows it.
TRUNCATE_LIST = "truncate, the game's own dictionary (shipped with cpwords)"

#: What ``--lang`` picks for a language other than English, as --help shows it.
CURATED = (
    "others: the language's curated dictionary, e.g. wfrench (cpwords lexicons lists them), "
    "or wordfreq's frequency list where it has none"
)

_NO = object()


def json_option() -> Callable[[F], F]:
    """``--json``: one JSON object on stdout instead of text."""
    return click.option("--json", "as_json", is_flag=True, help=HELP["as_json"])


def shared_options(
    *,
    dictionary: str | None = None,
    limit: str | None = None,
    check: bool = False,
    time_limit: Any = _NO,
    workers: int | None = None,
    seed: bool = False,
) -> Callable[[F], F]:
    """The options shared by the subcommands, in one order and one wording (:data:`HELP`).

    Put it last (right above the function) so they close the option list. ``dictionary``
    and ``limit`` describe the defaults (None: no such option); ``time_limit`` is the default
    seconds (None: no limit; omitted: no option); ``workers`` the default threads.
    """
    decorators: list[Callable[[F], F]] = []
    if dictionary is not None:
        decorators.append(
            click.option(
                "--dict",
                "dict_path",
                type=click.Path(dir_okay=False, allow_dash=True),
                default=None,
                metavar="FILE|NAME",
                show_default=dictionary,
                help=HELP["dict_path"],
            )
        )
    if limit is not None:
        decorators.append(
            click.option(
                "--limit",
                type=click.IntRange(min=0),
                default=None,
                metavar="N",
                show_default=limit,
                help=HELP["limit"],
            )
        )
    if check:
        decorators.append(check_options())
    if time_limit is not _NO:
        decorators.append(time_limit_option(time_limit))
    if workers is not None:
        decorators.append(workers_option(workers))
    if seed:
        decorators.append(seed_option())
    decorators.append(json_option())

    def deco(f: F) -> F:
        for d in reversed(decorators):  # the first listed ends up first in --help
            f = d(f)
        return f

    return deco


def blocklist_options() -> Callable[[F], F]:
    """``--blocklist FILE`` and ``--no-blocklist``: the words a generated puzzle must not show
    (:mod:`cpwords.core.blocklist`; the default list is on)."""

    def deco(f: F) -> F:
        f = click.option(
            "--no-blocklist",
            "no_blocklist",
            is_flag=True,
            help="Turn the default blocklist off (a --blocklist FILE still applies).",
        )(f)
        return click.option(
            "--blocklist",
            "blocklist_file",
            metavar="FILE",
            type=click.Path(),
            default=None,
            help="Words that generated puzzles must not show, one a line, on top of the "
            "default blocklist of --lang (its profanity and slurs: better-profanity's list "
            "for English, LDNOOBW's for other languages, ordinary common words left out; "
            "see cpwords.core.blocklist).",
        )(f)

    return deco


def _fold_accents_option(where: str) -> Callable[[F], F]:
    """``--fold-accents`` (the ``fold_accents`` parameter), folding the accents of ``where``."""
    return click.option(
        "--fold-accents",
        "fold_accents",
        is_flag=True,
        help=f"Fold accents (é -> e, ç -> c; ß, ø, ł stay) in {where}, for games that ignore "
        "them (off: é and e are two letters).",
    )


def lang_options(what: str) -> Callable[[F], F]:
    """``--lang CODE`` and ``--fold-accents``: the language of the puzzle and its letters
    (:mod:`cpwords.core.alphabet`; the rules are on the docs' conventions page).

    ``what`` names the built-in word list that ``--lang`` picks, for the help text. Also
    ``--proper-nouns`` (the ``proper_nouns`` parameter): keep the default dictionary's proper
    nouns, where its source marks them by a capital letter.
    """

    def deco(f: F) -> F:
        f = click.option(
            "--proper-nouns",
            "proper_nouns",
            is_flag=True,
            help="Keep the default dictionary's proper nouns (its capitalised entries: Iraq, "
            "Paris; German capitalises every noun and keeps them all). Off: they are left out.",
        )(f)
        f = _fold_accents_option("the puzzle and the word list")(f)
        return click.option(
            "--lang",
            metavar="CODE",
            default="en",
            show_default=True,
            help=f"Language (any ISO 639 code): the case rules ('tr', 'az': I -> ı, İ -> i; "
            f"letters of any script) and {what}, for the languages cpwords has a list of: "
            "ar bg bn ca cs da de el en es fa fi fil fr he hi hu id is it ja ko lt lv mk ms "
            "nb nl pl pt ro ru sh sk sl sv ta tr uk ur vi zh (others: --dict FILE).",
        )(f)

    return deco


def word_list_lang_options() -> Callable[[F], F]:
    """``--lang CODE`` (no default) and ``--fold-accents`` for the commands that read the user's
    own word list (``snake``, ``superstring``, ``chain``): the language only sets the case rules
    (:mod:`cpwords.core.alphabet`), it picks no list."""

    def deco(f: F) -> F:
        f = _fold_accents_option("the words")(f)
        return click.option(
            "--lang",
            metavar="CODE",
            default=None,
            callback=lambda _ctx, _param, code: None if code is None else check_language_code(code),
            help="Language of the words (ISO 639-1), for its case rules: 'tr' and 'az' "
            "lower-case I to dotless ı and İ to i. Words of every script are read as they are "
            "(NFC, lower case).",
        )(f)

    return deco


def skip_invalid_option() -> Callable[[F], F]:
    """``--skip-invalid``: leave out the lines of a word list that are not words (a note on
    stderr says how many and where) instead of refusing the list."""
    return click.option(
        "--skip-invalid",
        "skip_invalid",
        is_flag=True,
        help="Leave out the lines of the list that are not words (a note says how many and "
        "where); off: the list is refused, naming them.",
    )


def force_option() -> Callable[[F], F]:
    """``--force``: write into a non-empty folder cpwords did not create."""
    return click.option("--force", is_flag=True, help=HELP["force"])


def alias(value: Any, old: Any, name: str, old_name: str) -> Any:
    """Merge an option with its deprecated hidden alias (``--dict`` / ``--lexicon``)."""
    from cpwords.core.errors import InputError

    if value is not None and old is not None:
        raise InputError(f"give {name} only ({old_name} is its old name)")
    return value if value is not None else old


def reject_unused(ctx: click.Context, mode: str, names: dict[str, str]) -> None:
    """Refuse options given on the command line that do nothing in ``mode``.

    ``mode`` completes the sentence "OPTION does nothing ..." (``"without --all"``);
    ``names`` maps click parameter names to their option spelling (``{"limit": "--limit"}``).
    """
    from cpwords.core.errors import InputError

    given = [
        flag
        for name, flag in names.items()
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    ]
    if given:
        raise InputError(f"{', '.join(given)} does nothing {mode}")


excerpt = _excerpt  # at most a short excerpt of an input in a message


# ---------------------------------------------------------------------------------------------
# Files and answers given to check
# ---------------------------------------------------------------------------------------------


def check_options() -> Callable[[F], F]:
    """``--check FILE`` and ``--check-text TEXT``: the one way every subcommand takes an answer.

    ``--check`` always names a file (``-``: stdin); the same answer given inline is
    ``--check-text``. What an answer looks like is said in each command's own help.
    """

    def deco(f: F) -> F:
        f = click.option(
            "--check-text", "check_text", metavar="TEXT", default=None, help=HELP["check_text"]
        )(f)
        return click.option(
            "--check",
            "check_file",
            metavar="FILE",
            type=click.Path(dir_okay=False, allow_dash=True),
            default=None,
            help=HELP["check_file"],
        )(f)

    return deco


def read_text(path: str, what: str, option: str | None = None) -> tuple[str, str]:
    """The text of a file option (``-``: stdin; a byte-order mark is dropped) and its name.

    Raises
    ------
    InputError
        Missing file (with a hint when the value looks like an answer given inline), a
        directory, an unreadable or non-UTF-8 file.
    """
    from cpwords.core.errors import InputError
    from cpwords.core.lexicon import read_file_bytes

    if option is not None:
        require_file(path, option)
    raw = read_file_bytes(path, what)
    source = "<stdin>" if path == "-" else path
    try:
        return raw.decode("utf-8-sig"), source
    except UnicodeDecodeError:
        raise InputError(f"{what} {excerpt(source)} is not UTF-8 text") from None


def require_file(path: str, option: str) -> None:
    """Refuse a ``--check``/``--solve`` value that names no file, hinting at ``OPTION-text``."""
    from pathlib import Path

    from cpwords.core.errors import InputError

    if path != "-" and not Path(path).exists():
        raise InputError(
            f"{option} file not found: {excerpt(path)} ({option} takes a file, '-' for stdin; "
            f"give an answer inline with {option}-text)"
        )


def answer(
    file: str | None, text: str | None, what: str, option: str = "--check"
) -> tuple[str, str] | None:
    """The answer of ``--check FILE`` / ``--check-text TEXT`` as (text, source), or None."""
    from cpwords.core.errors import InputError

    if file is not None and text is not None:
        raise InputError(f"give {option} FILE or {option}-text TEXT, not both")
    if file is not None:
        return read_text(file, what, option)
    if text is not None:
        return text, f"{option}-text"
    return None


def one_stdin(values: dict[str, str | None]) -> None:
    """Refuse two file options that both read stdin (``{"--dict": "-", "--board": "-"}``)."""
    from cpwords.core.errors import InputError

    dashed = [name for name, v in values.items() if v == "-"]
    if len(dashed) > 1:
        raise InputError(f"only one input can come from stdin ('-'): {', '.join(dashed)}")


# ---------------------------------------------------------------------------------------------
# Time limits
# ---------------------------------------------------------------------------------------------


class TimeLimitReached(Exception):
    """Raised in the main thread by :func:`time_guard` when the command's time is up."""


#: When the command line started (this module is imported first thing): limits count from here.
STARTED = time.monotonic()


def begin_command(start: float | None = None) -> None:
    """Start the clock of one command line: at ``start`` (a :func:`time.monotonic` value;
    the process's first command passes its import time, so start-up counts), else now (a
    later command in the same process: tests, scripts calling :func:`cpwords.cli.main`)."""
    global STARTED
    STARTED = time.monotonic() if start is None else start


def started() -> float:
    """When the current command line started (:func:`time.monotonic`)."""
    return STARTED


class Deadline:
    """The wall-clock end of a command's ``--time-limit`` (None: no limit), counted from the
    start of the command line, so that start-up time is inside the limit."""

    def __init__(self, time_limit: float | None, start: float | None = None) -> None:
        self.time_limit = time_limit
        self.start = STARTED if start is None else start
        self.end = None if time_limit is None else self.start + time_limit

    def remaining(self, floor: float = 0.05) -> float | None:
        """Seconds left (at least ``floor``), or None without a limit."""
        if self.end is None:
            return None
        return max(floor, self.end - time.monotonic())

    def elapsed(self) -> float:
        """Seconds since the command started."""
        return time.monotonic() - self.start

    def expired(self) -> bool:
        """Whether the limit has passed."""
        return self.end is not None and time.monotonic() >= self.end


@contextmanager
def time_guard(deadline: Deadline, grace: float = 0.0) -> Iterator[None]:
    """Raise :class:`TimeLimitReached` in this block once ``deadline`` (+ ``grace``) passes.

    For pure-Python stages (loading, indexing) that have no time limit of their own. It uses
    ``SIGALRM``, so it works only in the main thread (elsewhere, and without a limit, the
    block simply runs); native code (a CP-SAT solve) is interrupted when it returns, so give
    those their own limit from :meth:`Deadline.remaining`.
    """
    left = deadline.remaining()
    if (
        left is None
        or threading.current_thread() is not threading.main_thread()
        or not hasattr(signal, "setitimer")
    ):
        yield
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise TimeLimitReached(f"time limit of {deadline.time_limit:g} s reached")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, left + grace)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ---------------------------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------------------------


class Ticker:
    """The state behind :func:`progress`: stage, counts, best incumbent, best bound, elapsed
    time.

    ``update`` may be called from any thread (solver callbacks). The bound shown never gets
    worse: with ``sense="max"`` it only decreases, with ``"min"`` it only increases; likewise
    the incumbent only improves. Without a sense, the latest values are shown.
    """

    def __init__(self, label: str, sense: str | None = None) -> None:
        if sense not in (None, "max", "min"):
            raise ValueError(f"sense must be 'max', 'min' or None, not {sense!r}")
        self.label = label
        self.sense = sense
        self.stage: str | None = None
        self.counts: str | None = None
        self.incumbent: float | None = None
        self.bound: float | None = None
        self.start = time.monotonic()
        self._lock = threading.Lock()

    def _keep(self, new: float | None, old: float | None, lower_is_better: bool) -> bool:
        if new is None or not math.isfinite(new):
            return False
        if old is None or self.sense is None:
            return True
        return new < old if lower_is_better else new > old

    def update(
        self,
        incumbent: float | None = None,
        bound: float | None = None,
        stage: str | None = None,
        counts: str | None = None,
    ) -> None:
        """Report progress; any argument left None keeps its previous value (a new stage
        starts without counts)."""
        with self._lock:
            if stage is not None and stage != self.stage:
                self.stage, self.counts = stage, None
            if counts is not None:
                self.counts = counts
            if self._keep(incumbent, self.incumbent, lower_is_better=self.sense == "min"):
                self.incumbent = incumbent
            if self._keep(bound, self.bound, lower_is_better=self.sense == "max"):
                self.bound = bound

    def elapsed(self) -> float:
        """Seconds since the display started (the clock keeps running between updates)."""
        return time.monotonic() - self.start

    def text(self) -> str:
        """One status line."""
        with self._lock:
            parts = [self.label]
            if self.stage:
                parts.append(self.stage + (f": {self.counts}" if self.counts else ""))
            parts.append(f"{self.elapsed():.1f} s")
            if self.incumbent is not None:
                parts.append(f"best {_fmt(self.incumbent)}")
            if self.bound is not None:
                parts.append(f"bound {_fmt(self.bound)}")
        return "  ".join(parts)

    def __rich__(self) -> Any:
        from rich.text import Text

        return Text(self.text(), no_wrap=True, overflow="ellipsis")  # one line, however narrow


class LineTicker(Ticker):
    """A :class:`Ticker` that prints one plain line on stderr at the start, at every new stage
    and at its first counts, then at most every :data:`LINE_EVERY` seconds as its counts change
    (``CPWORDS_PROGRESS=lines``: for logs and scripts, with or without ``--json``)."""

    def __init__(self, label: str, sense: str | None = None) -> None:
        super().__init__(label, sense)
        self.said = -math.inf  # when the last line was printed (time.monotonic)

    def say(self) -> None:
        """Print the current label, stage and counts."""
        stage = f": {self.stage}" if self.stage else ""
        counts = f": {self.counts}" if self.counts else ""
        click.echo(f"cpwords: progress: {self.label}{stage}{counts}", err=True)
        self.said = time.monotonic()

    def update(
        self,
        incumbent: float | None = None,
        bound: float | None = None,
        stage: str | None = None,
        counts: str | None = None,
    ) -> None:
        new = stage is not None and stage != self.stage
        first = counts is not None and (new or self.counts is None)
        changed = counts is not None and counts != self.counts
        super().update(incumbent, bound, stage, counts)
        if new or first or (changed and time.monotonic() - self.said >= LINE_EVERY):
            self.say()


#: Seconds between two lines of a stage's changing counts (``CPWORDS_PROGRESS=lines``).
LINE_EVERY = 1.0


@contextmanager
def progress(
    label: str,
    *,
    sense: str | None = None,
    enabled: bool = True,
    refresh: float = 4.0,
    spinner: bool = True,
) -> Iterator[Ticker]:
    """A one-line status on stderr whose elapsed time ticks on its own timer.

    Yields a :class:`Ticker`; call ``update(incumbent=None, bound=None, stage=None)`` as work
    advances. The line is redrawn ``refresh`` times a second by rich's own thread, so the clock
    moves even while the caller is busy. Silent (the ticker still records) when ``enabled`` is
    False or stderr is not a terminal. ``spinner=False``: the line alone, its stage and
    counts updated in place (for long stages that report counts). With
    ``CPWORDS_PROGRESS=lines`` in the environment it prints plain lines instead, one per stage
    and its counts now and then, always (see :class:`LineTicker`).
    """
    if os.environ.get("CPWORDS_PROGRESS") == "lines":
        lines = LineTicker(label, sense)
        lines.say()
        yield lines
        return
    ticker = Ticker(label, sense)
    if not enabled or not sys.stderr.isatty():
        yield ticker
        return
    from rich.console import Console, Group
    from rich.live import Live
    from rich.spinner import Spinner
    from rich.table import Table

    grid = Table.grid(padding=(0, 1))
    grid.add_row(*([Spinner("dots")] if spinner else []), ticker)
    with Live(
        Group(grid),
        console=Console(stderr=True),
        refresh_per_second=refresh,
        transient=True,
    ):
        yield ticker


#: The text line of each ``proof``: what an OPTIMAL answer rests on.
PROOF_LINES = {
    "certificate": "certificate, checked VALID by the independent checker",
    "highs": "HiGHS's branch-and-cut (the solver's word, not checked)",
    "scip": "SCIP's branch-and-cut (the solver's word, not checked)",
    "cp-sat": "CP-SAT's search (the solver's word, not checked)",
}
