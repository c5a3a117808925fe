"""Heuristics versus optima: suites, a resumable parallel runner, and the study report.

Typical use (the ``cpwords bench`` and ``cpwords report`` commands do exactly this)::

    from cpwords.bench import load_suite, run_tasks, write_report

    suite = load_suite("benchmarks/suites/quick.toml")
    run_tasks(suite.tasks, "results.jsonl", jobs=2)
    write_report(["results.jsonl"], "report/")

Each puzzle plugs in with its spec (:mod:`cpwords.specs`, see :class:`cpwords.spec.PuzzleSpec`);
every task runs through :func:`cpwords.spec.solve`, the same seam as the CLI and the API.
"""

from .report import write_report as write_report
from .results import read_rows as read_rows
from .runner import RunSummary as RunSummary
from .runner import run_task as run_task
from .runner import run_tasks as run_tasks
from .suite import Suite as Suite
from .suite import Task as Task
from .suite import load_suite as load_suite
