"""Regenerate the Wordsnake guide's whole-dictionary table from the recorded study rows.

    python benchmarks/guide_results.py            # rewrites docs/guides/wordsnake.md's block
    python benchmarks/guide_results.py --check    # exit 1 when the guide is out of date

The block between ``<!-- results:wordsnake-dictionaries:start -->`` and
``<!-- results:wordsnake-dictionaries:end -->`` gets one row per whole list (its newest run of
the default method among ``STUDIES``) and one for the ENABLE samples (medians per size), as the
README's tables are made by ``benchmarks/readme_results.py``. Every figure comes from a recorded
row; running it twice changes nothing.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guides" / "wordsnake.md"
START = "<!-- results:wordsnake-dictionaries:start -->"
END = "<!-- results:wordsnake-dictionaries:end -->"

#: (rows file relative to the repository root, its report's page relative to docs/).
STUDIES = [
    ("benchmarks/results/wordsnake-dictionary/wordsnake-dictionary.jsonl",
     "reports/wordsnake-dictionary.md"),
    ("benchmarks/results/wordsnake-languages/wordsnake-languages.jsonl",
     "reports/wordsnake-languages.md"),
]  # fmt: skip
#: The whole lists, by instance name: how the table names them.
WHOLE = {
    "enable1-whole": "ENABLE (`enable1`)",
    "web2-whole": "Webster's 2nd (`web2`)",
    "letterpress-whole": "Letterpress list (`letterpress`)",
}
SAMPLE_PREFIX = "enable1-sample-"


def _seconds(t: float) -> str:
    return f"{t:.2f} s" if t < 10 else f"{t:.1f} s"


def _memory(mb: float | None) -> str:
    if mb is None:
        return "-"
    return f"{mb / 1024:.2f} GiB" if mb >= 1024 else f"{mb:.0f} MiB"


def how(row: dict[str, Any]) -> str:
    """How the default method proved a row, from its ``solver_info``.

    Examples
    --------
    >>> how({"solver_info": {"first_bound": "greedy assignment", "cancelled_cycles": 2}})
    'greedy assignment proven by potentials, 2 cycles cancelled'
    >>> how({"solver_info": {"lagrangian_iterations": 1, "cuts": 3}})
    'min-cost flow, 1 Lagrangian iteration(s), 3 cuts'
    """
    info = row.get("solver_info") or {}
    parts = [
        "greedy assignment proven by potentials"
        if info.get("first_bound") == "greedy assignment"
        else "min-cost flow"
    ]
    if info.get("cancelled_cycles"):
        parts.append(f"{info['cancelled_cycles']} cycles cancelled")
    if info.get("lagrangian_iterations"):
        its, cuts = info["lagrangian_iterations"], info.get("cuts", 0)
        parts.append(f"{its} Lagrangian iteration(s), {cuts} cuts")
    return ", ".join(parts)


def _link(page: str, row: dict[str, Any]) -> str:
    return f"[{(row.get('started_at') or '')[:10]}](../{page})"


def _default_exact(r: dict[str, Any] | None) -> bool:
    """A Wordsnake row of the default method (``auto``, under any limit)."""
    return bool(
        r
        and r.get("puzzle") == "wordsnake"
        and r.get("kind") == "exact"
        and (r.get("name") or r["method"]).startswith("auto")
    )


def _rows(root: Path) -> list[tuple[dict[str, Any], str]]:
    out = []
    for rows_file, page in STUDIES:
        path = root / rows_file
        if path.exists():
            for line in path.read_text("utf-8").splitlines():
                r = json.loads(line) if line else None
                if _default_exact(r):
                    out.append((r, page))
    return out


def _whole_lines(rows: list[tuple[dict[str, Any], str]]) -> list[str]:
    lines = []
    for instance, label in WHOLE.items():
        runs = [(r, p) for r, p in rows if r["instance"] == instance]
        if not runs:
            continue
        r, page = max(runs, key=lambda rp: rp[0].get("started_at") or "")
        proven = r["status"] == "OPTIMAL"
        score = f"**{int(r['objective']):,}**" if proven else f"{r['status']} {r['objective']:,.0f}"
        lines.append(
            f"| {label} | {int(r['size']):,} | {score} | {how(r)} | {_seconds(r['wall_time'])} "
            f"| {_memory(r.get('peak_memory_mb'))} | {_link(page, r)} |"
        )
    return lines


def _sample_line(rows: list[tuple[dict[str, Any], str]]) -> list[str]:
    by_size: dict[int, list[dict[str, Any]]] = defaultdict(list)
    page = ""
    for r, p in rows:
        if r["instance"].startswith(SAMPLE_PREFIX):
            by_size[int(r["size"])].append(r)
            page = p
    if not by_size:
        return []
    sizes = sorted(by_size)
    every = [r for s in sizes for r in by_size[s]]
    proven = sum(r["status"] == "OPTIMAL" for r in every)
    med = statistics.median
    times = " / ".join(_seconds(med(r["wall_time"] for r in by_size[s])) for s in sizes)
    mems = " / ".join(_memory(med(r.get("peak_memory_mb") or 0 for r in by_size[s])) for s in sizes)
    label = "ENABLE samples, " + " / ".join(f"{s:,}" for s in sizes) + " words (medians)"
    return [
        f"| {label} | | {proven}/{len(every)} proven | min-cost flow | {times} | {mems} "
        f"| {_link(page, every[0])} |"
    ]


def block(root: Path = ROOT) -> str:
    """The generated markdown block (markers included) from the recorded study rows."""
    rows = _rows(root)
    head = [
        "| list | words | proven optimum | how | time | peak memory | run |",
        "|---|---:|---:|---|---:|---:|---|",
    ]
    note = "Generated by `python benchmarks/guide_results.py` from the recorded study rows."
    body = _whole_lines(rows) + _sample_line(rows)
    return "\n".join([START, note, "", *head, *body, END])


def _indented(block_text: str, text: str, at: int) -> str:
    """The block indented as its start marker is (inside a list item), blank lines left blank."""
    indent = text[text.rfind("\n", 0, at) + 1 : at]
    lines = block_text.split("\n")
    return "\n".join([lines[0]] + [indent + line if line else "" for line in lines[1:]])


def rewrite(page: Path = GUIDE, root: Path = ROOT) -> bool:
    """Replace the block between the markers; True when the file changed.

    Raises
    ------
    SystemExit
        When the page has no pair of markers.
    """
    text = page.read_text("utf-8")
    a, b = text.find(START), text.find(END)
    if a < 0 or b < a:
        raise SystemExit(f"{page}: no {START} ... {END} block")
    new = text[:a] + _indented(block(root), text, a) + text[b + len(END) :]
    if new == text:
        return False
    page.write_text(new, "utf-8")
    return True


def current(page: Path = GUIDE, root: Path = ROOT) -> bool:
    """Whether the page's block is what :func:`block` generates now."""
    text = page.read_text("utf-8")
    a, b = text.find(START), text.find(END)
    return a >= 0 and text[a : b + len(END)] == _indented(block(root), text, a)


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        sys.exit(0 if current() else 1)
    print(f"{GUIDE.name} updated" if rewrite() else f"{GUIDE.name} already up to date")
