"""Regenerate the README's Wordsnake study tables from the recorded study files.

    python benchmarks/readme_results.py            # rewrites README.md between the markers
    python benchmarks/readme_results.py --check    # exit 1 when README.md is out of date

Reads the rows ``cpwords bench`` recorded (``STUDIES`` below) and rewrites the block between
``<!-- results:wordsnake:start -->`` and ``<!-- results:wordsnake:end -->``: for each study, the
exact methods (proven / runs, median and largest time, largest list proven) and the heuristics
and peers against the proven optimum (median and worst percentage, runs at the optimum). Every
figure comes from a recorded row; running it twice changes nothing.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- results:wordsnake:start -->"
END = "<!-- results:wordsnake:end -->"

#: (label, rows file, page shown to the reader), relative to the repository root.
STUDIES = [
    ("hard lists", "benchmarks/results/wordsnake-hard/wordsnake-hard.jsonl",
     "benchmarks/results/wordsnake-hard/report.md"),
    ("peers study", "benchmarks/results/wordsnake-peers/wordsnake-peers.jsonl",
     "benchmarks/results/wordsnake-peers/report.md"),
    ("whole dictionaries and large samples",
     "benchmarks/results/wordsnake-dictionary/wordsnake-dictionary.jsonl",
     "benchmarks/results/wordsnake-dictionary/report.md"),
]  # fmt: skip


def _seconds(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 0.1 else f"{t:.2f} s" if t < 10 else f"{t:.1f} s"


def study_rows(label: str, rows: list[dict[str, Any]], page: str) -> tuple[list[str], list[str]]:
    """Markdown rows for one study: (exact-method rows, heuristic-and-peer rows).

    Parameters
    ----------
    label : str
        The study's name in the tables.
    rows : list of dict
        Rows as ``cpwords bench`` writes them (``method``, optional ``name``, ``kind``,
        ``status``, ``objective``, ``wall_time``, ``size``, ``instance``, ``started_at``).
    page : str
        Link target for the study.

    Returns
    -------
    (list of str, list of str)
        Table rows without header. Percentages are taken only against a verified OPTIMAL
        objective of an exact method on the same instance.
    """
    day = min((r.get("started_at") or "")[:10] for r in rows)
    where = f"[{label}]({page}), {day}"
    optimum: dict[str, float] = {}
    for r in rows:
        if r["kind"] == "exact" and r["status"] == "OPTIMAL" and r.get("verified", True):
            optimum[r["instance"]] = float(r["objective"])
    by_method: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_method[r.get("name") or r["method"]].append(r)
    exact, others = [], []
    for method, rs in by_method.items():
        kind = rs[0]["kind"]
        limit = rs[0].get("time_limit")
        if kind == "exact":
            proven = [r for r in rs if r["status"] == "OPTIMAL"]
            times = [float(r["wall_time"]) for r in proven]
            timing = (
                f"{_seconds(statistics.median(times))} / {_seconds(max(times))}" if times else "-"
            )
            largest = f"{max(int(r['size']) for r in proven):,}" if proven else "-"
            exact.append(
                f"| {where} | `{method}` ({limit:g} s) | {len(proven)}/{len(rs)} | {timing} "
                f"| {largest} |"
            )
        else:
            scored = [r for r in rs if r["instance"] in optimum and r.get("objective") is not None]
            if not scored:
                continue
            pct = [100.0 * float(r["objective"]) / optimum[r["instance"]] if optimum[r["instance"]]
                   else 100.0 for r in scored]  # fmt: skip
            at = sum(1 for r in scored if float(r["objective"]) >= optimum[r["instance"]])
            unanswered = sum(1 for r in rs if r["instance"] in optimum) - len(scored)
            note = f", no answer on {unanswered}" if unanswered else ""
            others.append(
                f"| {where} | `{method}` ({kind}) | {statistics.median(pct):.2f} % / "
                f"{min(pct):.2f} %{note} | {at}/{len(scored)} |"
            )
    return exact, others


def block(root: Path = ROOT) -> str:
    """The generated markdown block (markers included) from the recorded study files."""
    exact = ["| study | exact method (limit) | proven | median / max time | largest proven |",
             "|---|---|---|---|---|"]  # fmt: skip
    others = ["| study | method (kind) | % of proven optimum (median / worst) | at optimum |",
              "|---|---|---|---|"]  # fmt: skip
    for label, rows_file, page in STUDIES:
        path = root / rows_file
        if not path.exists():
            continue
        rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
        rows = [r for r in rows if r.get("puzzle") == "wordsnake" and r.get("status") != "ERROR"]
        if not rows:
            continue
        e, o = study_rows(label, rows, page)
        exact += e
        others += o
    note = "Generated by `python benchmarks/readme_results.py` from the recorded study rows."
    return "\n".join([START, note, "", *exact, "", *others, END])


def rewrite(readme: Path, root: Path = ROOT) -> bool:
    """Replace the block between the markers; returns True when the file changed.

    Raises
    ------
    SystemExit
        When the README has no pair of markers.
    """
    text = readme.read_text("utf-8")
    a, b = text.find(START), text.find(END)
    if a < 0 or b < a:
        raise SystemExit(f"{readme}: no {START} ... {END} block")
    new = text[:a] + block(root) + text[b + len(END) :]
    if new == text:
        return False
    readme.write_text(new, "utf-8")
    return True


if __name__ == "__main__":
    target = ROOT / "README.md"
    if "--check" in sys.argv[1:]:
        text = target.read_text("utf-8")
        a, b = text.find(START), text.find(END)
        sys.exit(0 if text[a : b + len(END)] == block() else 1)
    print("README.md updated" if rewrite(target) else "README.md already up to date")
