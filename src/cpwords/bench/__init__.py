"""Heuristics versus optima: suites, a resumable parallel runner, and the study report.

Typical use (the ``cpwords bench`` and ``cpwords report`` commands do exactly this)::

    from cpwords.bench import load_suite, run_tasks, write_report

    suite = load_suite("benchmarks/suites/quick.toml")
    run_tasks(suite.tasks, "results.jsonl", jobs=2)
    write_report(["results.jsonl"], "report/")

Each puzzle plugs in with its spec (:mod:`cpwords.specs`, see
:class:`cpwords.core.spec.PuzzleSpec`);
every task runs through :func:`cpwords.core.spec.solve`, the same seam as the CLI and the API.
"""

from cpwords.bench.report import write_report as write_report
from cpwords.bench.results import read_rows as read_rows
from cpwords.bench.runner import RunSummary as RunSummary
from cpwords.bench.runner import run_task as run_task
from cpwords.bench.runner import run_tasks as run_tasks
from cpwords.bench.suite import Suite as Suite
from cpwords.bench.suite import Task as Task
from cpwords.bench.suite import load_suite as load_suite
