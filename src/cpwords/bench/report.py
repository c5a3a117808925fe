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
import os
import statistics
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpwords.bench.analysis import (
    Analysis,
    Score,
    analyse,
    proven,
    score_rows,
    size_bins,
    size_label,
)
from cpwords.bench.plots import (
    MIN_R2,
    plot_exact_times,
    plot_gap_by_family,
    plot_heuristics,
    plot_par,
    proof_time_exponents,
    safe_name,
)
from cpwords.bench.results import read_rows
from cpwords.core.errors import InputError
from cpwords.core.result import json_safe


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
    label = size_label(an, puzzle)
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
                "certified": sum(r.get("certified") == "VALID" for r in rs),
                "certified_partial": sum(r.get("certified") == "PARTIAL" for r in rs),
                "certificates": sum("certified" in r for r in rs),
            }
        )
    header = [
        "method",
        "runs",
        "proven optimal",
        "median time (proven)",
        "max time (proven)",
        "largest proven " + size_label(an, puzzle),
        "median gap (unproven)",
        "time limit",
    ]
    certifying = any(r["certificates"] for r in records)
    if certifying:
        header.append("certified (VALID / PARTIAL)")
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
        + (
            [f"{r['certified']} / {r['certified_partial']} of {r['certificates']}"]
            if certifying
            else []
        )
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


# ------------------------------------------------------------------------------------------
# Plots (matplotlib, Agg; no global pyplot state)
# ------------------------------------------------------------------------------------------


MARKER = ".cpwords-report"


def validate_report_dir(out_dir: str | Path, force: bool = False) -> Path:
    """Refuse to write a report into a folder cpwords did not create.

    A folder is writable when it is absent, empty, or holds the :data:`MARKER` file of an
    earlier report; anything else belongs to the user and is refused unless ``force``.

    Raises
    ------
    InputError
        ``out_dir`` is a file, or a non-empty folder without the marker (and not ``force``),
        or a folder this user cannot write (or create).
    """
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    _require_writable(out)
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


def _require_writable(folder: Path) -> None:
    """Refuse a folder this user cannot write, or one whose nearest existing parent it cannot
    write (the folder would have to be created there)."""
    here = folder
    while not here.exists() and here != here.parent:
        here = here.parent
    if not os.access(here, os.W_OK | os.X_OK):
        what = "folder" if here == folder else f"folder {here}, where it would be created,"
        raise InputError(f"cannot write the report into {folder}: the {what} is not writable")


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


def instances_text(count: int, sizes: Sequence[int], label: str) -> str:
    """How many instances, of which sizes, in words.

    Examples
    --------
    >>> instances_text(1, [4270, 4270], "lexicon words")
    '1 instance of 4,270 lexicon words'
    >>> instances_text(18, [25, 800], "words")
    '18 instances of 25 to 800 words'
    """
    text = f"{count:,} instance" + ("" if count == 1 else "s")
    if not sizes:
        return text
    lo, hi = min(sizes), max(sizes)
    return text + (f" of {lo:,} {label}" if lo == hi else f" of {lo:,} to {hi:,} {label}")


def _puzzle_section(an: Analysis, puzzle: str, out: Path, summary: dict[str, Any]) -> list[str]:
    refs = [r for r in an.refs.values() if r.puzzle == puzzle]
    sizes = [r.size for r in refs if r.size is not None]
    proven = sum(r.optimum is not None for r in refs)
    label = size_label(an, puzzle)
    md = [
        f"## {puzzle}",
        "",
        instances_text(len(refs), sizes, label) + f"; proven optimum on {proven} of them.",
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
        png = out / f"{safe_name(puzzle)}-heuristics.png"
        if plot_heuristics(an, puzzle, png):
            md += [f"![{puzzle} heuristics]({png.name})", ""]
        png = out / f"{safe_name(puzzle)}-gap-by-family.png"
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
                "proof only; a fit is shown only where time grows with size over a factor of 10 "
                f"in size and the line explains at least {MIN_R2:.0%} of the variance): "
                + ", ".join(fitted)
                + ".",
                "",
            ]
        png = out / f"{safe_name(puzzle)}-exact-time.png"
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
        png = out / f"{safe_name(puzzle)}-par.png"
        if plot_par(recs, puzzle, png):
            md += [f"![{puzzle} optimum vs par]({png.name})", ""]
    summary[puzzle] = psum
    return md
