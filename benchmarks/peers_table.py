"""Per-instance table of a Wordsnake peers study: every method beside the proven optimum.

    python benchmarks/peers_table.py \
        benchmarks/results/wordsnake-peers-small/wordsnake-peers-small.jsonl

Prints a markdown table, one row per instance: the proven optimum (or, when no exact method
proved it, the best incumbent and the smallest dual bound), then each method's score as a
percentage of the optimum (or of the bound, marked "<=") and its wall time. Reads the JSONL
written by ``cpwords bench``; touches nothing else.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Any


def table(rows: list[dict[str, Any]]) -> str:
    """The markdown table for the rows of one results file (see the module docstring)."""
    by_inst: dict[str, list[dict[str, Any]]] = defaultdict(list)
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
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: peers_table.py RESULTS.jsonl", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
