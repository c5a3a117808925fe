"""Letter Boxed as a set-cover model with chained word slots, solved by CP-SAT.

For a number of words K, choose one word class per slot 1..K (a Boolean per slot and class) so
that every box letter is covered by some slot (the set-cover rows) and each slot starts with the
letter the previous slot ends with (the chaining rows). K grows from 1 until CP-SAT finds the
model feasible; each smaller K was proven infeasible by CP-SAT, so the first feasible K is the
fewest words, and the model's optimum (fewest letters) at that K is the lexicographic optimum.
A box without any solution is proven infeasible by a second model, a set cover whose chosen
words form an Euler trail (flow balance and connectivity), which needs no K. See
``models/letterboxed.md``.

This model is the independent cross-check of the dynamic programme in
:mod:`cpwords.letterboxed.models.dp`: it builds its own word classes from the playable words and
shares no search code with it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from ortools.sat.python import cp_model

from cpwords.core.cpsat_status import Task, cpsat_status, new_solver
from cpwords.core.cpsat_stop import solve as solve_interruptibly
from cpwords.core.result import SolveResult, Status
from cpwords.letterboxed.rules import WORD_WEIGHT, LetterBox, is_playable


def _classes(box: LetterBox, words: Iterable[str]) -> list[tuple[int, int, int, str]]:
    """(first, last, letter mask, shortest word) per class, dominated classes dropped.

    A class is dominated when another with the same first and last letters covers a strict
    superset of its letters with a word no longer: swapping it in keeps every trail and cover
    and costs no more, so the optimum is unchanged.
    """
    index = {ch: i for i, ch in enumerate(box.letters)}
    best: dict[tuple[int, int, int], str] = {}
    for w in words:
        mask = 0
        for ch in w:
            mask |= 1 << index[ch]
        key = (index[w[0]], index[w[-1]], mask)
        old = best.get(key)
        if old is None or (len(w), w) < (len(old), old):
            best[key] = w
    by_pair: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for (f, last, m), w in best.items():
        by_pair.setdefault((f, last), []).append((m, w))
    out: list[tuple[int, int, int, str]] = []
    for (f, last), group in by_pair.items():
        for m, w in group:
            dominated = any(m2 != m and m2 & m == m and len(w2) <= len(w) for m2, w2 in group)
            if not dominated:
                out.append((f, last, m, w))
    out.sort()
    return out


Classes = list[tuple[int, int, int, str]]


def slot_model(classes: Classes, n: int, k: int) -> tuple[cp_model.CpModel, list[list[Any]]]:
    """The set-cover model with exactly ``k`` chained word slots.

    Returns
    -------
    (model, x)
        ``x[p][c]`` is true when slot p holds class c.
    """
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{p}_{c}") for c in range(len(classes))] for p in range(k)]
    for p in range(k):
        model.add_exactly_one(x[p])
    for p in range(k - 1):
        for v in range(n):
            ends = [x[p][c] for c, (_, last, _, _) in enumerate(classes) if last == v]
            starts = [x[p + 1][c] for c, (f, _, _, _) in enumerate(classes) if f == v]
            if starts:
                model.add(sum(starts) <= sum(ends))
    for i in range(n):
        model.add_bool_or(
            [x[p][c] for p in range(k) for c, (_, _, m, _) in enumerate(classes) if m >> i & 1]
        )
    model.minimize(
        sum(len(w) * x[p][c] for p in range(k) for c, (_, _, _, w) in enumerate(classes))
    )
    return model, x


def euler_model(classes: Classes, n: int) -> cp_model.CpModel:
    """Set cover whose chosen words form an Euler trail (feasibility only, any word count).

    Multiplicity ``y_c in [0, n]`` per class (a class is never needed more than n times in a
    shortest chain: between two uses a new letter must be covered, else a state repeats);
    balance ``out_l - in_l = s_l - t_l`` with one start and one end letter; connectivity of the
    used letters by one unit of flow from the start letter to each of them.
    """
    model = cp_model.CpModel()
    y = [model.new_int_var(0, n, f"y{c}") for c in range(len(classes))]
    x = [model.new_bool_var(f"x{c}") for c in range(len(classes))]
    for yc, xc in zip(y, x, strict=True):
        model.add(yc >= 1).only_enforce_if(xc)
        model.add(yc == 0).only_enforce_if(xc.negated())
    s = [model.new_bool_var(f"s{v}") for v in range(n)]
    t = [model.new_bool_var(f"t{v}") for v in range(n)]
    model.add_exactly_one(s)
    model.add_exactly_one(t)
    for i in range(n):
        model.add_bool_or([x[c] for c, (_, _, m, _) in enumerate(classes) if m >> i & 1])
    outs: list[list[int]] = [[] for _ in range(n)]
    ins: list[list[int]] = [[] for _ in range(n)]
    touching: list[list[int]] = [[] for _ in range(n)]
    between: dict[tuple[int, int], list[int]] = {}
    for c, (f, last, _, _) in enumerate(classes):
        outs[f].append(c)
        ins[last].append(c)
        touching[f].append(c)
        if last != f:
            touching[last].append(c)
            between.setdefault((min(f, last), max(f, last)), []).append(c)
    for v in range(n):
        model.add(sum(y[c] for c in outs[v]) - sum(y[c] for c in ins[v]) == s[v] - t[v])
    u = [model.new_bool_var(f"u{v}") for v in range(n)]
    for v in range(n):
        for c in touching[v]:
            model.add_implication(x[c], u[v])
        model.add_bool_or([x[c] for c in touching[v]]).only_enforce_if(u[v])
        model.add_implication(s[v], u[v])
    g = [model.new_int_var(0, n, f"g{v}") for v in range(n)]
    for v in range(n):
        model.add(g[v] == 0).only_enforce_if(s[v].negated())
    inflow: list[list[Any]] = [[] for _ in range(n)]
    outflow: list[list[Any]] = [[] for _ in range(n)]
    for (a, b), cs in between.items():
        e = model.new_bool_var(f"e{a}_{b}")
        model.add_bool_or([x[c] for c in cs]).only_enforce_if(e)
        for p, q in ((a, b), (b, a)):
            h = model.new_int_var(0, n, f"h{p}_{q}")
            model.add(h == 0).only_enforce_if(e.negated())
            outflow[p].append(h)
            inflow[q].append(h)
    for v in range(n):
        model.add(g[v] + sum(inflow[v]) - sum(outflow[v]) == u[v])
    return model


def solve_letterboxed_setcover(
    box: LetterBox,
    words: Sequence[str],
    *,
    time_limit: float = 120.0,
    workers: int = 1,
    seed: int = 0,
    max_slots: int = 6,
) -> SolveResult:
    """Fewest words, then fewest letters, by the chained set-cover model in CP-SAT.

    Parameters
    ----------
    box : LetterBox
    words : sequence of str
        Candidate words; the unplayable ones are dropped.
    time_limit : float
        Seconds for all CP-SAT calls together.
    workers : int
        CP-SAT search workers.
    seed : int
        CP-SAT random seed.
    max_slots : int
        Largest K tried; beyond it the Euler-trail model decides whether any solution exists.

    Returns
    -------
    SolveResult
        ``sense="min"``, ``objective = 1000 * words + letters``. OPTIMAL only when CP-SAT proved
        every K below infeasible and the K-slot optimum; INFEASIBLE when CP-SAT proved that no
        trail of playable words covers the box; FEASIBLE or UNKNOWN when a limit stopped it.
        ``bound`` is ``1000 * K`` plus CP-SAT's letter bound. Not yet verified: the ``cpsat``
        method of :func:`cpwords.letterboxed.spec.solve_letterboxed` re-checks the answer.

    Raises
    ------
    ModelError
        CP-SAT rejected a model (a bug).

    Notes
    -----
    Slot model for K words: ``x[p, c]`` Boolean, one class per slot; chaining
    ``sum_{first(c)=l} x[p+1, c] <= sum_{last(c)=l} x[p, c]``; cover ``sum_{p, c ∋ i} x[p, c]
    >= 1`` for every letter i; minimise ``sum len(c) x[p, c]``. Word classes (first, last,
    letter set) keep their shortest word, and classes dominated within their (first, last)
    pair are dropped (sound for the optimum).
    """
    t0 = time.perf_counter()
    n = box.n
    full = (1 << n) - 1
    playable = [w for w in dict.fromkeys(words) if is_playable(w, box)]
    classes = _classes(box, playable)
    info: dict[str, Any] = {
        "solver": "cp-sat",
        "ortools": version("ortools"),
        "workers": workers,
        "seed": seed,
        "time_limit": time_limit,
        "classes": len(classes),
        "playable_words": len(playable),
        "slots_tried": [],
    }
    run = _Run(t0, time_limit, workers, seed, info)
    cover_all = 0
    for _, _, m, _ in classes:
        cover_all |= m
    if not classes or cover_all != full:
        info["reason"] = "some letter is in no playable word"
        return run.result(Status.INFEASIBLE)
    for k in range(1, max_slots + 1):
        res = _solve_slots(run, classes, n, k)
        if res is not None:
            return res
    # No solution within max_slots words: does any solution exist at all?
    return _solve_euler(run, classes, n, max_slots)


@dataclass(frozen=True)
class _Run:
    """One :func:`solve_letterboxed_setcover` call: its clock, CP-SAT settings and solver_info."""

    t0: float
    time_limit: float
    workers: int
    seed: int
    info: dict[str, Any]

    def elapsed(self) -> float:
        """Seconds since the call started."""
        return time.perf_counter() - self.t0

    def result(
        self,
        status: Status,
        objective: float | None = None,
        bound: float | None = None,
        chain: list[str] | None = None,
    ) -> SolveResult:
        """The call's answer (method ``cpsat``, minimised), timed now."""
        return SolveResult(
            status, objective, bound, self.elapsed(), chain, "cpsat", "min", self.info
        )


def _solve_slots(run: _Run, classes: Classes, n: int, k: int) -> SolveResult | None:
    """Solve the ``k``-slot model: the answer, or None when CP-SAT proved ``k`` words too few."""
    info = run.info
    model, x = slot_model(classes, n, k)
    solver = new_solver(run.time_limit - run.elapsed(), run.workers, run.seed)
    code, stopped = solve_interruptibly(solver, model)
    info["slots_tried"].append([k, solver.status_name(code)])
    status = cpsat_status(code, Task.OPTIMISE, model, "slot model")
    if stopped:
        info["interrupted"] = True
    if status is Status.INFEASIBLE and not stopped:
        return None
    if status is Status.INFEASIBLE:  # proven: no k words; Ctrl-C came before k + 1
        info["reason"] = f"interrupted after proving that {k} words are not enough"
        return run.result(Status.UNKNOWN, bound=float(WORD_WEIGHT * (k + 1)))
    if status is Status.UNKNOWN:
        stop = "interrupted" if info.get("interrupted") else "time limit"
        info["reason"] = f"{stop} while trying {k} words"
        return run.result(Status.UNKNOWN)
    chain = [
        next(w for c, (_, _, _, w) in enumerate(classes) if solver.value(x[p][c])) for p in range(k)
    ]
    letters = sum(len(w) for w in chain)
    objective = float(WORD_WEIGHT * k + letters)
    if status is Status.OPTIMAL:
        bound = objective
    else:
        bound = float(WORD_WEIGHT * k + round(solver.best_objective_bound))
    info["words"] = k
    info["letters"] = letters
    return run.result(status, objective, bound, chain)


def _solve_euler(run: _Run, classes: Classes, n: int, max_slots: int) -> SolveResult:
    """With no solution of at most ``max_slots`` words: prove none exists, or say it may."""
    info = run.info
    model = euler_model(classes, n)
    solver = new_solver(run.time_limit - run.elapsed(), run.workers, run.seed)
    code, stopped = solve_interruptibly(solver, model)
    if stopped:
        info["interrupted"] = True
    info["euler_status"] = solver.status_name(code)
    if cpsat_status(code, Task.SATISFY, model, "Euler-trail model") is Status.INFEASIBLE:
        info["reason"] = "CP-SAT proved that no trail of playable words covers the box"
        return run.result(Status.INFEASIBLE)
    info["reason"] = f"solutions exist but none with at most {max_slots} words"
    return run.result(Status.UNKNOWN, bound=float(WORD_WEIGHT * (max_slots + 1)))
