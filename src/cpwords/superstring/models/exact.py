"""The shortest superstring, proven: the kept words ordered by the linear Wordsnake.

Of a substring-free list of total length ``L``, every superstring is at least ``L`` less the
largest sum of overlaps of an ordering of the words, and the ordering that achieves it gives a
superstring of exactly that length (card ``models/superstring.md``). That ordering is the
Wordsnake's with the linear score (a joint of overlap ``k`` scores ``k``), whose default method
proves it with a certificate checked by the Wordsnake's independent checker; an upper bound
``B`` on the overlaps is a lower bound ``L - B`` on the length. The bound also needs the kept
words to be substring-free: :func:`~cpwords.superstring.rules.substring_free_problem` checks it
independently of the reduction before a bound is claimed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from cpwords.core.interrupts import interrupt_name
from cpwords.core.procs import kill_group, own_group
from cpwords.core.result import SolveResult, Status
from cpwords.core.spec import solve
from cpwords.superstring.heuristics import greedy_order
from cpwords.superstring.models.reduce import Reduction, reduce_words
from cpwords.superstring.rules import SuperstringInstance, substring_free_problem
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import SPEC as WORDSNAKE

#: The Wordsnake's ``solver_info`` keys a superstring result keeps (under ``"wordsnake"``).
SNAKE_KEYS = (
    "first_bound",
    "flow_bound",
    "flow_components",
    "stages",
    "proof",
    "certificate_check",
    "certificate_check_time",
    "solver_bound",
    "bound_checked",
    "solve_time",
    "stopped",
    "certificate_error",
    "certificate_problem",
    "certificate_unchecked",
)

#: Seconds per kept letter and per kept word left after the Wordsnake for the superstring's
#: assembly, its independent check and its report, and a floor (the Wordsnake keeps nothing
#: for its own check of the ordering, which is not run here). Measured (2026-12-07, 2 cores):
#: placing every word costs about 2-4 us a word (977,555 31-mers of C. elegans: 2.2-3.5 s;
#: phage lambda's 48,472: 0.05 s), the check 0.3 s, the JSON 1 s; the Ukrainian dictionary's
#: 10.3 million kept letters took 2.9 s to place and 0.6 s to check (2026-11). The
#: substring-free check runs beside the Wordsnake, in a child process.
CHECK_SECONDS_PER_LETTER = 0.1e-6
CHECK_SECONDS_PER_WORD = 6.0e-6
CHECK_MIN_SECONDS = 0.2

#: Seconds per kept letter the Wordsnake takes to its first ordering of a k-mer set: the
#: network, the greedy matching and its repair. Measured (2026-12-08, 2 cores) on the 977,555
#: 31-mers of C. elegans (30.3 million kept letters): with ``--time-limit`` 25 and 30 it
#: stopped before its first ordering (the input order: 29,847,043 letters; a matching cut
#: short: 29,759,024), with 40 it answered 989,847 after 26.8 s. A shorter share of the limit
#: starts from the greedy superstring (:func:`start_of`).
FIRST_ORDERING_SECONDS_PER_LETTER = 0.8e-6

#: Seconds per kept letter greedy merging of a k-mer set takes to the end of its first pass,
#: which merges nearly every k-mer (:func:`~cpwords.superstring.heuristics.greedy_order`; its
#: sorting, the first 1.7 s there, cannot stop): 4.1 s on the 30.3 million kept letters of
#: C. elegans (990,973 letters); stopped at 2 s it merged nothing. A share shorter than this
#: answers the input order (:func:`start_of`).
GREEDY_SECONDS_PER_LETTER = 0.18e-6

#: Kept letters from which the substring-free check runs in a child process beside the
#: Wordsnake (below, in this process afterwards: it takes well under a second, less than a fork
#: and its pipe are worth).
SIDE_CHECK_LETTERS = 300_000


def snake_instance(reduction: Reduction, name: str) -> WordsnakeInstance:
    """The linear Wordsnake of the kept words (the model of the superstring)."""
    return WordsnakeInstance(reduction.kept, name=name, score="linear")


def solve_exact(
    instance: SuperstringInstance,
    *,
    time_limit: float | None = 600.0,
    workers: int = 2,
    seed: int = 0,
    start: float | None = None,
    progress: Callable[..., None] | None = None,
    certificate: bool = False,
) -> SolveResult:
    """The shortest superstring of ``instance``, proven (see the module docstring).

    Parameters
    ----------
    instance : SuperstringInstance
    time_limit : float or None
        Seconds for the whole call, counted from ``start``.
    workers : int
        Solver threads (the Wordsnake's core search, when it runs).
    seed : int
    start : float, optional
        ``time.perf_counter()`` at which the limit started (default: now).
    progress : callable, optional
        ``progress(elapsed, length, bound_length[, stage])``: the best superstring's length and
        the lower bound so far.
    certificate : bool
        Also return the Wordsnake certificate of the bound (of the kept words, linear score) in
        ``solver_info["certificate"]``.

    Returns
    -------
    SolveResult
        ``sense="min"``; ``objective`` the superstring's length, ``bound`` the proven lower
        bound (None when the time limit or Ctrl-C came first); ``solution`` a
        :class:`~cpwords.superstring.rules.Superstring`. OPTIMAL only when the Wordsnake's
        certificate checked VALID and the kept words checked substring-free (``proof``:
        ``"certificate"``).

    Raises
    ------
    InputError
        Bad limits, or a list too large for the memory available.
    """
    t0 = time.perf_counter() if start is None else start
    deadline = None if time_limit is None else t0 + time_limit
    try:
        red = reduce_words(instance.words, deadline)
    except DeadlineReached:
        return _nothing(t0, {"stopped": "time"})
    except KeyboardInterrupt:
        return _nothing(t0, {"interrupted": True})
    snake_limit = None
    if time_limit is not None:
        snake_limit = max(0.25 * time_limit, time_limit - assembly_reserve(red))
    hint = _begin(red, t0, None if snake_limit is None else t0 + snake_limit)
    if isinstance(hint, SolveResult):
        return hint
    beside = SideCheck(red.kept, deadline) if red.kept_letters >= SIDE_CHECK_LETTERS else None
    try:
        # The Wordsnake's seam without its own check of the ordering (check=False): the
        # superstring's checker checks the answer, every word of the list in it.
        res = solve(
            WORDSNAKE,
            snake_instance(red, instance.source),
            "auto",
            time_limit=snake_limit,
            workers=workers,
            seed=seed,
            check=False,
            start=t0,
            progress=_lengths(progress, red.kept_letters),
            core_search="mip",
            certificate=certificate,
            ordering_checked=False,
            hint=hint,
        )
        return from_snake(red, res, t0, deadline, beside, greedy_start=hint is not None)
    finally:
        if beside is not None:
            beside.close()


def assembly_reserve(red: Reduction) -> float:
    """Seconds kept at the end of the limit for the superstring's assembly, its check and its
    report: ``CHECK_MIN_SECONDS + CHECK_SECONDS_PER_LETTER * kept letters +
    CHECK_SECONDS_PER_WORD * kept words``.

    Parameters
    ----------
    red : Reduction
        The kept words (:func:`~cpwords.superstring.models.reduce.reduce_words`).

    Returns
    -------
    float
        Seconds (9.1 s for the 977,555 31-mers of C. elegans, 30.3 million letters).

    Examples
    --------
    >>> round(assembly_reserve(reduce_words(["cat", "atom", "a"])), 7)
    0.2000127
    """
    return (
        CHECK_MIN_SECONDS
        + CHECK_SECONDS_PER_LETTER * red.kept_letters
        + CHECK_SECONDS_PER_WORD * len(red.kept)
    )


def _begin(
    red: Reduction, t0: float, snake_deadline: float | None
) -> list[str] | SolveResult | None:
    """The Wordsnake's starting ordering (:func:`start_of`; None: its own), or the answer when
    it does not run (the input order: no time for it, or Ctrl-C in the greedy merging)."""
    begin = start_of(red, snake_deadline)
    if begin == "own":
        return None
    if begin == "input order":
        return _input_order(red, t0)
    try:
        return greedy_order(red.kept, snake_deadline)
    except KeyboardInterrupt:
        return _input_order(red, t0, interrupted=True)


def start_of(red: Reduction, snake_deadline: float | None) -> str:
    """Where the Wordsnake of the kept words starts, given its share of the limit: from its own
    first ordering (``"own"``: no limit, or a share that holds it,
    :data:`FIRST_ORDERING_SECONDS_PER_LETTER`), from the greedy superstring (``"greedy"``: a
    k-mer set, its words of one length, whose share is too short for that but long enough
    for greedy merging, :data:`GREEDY_SECONDS_PER_LETTER`), or not at all (``"input order"``:
    the share is spent, or a k-mer set's holds neither; the Wordsnake would only stop in its
    network, then score the input order: 977,555 31-mers of C. elegans with ``--time-limit 8``
    ended after 11.4 s so).

    Words of several lengths always start from the Wordsnake's own ordering while the share
    lasts: greedy merging keeps them through many overlap lengths (ENABLE's 94,864 kept words,
    929,335 letters: 0.91 s, 1 us a letter; the French wordfreq list's: 1.9 s), where the
    Wordsnake's first ordering takes about 0.3 us a letter (ENABLE with ``--time-limit 2``:
    its optimum 831,792 in 1.4 s; a greedy start there answered 846,580).

    Parameters
    ----------
    red : Reduction
        The kept words.
    snake_deadline : float, optional
        ``time.perf_counter()`` value at which the Wordsnake's share of the limit ends (None: no
        limit).

    Returns
    -------
    {"own", "greedy", "input order"}

    Examples
    --------
    >>> red = reduce_words(["atom", "cat", "tomb"])
    >>> start_of(red, None), start_of(red, time.perf_counter() + 60)
    ('own', 'own')
    >>> start_of(red, time.perf_counter() - 1)
    'input order'
    """
    if snake_deadline is None:
        return "own"
    left = snake_deadline - time.perf_counter()
    letters = red.kept_letters
    if left <= 0:
        return "input order"
    if left >= FIRST_ORDERING_SECONDS_PER_LETTER * letters:
        return "own"
    if len({len(w) for w in red.kept}) > 1:  # not a k-mer set: greedy merging is no faster
        return "own"
    return "greedy" if left >= GREEDY_SECONDS_PER_LETTER * letters else "input order"


def _input_order(red: Reduction, t0: float, interrupted: bool = False) -> SolveResult:
    """The kept words in input order, placed: the answer when the reduction leaves the
    Wordsnake no time (it would only build its network to return this order, 0.5 s past a 1 s
    limit on ENABLE), or Ctrl-C came during the greedy start; FEASIBLE, no bound."""
    found = red.place(list(red.kept))
    info: dict[str, Any] = {
        "kept": len(red.kept),
        "contained": red.contained,
        "kept_letters": red.kept_letters,
        "proof": None,
        "interrupted": interrupted,
        "answer": "the kept words in input order",
    }
    if not interrupted:
        info["stopped"] = "time"
    return SolveResult(
        Status.FEASIBLE,
        float(len(found.text)),
        None,
        time.perf_counter() - t0,
        found,
        "exact",
        sense="min",
        solver_info=info,
    )


def _lengths(progress: Callable[..., None] | None, total: int) -> Callable[..., None] | None:
    """The Wordsnake's progress (overlaps) as the superstring's (lengths)."""
    if progress is None:
        return None

    def report(elapsed: float, inc: float | None, bound: float | None, *stage: Any) -> None:
        progress(
            elapsed,
            None if inc is None else total - inc,
            None if bound is None else total - bound,
            *stage,
        )

    return report


def from_snake(
    red: Reduction,
    res: SolveResult,
    t0: float,
    deadline: float | None = None,
    beside: SideCheck | None = None,
    *,
    greedy_start: bool = False,
) -> SolveResult:
    """The superstring result of the linear Wordsnake's result on the kept words.

    Parameters
    ----------
    red : Reduction
    res : SolveResult
        The Wordsnake's (its ordering, its overlaps, its bound on them).
    t0 : float
        ``time.perf_counter()`` at the start (for ``wall_time``).
    deadline : float, optional
        When the substring-free check must stop (the bound is then left unclaimed).
    beside : SideCheck, optional
        The substring-free check already running (else it runs here).
    greedy_start : bool
        The Wordsnake started from the greedy superstring (:func:`start_of`): said in
        ``solver_info["greedy_start"]``.

    Returns
    -------
    SolveResult
        See :func:`solve_exact`.
    """
    snake = res.solver_info
    info: dict[str, Any] = {
        "kept": len(red.kept),
        "contained": red.contained,
        "kept_letters": red.kept_letters,
        "proof": snake.get("proof"),
        "interrupted": bool(snake.get("interrupted")),
        "wordsnake": {k: snake[k] for k in SNAKE_KEYS if k in snake},
    }
    if greedy_start:
        info["greedy_start"] = True
    if "stopped" in snake:
        info["stopped"] = snake["stopped"]
    if "certificate" in snake:
        info["certificate"] = snake["certificate"]
    if res.solution is None or res.objective is None:
        return _nothing(t0, info)
    found = red.place(list(res.solution))
    total = red.kept_letters
    bound = None if res.bound is None else total - int(res.bound)
    if bound is not None:
        problem = _kept_problem(red, deadline, info, beside)
        if problem is not None:
            bound = None
            info["bound_problem"] = problem
    status = Status.FEASIBLE
    if res.is_optimal and bound is not None and bound == len(found.text):
        status = Status.OPTIMAL
    else:
        info["proof"] = None
    return SolveResult(
        status,
        float(len(found.text)),
        None if bound is None else float(bound),
        time.perf_counter() - t0,
        found,
        "exact",
        sense="min",
        solver_info=info,
    )


def _kept_problem(
    red: Reduction, deadline: float | None, info: dict[str, Any], beside: SideCheck | None
) -> str | None:
    """Why the bound cannot be claimed (the kept words not substring-free, or no time to
    check), or None; the time spent waiting for the check in ``info``."""
    t_check = time.perf_counter()
    late = "the time limit passed before the kept words were checked substring-free"
    try:
        if beside is not None and beside.running:
            done, problem = beside.result(deadline)
            if not done:
                problem = late
        else:
            problem = substring_free_problem(red.kept, deadline)
    except TimeoutError:
        problem = late
    except KeyboardInterrupt:  # the superstring is kept, without the bound it cannot claim
        why = interrupt_name()
        problem = f"interrupted ({why}) before the kept words were checked substring-free"
        info["interrupted"] = True
    info["substring_free_wait"] = time.perf_counter() - t_check
    return problem


class SideCheck:
    """:func:`~cpwords.superstring.rules.substring_free_problem` of the kept words in a forked
    child, while the Wordsnake runs (ENABLE's kept words: 2.2 s; the Norwegian dictionary's,
    43.6 million runs of letters: 11 s, a fifth of a minute's limit).

    Parameters
    ----------
    kept : sequence of str
    deadline : float, optional
        ``time.perf_counter()`` value at which the child gives up.

    Notes
    -----
    The child has its own process group, ignores Ctrl-C and dies with its parent
    (:func:`cpwords.core.procs.own_group`); :meth:`close` kills it if it is still running.
    Without ``fork`` nothing is started and the check runs in this process afterwards.
    """

    def __init__(self, kept: Sequence[str], deadline: float | None) -> None:
        import multiprocessing

        self.kept = kept
        self.proc: Any = None
        if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover
            return
        ctx = multiprocessing.get_context("fork")
        self.recv, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_side_child, args=(kept, deadline, send, os.getpid()))
        self.proc.start()
        send.close()

    @property
    def running(self) -> bool:
        """Whether a child was started (and not closed)."""
        return self.proc is not None

    def result(self, deadline: float | None) -> tuple[bool, str | None]:
        """Wait (until ``deadline``) for the child: whether it answered, and its answer."""
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                return False, None
            if self.recv.poll(0.05 if left is None else min(0.05, left)):
                try:
                    kind, payload = self.recv.recv()
                except EOFError:  # the child died (out of memory): check here, as without one
                    self.close()
                    return True, substring_free_problem(self.kept, deadline)
                return kind == "done", payload

    def close(self) -> None:
        """Stop the child if it still runs."""
        if self.proc is None:
            return
        if self.proc.exitcode is None:
            kill_group(int(self.proc.pid or 0))
        self.proc.join()
        self.recv.close()
        self.proc = None


def _side_child(
    kept: Sequence[str], deadline: float | None, conn: Any, parent_pid: int
) -> None:  # pragma: no cover - runs in a child
    own_group(parent_pid)
    try:
        conn.send(("done", substring_free_problem(kept, deadline)))
    except TimeoutError:
        conn.send(("late", None))


def _nothing(t0: float, info: dict[str, Any]) -> SolveResult:
    """No superstring (stopped while reducing the list)."""
    return SolveResult(
        Status.UNKNOWN,
        None,
        None,
        time.perf_counter() - t0,
        None,
        "exact",
        sense="min",
        solver_info=info,
    )
