"""The study report: heuristic scores against proven optima, exact solve times, published par.

Definitions used throughout (and printed at the top of every report):

* The *proven optimum* of an instance is the objective of a verified ``OPTIMAL`` row of an
  ``exact`` method on it. If two exact methods prove different optima the instance is flagged
  and left out of every ratio.
* A heuristic's *fraction of the optimum* is ``objective / optimum`` when maximising and
  ``optimum / objective`` when minimising, so 1 (100 %) means optimal and smaller is worse in
  both senses. Its *gap* is ``1 - fraction``.
* When no exact method proved the optimum, the fraction is taken against the *best dual bound*
  of the exact methods instead (the tightest one). That is a lower estimate of the true fraction
  and is always shown apart, labelled "vs bound", never mixed with the "vs optimum" figures.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..result import json_safe
from .results import read_rows

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


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f} %"


def _secs(x: float | None) -> str:
    if x is None:
        return "-"
    if x < 0.01:
        return f"{1000 * x:.1f} ms"
    return f"{x:.2f} s" if x < 100 else f"{x:.0f} s"


def _median(xs: Sequence[float]) -> float | None:
    return statistics.median(xs) if xs else None


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def heuristic_table(an: Analysis, puzzle: str) -> tuple[str, list[dict[str, Any]]]:
    """Markdown table and records: one line per heuristic/baseline method."""
    scores = score_rows(an, puzzle)
    by_method: dict[str, list[Score]] = defaultdict(list)
    for s in scores:
        by_method[s.row["method"]].append(s)
    records: list[dict[str, Any]] = []
    for method, ss in sorted(by_method.items()):
        opt = [s.value for s in ss if s.basis == "optimum" and s.value is not None]
        bnd = [s.value for s in ss if s.basis == "bound" and s.value is not None]
        times = [float(s.row["wall_time"]) for s in ss if s.row.get("wall_time") is not None]
        records.append(
            {
                "method": method,
                "kind": ss[0].row.get("kind"),
                "runs": len(ss),
                "no_solution": sum(s.basis == "nosolution" for s in ss),
                "vs_optimum_runs": len(opt),
                "median_fraction": _median(opt),
                "worst_fraction": min(opt) if opt else None,
                "at_optimum": sum(v >= 1 - 1e-9 for v in opt),
                "vs_bound_runs": len(bnd),
                "median_fraction_vs_bound": _median(bnd),
                "median_time": _median(times),
            }
        )
    header = [
        "method",
        "kind",
        "runs",
        "no solution",
        "runs vs optimum",
        "median % of optimum",
        "worst % of optimum",
        "runs at optimum",
        "runs vs bound only",
        "median % of bound (≥)",
        "median time",
    ]
    body = [
        [
            f"`{r['method']}`",
            str(r["kind"]),
            str(r["runs"]),
            str(r["no_solution"]),
            str(r["vs_optimum_runs"]),
            _pct(r["median_fraction"]),
            _pct(r["worst_fraction"]),
            f"{r['at_optimum']}/{r['vs_optimum_runs']}" if r["vs_optimum_runs"] else "-",
            str(r["vs_bound_runs"]),
            _pct(r["median_fraction_vs_bound"]),
            _secs(r["median_time"]),
        ]
        for r in records
    ]
    return _table(header, body), records


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


def heuristic_by_size_table(an: Analysis, puzzle: str) -> str:
    """Median fraction of the proven optimum per method (rows) and instance size (columns)."""
    scores = [s for s in score_rows(an, puzzle) if s.basis == "optimum" and s.value is not None]
    if not scores:
        return ""
    bins = size_bins(s.size for s in scores if s.size is not None)
    labels = list(dict.fromkeys(bins[z][0] for z in sorted(bins)))
    methods = sorted({s.row["method"] for s in scores})
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    for s in scores:
        if s.size is not None and s.value is not None:
            cells[(s.row["method"], bins[s.size][0])].append(s.value)
    body = [[f"`{m}`"] + [_pct(_median(cells.get((m, z), []))) for z in labels] for m in methods]
    label = _size_label(an, puzzle)
    return _table(["method \\ " + label, *labels], body)


def measures_table(an: Analysis, puzzle: str) -> str:
    """Per heuristic and per named part of the objective: how often it equals the optimum's
    and the median excess (only for puzzles whose rows carry ``measures``)."""
    by: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in an.rows:
        if r["puzzle"] != puzzle or r.get("kind") == "exact" or not r.get("measures"):
            continue
        ref = an.refs[(puzzle, r["instance_id"])]
        if ref.optimum is None or not ref.optimum_measures:
            continue
        for name, v in r["measures"].items():
            if name in ref.optimum_measures:
                by[(r["method"], name)].append(float(v) - float(ref.optimum_measures[name]))
    if not by:
        return ""
    names = sorted({n for _, n in by})
    body = []
    for m in sorted({m for m, _ in by}):
        cells = [f"`{m}`"]
        for n in names:
            d = by.get((m, n), [])
            med = _median(d)
            cells.append(
                f"{sum(abs(x) < 1e-9 for x in d)}/{len(d)} equal, median {med:+g}"
                if d and med is not None
                else "-"
            )
        body.append(cells)
    return _table(["method"] + [f"{n} vs the optimal solution's" for n in names], body)


def exact_table(an: Analysis, puzzle: str) -> tuple[str, list[dict[str, Any]]]:
    """Markdown table and records: one line per exact method."""
    by_method: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in an.rows:
        if r["puzzle"] == puzzle and r.get("kind") == "exact" and r.get("status") != "ERROR":
            by_method[r["method"]].append(r)
    records: list[dict[str, Any]] = []
    for method, rs in sorted(by_method.items()):
        done = [r for r in rs if proven(r) and r.get("verified") is not False]
        pt = [float(r["wall_time"]) for r in done]
        gaps = [float(r["gap"]) for r in rs if not proven(r) and r.get("gap") is not None]
        records.append(
            {
                "method": method,
                "runs": len(rs),
                "proven": len(done),
                "median_time_proven": _median(pt),
                "max_time_proven": max(pt) if pt else None,
                "largest_proven": max((r.get("size") or 0 for r in done), default=None),
                "unproven": len(rs) - len(done),
                "median_gap_unproven": _median(gaps),
                "time_limit": max((float(r.get("time_limit", 0)) for r in rs), default=None),
            }
        )
    header = [
        "method",
        "runs",
        "proven optimal",
        "median time (proven)",
        "max time (proven)",
        "largest proven " + _size_label(an, puzzle),
        "median gap (unproven)",
        "time limit",
    ]
    body = [
        [
            f"`{r['method']}`",
            str(r["runs"]),
            f"{r['proven']}/{r['runs']}",
            _secs(r["median_time_proven"]),
            _secs(r["max_time_proven"]),
            "-" if r["largest_proven"] is None else str(r["largest_proven"]),
            _pct(r["median_gap_unproven"]),
            _secs(r["time_limit"]),
        ]
        for r in records
    ]
    return _table(header, body), records


def par_records(an: Analysis, puzzle: str) -> list[tuple[str, float, float]]:
    """(instance, proven optimum, published par) for instances with both.

    When the reference names a ``par_measure`` (e.g. ``"words"``), the optimum is that part of
    the optimal result's ``measures`` rather than the whole objective.
    """
    out = []
    for ref in an.refs.values():
        if ref.puzzle != puzzle or ref.optimum is None or "par" not in ref.reference:
            continue
        measure = ref.reference.get("par_measure")
        if measure is None:
            value: float | None = ref.optimum
        else:
            value = ref.optimum_measures.get(str(measure))
        if value is not None:
            out.append((ref.name, float(value), float(ref.reference["par"])))
    return sorted(out)


def par_table(recs: Sequence[tuple[str, float, float]]) -> str:
    """Counts of (proven optimum, par) pairs."""
    counts: dict[tuple[float, float], int] = defaultdict(int)
    for _, opt, par in recs:
        counts[(opt, par)] += 1
    body = [[f"{o:g}", f"{p:g}", f"{p - o:+g}", str(c)] for (o, p), c in sorted(counts.items())]
    return _table(["proven optimum", "published par", "par − optimum", "puzzles"], body)


def _size_label(an: Analysis, puzzle: str) -> str:
    for r in an.rows:
        if r["puzzle"] == puzzle and r.get("size_label"):
            return str(r["size_label"])
    return "size"


# ------------------------------------------------------------------------------------------
# Plots (matplotlib, Agg; no global pyplot state)
# ------------------------------------------------------------------------------------------

_MARKERS = "osD^v<>phX*"


def instance_family(name: str) -> str:
    """The family of an instance: its name without the ``-n<N>`` / ``-seed<S>`` suffixes.

    Examples
    --------
    >>> instance_family("ab-n1000-seed3"), instance_family("enable-large-n10000-seed1")
    ('ab', 'enable-large')
    >>> instance_family("repeats-distinct20-n500-seed2"), instance_family("builtin-50")
    ('repeats-distinct20', 'builtin-50')
    """
    return re.sub(r"(-n\d+)?(-seed\d+)?$", "", name) or name


def gap_series(an: Analysis, puzzle: str) -> dict[str, dict[str, list[tuple[int, float]]]]:
    """Median percentage of the proven optimum by family, method and size.

    Only rows scored against a proven optimum count (never against a bound).

    Returns
    -------
    dict
        ``{family: {method: [(size, median percent), ...] sorted by size}}``.
    """
    acc: dict[str, dict[str, dict[int, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for sc in score_rows(an, puzzle):
        if sc.basis != "optimum" or sc.value is None or sc.size is None:
            continue
        r = sc.row
        acc[instance_family(r["instance"])][r["method"]][int(sc.size)].append(100.0 * sc.value)
    return {
        fam: {
            m: sorted((z, statistics.median(v)) for z, v in by_size.items())
            for m, by_size in methods.items()
        }
        for fam, methods in sorted(acc.items())
    }


def fitted_exponent(sizes: Sequence[float], times: Sequence[float]) -> float | None:
    """Least-squares exponent ``b`` of ``t ~ a n^b`` (a line on log-log axes).

    Returns None with fewer than 3 distinct sizes (a fit through two points says nothing).

    Examples
    --------
    >>> round(fitted_exponent([10, 100, 1000], [0.01, 0.1, 1.0]), 6)
    1.0
    """
    import numpy as np

    pairs = [(float(n), float(t)) for n, t in zip(sizes, times, strict=True) if n > 0 and t > 0]
    if len({n for n, _ in pairs}) < 3:
        return None
    x = np.log([n for n, _ in pairs])
    y = np.log([t for _, t in pairs])
    return float(np.polyfit(x, y, 1)[0])


def proof_time_exponents(an: Analysis, puzzle: str) -> dict[str, float | None]:
    """Per exact method, the fitted exponent of its median time to proof against size.

    Returns
    -------
    dict
        ``{method: b or None}`` over OPTIMAL rows (median time per size; None below 3 sizes).
    """
    by: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in an.rows:
        if (
            r["puzzle"] == puzzle
            and r.get("kind") == "exact"
            and proven(r)
            and r.get("size")
            and r.get("wall_time") is not None
        ):
            by[r["method"]][int(r["size"])].append(float(r["wall_time"]))
    out: dict[str, float | None] = {}
    for m, sizes in sorted(by.items()):
        zs = sorted(sizes)
        out[m] = fitted_exponent(zs, [statistics.median(sizes[z]) for z in zs])
    return out


def plot_gap_by_family(an: Analysis, puzzle: str, path: Path) -> bool:
    """Percentage of the proven optimum against size, one panel per family, one line a method."""
    series = gap_series(an, puzzle)
    if not series:
        return False
    k = len(series)
    cols = min(3, k)
    rows_n = math.ceil(k / cols)
    fig = _figure(4.2 * cols, 3.2 * rows_n)
    axes = fig.subplots(rows_n, cols, squeeze=False)
    methods = sorted({m for fam in series.values() for m in fam})
    for ax, (fam, by_method) in zip(axes.flat, series.items(), strict=False):
        for i, m in enumerate(methods):
            pts = by_method.get(m)
            if not pts:
                continue
            ax.plot(*zip(*pts, strict=True), marker=_MARKERS[i % len(_MARKERS)],
                    color=f"C{i % 10}", label=m, lw=1.2, ms=4)  # fmt: skip
        ax.set_xscale("log")
        _size_ticks(ax, [z for pts in by_method.values() for z, _ in pts])
        ax.ticklabel_format(axis="y", useOffset=False)
        ax.set_title(fam, fontsize=9)
        ax.set_ylabel("% of proven optimum", fontsize=8)
        ax.grid(True, alpha=0.25)
    for ax in list(axes.flat)[k:]:
        ax.set_visible(False)
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="outside lower center", ncols=min(6, len(labels)), fontsize=8)
    fig.suptitle(f"{puzzle}: heuristics and peers against the proven optimum, by family")
    fig.savefig(path)
    return True


def _figure(width: float = 7.0, height: float = 4.5) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=120, layout="constrained")
    return fig


def _size_ticks(ax: Any, sizes: Sequence[int]) -> None:
    """Label a (log) size axis with the sizes themselves rather than powers of ten."""
    from matplotlib.ticker import NullFormatter

    ticks = sorted(set(sizes))
    while len(ticks) > 12:
        ticks = ticks[::2] + ([ticks[-1]] if ticks[-1] not in ticks[::2] else [])
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(t) for t in ticks])
    ax.xaxis.set_minor_formatter(NullFormatter())


def _safe(name: str) -> str:
    """A file-name-safe form of a puzzle name."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def _jitter(i: int, k: int, spread: float) -> float:
    if k <= 1:
        return 1.0
    return 1.0 + spread * (i - (k - 1) / 2) / (k - 1)


def plot_heuristics(an: Analysis, puzzle: str, path: Path) -> bool:
    """Fraction of the optimum against instance size, one series per heuristic method."""
    scores = [s for s in score_rows(an, puzzle) if s.value is not None and s.size is not None]
    if not scores:
        return False
    methods = sorted({s.row["method"] for s in scores})
    fig = _figure()
    ax = fig.add_subplot()
    sizes = sorted({s.size for s in scores if s.size is not None})
    logx = len(sizes) > 1 and sizes[0] > 0 and sizes[-1] / sizes[0] >= 8
    for i, m in enumerate(methods):
        color = f"C{i % 10}"
        marker = _MARKERS[i % len(_MARKERS)]
        jit = _jitter(i, len(methods), 0.12 if logx else 0.04)
        for basis, filled in (("optimum", True), ("bound", False)):
            pts = [s for s in scores if s.row["method"] == m and s.basis == basis]
            if not pts:
                continue
            ax.scatter(
                [float(s.size or 0) * jit for s in pts],
                [100 * float(s.value or 0) for s in pts],
                marker=marker,
                s=22,
                alpha=0.55,
                facecolors=color if filled else "none",
                edgecolors=color,
                linewidths=0.9,
            )
        med = []
        bins = size_bins(int(z) for z in sizes if z is not None)
        for label in dict.fromkeys(bins[z][0] for z in sorted(bins)):
            vv = [
                float(s.value)
                for s in scores
                if s.row["method"] == m
                and s.size is not None
                and bins[s.size][0] == label
                and s.basis == "optimum"
                and s.value is not None
            ]
            centre = next(c for lab, c in bins.values() if lab == label)
            if vv:
                med.append((centre * jit, 100 * statistics.median(vv)))
        if med:
            ax.plot(
                *zip(*med, strict=True), color=color, marker=marker, lw=1.6, label=f"{m} (median)"
            )
        else:
            ax.plot([], [], color=color, marker=marker, ls="", label=m)
    if any(s.basis == "bound" for s in scores):
        ax.scatter(
            [], [], marker="o", facecolors="none", edgecolors="grey", label="hollow: vs best bound"
        )
    ax.axhline(100, color="black", lw=0.8, ls="--")
    if logx:
        ax.set_xscale("log")
    _size_ticks(ax, [int(z) for z in sizes if z is not None])
    ax.set_xlabel(f"instance size ({_size_label(an, puzzle)}; dots: single runs)")
    ax.set_ylabel("score, % of proven optimum")
    lo = min(100 * float(s.value or 0) for s in scores)
    ax.set_ylim(max(0.0, min(lo - 3, 95)), 101.5)
    ax.set_title(f"{puzzle}: heuristics as a fraction of the proven optimum")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    fig.savefig(path)
    return True


def plot_exact_times(an: Analysis, puzzle: str, path: Path) -> bool:
    """Exact solve time against instance size, log-log, one series per formulation."""
    rows = [
        r
        for r in an.rows
        if r["puzzle"] == puzzle
        and r.get("kind") == "exact"
        and r.get("status") != "ERROR"
        and r.get("size")
        and r.get("wall_time") is not None
    ]
    if not rows:
        return False
    methods = sorted({r["method"] for r in rows})
    exponents = proof_time_exponents(an, puzzle)
    fig = _figure()
    ax = fig.add_subplot()
    limits = set()
    for i, m in enumerate(methods):
        color = f"C{i % 10}"
        marker = _MARKERS[i % len(_MARKERS)]
        jit = _jitter(i, len(methods), 0.1)
        mine = [r for r in rows if r["method"] == m]
        done = [r for r in mine if proven(r)]
        unproven = [r for r in mine if not proven(r)]
        if done:
            ax.scatter(
                [r["size"] * jit for r in done],
                [max(1e-4, float(r["wall_time"])) for r in done],
                color=color,
                marker=marker,
                s=22,
                alpha=0.7,
                label=f"{m}: proven optimal"
                + ("" if exponents.get(m) is None else f" (t ~ n^{exponents[m]:.2f})"),
            )
            med = []
            for z in sorted({r["size"] for r in done}):
                ts = [float(r["wall_time"]) for r in done if r["size"] == z]
                med.append((z * jit, max(1e-4, statistics.median(ts))))
            ax.plot(*zip(*med, strict=True), color=color, lw=1.2, alpha=0.8)
        if unproven:
            ax.scatter(
                [r["size"] * jit for r in unproven],
                [max(1e-4, float(r["wall_time"])) for r in unproven],
                color=color,
                marker="x",
                s=30,
                label=f"{m}: stopped unproven",
            )
        limits |= {float(r["time_limit"]) for r in mine if r.get("time_limit")}
    for tl in sorted(limits):
        ax.axhline(tl, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    _size_ticks(ax, [int(r["size"]) for r in rows])
    ax.set_xlabel(f"instance size ({_size_label(an, puzzle)}, log scale)")
    ax.set_ylabel("wall time, s (log scale)")
    ax.set_title(f"{puzzle}: exact solve time (dotted: time limits)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8, loc="upper left")
    fig.savefig(path)
    return True


def plot_par(recs: Sequence[tuple[str, float, float]], puzzle: str, path: Path) -> bool:
    """Bubble chart of (published par, proven optimum) pairs."""
    if not recs:
        return False
    counts: dict[tuple[float, float], int] = defaultdict(int)
    for _, opt, par in recs:
        counts[(par, opt)] += 1
    fig = _figure(6.0, 4.5)
    ax = fig.add_subplot()
    xs, ys, cs = zip(*[(p, o, c) for (p, o), c in sorted(counts.items())], strict=True)
    ax.scatter(xs, ys, s=[60 + 90 * math.sqrt(c) for c in cs], alpha=0.6, color="C0")
    for x, y, c in zip(xs, ys, cs, strict=True):
        ax.annotate(str(c), (x, y), ha="center", va="center", fontsize=8)
    lo = min(min(xs), min(ys)) - 0.5
    hi = max(max(xs), max(ys)) + 0.5
    ax.plot([lo, hi], [lo, hi], color="black", lw=0.8, ls="--", label="optimum = par")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("published par (words)")
    ax.set_ylabel("proven optimum (words)")
    ax.set_title(f"{puzzle}: proven optimum vs the newspaper's par ({len(recs)} puzzles)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.savefig(path)
    return True


# ------------------------------------------------------------------------------------------
# The report
# ------------------------------------------------------------------------------------------


#: Written into every report folder: the mark that cpwords made it and may write there again.
MARKER = ".cpwords-report"


def validate_report_dir(out_dir: str | Path, force: bool = False) -> Path:
    """Refuse to write a report into a folder cpwords did not create.

    A folder is writable when it is absent, empty, or holds the :data:`MARKER` file of an
    earlier report; anything else belongs to the user and is refused unless ``force``.

    Raises
    ------
    InputError
        ``out_dir`` is a file, or a non-empty folder without the marker (and not ``force``).
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    if (
        not force
        and out.is_dir()
        and not (out / MARKER).is_file()
        and any(True for _ in out.iterdir())
    ):
        raise InputError(
            f"{out} is a non-empty folder cpwords did not create; refusing to write a report "
            "there (give a new or empty folder, or --force to write into it anyway)"
        )
    return out


def write_report(
    results: Sequence[str | Path],
    out_dir: str | Path,
    title: str = "Heuristics versus optima",
    *,
    force: bool = False,
) -> Path:
    """Write ``report.md``, ``summary.json`` and the PNG plots into ``out_dir``.

    Parameters
    ----------
    results : sequence of path-like
        One or more results files written by :func:`cpwords.bench.run_tasks`.
    out_dir : path-like
        Folder to write into (created if needed). A non-empty folder must hold the marker
        of an earlier cpwords report (see :func:`validate_report_dir`).
    title : str
    force : bool
        Write into a non-empty folder cpwords did not create (its files of the same names
        are replaced).

    Returns
    -------
    Path
        The path of ``report.md``.

    Raises
    ------
    InputError
        No results file, a file that is not a results file, ``out_dir`` being a file or a
        folder cpwords did not create, or no row at all.
    """
    if not results:
        raise InputError("no results file given")
    out = validate_report_dir(out_dir, force)
    rows: list[dict[str, Any]] = []
    for p in results:
        rows.extend(read_rows(p))
    if not rows:
        raise InputError(f"no rows in {', '.join(str(p) for p in results)}")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(
        "This folder holds a report written by cpwords; cpwords may overwrite it.\n",
        encoding="utf-8",
    )
    an = analyse(rows)
    summary: dict[str, Any] = {"generated": _now(), "sources": [str(p) for p in results]}
    md: list[str] = [f"# {title}", ""]
    md += _preamble(an, results)
    puzzles = sorted({r["puzzle"] for r in an.rows})
    summary["puzzles"] = {}
    for puzzle in puzzles:
        md += _puzzle_section(an, puzzle, out, summary["puzzles"])
    md += ["## Problems found", ""]
    if an.problems:
        shown = sorted(an.problems)
        md += [f"- {p}" for p in shown[:60]]
        if len(shown) > 60:
            md.append(f"- ... and {len(shown) - 60} more (see summary.json)")
    else:
        md += [
            "None: every solution passed its puzzle's independent checker, no heuristic beat a "
            "proven optimum, exact methods agree, no task failed."
        ]
    md.append("")
    summary["problems"] = an.problems
    report = out / "report.md"
    report.write_text("\n".join(md), encoding="utf-8")
    (out / "summary.json").write_text(
        json.dumps(json_safe(summary), indent=1, default=str, allow_nan=False), encoding="utf-8"
    )
    return report


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def _preamble(an: Analysis, results: Sequence[str | Path]) -> list[str]:
    envs = {json.dumps(r.get("env", {}), sort_keys=True) for r in an.rows}
    machines = []
    for e in sorted(envs):
        d = json.loads(e)
        if d:
            machines.append(
                f"{d.get('host', '?')} ({d.get('nproc', '?')} CPUs, {d.get('platform', '?')}), "
                f"Python {d.get('python', '?')}, OR-Tools {d.get('ortools', '?')}, "
                f"cpwords {d.get('cpwords', '?')}"
            )
    dates = sorted(r["finished_at"] for r in an.rows if r.get("finished_at"))
    lines = [
        f"Generated {_now()} from {', '.join(f'`{Path(p).name}`' for p in results)}: "
        f"{len(an.rows)} rows"
        + (f" ({an.duplicates} duplicate rows ignored)" if an.duplicates else "")
        + (f", run {dates[0]} to {dates[-1]}" if dates else "")
        + ".",
        "",
        "Machine: " + ("; ".join(machines) if machines else "unknown") + ".",
        "",
        "How to read: a heuristic's score is shown as a fraction of the **proven optimum** "
        "(`objective / optimum` when maximising, `optimum / objective` when minimising; 100 % = "
        "optimal). The proven optimum comes only from a verified OPTIMAL result of an exact "
        "method on the same instance. Where no exact method finished its proof, the score is "
        "taken against the **best dual bound** instead; those figures are lower estimates, "
        "labelled *vs bound* and never pooled with the others. Times are wall-clock seconds of "
        "one task; tasks ran in parallel on shared cores, so they are noisy.",
        "",
    ]
    return lines


def _puzzle_section(an: Analysis, puzzle: str, out: Path, summary: dict[str, Any]) -> list[str]:
    refs = [r for r in an.refs.values() if r.puzzle == puzzle]
    sizes = [r.size for r in refs if r.size is not None]
    proven = sum(r.optimum is not None for r in refs)
    label = _size_label(an, puzzle)
    md = [
        f"## {puzzle}",
        "",
        f"{len(refs)} instances"
        + (f" of {min(sizes)} to {max(sizes)} {label}" if sizes else "")
        + f"; proven optimum on {proven} of them.",
        "",
    ]
    psum: dict[str, Any] = {"instances": len(refs), "proven": proven}
    htab, hrec = heuristic_table(an, puzzle)
    psum["heuristics"] = hrec
    if hrec:
        md += ["### Heuristics and baselines against the proven optimum", "", htab, ""]
        bysize = heuristic_by_size_table(an, puzzle)
        if bysize:
            md += ["Median % of the proven optimum by instance size:", "", bysize, ""]
        mtab = measures_table(an, puzzle)
        if mtab:
            md += ["The parts of the objective, against the proven optimal solution:", "", mtab, ""]
        png = out / f"{_safe(puzzle)}-heuristics.png"
        if plot_heuristics(an, puzzle, png):
            md += [f"![{puzzle} heuristics]({png.name})", ""]
        png = out / f"{_safe(puzzle)}-gap-by-family.png"
        if plot_gap_by_family(an, puzzle, png):
            md += [f"![{puzzle} % of the optimum by family and size]({png.name})", ""]
    etab, erec = exact_table(an, puzzle)
    psum["exact"] = erec
    if erec:
        md += ["### Exact methods", "", etab, ""]
        exps = proof_time_exponents(an, puzzle)
        psum["proof_time_exponent"] = exps
        fitted = [f"`{m}` {b:.2f}" for m, b in exps.items() if b is not None]
        if fitted:
            md += [
                "Time to proof grows as n^b (least squares on log-log medians, sizes with a "
                "proof only): " + ", ".join(fitted) + ".",
                "",
            ]
        png = out / f"{_safe(puzzle)}-exact-time.png"
        if plot_exact_times(an, puzzle, png):
            md += [f"![{puzzle} exact solve times]({png.name})", ""]
    recs = par_records(an, puzzle)
    if recs:
        below = sum(o < p for _, o, p in recs)
        equal = sum(o == p for _, o, p in recs)
        above = sum(o > p for _, o, p in recs)
        psum["par"] = {"puzzles": len(recs), "below": below, "equal": equal, "above": above}
        md += [
            "### Proven optimum against the published par",
            "",
            f"Over {len(recs)} real puzzles with a proven optimum: optimum below par on {below}, "
            f"equal on {equal}, above on {above}.",
            "",
            par_table(recs),
            "",
        ]
        png = out / f"{_safe(puzzle)}-par.png"
        if plot_par(recs, puzzle, png):
            md += [f"![{puzzle} optimum vs par]({png.name})", ""]
    summary[puzzle] = psum
    return md
