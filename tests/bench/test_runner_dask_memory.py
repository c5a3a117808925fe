"""`cpwords bench --executor dask` at scale (issue 49, item 4): every task carries a memory
estimate that dask holds against the workers' ``memory`` resource, a task larger than every
worker gets one error row, and small tasks travel in batches."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cpwords.bench import load_suite, read_rows, run_tasks
from cpwords.bench.cluster import MAX_DASK_TASKS, _cluster_memory, plan_units
from cpwords.bench.estimate import (
    DEFAULT_MEMORY_MB,
    RECORDED_MARGIN,
    WORDSNAKE_MARGIN,
    Estimate,
    estimate_tasks,
    recorded,
)
from cpwords.bench.results import encode_row
from cpwords.bench.suite import Task, instance_id
from cpwords.core.errors import InputError

TESTS = Path(__file__).resolve().parent
PUZZLE = "test_runner:TOY"  # the toy puzzle of test_runner.py: instance n, params.sleep
#: The memory each worker of the test cluster declares, MiB.
WORKER_MB = 4000


@pytest.fixture(autouse=True)
def _tests_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


def toy_suite(tmp_path: Path, ns: list[int], sleep: float, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(
        f'[suite]\nname = "toy"\npuzzle = "{PUZZLE}"\ntime_limit = 5\n\n'
        f"[[instances]]\nsweep = {{ n = {ns} }}\n\n"
        f'[[methods]]\nmethod = "exact"\nparams = {{ sleep = {sleep} }}\n',
        encoding="utf-8",
    )
    return p


def peaks_file(path: Path, tasks: list[Task], peak_mb: float) -> Path:
    """A results file recording ``peak_mb`` as the peak of each task (as --isolate would)."""
    with open(path, "wb") as fh:
        for t in tasks:
            iid = instance_id(t.puzzle, t.instance)
            row = {"key": t.key, "puzzle": "toy", "instance_id": iid, "spec_method": "exact"}
            fh.write(encode_row(row | {"status": "OPTIMAL", "peak_memory_mb": peak_mb}))
    return path


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Two in-process workers of three threads each, each declaring WORKER_MB of memory."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=3,
        processes=False,
        dashboard_address=None,
        resources={"memory": WORKER_MB},
    ) as c:
        yield c


def _task_stream(cluster: Any, run: Any) -> tuple[Any, list[dict[str, Any]]]:
    """``run()``'s result and the scheduler's task stream while it ran."""
    import distributed

    with distributed.Client(cluster) as client, distributed.get_task_stream(client) as ts:
        result = run()
    return result, list(ts.data)


def _computes(stream: list[dict[str, Any]]) -> list[tuple[str, str, float, float]]:
    """(dask key, worker, start, stop) of every compute in the stream."""
    return [
        (str(d["key"]), str(d["worker"]), s["start"], s["stop"])
        for d in stream
        for s in d["startstops"]
        if s["action"] == "compute"
    ]


def _overlap(a: tuple[str, str, float, float], b: tuple[str, str, float, float]) -> bool:
    return a[1] == b[1] and a[2] < b[3] and b[2] < a[3]


# ---------------------------------------------------------------------------------------------
# Estimates and batches (no cluster)
# ---------------------------------------------------------------------------------------------


def test_the_estimate_is_the_recorded_peak_then_the_instance_s_then_a_model(
    tmp_path: Path,
) -> None:
    from cpwords.wordsnake.relaxation.string_hub import estimate_memory
    from cpwords.wordsnake.rules import WordsnakeInstance

    toy = load_suite(toy_suite(tmp_path, [3, 5], 0.0)).tasks
    words = ["seasick", "sickle", "lemon", "onset"]
    snake = tmp_path / "snake.toml"
    snake.write_text(
        f'[suite]\npuzzle = "wordsnake"\n[[instances]]\nwords = {json.dumps(words)}\n'
        '[[methods]]\nmethod = "greedy"\nseeds = [1, 2]\n',
        encoding="utf-8",
    )
    ws = load_suite(snake).tasks
    toy_row: dict[str, Any] = {"key": toy[0].key, "puzzle": "toy", "spec_method": "exact"}
    toy_row |= {"instance_id": instance_id(PUZZLE, toy[0].instance)}
    toy_row |= {"peak_memory_mb": 800.0, "harness_time": 0.5}
    # Another seed of the Wordsnake task: the same instance and method.
    snake_row: dict[str, Any] = {"key": "elsewhere", "puzzle": "wordsnake", "spec_method": "greedy"}
    snake_row |= {"instance_id": instance_id("wordsnake", ws[0].instance)}
    snake_row |= {"peak_memory_pss_mb": 90.0}
    rows = [toy_row, snake_row]
    est = estimate_tasks([*toy, *ws], recorded(rows))
    assert est[toy[0].key] == Estimate(800.0 * RECORDED_MARGIN, 0.5, "recorded")
    assert est[toy[1].key] == Estimate(DEFAULT_MEMORY_MB, 5.0, "default")
    assert est[ws[0].key].source == "recorded-instance"
    assert est[ws[0].key].memory_mb == pytest.approx(90.0 * RECORDED_MARGIN)
    # Without the rows, the Wordsnake's model: the string-hub solve's estimate, in MiB.
    model = estimate_tasks(ws, recorded())[ws[1].key]
    assert model.source == "model:wordsnake"
    snake_bytes = estimate_memory(WordsnakeInstance(tuple(words)))
    assert model.memory_mb == pytest.approx(WORDSNAKE_MARGIN * snake_bytes / 2**20)


def test_a_search_of_100000_small_tasks_is_at_most_2000_dask_tasks() -> None:
    tasks = [Task(f"k{i}", "s", "p", "i", {}, "m", "m", "exact", 0, 1.0, 1) for i in range(100_000)]
    tiny = {t.key: Estimate(200.0, 0.05, "default") for t in tasks}
    units = plan_units(tasks, tiny, threads=64)
    assert len(units) <= MAX_DASK_TASKS
    assert Counter(t.key for u in units for t in u.tasks) == Counter(t.key for t in tasks)
    # A few tasks on many threads: a batch each rather than one long batch.
    assert [len(u) for u in plan_units(tasks[:8], tiny, threads=4)] == [1] * 8
    # Long or large tasks are never batched; a batch asks for its largest task's memory.
    mixed = {**tiny, "k0": Estimate(200.0, 600.0, "default"), "k1": Estimate(5000.0, 1, "x")}
    mixed["k2"] = Estimate(900.0, 0.05, "recorded")
    units = plan_units(tasks[:20], mixed, threads=1)
    assert [len(u) for u in units[:2]] == [1, 1]
    assert {units[0].key, units[1].key} == {"cpwords-k0", "cpwords-k1"}
    assert units[2].memory_mb == 900.0 and units[2].key.startswith("cpwords-batch-k2-")


def test_the_workers_memory_is_what_they_declare() -> None:
    def client(*resources: dict[str, float]) -> Any:
        workers = {f"w{i}": {"resources": r, "nthreads": 2} for i, r in enumerate(resources)}
        return SimpleNamespace(scheduler_info=lambda: {"workers": workers})

    messages: list[str] = []
    two = client({"memory": 8000}, {"memory": 24000})
    assert _cluster_memory(two, None, messages) == (24000.0, 4)
    assert _cluster_memory(client({"memory": 8000}), 30000, messages) == (30000.0, 2)
    assert not messages
    # Workers that declare no memory: no constraint, and a warning.
    assert _cluster_memory(client({}, {}), None, messages) == (None, 4)
    assert "declare no 'memory' resource" in messages[0]
    with pytest.raises(InputError, match="--resources memory=MB"):
        _cluster_memory(client({}), 30000, messages)


def test_memory_options_need_the_dask_executor(tmp_path: Path) -> None:
    s = load_suite(toy_suite(tmp_path, [3], 0.0))
    with pytest.raises(InputError, match="need --executor dask"):
        run_tasks(s.tasks, tmp_path / "r.jsonl", executor="serial", worker_memory=1000)


# ---------------------------------------------------------------------------------------------
# On a cluster
# ---------------------------------------------------------------------------------------------


def test_two_heavy_tasks_never_run_at_once_on_a_worker(tmp_path: Path, cluster: Any) -> None:
    """Four tasks recorded at 2,000 MiB (estimated 2,200: over half a worker's 4,000) and four
    light ones (the default 512) on two workers of three threads: each worker runs at most one
    heavy task at a time, while light ones run beside it; a task recorded at 5,000 MiB (more
    than any worker) gets one error row at once."""
    tasks = list(load_suite(toy_suite(tmp_path, list(range(1, 10)), 0.3)).tasks)
    heavy, light, huge = tasks[:4], tasks[4:8], tasks[8]
    peaks = peaks_file(tmp_path / "peaks.jsonl", heavy, 2000.0)
    peaks_file(tmp_path / "huge.jsonl", [huge], 5000.0)
    out = tmp_path / "r.jsonl"
    memory_from = (peaks, tmp_path / "huge.jsonl")
    address = cluster.scheduler_address
    summary, stream = _task_stream(
        cluster,
        lambda: run_tasks(tasks, out, executor="dask", scheduler=address, memory_from=memory_from),
    )
    assert (summary.ran, summary.errors, summary.lost) == (9, 1, 0)
    rows = {r["key"]: r for r in read_rows(out)}
    assert set(rows) == {t.key for t in tasks}
    assert "more than the 4,000 MiB of the largest dask worker" in rows[huge.key]["error"]
    assert all(rows[t.key]["memory_estimate_source"] == "recorded" for t in heavy)
    assert all(rows[t.key]["memory_estimate_mb"] == DEFAULT_MEMORY_MB for t in light)

    runs = _computes(stream)
    heavy_keys = {f"cpwords-{t.key}" for t in heavy}
    hot = [r for r in runs if r[0] in heavy_keys]
    assert len(hot) == 4 and huge.key not in " ".join(r[0] for r in runs)
    clashes = [(a[0], b[0]) for a, b in itertools.combinations(hot, 2) if _overlap(a, b)]
    assert not clashes, f"heavy tasks ran at once on one worker: {clashes}"
    # The workers did run tasks side by side: light ones beside the heavy.
    cool = [r for r in runs if r[0] not in heavy_keys]
    assert any(_overlap(a, b) for a in hot for b in cool)
    # The rows' own times agree with the stream: one worker, no heavy overlap.
    spans = [(k, rows[k[8:]]["dask"]["worker"], *_span(rows[k[8:]])) for k, *_ in hot]
    assert not [1 for a, b in itertools.combinations(spans, 2) if _overlap(a, b)]


def _span(row: dict[str, Any]) -> tuple[float, float]:
    return row["dask"]["start"], row["dask"]["end"]


def test_small_tasks_run_in_batches_and_resume_task_by_task(tmp_path: Path, cluster: Any) -> None:
    """Sixty instant tasks on six threads are 30 batches of two (at least four a thread); each
    task still has its row, and a re-run after some rows are lost redoes only those."""
    tasks = list(load_suite(toy_suite(tmp_path, list(range(60)), 0.0)).tasks)
    out = tmp_path / "r.jsonl"
    summary, stream = _task_stream(
        cluster, lambda: run_tasks(tasks, out, executor="dask", scheduler=cluster.scheduler_address)
    )
    assert summary.ran == 60
    keys = {r[0] for r in _computes(stream)}
    assert len(keys) == 30 and all(k.startswith("cpwords-batch-") for k in keys)
    rows = read_rows(out)
    assert Counter(r["key"] for r in rows) == Counter(t.key for t in tasks)
    assert {r["dask"]["batch"] for r in rows} == {2}
    # Lose the last 5 rows: the re-run does those five and nothing else.
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:-5]))
    again = run_tasks(tasks, out, executor="dask", scheduler=cluster.scheduler_address)
    assert (again.ran, again.skipped) == (5, 55)
    assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in tasks)


def _dies_on_n3(task: Task) -> dict[str, Any]:
    """A task runner whose worker "dies" on the instance n = 3 (as a killed worker does)."""
    from cpwords.bench.runner import run_task

    if task.instance["n"] == 3:
        raise RuntimeError("worker lost")
    return run_task(task)


def test_a_failed_batch_is_rerun_task_by_task(tmp_path: Path, cluster: Any) -> None:
    """Forty-eight small tasks on six threads are 24 batches of two; the batch holding n = 3
    fails, its two tasks are resubmitted alone: one row each, the failing one an ERROR that says
    so."""
    from cpwords.bench.cluster import run_dask
    from cpwords.bench.runner import _error_row

    tasks = list(load_suite(toy_suite(tmp_path, list(range(48)), 0.0)).tasks)
    rows: list[dict[str, Any]] = []
    run_dask(
        tasks,
        estimate_tasks(tasks, recorded()),
        rows.append,
        [],
        n_jobs=1,
        scheduler=cluster.scheduler_address,
        worker_memory=None,
        run=_dies_on_n3,
        error_row=_error_row,
    )
    assert Counter(r["key"] for r in rows) == Counter(t.key for t in tasks)
    failed = [r for r in rows if r["status"] == "ERROR"]
    assert [r["instance_spec"]["n"] for r in failed] == [3]
    assert "the dask worker died running it" in failed[0]["error"]
    assert sorted(r["dask"]["batch"] for r in rows if r["status"] != "ERROR") == [1] + [2] * 46
