"""``cpwords bench``: run a study suite, resumably, in parallel."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cpwords.cli._common import echo_json, force_option, json_option, reject_unused
from cpwords.core.errors import InputError

if TYPE_CHECKING:
    from cpwords.bench.runner import RunSummary
    from cpwords.bench.suite import Suite


@click.command("bench")
@click.argument("suite", type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(path_type=Path),
    help="Results file (JSON lines); appended to, and resumed from, if it exists.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Parallel workers [default: CPUs].",
)
@click.option(
    "--isolate",
    is_flag=True,
    help="Run every task in a fresh process and record the peak memory of its process tree "
    "(peak_memory_mb: the task's own peak or the tree's summed resident sets, sampled; "
    "peak_memory_pss_mb: the tree's sampled PSS, shared pages once).",
)
@click.option(
    "--executor",
    type=click.Choice(["process", "serial", "dask"]),
    default="process",
    show_default=True,
    help="Local process pool, in-process, or a dask.distributed cluster (extra 'dask').",
)
@click.option(
    "--scheduler",
    default=None,
    help="Address of a running dask scheduler (with --executor dask; else a local cluster).",
)
@click.option(
    "--worker-memory",
    type=click.FloatRange(min=1),
    default=None,
    metavar="MB",
    help="With --executor dask: MiB of each worker; a task runs where its estimated memory fits "
    "(the workers' 'memory' resource: dask worker --resources memory=MB) [default: the local "
    "cluster shares the available memory out; a running cluster's workers say].",
)
@click.option(
    "--memory-from",
    "memory_from",
    multiple=True,
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    metavar="FILE",
    help="With --executor dask: a results file whose recorded peaks (--isolate rows) estimate "
    "the tasks' memory, besides --out and the suite's run in benchmarks/results/ (repeatable).",
)
@click.option("--retry-errors", is_flag=True, help="Redo tasks whose stored row is an ERROR.")
@click.option(
    "--report",
    "report_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the report into this folder when the run ends (a new or empty folder, "
    "or one of an earlier cpwords report).",
)
@force_option()
@click.option("--list", "list_only", is_flag=True, help="List the tasks and exit; run nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@json_option()
def bench(
    suite: Path,
    out: Path,
    jobs: int | None,
    isolate: bool,
    executor: str,
    scheduler: str | None,
    worker_memory: float | None,
    memory_from: tuple[Path, ...],
    retry_errors: bool,
    report_dir: Path | None,
    force: bool,
    list_only: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Run a study suite, resumably and in parallel.

    Every (instance, method, seed) of SUITE gives one JSON row, appended to --out. Rows
    already in --out are not run again: re-running a finished study does nothing, and an
    interrupted one (Ctrl-C, a crash) picks up where it stopped. --force (with --report)
    writes the report into a non-empty folder cpwords did not create.

    JSON: the run summary (suite, total, ran, skipped, errors, lost, invalid, bad_instances,
    report). Exit status 0 done, 1 tasks left unfinished, 2 bad input (also an instance that
    cannot be made: a missing, unreadable or non-UTF-8 file; its tasks get no row, the others
    run), 130 interrupted (finished rows are kept; an interrupted task is not recorded).
    """
    from cpwords.bench.suite import load_suite

    _refuse_unused(click.get_current_context(), list_only, executor, scheduler)
    s = load_suite(suite)
    if list_only:
        _list_tasks(s, out, as_json)
        return
    if out.suffix.lower() == ".toml":
        raise InputError(f"--out {out} looks like a suite file; give a .jsonl results file")
    if force and report_dir is None:
        raise InputError("--force needs --report DIR")
    if report_dir is not None:
        from cpwords.bench.report import validate_report_dir

        validate_report_dir(report_dir, force)  # before the study, not after it
    dask = {"worker_memory": worker_memory, "memory_from": memory_from}
    summary = _run(
        s, suite, out, jobs, executor, scheduler, retry_errors, quiet, as_json, isolate, dask
    )
    for msg in summary.messages:
        click.echo(f"cpwords: warning: {msg}", err=True)
    for why in summary.bad_instances:
        click.echo(f"cpwords: error: {why}", err=True)
    report_path = None
    if report_dir is not None:
        from cpwords.bench.report import write_report

        # Checked before the run; since then only the results file may have appeared there.
        report_path = write_report([out], report_dir, force=True)
    if as_json:
        d = summary.to_dict()
        d["suite"] = s.name
        d["report"] = str(report_path) if report_path else None
        echo_json(d)
    else:
        _print_summary(s.name, summary, out, report_path)
    if summary.invalid:
        raise SystemExit(2)
    if summary.lost:
        raise SystemExit(1)


def _refuse_unused(
    ctx: click.Context, list_only: bool, executor: str, scheduler: str | None
) -> None:
    """Refuse the options that do nothing with --list, one worker or a dask cluster."""
    if list_only:
        reject_unused(
            ctx,
            "with --list (nothing runs)",
            {
                "jobs": "--jobs",
                "isolate": "--isolate",
                "executor": "--executor",
                "scheduler": "--scheduler",
                "retry_errors": "--retry-errors",
                "report_dir": "--report",
                "force": "--force",
                "quiet": "--quiet",
                "worker_memory": "--worker-memory",
                "memory_from": "--memory-from",
            },
        )
    if executor != "dask":
        dask_only = {"worker_memory": "--worker-memory", "memory_from": "--memory-from"}
        reject_unused(ctx, "without --executor dask", dask_only)
    if executor == "serial":
        reject_unused(ctx, "with --executor serial (one task at a time)", {"jobs": "--jobs"})
    if executor == "dask" and scheduler is not None:
        reject_unused(ctx, "with --scheduler (the cluster sets its size)", {"jobs": "--jobs"})


def _list_tasks(s: Suite, out: Path, as_json: bool) -> None:
    """``--list``: every task of the suite, and whether --out already holds its row."""
    from cpwords.bench.results import read_rows

    done: set[str] = set()
    if out.is_file():
        done = {r.get("key", "") for r in read_rows(out)}
    tasks = [
        {
            "key": t.key,
            "puzzle": t.puzzle,
            "instance": t.instance_name,
            "method": t.method,
            "kind": t.kind,
            "seed": t.seed,
            "time_limit": t.time_limit,
            "done": t.key in done,
        }
        for t in s.tasks
    ]
    if as_json:
        echo_json({"suite": s.name, "tasks": tasks})
        return
    for t in tasks:
        mark = "done" if t["done"] else "todo"
        click.echo(
            f"{mark}  {t['key']}  {t['puzzle']:<11} {t['instance']:<28} "
            f"{t['method']:<14} seed={t['seed']:<4} limit={t['time_limit']:g}s"
        )
    n_done = sum(bool(t["done"]) for t in tasks)
    click.echo(f"{len(tasks)} tasks, {n_done} already in {out}")


def _run(
    s: Suite,
    suite: Path,
    out: Path,
    jobs: int | None,
    executor: str,
    scheduler: str | None,
    retry_errors: bool,
    quiet: bool,
    as_json: bool,
    isolate: bool,
    dask: dict[str, Any],
) -> RunSummary:
    """Run the suite's tasks (exit 130 on Ctrl-C, the finished rows kept). With dask, the
    recorded peaks of the suite's run in ``benchmarks/results/`` also estimate memory."""
    from cpwords.bench.runner import run_tasks

    memory_from: tuple[Path, ...] = ()
    if executor == "dask":
        from cpwords.bench.estimate import suite_results_file

        memory_from = (suite_results_file(suite, s.name), *dask["memory_from"])
    try:
        return run_tasks(
            s.tasks,
            out,
            jobs=jobs,
            executor=executor,
            scheduler=scheduler,
            retry_errors=retry_errors,
            progress=not quiet and not as_json,
            forbidden=(suite,),
            isolate=isolate,
            worker_memory=dask["worker_memory"],
            memory_from=memory_from,
        )
    except KeyboardInterrupt:
        click.echo(
            f"cpwords: interrupted; finished rows are in {out}; run the same command to resume",
            err=True,
        )
        if as_json:
            echo_json(_interrupted_summary(s, out))
        raise SystemExit(130) from None


def _interrupted_summary(s: Suite, out: Path) -> dict[str, Any]:
    """``--json`` after Ctrl-C: how many of the suite's tasks have their row in ``out``."""
    from cpwords.bench.results import read_rows

    keys = {t.key for t in s.tasks}
    try:
        done = sum(1 for r in read_rows(out, strict=False) if r.get("key") in keys)
    except InputError:  # no results file yet
        done = 0
    return {
        "suite": s.name,
        "total": len(keys),
        "done": done,
        "left": len(keys) - done,
        "out": str(out),
        "interrupted": True,
    }


def _print_summary(name: str, summary: RunSummary, out: Path, report_path: Path | None) -> None:
    """One line: tasks run, skipped, unfinished and not run; the report's folder."""
    click.echo(
        f"{name}: {summary.total} tasks; ran {summary.ran} now ({summary.errors} errors), "
        f"{summary.skipped} already done"
        + (f", {summary.lost} unfinished (re-run to finish)" if summary.lost else "")
        + (f", {summary.invalid} not run (bad instance)" if summary.invalid else "")
        + f"; results in {out}"
    )
    if report_path:
        click.echo(f"report: {report_path}")
