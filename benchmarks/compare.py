"""Old code against new code on one suite: a markdown report from two ``cpwords bench`` runs.

    python benchmarks/compare.py OLD.jsonl NEW.jsonl --old-commit X --new-commit Y [--title T]

Pairs the tasks of the two runs by instance and method (the last row of a task wins, as in a
resumed run), then prints both commits, one table row per task (status, objective and bound,
old and new, whether they agree, wall times and their ratio new / old) and a summary: the
number of agreeing answers and bounds and the median, smallest and largest time ratio. Reads
the JSONL written by ``cpwords bench``; touches nothing else. The reports in
``benchmarks/results/comparisons/`` are made by it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

Row = dict[str, Any]
Task = tuple[str, str]


def read_rows(path: Path) -> dict[Task, Row]:
    """The rows of one run by task (instance, method); a later row of a task replaces it."""
    rows: dict[Task, Row] = {}
    for line in path.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            rows[(str(row["instance"]), str(row["method"]))] = row
    return rows


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


def seconds(value: Any) -> str:
    """A wall time in seconds with three significant digits, none as '-'."""
    return "-" if value is None else f"{float(value):.3g} s"


def task_line(task: Task, old: Row, new: Row) -> str:
    """One markdown table row comparing a task's old and new rows."""
    ratio = time_ratio(old, new)
    cells = [
        *task,
        f"{old.get('status')} / {new.get('status')}",
        f"{number(old.get('objective'))} / {number(new.get('objective'))}",
        f"{number(old.get('bound'))} / {number(new.get('bound'))}",
        "yes" if same_answer(old, new) else "**no**",
        "yes" if same_bound(old, new) else "**no**",
        seconds(old.get("wall_time")),
        seconds(new.get("wall_time")),
        "-" if ratio is None else f"{ratio:.2f}",
    ]
    return "| " + " | ".join(cells) + " |"


def summary(old: dict[Task, Row], new: dict[Task, Row], paired: list[Task]) -> list[str]:
    """The report's closing lines: tasks paired, answers and bounds agreeing, time ratios."""
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


def report(
    old_path: Path, new_path: Path, old_commit: str, new_commit: str, title: str | None = None
) -> str:
    """The markdown report comparing two runs of one suite.

    Parameters
    ----------
    old_path, new_path : Path
        JSONL files written by ``cpwords bench`` with the old and the new code.
    old_commit, new_commit : str
        The commits whose code made each run; both are named in the report.
    title : str, optional
        The report's heading; by default it names the suite and both commits.

    Returns
    -------
    str
        The report: the commits, one table row per task found in both runs, then the counts
        of agreeing answers and bounds and the median (min, max) of the time ratios new / old.

    Examples
    --------
    >>> import tempfile
    >>> row = '{"suite": "s", "instance": "a", "method": "auto", "status": "OPTIMAL", '
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "o.jsonl").write_text(row + '"objective": 3, "bound": 3, "wall_time": 2}')
    >>> _ = (d / "n.jsonl").write_text(row + '"objective": 3, "bound": 3, "wall_time": 1}')
    >>> print(report(d / "o.jsonl", d / "n.jsonl", "abc1234", "def5678").splitlines()[-1])
    - Time ratio new / old: median 0.50 (min 0.50, max 0.50, over 1 tasks).
    """
    old, new = read_rows(old_path), read_rows(new_path)
    paired = [t for t in new if t in old]
    suites = sorted({str(r.get("suite")) for r in [*old.values(), *new.values()]})
    heading = title or f"{', '.join(suites)}: {old_commit} against {new_commit}"
    lines = [
        f"# {heading}",
        "",
        f"- Suite: {', '.join(f'`{s}`' for s in suites)}.",
        f"- Old code: commit {old_commit}, rows `{old_path.name}`.",
        f"- New code: commit {new_commit}, rows `{new_path.name}`.",
        "",
        "| instance | method | status old / new | objective old / new | bound old / new "
        "| same answer | same bound | time old | time new | ratio new / old |",
        "|" + "---|" * 10,
        *(task_line(t, old[t], new[t]) for t in paired),
        "",
        *summary(old, new, paired),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, print the report, return the exit code (0)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path, help="rows of the old code (cpwords bench JSONL)")
    ap.add_argument("new", type=Path, help="rows of the new code (cpwords bench JSONL)")
    ap.add_argument("--old-commit", required=True, help="commit of the old code")
    ap.add_argument("--new-commit", required=True, help="commit of the new code")
    ap.add_argument("--title", help="heading of the report")
    args = ap.parse_args(argv)
    sys.stdout.write(report(args.old, args.new, args.old_commit, args.new_commit, args.title))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
