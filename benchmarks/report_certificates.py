"""Summarise a Wordsnake certificate study (rows of `cpwords bench`) as markdown.

    cpwords bench benchmarks/suites/wordsnake-certificates.toml --isolate --jobs 1 \\
        --out benchmarks/results/wordsnake-certificates/wordsnake-certificates.jsonl
    python benchmarks/report_certificates.py \\
        benchmarks/results/wordsnake-certificates/wordsnake-certificates.jsonl \\
        > benchmarks/results/wordsnake-certificates/report.md

One row per list: the status of the certified solve, what the independent checker said of its
certificate (VALID, PARTIAL, INVALID) and the bound it proves, the solve's time with and without
the certificate (when the suite ran both, as a ratio), the certificate's own time, the check's
time (and its ratio to the solve's), and the gzip size of the certificate against the word list's.
Then the medians and the targets of issue 19.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from cpwords.bench.results import read_rows


def _solve_time(row: dict) -> float | None:
    si = row.get("solver_info") or {}
    t = si.get("solve_time")
    return None if t is None else float(t)


def main(path: str) -> None:
    rows = [r for r in read_rows(Path(path)) if r.get("status") not in (None, "ERROR")]
    plain = {r["instance"]: r for r in rows if not (r.get("params") or {}).get("certificate")}
    certified = [r for r in rows if (r.get("params") or {}).get("certificate")]
    print(
        "| list | words | status | objective | certified | proven bound | gap | solve (s) "
        "| without certificate (s) | write ratio | certificate (s) | check (s) | check / solve "
        "| gzip (kB) | list gzip (kB) | size ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    write_ratios: list[float] = []
    check_ratios: list[float] = []
    size_ratios: list[float] = []
    counts: dict[str, int] = {}
    for r in certified:
        c = r.get("certificate") or {}
        status = str(c.get("status", "-"))
        counts[status] = counts.get(status, 0) + 1
        solve = _solve_time(r)
        base = plain.get(r["instance"])
        base_t = None if base is None else _solve_time(base)
        wr = None if solve is None or not base_t else solve / base_t
        if wr is not None:
            write_ratios.append(wr)
        check = c.get("check_time")
        cr = None if check is None or not solve else float(check) / solve
        if cr is not None:
            check_ratios.append(cr)
        gz, lgz = c.get("gzip_bytes"), c.get("list_gzip_bytes")
        sr = None if not gz or not lgz else gz / lgz
        if sr is not None:
            size_ratios.append(sr)
        bound = c.get("bound")
        gap = None if bound is None or r.get("objective") is None else bound - r["objective"]

        def f(x: float | None, spec: str = ".2f") -> str:
            return "-" if x is None else format(x, spec)

        print(
            f"| {r['instance']} | {r.get('size', 0):,} | {r['status']} "
            f"| {r.get('objective') or 0:,.0f} | {status} "
            f"| {'-' if bound is None else f'{bound:,}'} | {'-' if gap is None else f'{gap:,.0f}'} "
            f"| {f(solve)} | {f(base_t)} | {f(wr)} "
            f"| {f(c.get('write_time'))} | {f(check)} | {f(cr)} "
            f"| {f(None if gz is None else gz / 1000, '.1f')} "
            f"| {f(None if lgz is None else lgz / 1000, '.1f')} | {f(sr)} |"
        )

    def med(xs: list[float]) -> str:
        return "-" if not xs else f"{statistics.median(xs):.2f} (max {max(xs):.2f})"

    print()
    print(f"- Certificates: {', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}.")
    print(
        f"- Solve time with / without the certificate (where both ran): median {med(write_ratios)}."
    )
    print(f"- Check time / solve time: median {med(check_ratios)}.")
    print(f"- Certificate gzip size / word list gzip size: median {med(size_ratios)}.")


if __name__ == "__main__":
    main(sys.argv[1])
