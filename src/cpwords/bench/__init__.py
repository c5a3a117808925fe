"""Heuristics versus optima: suites, a resumable parallel runner, and the study report.

Typical use (the ``cpwords bench`` and ``cpwords report`` commands do exactly this)::

    from cpwords.bench import load_suite, run_tasks, write_report

    suite = load_suite("benchmarks/suites/quick.toml")
    run_tasks(suite.tasks, "results.jsonl", jobs=2)
    write_report(["results.jsonl"], "report/")

Each puzzle plugs in with one adapter module under :mod:`cpwords.bench.adapters`
(see :class:`PuzzleAdapter`).
"""

from .adapter import MethodInfo as MethodInfo
from .adapter import PuzzleAdapter as PuzzleAdapter
from .adapter import get_adapter as get_adapter
from .adapter import known_puzzles as known_puzzles
from .adapter import register_adapter as register_adapter
from .report import write_report as write_report
from .results import read_rows as read_rows
from .runner import RunSummary as RunSummary
from .runner import run_task as run_task
from .runner import run_tasks as run_tasks
from .suite import Suite as Suite
from .suite import Task as Task
from .suite import load_suite as load_suite
