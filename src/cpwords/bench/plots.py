"""The study report's plots (matplotlib): scores by family and size, times to proof, par.

Each ``plot_*`` writes one PNG and returns False when there is nothing to draw.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpwords.bench.analysis import Analysis, proven, score_rows, size_bins, size_label

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
    """Least-squares exponent ``b`` of ``t ~ a n^b`` (a line on log-log axes), or None when the
    fit says nothing about growth.

    None with fewer than 3 distinct sizes (a fit through two points says nothing), with sizes
    spanning less than a factor of 10, when ``b <= 0`` (time not growing with size: start-up or
    noise dominates) or when the line explains less than ``MIN_R2`` of the variance.

    Parameters
    ----------
    sizes, times : sequence of float
        Instance sizes and their (median) times; non-positive pairs are left out.

    Returns
    -------
    float or None

    Examples
    --------
    >>> round(fitted_exponent([10, 100, 1000], [0.01, 0.1, 1.0]), 6)
    1.0
    >>> fitted_exponent([10, 100, 1000], [0.3, 0.2, 0.1]) is None  # shrinking: no growth law
    True
    """
    import numpy as np

    pairs = [(float(n), float(t)) for n, t in zip(sizes, times, strict=True) if n > 0 and t > 0]
    ns = {n for n, _ in pairs}
    if len(ns) < 3 or max(ns) < 10 * min(ns):
        return None
    x = np.log([n for n, _ in pairs])
    y = np.log([t for _, t in pairs])
    b, a = np.polyfit(x, y, 1)
    residual = float(np.sum((y - (a + b * x)) ** 2))
    total = float(np.sum((y - y.mean()) ** 2))
    r2 = 1.0 - residual / total if total > 0 else 0.0
    return float(b) if b > 0 and r2 >= MIN_R2 else None


#: The least share of the variance of log time a fitted growth exponent must explain to be shown.
MIN_R2 = 0.8


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
    if not can_plot():
        return False
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
            ax.plot(
                *zip(*pts, strict=True),
                marker=_MARKERS[i % len(_MARKERS)],
                color=f"C{i % 10}",
                label=m,
                lw=1.2,
                ms=4,
            )
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


def can_plot() -> bool:
    """Whether matplotlib (the ``plots`` extra) is installed; when it is not, a report is
    written without its pictures and one note on the ``cpwords`` logger says how to get them.

    Returns
    -------
    bool
    """
    import importlib.util
    import logging

    if importlib.util.find_spec("matplotlib") is not None:
        return True
    if not _NOTED:
        _NOTED.append(True)
        logging.getLogger("cpwords").warning(
            "the report's plots are left out: matplotlib is not installed "
            "(pip install -e '.[plots]' in the cpwords checkout)"
        )
    return False


#: Whether the missing-matplotlib note was given (once per process).
_NOTED: list[bool] = []


def _figure(width: float = 7.0, height: float = 4.5) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=120, layout="constrained")
    return fig


def _legend_outside(fig: Any, ax: Any) -> None:
    """The legend beside the axes, where it hides no point (the figure widens for it)."""
    fig.set_figwidth(fig.get_figwidth() + 2.5)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside right upper", fontsize=8)


def _size_ticks(ax: Any, sizes: Sequence[int]) -> None:
    """Label a (log) size axis with the sizes themselves rather than powers of ten, spaced so
    that their labels do not overlap (each at least ``MIN_TICK_RATIO`` times the one before)."""
    from matplotlib.ticker import NullFormatter

    ticks = spaced_ticks(sizes)
    ax.set_xticks(ticks)
    ax.set_xticklabels([compact_size(t) for t in ticks])
    ax.xaxis.set_minor_formatter(NullFormatter())


def spaced_ticks(sizes: Sequence[int], most: int = 10) -> list[int]:
    """Sizes to label on a log axis: the smallest, then each one at least a fixed ratio above
    the last kept (``most`` labels at most over the axis's span, and a ratio of 1.5 at least).

    Examples
    --------
    >>> spaced_ticks([100, 200, 400, 500, 1000, 3000])
    [100, 200, 400, 1000, 3000]
    """
    ticks = sorted({int(z) for z in sizes if z > 0})
    if len(ticks) < 2:
        return ticks
    ratio = max(MIN_TICK_RATIO, (ticks[-1] / ticks[0]) ** (1 / most))
    kept = [ticks[0]]
    for t in ticks[1:]:
        if t >= kept[-1] * ratio:
            kept.append(t)
    return kept


#: The least ratio between two labelled sizes of a log axis (nearer labels overlap).
MIN_TICK_RATIO = 1.5


def compact_size(n: int) -> str:
    """A size as a short tick label.

    Examples
    --------
    >>> [compact_size(n) for n in (800, 20000, 172823, 1037915)]
    ['800', '20k', '173k', '1.04M']
    """
    if n >= 1_000_000:
        return f"{n / 1e6:.3g}M"
    if n >= 10_000:
        return f"{n / 1e3:.3g}k"
    return str(n)


def safe_name(name: str) -> str:
    """A file-name-safe form of a puzzle name."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def _jitter(i: int, k: int, spread: float) -> float:
    if k <= 1:
        return 1.0
    return 1.0 + spread * (i - (k - 1) / 2) / (k - 1)


def plot_heuristics(an: Analysis, puzzle: str, path: Path) -> bool:
    """Fraction of the optimum against instance size, one series per heuristic method."""
    if not can_plot():
        return False
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
    ax.set_xlabel(f"instance size ({size_label(an, puzzle)}; dots: single runs)")
    ax.set_ylabel("score, % of proven optimum")
    lo = min(100 * float(s.value or 0) for s in scores)
    ax.set_ylim(max(0.0, min(lo - 3, 95)), 101.5)
    ax.set_title(f"{puzzle}: heuristics as a fraction of the proven optimum")
    ax.grid(True, alpha=0.3)
    _legend_outside(fig, ax)
    fig.savefig(path)
    return True


def plot_exact_times(an: Analysis, puzzle: str, path: Path) -> bool:
    """Exact solve time against instance size, log-log, one series per formulation."""
    if not can_plot():
        return False
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
    ax.set_xlabel(f"instance size ({size_label(an, puzzle)}, log scale)")
    ax.set_ylabel("wall time, s (log scale)")
    ax.set_title(f"{puzzle}: exact solve time (dotted: time limits)")
    ax.grid(True, which="both", alpha=0.25)
    _legend_outside(fig, ax)
    fig.savefig(path)
    return True


def plot_par(recs: Sequence[tuple[str, float, float]], puzzle: str, path: Path) -> bool:
    """Bubble chart of (published par, proven optimum) pairs."""
    if not can_plot():
        return False
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
