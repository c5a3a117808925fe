"""Report templates: the markdown tables a recorded run's ``report.md`` is made of.

``cpwords report ROWS... --table NAME`` prints one of :data:`TABLES` from the rows of one or more
results files (``cpwords bench``'s JSON lines); the reports in ``benchmarks/results/`` quote
them below a short header written by hand. ``cpwords report --compare OLD NEW`` prints
:func:`compare_report`, the dated report of old code against new code on one suite
(``benchmarks/results/comparisons/``). Every function reads rows and returns text; none writes.
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cpwords.bench.results import read_rows

Row = dict[str, Any]


def _rows_of(paths: Sequence[str | Path]) -> list[Row]:
    rows: list[Row] = []
    for path in paths:
        rows.extend(read_rows(path))
    return rows


# ---- peers: every method beside the proven optimum, one row per instance ---------------------


def peers_table(rows: Sequence[Row]) -> str:
    """Per-instance table of a Wordsnake peers study: every method beside the proven optimum.

    One row per instance: the proven optimum (or, when no exact method proved it, the best
    incumbent and the smallest dual bound), then each method's score as a percentage of the
    optimum (or of the bound, marked "<=") and its wall time.

    Examples
    --------
    >>> rows = [{"puzzle": "wordsnake", "instance": "a", "method": "auto", "kind": "exact",
    ...          "status": "OPTIMAL", "objective": 10.0, "bound": 10.0, "size": 5,
    ...          "wall_time": 0.5}]
    >>> print(peers_table(rows).splitlines()[-1])
    | a | 5 | **10** | 10 (100.00%) 0.50 s proof |
    """
    by_inst: dict[str, list[Row]] = defaultdict(list)
    methods: list[str] = []
    for r in rows:
        if r.get("puzzle") != "wordsnake" or r.get("status") == "ERROR":
            continue
        by_inst[r["instance"]].append(r)
        if r["method"] not in methods:
            methods.append(r["method"])
    head = ["instance", "words", "optimum (or best / bound)", *methods]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for inst, rs in by_inst.items():
        out.append(_peers_line(inst, rs, methods))
    return "\n".join(out)


def _peers_line(inst: str, rs: list[Row], methods: list[str]) -> str:
    proven = [r["objective"] for r in rs if r["kind"] == "exact" and r["status"] == "OPTIMAL"]
    bounds = [r["bound"] for r in rs if r["kind"] == "exact" and r.get("bound") is not None]
    best = max(r["objective"] for r in rs if r.get("objective") is not None)
    ref = proven[0] if proven else min(bounds) if bounds else None
    if not proven and ref is not None and best >= ref:
        proven = [best]  # an incumbent that meets the smallest dual bound is optimal
        opt = f"**{ref:.0f}** (a tour meets the bound)"
    elif proven:
        opt = f"**{ref:.0f}**"
    else:
        opt = f"{best:.0f} / <= {ref:.0f}" if ref is not None else f"{best:.0f} / ?"
    cells = [inst, str(rs[0]["size"]), opt]
    for m in methods:
        mr = [r for r in rs if r["method"] == m]
        if not mr or mr[0].get("objective") is None or ref is None:
            cells.append("-")
            continue
        r = mr[0]
        pct = 100 * r["objective"] / ref if ref else 100.0
        mark = "" if proven else "<="
        proof = " proof" if r["status"] == "OPTIMAL" else ""
        short = f", -{ref - r['objective']:.0f}" if r["objective"] < ref else ""
        cells.append(
            f"{r['objective']:.0f} ({mark}{pct:.2f}%{short}) {r['wall_time']:.2f} s{proof}"
        )
    return "| " + " | ".join(cells) + " |"


# ---- certificates: the checker's verdict, the check's time and the certificate's size ---------


def _solve_time(row: Row) -> float | None:
    t = (row.get("solver_info") or {}).get("solve_time")
    return None if t is None else float(t)


def _f(x: float | None, spec: str = ".2f") -> str:
    return "-" if x is None else format(x, spec)


def certificates_table(rows: Sequence[Row]) -> str:
    """A Wordsnake certificate study: one row per certified list, then the medians.

    Each row: the certified solve's status, the independent checker's verdict (VALID, PARTIAL,
    INVALID) and the bound it proves, the solve's time with and without the certificate (when
    the suite ran both, as a ratio), the certificate's own time, the check's time and its ratio
    to the solve's, and the certificate's gzip size against the word list's.
    """
    rows = [r for r in rows if r.get("status") not in (None, "ERROR")]
    plain = {r["instance"]: r for r in rows if not (r.get("params") or {}).get("certificate")}
    out = [
        "| list | words | status | objective | certified | proven bound | gap | solve (s) "
        "| without certificate (s) | write ratio | certificate (s) | check (s) | check / solve "
        "| gzip (kB) | list gzip (kB) | size ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ratios: dict[str, list[float]] = {"write": [], "check": [], "size": []}
    counts: dict[str, int] = {}
    for r in rows:
        if (r.get("params") or {}).get("certificate"):
            c = r.get("certificate") or {}
            status = str(c.get("status", "-"))
            counts[status] = counts.get(status, 0) + 1
            out.append(_certificate_line(r, c, status, plain.get(r["instance"]), ratios))

    def med(xs: list[float]) -> str:
        return "-" if not xs else f"{statistics.median(xs):.2f} (max {max(xs):.2f})"

    return "\n".join(
        [
            *out,
            "",
            f"- Certificates: {', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}.",
            "- Solve time with / without the certificate (where both ran): median "
            f"{med(ratios['write'])}.",
            f"- Check time / solve time: median {med(ratios['check'])}.",
            f"- Certificate gzip size / word list gzip size: median {med(ratios['size'])}.",
        ]
    )


def _certificate_line(
    r: Row, c: dict[str, Any], status: str, base: Row | None, ratios: dict[str, list[float]]
) -> str:
    solve = _solve_time(r)
    base_t = None if base is None else _solve_time(base)
    wr = None if solve is None or not base_t else solve / base_t
    check = c.get("check_time")
    cr = None if check is None or not solve else float(check) / solve
    gz, lgz = c.get("gzip_bytes"), c.get("list_gzip_bytes")
    sr = None if not gz or not lgz else gz / lgz
    for key, x in (("write", wr), ("check", cr), ("size", sr)):
        if x is not None:
            ratios[key].append(x)
    bound = c.get("bound")
    gap = None if bound is None or r.get("objective") is None else bound - r["objective"]
    return (
        f"| {r['instance']} | {r.get('size', 0):,} | {r['status']} "
        f"| {r.get('objective') or 0:,.0f} | {status} "
        f"| {'-' if bound is None else f'{bound:,}'} | {'-' if gap is None else f'{gap:,.0f}'} "
        f"| {_f(solve)} | {_f(base_t)} | {_f(wr)} "
        f"| {_f(c.get('write_time'))} | {_f(check)} | {_f(cr)} "
        f"| {_f(None if gz is None else gz / 1000, '.1f')} "
        f"| {_f(None if lgz is None else lgz / 1000, '.1f')} | {_f(sr)} |"
    )


# ---- wordsnake-dictionary: whole dictionaries, the default method beside the explicit model ----


def _group(name: str) -> str:
    return re.sub(r"-seed\d+$", "", name)


def _g(x: float | None, unit: str = "") -> str:
    if x is None:
        return "-"
    return f"{x:,.3g}{unit}" if x < 100 else f"{x:,.0f}{unit}"


def wordsnake_dictionary_report(rows: Sequence[Row]) -> str:
    """The dictionary-scale Wordsnake study: medians over seeds per list and method (``auto``,
    ``mip``), the explicit model's time and memory over the default's, and every row's stages."""
    rows = [r for r in rows if r.get("status") != "ERROR" or r.get("error")]
    cells: dict[tuple[str, str], list[Row]] = defaultdict(list)
    sizes: dict[str, int] = {}
    for r in rows:
        cells[(_group(r["instance"]), r["method"])].append(r)
        sizes[_group(r["instance"])] = int(r.get("size") or 0)
    groups = sorted(sizes, key=lambda g: (sizes[g], g))
    env = rows[0].get("environment", {}) if rows else {}
    out = [
        "# Wordsnake at dictionary scale\n",
        f"One run of `{len(rows)}` tasks, each in its own process (`cpwords bench --isolate`), ",
        f"{env.get('cpus', 2)} cores. Time is the solve's wall time (median over seeds); memory",
        "is the task's peak resident set, or its process tree's sampled resident sets when larger",
        "(rows without peak_memory_rss_tree_mb added the largest child's), including ~200 MB",
        "the task inherits from the bench process.\n",
        "| list | words | method | proven | objective | gap | time | peak memory |",
        "|---|---:|---|---|---:|---:|---:|---:|",
    ]
    for g in groups:
        out += [
            _dictionary_line(g, m, sizes[g], cells[g, m])
            for m in ("auto", "mip")
            if cells.get((g, m))
        ]
    out += [
        "\n## Today's explicit model over the default, same run (medians)\n",
        "| list | words | time ratio | memory ratio |",
        "|---|---:|---:|---:|",
    ]
    for g in groups:
        a, b = cells.get((g, "auto")), cells.get((g, "mip"))
        if a and b:
            ta, tb = (statistics.median(r["wall_time"] for r in x) for x in (a, b))
            ma, mb = (statistics.median(r.get("peak_memory_mb") or 0 for r in x) for x in (a, b))
            out.append(f"| {g} | {sizes[g]:,} | {tb / ta:,.2f}x | {mb / ma:,.2f}x |")
    out += [
        "\n## Status, bound and stages of every row\n",
        "| list | method | status | objective | bound | stages |",
        "|---|---|---|---:|---:|---|",
    ]
    for g in groups:
        for m in ("auto", "mip"):
            for r in sorted(cells.get((g, m), []), key=lambda r: r["instance"]):
                out.append(_stages_line(r, m))
    return "\n".join(out)


def _dictionary_line(g: str, m: str, size: int, rs: list[Row]) -> str:
    proven = sum(r["status"] == "OPTIMAL" for r in rs)
    times = [r["wall_time"] for r in rs if r.get("wall_time") is not None]
    mems = [r["peak_memory_mb"] for r in rs if r.get("peak_memory_mb") is not None]
    gaps = [r["gap"] for r in rs if r.get("gap") is not None]
    objs = [r["objective"] for r in rs if r.get("objective") is not None]
    median = _g(statistics.median(objs)) if objs else "-"
    obj = median if len(objs) == 1 else "median " + median
    return (
        f"| {g} | {size:,} | {m} | {proven}/{len(rs)} | {obj} | "
        f"{_g(100 * max(gaps), '%') if gaps else '-'} | "
        f"{_g(statistics.median(times), ' s') if times else '-'} | "
        f"{_g(statistics.median(mems), ' MB') if mems else '-'} |"
    )


def _stages_line(r: Row, m: str) -> str:
    info = r.get("solver_info") or {}
    keys = ("flow_bound", "flow_components", "lagrangian_iterations", "rounds")
    st = ", ".join(f"{k}={info[k]}" for k in keys if k in info)
    return (
        f"| {r['instance']} | {m} | {r['status']} | {_g(r.get('objective'))} | "
        f"{_g(r.get('bound'))} | {st or r.get('error', '')[:60]} |"
    )


# ---- wordsnake-languages: whole languages, and two runs side by side ---------------------------


def _gap(r: Row) -> int | None:
    if r.get("objective") is None or r.get("bound") is None:
        return None
    return int(r["bound"] - r["objective"])


def wordsnake_languages_table(rows: Sequence[Row]) -> str:
    """The whole-language Wordsnake study: one row per list (its words and letters, read from
    the lexicon it names: the data must be installed), what the default method proved within
    the limit, its time and peak memory, and how the bound was obtained."""
    from cpwords.core.sources import lexicon_words

    out = [
        "| list | words | letters | limit | status | objective | bound | gap | time "
        "| peak memory | first bound | cycles cancelled | Lagrangian iterations / cuts |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r.get("status") in (None, "ERROR"):
            continue
        si = r.get("solver_info") or {}
        spec = r.get("instance_spec") or {}
        words = lexicon_words(str(spec["lexicon"])) if "lexicon" in spec else ()
        gap = _gap(r)
        out.append(
            f"| {r['instance']} | {len(words):,} | {sum(len(w) for w in words):,} "
            f"| {r.get('time_limit')} s | {r['status']} | {r.get('objective') or 0:,.0f} "
            f"| {r.get('bound') or 0:,.0f} | {gap if gap is not None else '-'} "
            f"| {r.get('wall_time', 0):.1f} s | {(r.get('peak_memory_mb') or 0) / 1024:.2f} GiB "
            f"| {si.get('first_bound', '-')} | {si.get('cancelled_cycles', '-')} "
            f"| {si.get('lagrangian_iterations', '-')} / {si.get('cuts', '-')} |"
        )
    return "\n".join(out)


def wordsnake_languages_compare(old_rows: Sequence[Row], new_rows: Sequence[Row]) -> str:
    """Two runs of a whole-language study side by side (gap, time and peak memory, with ratios
    new / old), then the additive bound and the neighbourhood search of the new run."""
    old = {r["instance"]: r for r in old_rows if r.get("status") != "ERROR"}
    new = [r for r in new_rows if r.get("status") not in (None, "ERROR")]
    out = [
        "| list | status (old -> new) | gap (old -> new) | time old | time new | time ratio "
        "| peak memory old | peak memory new | memory ratio |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in new:
        o = old.get(r["instance"], {})
        go, gn = _gap(o), _gap(r)
        to, tn = o.get("wall_time"), r.get("wall_time")
        mo, mn = o.get("peak_memory_mb"), r.get("peak_memory_mb")
        out.append(
            f"| {r['instance']} | {o.get('status', '-')} -> {r['status']} "
            f"| {go if go is not None else '-'} -> {gn if gn is not None else '-'} "
            f"| {to or 0:.1f} s | {tn or 0:.1f} s | {f'{tn / to:.2f}' if to and tn else '-'} "
            f"| {(mo or 0) / 1024:.2f} GiB | {(mn or 0) / 1024:.2f} GiB "
            f"| {f'{mn / mo:.2f}' if mo and mn else '-'} |"
        )
    out += [
        "",
        "| list | first bound | additive bound | its LP (certified) | F words / useful pairs "
        "/ cuts / branched | cover time | families searched | gain of the search | search time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in new:
        ref = (r.get("solver_info") or {}).get("refinement")
        if ref:
            pc, ns = ref.get("path_cover", {}), ref.get("neighbourhood_search", {})
            out.append(
                f"| {r['instance']} | {ref.get('first_bound', 0):,} | {ref.get('bound', 0):,} "
                f"| {ref.get('lp_bound', 0):,} | {pc.get('words', 0):,} / {pc.get('arcs', 0):,} "
                f"/ {pc.get('cuts', 0)} / {pc.get('branched', 0)} | {pc.get('time', 0):.1f} s "
                f"| {ns.get('families', '-')} | {ns.get('gain', '-')} | {ns.get('time', 0):.1f} s |"
            )
    return "\n".join(out)


# ---- superstring: the proven length against greedy merging -------------------------------------


def _n(x: Any) -> str:
    return "-" if x is None else f"{int(x):,}"


def _s(x: Any) -> str:
    if x is None:
        return "-"
    return f"{x:.2f} s" if x < 10 else f"{x:.1f} s"


def superstring_table(rows: Sequence[Row]) -> str:
    """The shortest-superstring study: one row per list (its words, those inside others, the
    proven length and its bound, greedy merging's length against it, each method's time, the
    peak memory and the certificate's verdict)."""
    cells: dict[str, dict[str, Row]] = defaultdict(dict)
    for r in rows:
        cells[r["instance"]][r["method"]] = r
    out = [
        "| list | words | inside others | exact | bound | status | greedy | greedy over "
        "optimum | exact time | greedy time | peak memory | certificate |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, by_method in cells.items():
        ex, gr = by_method.get("exact", {}), by_method.get("greedy", {})
        meas = ex.get("measures") or gr.get("measures") or {}
        opt = ex.get("objective") if ex.get("status") == "OPTIMAL" else None
        over = "-"
        if opt is not None and gr.get("objective") is not None:
            extra = gr["objective"] - opt
            over = f"+{extra:,.0f} ({100 * extra / opt:.3g}%)" if extra else "0"
        status = ex.get("status", "-")
        if ex.get("status") in ("ERROR", "TIMEOUT"):
            status += f": {str(ex.get('error', ''))[:60]}"
        mem = max((r.get("peak_memory_mb") or 0) for r in (ex, gr))
        out.append(
            f"| {name} | {_n(ex.get('size') or gr.get('size'))} | {_n(meas.get('contained'))} | "
            f"{_n(ex.get('objective'))} | {_n(ex.get('bound'))} | {status} | "
            f"{_n(gr.get('objective'))} | {over} | {_s(ex.get('wall_time'))} | "
            f"{_s(gr.get('wall_time'))} | {_n(mem)} MB | {ex.get('certified', '-')} |"
        )
    return "\n".join(out)


#: ``cpwords report --table NAME``: each template's rows -> markdown.
TABLES: dict[str, Callable[[Sequence[Row]], str]] = {
    "peers": peers_table,
    "certificates": certificates_table,
    "wordsnake-dictionary": wordsnake_dictionary_report,
    "wordsnake-languages": wordsnake_languages_table,
    "superstring": superstring_table,
}


def table(name: str, results: Sequence[str | Path]) -> str:
    """The template ``name`` of :data:`TABLES` on the rows of ``results`` (files, in order)."""
    return TABLES[name](_rows_of(results))


# ---- old code against new code: the dated comparison report ------------------------------------

Task = tuple[str, str]


def _by_task(path: str | Path) -> dict[Task, Row]:
    """The rows of one run by task (instance, method); a later row of a task replaces it."""
    return {(str(r["instance"]), str(r["method"])): r for r in read_rows(path)}


def same_answer(old: Row, new: Row) -> bool:
    """Whether both runs end with the same status and the same objective."""
    return old.get("status") == new.get("status") and old.get("objective") == new.get("objective")


def same_bound(old: Row, new: Row) -> bool:
    """Whether both runs report the same bound (both none counts as the same)."""
    return old.get("bound") == new.get("bound")


def time_ratio(old: Row, new: Row) -> float | None:
    """Wall time new / old, or None when either time is missing or the old one is zero."""
    t_old, t_new = old.get("wall_time"), new.get("wall_time")
    if t_old is None or t_new is None or t_old <= 0:
        return None
    return float(t_new) / float(t_old)


def number(value: Any) -> str:
    """An objective or a bound as printed: integral floats without decimals, none as '-'."""
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def _seconds3(value: Any) -> str:
    return "-" if value is None else f"{float(value):.3g} s"


def _task_line(task: Task, old: Row, new: Row) -> str:
    ratio = time_ratio(old, new)
    cells = [
        *task,
        f"{old.get('status')} / {new.get('status')}",
        f"{number(old.get('objective'))} / {number(new.get('objective'))}",
        f"{number(old.get('bound'))} / {number(new.get('bound'))}",
        "yes" if same_answer(old, new) else "**no**",
        "yes" if same_bound(old, new) else "**no**",
        _seconds3(old.get("wall_time")),
        _seconds3(new.get("wall_time")),
        "-" if ratio is None else f"{ratio:.2f}",
    ]
    return "| " + " | ".join(cells) + " |"


def _compare_summary(old: dict[Task, Row], new: dict[Task, Row], paired: list[Task]) -> list[str]:
    answers = sum(same_answer(old[t], new[t]) for t in paired)
    bounds = sum(same_bound(old[t], new[t]) for t in paired)
    ratios = [r for t in paired if (r := time_ratio(old[t], new[t])) is not None]
    lines = [
        f"- Tasks paired: {len(paired)} (only in old: {len(old.keys() - new.keys())}, "
        f"only in new: {len(new.keys() - old.keys())}).",
        f"- Same answer (status and objective): {answers}/{len(paired)}.",
        f"- Same bound: {bounds}/{len(paired)}.",
    ]
    if ratios:
        lines.append(
            f"- Time ratio new / old: median {statistics.median(ratios):.2f} "
            f"(min {min(ratios):.2f}, max {max(ratios):.2f}, over {len(ratios)} tasks)."
        )
    else:
        lines.append("- Time ratio new / old: no task has both times.")
    return lines


def compare_report(
    old_path: str | Path,
    new_path: str | Path,
    old_commit: str,
    new_commit: str,
    title: str | None = None,
) -> str:
    """Old code against new code on one suite: the markdown report from two runs.

    Pairs the tasks of the two runs by instance and method (the last row of a task wins, as in
    a resumed run). The rows need not be kept: the suite and the two commits regenerate them.

    Parameters
    ----------
    old_path, new_path : path-like
        Results files written by ``cpwords bench`` with the old and the new code.
    old_commit, new_commit : str
        The commits whose code made each run; both are named in the report.
    title : str, optional
        The report's heading; by default it names the suite and both commits.

    Returns
    -------
    str
        The commits, one table row per task found in both runs, then the counts of agreeing
        answers and bounds and the median (min, max) of the time ratios new / old.
    """
    old, new = _by_task(old_path), _by_task(new_path)
    paired = [t for t in new if t in old]
    suites = sorted({str(r.get("suite")) for r in [*old.values(), *new.values()]})
    heading = title or f"{', '.join(suites)}: {old_commit} against {new_commit}"
    lines = [
        f"# {heading}",
        "",
        f"- Suite: {', '.join(f'`{s}`' for s in suites)}.",
        f"- Old code: commit {old_commit}, rows `{Path(old_path).name}`.",
        f"- New code: commit {new_commit}, rows `{Path(new_path).name}`.",
        "",
        "| instance | method | status old / new | objective old / new | bound old / new "
        "| same answer | same bound | time old | time new | ratio new / old |",
        "|" + "---|" * 10,
        *(_task_line(t, old[t], new[t]) for t in paired),
        "",
        *_compare_summary(old, new, paired),
    ]
    return "\n".join(lines) + "\n"
