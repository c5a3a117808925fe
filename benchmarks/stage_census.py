"""Which stages of the default Wordsnake method each list needs (issue 46, item 3).

``run`` executes a ``cpwords`` command in this process with every stage of
:data:`~cpwords.wordsnake.exact.policy.FLOW_STAGES` and
:data:`~cpwords.wordsnake.exact.policy.SEARCH_STAGES` wrapped: each run of a stage appends one
JSON line to ``--log`` (the list's size and first word, the stage, its seconds, the incumbent,
bound and whether the gap was closed before and after it). A suite run with ``cpwords bench``
and ``--jobs 1`` solves its tasks in this process, so every task is logged, and so are the
pieces the neighbourhood search solves with the same stages::

    python benchmarks/stage_census.py run --log census.jsonl -- \\
        bench benchmarks/suites/wordsnake-hard.toml --jobs 1 --out /tmp/hard.jsonl
    python benchmarks/stage_census.py table census.jsonl

``table`` prints, per stage, how many solves ran it, how many it gave a lower bound, a
better incumbent, or the end of the gap (the flow's ``ended``, the search's ``proven``), and
its seconds: a stage that ends, tightens or improves no solve is one no recorded list needs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from typing import Any


def _snapshot(state: Any) -> dict[str, Any]:
    """The incumbent, bound and closed gap of a proof state (the flow's, and the policy's)."""
    f = state.flow
    return {
        "flow": None if f is None else [f.best, f.bound, bool(f.ended)],
        "objective": state.objective,
        "bound": state.bound,
        "proven": bool(state.proven),
    }


def _wrapped(stage: Any, kind: str, log: str) -> Any:
    """``stage`` with its runs logged to the file ``log``."""

    def run(state: Any) -> None:
        before = _snapshot(state)
        t0 = time.perf_counter()
        error = None
        try:
            stage.run(state)
        except BaseException as exc:
            error = type(exc).__name__
            raise
        finally:
            words = state.instance.words
            line = {
                "words": len(words),
                "first": words[0][:20] if words else "",
                "kind": kind,
                "stage": stage.name,
                "seconds": time.perf_counter() - t0,
                "before": before,
                "after": _snapshot(state),
                "error": error,
            }
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps(line, default=str) + "\n")

    return replace(stage, run=run)


def run(log: str, argv: list[str]) -> None:
    """Run ``cpwords ARGV...`` in this process with every stage logged to ``log``."""
    from cpwords.cli import main
    from cpwords.wordsnake.exact import policy

    policy.FLOW_STAGES = tuple(_wrapped(s, "flow", log) for s in policy.FLOW_STAGES)
    policy.SEARCH_STAGES = tuple(_wrapped(s, "search", log) for s in policy.SEARCH_STAGES)
    main(argv)


def _effects(line: dict[str, Any]) -> tuple[bool, bool, bool]:
    """Whether one stage run lowered the bound, raised the incumbent, closed the gap."""
    before, after = line["before"], line["after"]
    if line["kind"] == "flow":
        (b_best, b_bound, b_end), (a_best, a_bound, a_end) = before["flow"], after["flow"]
        lowered = a_bound is not None and (b_bound is None or a_bound < b_bound)
        raised = a_best is not None and (b_best is None or a_best > b_best)
        return lowered, raised, a_end and not b_end
    lowered = None not in (before["bound"], after["bound"]) and after["bound"] < before["bound"]
    raised = after["objective"] > before["objective"]
    return lowered, raised, after["proven"] and not before["proven"]


def table(paths: list[str]) -> str:
    """The census of the logs ``paths`` as a Markdown table, one row a stage."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    seconds: Counter[str] = Counter()
    solves = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for raw in f:
                line = json.loads(raw)
                stage = line["stage"]
                solves += stage == "greedy assignment"  # each solve starts with it
                lowered, raised, ended = _effects(line)
                counts[stage].update(
                    ran=1, lowered=int(lowered), raised=int(raised), ended=int(ended)
                )
                seconds[stage] += line["seconds"]
    rows = [
        f"Solves logged: {solves}.",
        "",
        "| stage | ran | lowered the bound | raised the incumbent | closed the gap | seconds |",
        "|---|---|---|---|---|---|",
    ]
    for stage, c in counts.items():
        rows.append(
            f"| {stage} | {c['ran']} | {c['lowered']} | {c['raised']} | {c['ended']} "
            f"| {seconds[stage]:.1f} |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p_run = sub.add_parser("run", help="run a cpwords command with every stage logged")
    p_run.add_argument("--log", required=True, help="JSON lines file appended to")
    p_run.add_argument("argv", nargs=argparse.REMAINDER, help="-- then the cpwords arguments")
    p_table = sub.add_parser("table", help="the census of logs as a Markdown table")
    p_table.add_argument("logs", nargs="+")
    args = parser.parse_args()
    if args.what == "run":
        argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
        run(args.log, argv)
    else:
        print(table(args.logs))


if __name__ == "__main__":
    sys.exit(main())
