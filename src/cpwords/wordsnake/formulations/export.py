"""The exact Wordsnake models written as files other solvers read (MPS, LP, CP-SAT protobuf).

* ``.mps`` / ``.lp`` — the letter-hub integer program of
  :mod:`cpwords.wordsnake.formulations.letter_hub`
  (one binary per arc: depot arcs, explicit arcs with overlap >= 2, word-hub arcs; degree one
  at every word, balance at the hubs and the depot, at least one depot departure for a linear
  snake). Connectivity is what makes it exact. cpwords' own solver adds the cuts
  ``x(delta_in(S)) >= 1`` (node sets S without the root) lazily, so they cannot all be written
  down; the file instead carries a compact single-commodity flow (Gavish and Graves): the root
  (the depot, or the first word of a cyclic snake) sends one unit to every other word along
  chosen arcs, ``0 <= f_a <= U x_a``. With ``connectivity="none"`` the file is the relaxation
  only: its optimum is an upper bound that may exceed the Wordsnake optimum.
* ``.pb`` / ``.pbtxt`` — CP-SAT's own format. A linear snake is the maximum-weight path cover
  over the positive-overlap arcs with ``AddMultipleCircuit`` (routes through a depot: subtour
  elimination is native, the model is exact). A cyclic snake, whose optimum may be a
  Hamiltonian cycle without any zero joint, uses the letter-hub model with the same flow.

The exporter builds the models without solving them. Every file says in a header (MPS/LP
comments, ``#`` lines in ``.pbtxt``, the model name in ``.pb``) what it is and how its optimum
relates to the Wordsnake score.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError
from cpwords.wordsnake.rules import WordsnakeInstance, overlap_graph

#: File suffixes understood by :func:`export_model`, and the format each selects.
FORMATS = {".mps": "mps", ".lp": "lp", ".pb": "cpsat", ".pbtxt": "cpsat-text"}
CONNECTIVITY = ("flow", "none")


def _node_names(hg: Any, words: tuple[str, ...]) -> list[str]:
    # MPS and LP readers expect ASCII names: a word or letter of another script is named by its
    # index or code point instead.
    names = ["depot"] + [
        f"w{i + 1}_{w}" if w.isascii() else f"w{i + 1}" for i, w in enumerate(words)
    ]
    for v in range(hg.n + 1, hg.num_nodes):
        c = hg.hub_letter[v]
        names.append(f"hub_{c}" if c.isascii() else f"hub_u{ord(c):04x}")
    return names


def hub_mip(instance: WordsnakeInstance, connectivity: str = "flow") -> Any:
    """The letter-hub integer program as an unsolved ``pywraplp.Solver`` (SCIP backend).

    Parameters
    ----------
    instance : WordsnakeInstance
    connectivity : {"flow", "none"}
        ``"flow"``: add the single-commodity flow that makes the program exact (``m`` more
        continuous variables and ``num_nodes + m`` more rows); ``"none"``: the relaxation.

    Returns
    -------
    ortools.linear_solver.pywraplp.Solver
        A maximisation with ``m`` binaries ``x_*`` (``m`` = arcs of the letter-hub graph), whose
        optimum is the Wordsnake optimum (``"flow"``) or an upper bound on it (``"none"``).

    Raises
    ------
    InputError
        Unknown ``connectivity``.
    """
    from ortools.linear_solver import pywraplp

    from cpwords.wordsnake.formulations.letter_hub import DEPOT, build_hub_graph

    if connectivity not in CONNECTIVITY:
        raise InputError(f"connectivity must be one of {CONNECTIVITY}, not {connectivity!r}")
    hg = build_hub_graph(instance)
    names = _node_names(hg, instance.words)
    solver = pywraplp.Solver.CreateSolver("SCIP")
    if solver is None:  # pragma: no cover - depends on the OR-Tools build
        raise InputError("this OR-Tools build has no SCIP backend to build the model with")
    tails, heads = hg.tail.tolist(), hg.head.tolist()
    x = [solver.BoolVar(f"x_{names[t]}_{names[h]}") for t, h in zip(tails, heads, strict=True)]
    outs, ins = hg.out_arcs(), hg.in_arcs()
    inf = solver.infinity()
    for v in range(hg.num_nodes):
        if 1 <= v <= hg.n:
            out = solver.Constraint(1, 1, f"out_{names[v]}")
            inn = solver.Constraint(1, 1, f"in_{names[v]}")
            for a in outs[v]:
                out.SetCoefficient(x[a], 1)
            for a in ins[v]:
                inn.SetCoefficient(x[a], 1)
        else:
            bal = solver.Constraint(0, 0, f"balance_{names[v]}")
            for a in outs[v]:
                bal.SetCoefficient(x[a], 1)
            for a in ins[v]:
                bal.SetCoefficient(x[a], -1)
    if not hg.cyclic:
        leave = solver.Constraint(1, inf, "depot_departure")
        for a in outs[DEPOT]:
            leave.SetCoefficient(x[a], 1)
    if connectivity == "flow":
        root = hg.root
        cap = hg.n - (1 if hg.cyclic else 0)
        f = [solver.NumVar(0, cap, f"f{x[a].name()[1:]}") for a in range(hg.m)]
        for a in range(hg.m):
            link = solver.Constraint(-inf, 0, f"cap_{a}")
            link.SetCoefficient(f[a], 1)
            link.SetCoefficient(x[a], -cap)
        for v in range(hg.num_nodes):
            # inflow - outflow = demand: 1 at every word but the root, -cap at the root.
            demand = -cap if v == root else (1 if 1 <= v <= hg.n else 0)
            ct = solver.Constraint(demand, demand, f"flow_{names[v]}")
            for a in ins[v]:
                ct.SetCoefficient(f[a], 1)
            for a in outs[v]:
                ct.SetCoefficient(f[a], -1)
    obj = solver.Objective()
    for a, w in enumerate(hg.weight.tolist()):
        if w:
            obj.SetCoefficient(x[a], float(w))
    obj.SetMaximization()
    return solver


def routes_cpsat(instance: WordsnakeInstance) -> Any:
    """The path-cover model with CP-SAT's routes constraint, unsolved (linear snakes).

    Returns
    -------
    ortools.sat.python.cp_model.CpModel
        One Boolean per positive-overlap arc plus ``2n`` depot arcs (node 0); maximises the
        sum of squared overlaps. Exact for a linear snake.
    """
    from ortools.sat.python import cp_model

    n = instance.n
    model = cp_model.CpModel()
    g = overlap_graph(instance.words, proper=instance.proper, score=instance.score)
    arcs = []
    for i in range(1, n + 1):
        arcs.append((0, i, model.new_bool_var(f"start_w{i}")))
        arcs.append((i, 0, model.new_bool_var(f"end_w{i}")))
    terms = []
    for t, h, w in zip(g.tail.tolist(), g.head.tolist(), g.weight.tolist(), strict=True):
        v = model.new_bool_var(f"x_w{t + 1}_w{h + 1}")
        arcs.append((t + 1, h + 1, v))
        terms.append(w * v)
    model.add_multiple_circuit(arcs)
    model.maximize(sum(terms))
    return model


def hub_flow_cpsat(instance: WordsnakeInstance) -> Any:
    """The letter-hub model with the single-commodity flow, in CP-SAT (exact, any variant)."""
    from ortools.sat.python import cp_model

    from cpwords.wordsnake.formulations.letter_hub import DEPOT, build_hub_graph

    hg = build_hub_graph(instance)
    names = _node_names(hg, instance.words)
    model = cp_model.CpModel()
    tails, heads = hg.tail.tolist(), hg.head.tolist()
    cap = hg.n - (1 if hg.cyclic else 0)
    x = [model.new_bool_var(f"x_{names[t]}_{names[h]}") for t, h in zip(tails, heads, strict=True)]
    f = [model.new_int_var(0, cap, f"f{x[a].name[1:]}") for a in range(hg.m)]
    outs, ins = hg.out_arcs(), hg.in_arcs()
    for v in range(hg.num_nodes):
        out = [x[a] for a in outs[v]]
        inn = [x[a] for a in ins[v]]
        if 1 <= v <= hg.n:
            model.add(sum(out) == 1)
            model.add(sum(inn) == 1)
        else:
            model.add(sum(out) == sum(inn))
        demand = -cap if v == hg.root else (1 if 1 <= v <= hg.n else 0)
        model.add(sum(f[a] for a in ins[v]) - sum(f[a] for a in outs[v]) == demand)
    if not hg.cyclic:
        model.add(sum(x[a] for a in outs[DEPOT]) >= 1)
    for a in range(hg.m):
        model.add(f[a] <= cap * x[a])
    model.maximize(sum(w * x[a] for a, w in enumerate(hg.weight.tolist()) if w))
    return model


def describe(instance: WordsnakeInstance, fmt: str, connectivity: str = "flow") -> list[str]:
    """Header lines (without comment markers) saying what an exported model is."""
    kind = "cyclic" if instance.cyclic else "linear"
    head = [
        f"cpwords Wordsnake model: {instance.n} words ({kind}"
        f"{', proper overlaps' if instance.proper else ''}), instance {instance.name}",
        "Objective: maximise the sum of squared overlaps (the Wordsnake score).",
    ]
    if fmt in ("mps", "lp") or instance.cyclic:
        head += [
            "Letter-hub formulation (cpwords models/wordsnake.md): node depot, one node per word",
            "(w<i>_<word>, i = position in the input) and one hub per letter; x_<tail>_<head> = 1",
            "when the arc is used. word -> word arcs carry overlaps >= 2 (weight overlap^2);",
            "word -> hub_<c> (weight 1) and hub_<c> -> word (weight 0) carry overlaps of 1;",
            "depot arcs are zero-overlap joints and the two ends of a linear snake.",
            "Rows: in/out degree 1 at words, balance at hubs and depot, depot_departure >= 1.",
        ]
        if connectivity == "flow":
            head += [
                "Connectivity (exact): single-commodity flow f_* from the root (depot, or the",
                "first word when cyclic), one unit to every other word, f <= U x. The optimum",
                "of this file IS the Wordsnake optimum; read the order off the chosen arcs as an",
                "Euler circuit from the root.",
            ]
        else:
            head += [
                "Connectivity: NONE. This file is the relaxation without the connectivity cuts",
                "x(delta_in(S)) >= 1 for node sets S missing the root (cpwords adds them lazily).",
                "Its optimum is an UPPER BOUND on the Wordsnake score, equal to it only when the",
                "chosen arcs form one connected piece.",
            ]
    else:
        head += [
            "Maximum-weight path cover with AddMultipleCircuit: node 0 is the depot, node i the",
            "i-th word; every route depot -> ... -> depot is one piece of the snake, joined by",
            "zero-overlap joints. Subtour elimination is native: the optimum IS the optimum.",
        ]
    return head


def export_model(
    instance: WordsnakeInstance,
    path: str | os.PathLike[str],
    *,
    force: bool = False,
    connectivity: str = "flow",
) -> str:
    """Write the exact Wordsnake model for another solver; the format follows the suffix.

    Parameters
    ----------
    instance : WordsnakeInstance
    path : path-like
        ``.mps`` or ``.lp`` (letter-hub MIP), ``.pb`` or ``.pbtxt`` (CP-SAT ``CpModelProto``).
    force : bool
        Overwrite an existing file (default: refuse).
    connectivity : {"flow", "none"}
        For MPS/LP: the exact flow formulation or the relaxation (see the module docstring).

    Returns
    -------
    str
        The format written (``"mps"``, ``"lp"``, ``"cpsat"`` or ``"cpsat-text"``).

    Raises
    ------
    InputError
        Unknown suffix, existing file without ``force``, missing folder, unknown connectivity,
        or a failed write (no partial file is left).

    Notes
    -----
    Model size is O(n + number of pairs with overlap >= 2) for the letter-hub models and
    O(n + positive-overlap pairs) for the routes model.
    """
    p = Path(path)
    fmt = FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise InputError(
            f"cannot tell the model format from {p.name!r}: use one of {', '.join(FORMATS)}"
        )
    if connectivity not in CONNECTIVITY:
        raise InputError(f"connectivity must be one of {CONNECTIVITY}, not {connectivity!r}")
    if p.exists() and not force:
        raise InputError(f"{p} exists; pass --force to overwrite it")
    if not p.parent.is_dir():
        raise InputError(f"cannot write {p}: folder {p.parent} does not exist")
    tmp = p.with_name(f".{p.name}.part{p.suffix}")
    header = describe(instance, fmt, connectivity)
    try:
        if fmt in ("mps", "lp"):
            solver = hub_mip(instance, connectivity)
            if fmt == "mps":
                text = solver.ExportModelAsMpsFormat(False, False)
                mark = "*"
            else:
                text = solver.ExportModelAsLpFormat(False)
                mark = "\\"
            body = "".join(f"{mark} {line}\n" for line in header) + text
            tmp.write_text(body, encoding="ascii")
        else:
            model = hub_flow_cpsat(instance) if instance.cyclic else routes_cpsat(instance)
            if fmt == "cpsat":  # a binary file has no comments: the header is the model's name
                model.name = " | ".join(header)
            if not model.export_to_file(str(tmp)):
                raise OSError(f"CP-SAT could not write {tmp}")
            if fmt == "cpsat-text":
                body = "".join(f"# {line}\n" for line in header) + tmp.read_text("utf-8")
                tmp.write_text(body, encoding="utf-8")
        os.replace(tmp, p)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write {p}: {getattr(exc, 'strerror', None) or exc}") from None
    return fmt
