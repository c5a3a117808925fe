"""The baseline: a seeded randomised depth-first search, the way a player with a program tries.

From a random first word (or the fixed one), the search follows a random unused word that
begins with the last ``k`` letters of the current one, backtracks when it is stuck, and
restarts from another random word after ``restart_steps`` steps; it keeps the best chain it
saw. It proves nothing (no bound), even when it happens to try every chain of a tiny list.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from cpwords.chain.rules import ChainInstance
from cpwords.core.result import SolveResult, Status


@dataclass
class _Graph:
    """Usable words, their weights and the words that begin with each ``k``-letter string."""

    words: list[str]
    weight: list[int]
    tail: list[str]
    starts_with: dict[str, list[int]]


def _graph(words: Sequence[str], overlap: int, letters: bool) -> _Graph:
    usable = [w for w in words if len(w) >= overlap]
    starts: dict[str, list[int]] = {}
    for i, w in enumerate(usable):
        starts.setdefault(w[:overlap], []).append(i)
    weight = [len(w) if letters else 1 for w in usable]
    return _Graph(usable, weight, [w[len(w) - overlap :] for w in usable], starts)


def _walk(
    g: _Graph, first: int, end: int | None, rng: random.Random, steps: int
) -> tuple[list[int], int, int]:
    """One depth-first search from ``first`` for at most ``steps`` steps: the best chain
    (word indices; ending at ``end`` when given, else any), its value and the steps used."""
    path, used, value = [first], {first}, g.weight[first]
    best: list[int] = [first] if end is None or first == end else []
    best_value = value if best else -1
    # frames[i]: the successors of path[i], the random offset of their cyclic scan, and how
    # many of them were tried.
    frames = [_frame(g, first, end, rng)]
    done = 0
    while frames and done < steps:
        done += 1
        succ, offset, tried = frames[-1]
        nxt = -1
        while tried < len(succ) and nxt < 0:
            cand = succ[(offset + tried) % len(succ)]
            tried += 1
            nxt = -1 if cand in used else cand
        if nxt < 0:  # stuck: backtrack
            frames.pop()
            value -= g.weight[path[-1]]
            used.discard(path.pop())
            continue
        frames[-1] = (succ, offset, tried)
        used.add(nxt)
        path.append(nxt)
        value += g.weight[nxt]
        if (end is None or nxt == end) and value > best_value:
            best, best_value = list(path), value
        frames.append(_frame(g, nxt, end, rng))
    return best, best_value, done


def _frame(g: _Graph, word: int, end: int | None, rng: random.Random) -> tuple[list[int], int, int]:
    """The successors of ``word`` (none after the fixed last word), a random offset, 0 tried."""
    succ = [] if word == end else g.starts_with.get(g.tail[word], [])
    return succ, rng.randrange(len(succ)) if succ else 0, 0


def random_dfs(
    instance: ChainInstance,
    *,
    seed: int = 0,
    time_limit: float | None = None,
    steps: int = 200_000,
    restart_steps: int = 5_000,
) -> SolveResult:
    """A long chain by seeded randomised depth-first search with restarts (no proof).

    Parameters
    ----------
    instance : ChainInstance
    seed : int
        The random seed (the same seed gives the same chain).
    time_limit : float, optional
        Seconds; the search stops at the first restart after it (None: only ``steps``).
    steps : int
        Total search steps (a step follows or abandons one word).
    restart_steps : int
        Steps of one search before it restarts from another random first word.

    Returns
    -------
    SolveResult
        FEASIBLE with the best chain found (``bound`` None: a heuristic proves nothing), or
        UNKNOWN without one (a fixed last word it never reached).

    Examples
    --------
    >>> from cpwords.chain.rules import ChainInstance
    >>> r = random_dfs(ChainInstance(("seasick", "kiln", "nausea", "apple")))
    >>> r.status.value, r.objective, r.solution
    ('FEASIBLE', 4.0, ('seasick', 'kiln', 'nausea', 'apple'))
    """
    t0 = time.perf_counter()
    reverse = instance.end is not None and instance.start is None
    words = [w[::-1] for w in instance.words] if reverse else list(instance.words)
    first = instance.end if reverse else instance.start
    last = None if reverse else instance.end
    g = _graph(words, instance.overlap, instance.objective == "letters")
    index = {w: i for i, w in enumerate(g.words)}
    rng = random.Random(seed)
    best: list[int] = []
    best_value, left, restarts = -1, steps, 0
    stop = None if last is None else index[last]
    # First words left to try: a search that ends before its steps tried every chain from its
    # first word, which is then dropped (a tiny list ends as soon as all are dropped).
    pending = (
        list(range(len(g.words))) if first is None else [index[first[::-1] if reverse else first]]
    )
    while left > 0 and pending:
        pick = rng.randrange(len(pending))
        run = min(left, restart_steps)
        chain, value, used = _walk(g, pending[pick], stop, rng, run)
        left -= max(used, 1)
        restarts += 1
        if value > best_value:
            best, best_value = chain, value
        if used < run:
            pending[pick] = pending[-1]
            pending.pop()
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            break
    found = tuple(g.words[i] for i in best)
    if reverse:
        found = tuple(w[::-1] for w in reversed(found))
    info = {"seed": seed, "steps": steps - left, "restarts": restarts}
    wall = time.perf_counter() - t0
    if not found:
        return SolveResult(Status.UNKNOWN, None, None, wall, None, "random-dfs", "max", info)
    return SolveResult(
        Status.FEASIBLE, float(best_value), None, wall, found, "random-dfs", "max", info
    )
