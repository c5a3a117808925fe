"""Study rows analysed: the best known value per instance, proven optima, scores of every method.

Used by the report's tables (:mod:`cpwords.bench.report`) and plots (:mod:`cpwords.bench.plots`).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_OK = ("OPTIMAL", "FEASIBLE")


def proven(row: dict[str, Any]) -> bool:
    """Whether a row's value is proven: OPTIMAL, or an exact method's complete listing.

    A listing (every word a bag spells, every grid suffix class) is never OPTIMAL, since it
    optimises nothing, but when an exhaustive method finished it (``solver_info["complete"]``)
    its count is exact (INFEASIBLE when it is zero), and the study compares it and times it like
    a proven optimum.
    """
    if row.get("status") == "OPTIMAL":
        return True
    info = row.get("solver_info") or {}
    return bool(
        row.get("status") in ("FEASIBLE", "INFEASIBLE")
        and row.get("kind") == "exact"
        and info.get("complete")
    )


@dataclass
class InstanceRef:
    """What is known about one instance from all rows on it."""

    puzzle: str
    instance_id: str
    name: str
    size: int | None
    sense: str
    optimum: float | None = None
    best_bound: float | None = None
    best_known: float | None = None
    provers: list[str] = field(default_factory=list)
    conflict: list[float] = field(default_factory=list)
    reference: dict[str, Any] = field(default_factory=dict)
    optimum_measures: dict[str, float] = field(default_factory=dict)


@dataclass
class Analysis:
    """Rows deduplicated by key, the per-instance references, and the problems found."""

    rows: list[dict[str, Any]]
    refs: dict[tuple[str, str], InstanceRef]
    problems: list[str]
    duplicates: int


def fraction(objective: float, reference: float, sense: str) -> float:
    """Score as a fraction of ``reference`` (1 = as good; below 1 = worse), for either sense.

    Examples
    --------
    >>> fraction(45, 50, "max"), fraction(4, 2, "min")
    (0.9, 0.5)
    """
    if sense == "max":
        if reference <= 0:
            return 1.0 if objective >= reference else 0.0
        return objective / reference
    if objective <= 0:
        return 1.0
    return reference / objective


def _better(a: float, b: float, sense: str) -> bool:
    return a > b if sense == "max" else a < b


def analyse(rows: Iterable[dict[str, Any]]) -> Analysis:
    """Deduplicate rows by key and derive each instance's proven optimum and best bound.

    Returns
    -------
    Analysis
    """
    by_key: dict[str, dict[str, Any]] = {}
    n = 0
    for r in rows:
        n += 1
        by_key[r.get("key", f"row{n}")] = r
    uniq = list(by_key.values())
    problems: list[str] = []
    refs: dict[tuple[str, str], InstanceRef] = {}
    for r in uniq:
        ident = (r["puzzle"], r["instance_id"])
        ref = refs.get(ident)
        if ref is None:
            ref = refs[ident] = InstanceRef(
                puzzle=r["puzzle"],
                instance_id=r["instance_id"],
                name=r["instance"],
                size=r.get("size"),
                sense=r.get("sense", "max"),
                reference=dict(r.get("reference") or {}),
            )
        if ref.size is None and r.get("size") is not None:
            ref.size = r["size"]
        status = r.get("status")
        if status in _OK and r.get("verified") is False:
            problems.append(
                f"{r['puzzle']} {r['instance']} {r['method']} seed {r['seed']}: "
                "solution REJECTED by the independent checker (left out)"
            )
            continue
        if status in _OK and r.get("objective") is not None:
            obj = float(r["objective"])
            if ref.best_known is None or _better(obj, ref.best_known, ref.sense):
                ref.best_known = obj
        if r.get("kind") != "exact":
            continue
        if proven(r) and r.get("objective") is not None:
            obj = float(r["objective"])
            if ref.optimum is None:
                ref.optimum = obj
                ref.optimum_measures = dict(r.get("measures") or {})
            elif abs(ref.optimum - obj) > 1e-6 and obj not in ref.conflict:
                ref.conflict.extend([ref.optimum, obj] if not ref.conflict else [obj])
            ref.provers.append(r["method"])
        b = r.get("bound")
        if proven(r) and r.get("objective") is not None:
            b = r["objective"]
        if b is not None:
            b = float(b)
            if ref.best_bound is None or _better(ref.best_bound, b, ref.sense):
                ref.best_bound = b  # the tightest bound: smallest upper / largest lower
    for ref in refs.values():
        if ref.conflict:
            problems.append(
                f"{ref.puzzle} {ref.name}: exact methods prove DIFFERENT optima "
                f"{sorted(set(ref.conflict))} (instance left out of every ratio)"
            )
            ref.optimum = None
        if (
            ref.optimum is not None
            and ref.best_known is not None
            and _better(ref.best_known, ref.optimum, ref.sense)
        ):
            problems.append(
                f"{ref.puzzle} {ref.name}: a verified solution ({ref.best_known:g}) beats "
                f"the proven optimum ({ref.optimum:g})"
            )
    for r in uniq:
        if r.get("status") == "ERROR":
            problems.append(
                f"{r['puzzle']} {r['instance']} {r['method']} seed {r['seed']}: "
                f"ERROR {r.get('error', '')}"
            )
    return Analysis(uniq, refs, problems, n - len(uniq))


@dataclass
class Score:
    """One heuristic (or baseline) row scored against its instance's reference."""

    row: dict[str, Any]
    size: int | None
    value: float | None  # fraction; None when there is no solution or no reference
    basis: str  # "optimum", "bound", "none" (no reference) or "nosolution"


def score_rows(an: Analysis, puzzle: str) -> list[Score]:
    """Score every non-exact row of ``puzzle`` (and exact rows stopped before a proof)."""
    out: list[Score] = []
    for r in an.rows:
        if r["puzzle"] != puzzle or r.get("kind") == "exact" or r.get("status") == "ERROR":
            continue
        if r.get("verified") is False:
            continue
        ref = an.refs[(puzzle, r["instance_id"])]
        size = r.get("size")
        if r.get("status") not in _OK or r.get("objective") is None:
            out.append(Score(r, size, None, "nosolution"))
        elif ref.optimum is not None:
            out.append(
                Score(r, size, fraction(float(r["objective"]), ref.optimum, ref.sense), "optimum")
            )
        elif ref.best_bound is not None:
            out.append(
                Score(r, size, fraction(float(r["objective"]), ref.best_bound, ref.sense), "bound")
            )
        else:
            out.append(Score(r, size, None, "none"))
    return out


# ------------------------------------------------------------------------------------------
# Tables
# ------------------------------------------------------------------------------------------


def size_bins(sizes: Iterable[int], max_bins: int = 7) -> dict[int, tuple[str, float]]:
    """Map each size to a (label, centre) bin: the sizes themselves when there are few,
    else up to ``max_bins`` bins of about equal counts."""
    uniq = sorted(set(sizes))
    if len(uniq) <= max_bins + 1:
        return {z: (str(z), float(z)) for z in uniq}
    k = max_bins
    out: dict[int, tuple[str, float]] = {}
    for b in range(k):
        chunk = uniq[b * len(uniq) // k : (b + 1) * len(uniq) // k]
        if not chunk:
            continue
        label = f"{chunk[0]}–{chunk[-1]}" if len(chunk) > 1 else str(chunk[0])
        centre = statistics.median(chunk)
        for z in chunk:
            out[z] = (label, float(centre))
    return out


def size_label(an: Analysis, puzzle: str) -> str:
    for r in an.rows:
        if r["puzzle"] == puzzle and r.get("size_label"):
            return str(r["size_label"])
    return "size"
