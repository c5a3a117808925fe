"""The study harness: suite loading, stable keys, the resumable runner, the results file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cpwords.bench import load_suite, read_rows, run_tasks
from cpwords.bench.results import ResultsWriter
from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult, Status
from cpwords.core.spec import MethodInfo, PuzzleSpec

# ---------------------------------------------------------------------------------------------
# A test-only puzzle: the instance is a number n; "exact" proves n, "half" finds about n / 2.
# Workers import it by path ("test_runner:TOY"), so it works in any worker process.
# ---------------------------------------------------------------------------------------------


def _toy_make(spec: Any, base_dir: Path) -> int:
    n = spec["n"]
    if not isinstance(n, int) or n < 0:
        raise InputError(f"n must be a non-negative integer, not {n!r}")
    return n


def _toy_run(
    n: int, method: str, *, seed: int, time_limit: float, workers: int, params: Any
) -> SolveResult:
    if not os.environ.get("CPWORDS_TOY_FAST"):  # lets a resume finish at once
        time.sleep(float(params.get("sleep", 0.0)))
    if method == "exact":
        if params.get("prove", True):
            return SolveResult(Status.OPTIMAL, n, n, 0.0, [n], "exact")
        return SolveResult(Status.FEASIBLE, n - 1, n + 2, time_limit, [n - 1], "exact")
    if method == "half":
        v = n // 2 + seed % 2
        return SolveResult(Status.FEASIBLE, v, None, 0.0, [v], "half")
    if method == "liar":  # claims more than the optimum, with a wrong solution
        return SolveResult(Status.FEASIBLE, n + 1, None, 0.0, [n], "liar")
    if method == "patient":
        return _patient(n, params)
    raise RuntimeError("boom")


def _patient(n: int, params: Any) -> SolveResult:
    """Like the real methods on Ctrl-C: return the best answer so far (marked interrupted).
    With ``grandchild``, it first starts a process that ignores Ctrl-C (like a forked flow
    solve), and writes that process's pid to the file ``mark``."""
    pids = []
    if params.get("grandchild"):
        ignoring = "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); "
        kid = subprocess.Popen([sys.executable, "-c", ignoring + "time.sleep(300)"])
        pids.append(kid.pid)
    Path(params["mark"]).write_text(" ".join(map(str, pids)) + "\n", encoding="utf-8")
    try:
        time.sleep(300)
    except KeyboardInterrupt:
        return SolveResult(
            Status.FEASIBLE, n - 1, None, 1.0, [n - 1], "patient", solver_info={"interrupted": True}
        )
    return SolveResult(Status.OPTIMAL, n, n, 0.0, [n], "patient")


TOY = PuzzleSpec(
    puzzle="toy",
    sense="max",
    default_method="exact",
    methods={
        "exact": MethodInfo("exact"),
        "half": MethodInfo("heuristic", seeded=True),
        "liar": MethodInfo("heuristic"),
        "patient": MethodInfo("exact"),
        "boom": MethodInfo("baseline"),
    },
    make_instance=_toy_make,
    run=_toy_run,
    size=lambda n: n,
    problems=lambda n, res: [],
    objective=lambda n, solution: solution[0],
    size_label="units",
    spec_keys=frozenset({"n"}),
    reference=lambda n: {"par": n + 1},
)

TESTS = Path(__file__).resolve().parent
PUZZLE = "test_runner:TOY"


@pytest.fixture(autouse=True)
def _tests_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TESTS))


def write_suite(tmp_path: Path, body: str, name: str = "suite.toml") -> Path:
    p = tmp_path / name
    p.write_text(body, encoding="utf-8")
    return p


SUITE = f"""
[suite]
name = "toy"
puzzle = "{PUZZLE}"
time_limit = 5

[[instances]]
sweep = {{ n = [3, 5, 8, 13] }}

[[methods]]
method = "exact"
params = {{ sleep = SLEEP }}

[[methods]]
method = "half"
seeds = [1, 2, 3]
params = {{ sleep = SLEEP }}
"""


def toy_suite(tmp_path: Path, sleep: float = 0.0) -> Path:
    return write_suite(tmp_path, SUITE.replace("SLEEP", repr(sleep)))


# ---------------------------------------------------------------------------------------------
# Suites
# ---------------------------------------------------------------------------------------------


def test_repeats_time_one_task_several_times(tmp_path: Path) -> None:
    from cpwords.core.spec import register_spec

    times = iter([0.3, 0.1, 0.2])

    def run(n: int, method: str, **_: Any) -> SolveResult:
        return SolveResult(Status.OPTIMAL, n, n, next(times), [n], "timed")

    register_spec(
        PuzzleSpec(
            "timed",
            "max",
            {"exact": MethodInfo("exact")},
            "exact",
            _toy_make,
            run,
            problems=lambda n, res: [] if res.solution == [n] else ["wrong"],
            objective=lambda n, sol: sol[0],
            size=lambda n: n,
            spec_keys=frozenset({"n"}),
        )
    )
    body = '[suite]\npuzzle = "timed"\n[[instances]]\nn = 4\n[[methods]]\nmethod = "exact"\n'
    once = load_suite(write_suite(tmp_path, body, "once.toml")).tasks[0]
    (task,) = load_suite(write_suite(tmp_path, body + "repeats = 3\n", "thrice.toml")).tasks
    assert task.repeats == 3 and once.repeats == 1 and task.key != once.key
    out = tmp_path / "r.jsonl"
    run_tasks([task], out, executor="serial")
    (row,) = read_rows(out)
    assert row["repeats"] == 3 and row["wall_times"] == [0.3, 0.1, 0.2]
    assert row["wall_time"] == 0.2 and row["wall_time_min"] == 0.1 and row["verified"]
    with pytest.raises(InputError, match="repeats"):
        load_suite(write_suite(tmp_path, body + "repeats = 0\n", "none.toml"))


@pytest.mark.slow
def test_suite_expands_the_cross_product(tmp_path: Path) -> None:
    s = load_suite(toy_suite(tmp_path))
    assert len(s.tasks) == 4 * (1 + 3)
    assert len({t.key for t in s.tasks}) == len(s.tasks)
    assert Counter(t.method for t in s.tasks) == {"exact": 4, "half": 12}
    assert {t.instance["n"] for t in s.tasks} == {3, 5, 8, 13}


def test_keys_are_stable_and_depend_only_on_what_changes_a_result(tmp_path: Path) -> None:
    a = {(t.instance["n"], t.method, t.seed): t.key for t in load_suite(toy_suite(tmp_path)).tasks}
    renamed = SUITE.replace('name = "toy"', 'name = "other"').replace(
        "sweep =", 'name = "renamed"\nsweep ='
    )
    b = {
        (t.instance["n"], t.method, t.seed): t.key
        for t in load_suite(write_suite(tmp_path, renamed.replace("SLEEP", "0.0"), "b.toml")).tasks
    }
    assert a == b  # suite and instance names are labels, not part of the key
    longer = SUITE.replace("time_limit = 5", "time_limit = 6").replace("SLEEP", "0.0")
    c = {
        (t.instance["n"], t.method, t.seed): t.key
        for t in load_suite(write_suite(tmp_path, longer, "c.toml")).tasks
    }
    assert not set(a.values()) & set(c.values())  # the time limit is part of the key


BAD_SUITES = {
    "toml_syntax": ("[suite\n", "TOML syntax"),
    "unknown_top_key": ('[suite]\npuzzle = "P"\n[[instance]]\nn = 1\n', "unknown key 'instance'"),
    "unknown_instance_key": (
        '[suite]\npuzzle = "P"\n[[instances]]\nnn = 1\n[[methods]]\nmethod = "exact"\n',
        "unknown key 'nn'",
    ),
    "unknown_method": (
        '[suite]\npuzzle = "P"\n[[instances]]\nn = 1\n[[methods]]\nmethod = "exakt"\n',
        "did you mean 'exact'",
    ),
    "unknown_puzzle": (
        '[suite]\npuzzle = "nosuchpuzzle"\n[[instances]]\nn = 1\n',
        "unknown puzzle 'nosuchpuzzle'",
    ),
    "no_puzzle": ("[[instances]]\nn = 1\n", "no puzzle"),
    "no_instances": ('[suite]\npuzzle = "P"\n[[methods]]\nmethod = "exact"\n', "no instances"),
    "no_methods": ('[suite]\npuzzle = "P"\n[[instances]]\nn = 1\n', "no methods"),
    "bad_seeds": (
        '[suite]\npuzzle = "P"\n[[instances]]\nn = 1\n[[methods]]\nmethod = "half"\nseeds = 3\n',
        "'seeds' must be",
    ),
    "negative_time_limit": (
        '[suite]\npuzzle = "P"\ntime_limit = -1\n[[instances]]\nn = 1\n',
        "'time_limit' must be a positive number",
    ),
    "sweep_not_a_list": (
        '[suite]\npuzzle = "P"\n[[instances]]\nsweep = { n = 3 }\n',
        "sweep.n must be",
    ),
    "duplicate_label": (
        '[suite]\npuzzle = "P"\n[[instances]]\nn = 1\n'
        '[[methods]]\nmethod = "exact"\n[[methods]]\nmethod = "half"\nname = "exact"\n',
        "used twice",
    ),
}


@pytest.mark.parametrize("defect", sorted(BAD_SUITES))
def test_bad_suite_is_a_clear_error(tmp_path: Path, defect: str) -> None:
    text, message = BAD_SUITES[defect]
    p = write_suite(tmp_path, text.replace('"P"', f'"{PUZZLE}"'), f"{defect}.toml")
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        load_suite(p)


def test_missing_suite_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="suite not found"):
        load_suite(tmp_path / "absent.toml")


# ---------------------------------------------------------------------------------------------
# Runner and results file
# ---------------------------------------------------------------------------------------------


def test_serial_run_writes_every_row_then_rerun_does_nothing(tmp_path: Path) -> None:
    s = load_suite(toy_suite(tmp_path))
    out = tmp_path / "r.jsonl"
    first = run_tasks(s.tasks, out, executor="serial")
    assert (first.ran, first.skipped, first.errors) == (16, 0, 0)
    rows = read_rows(out)
    assert sorted(r["key"] for r in rows) == sorted(t.key for t in s.tasks)
    for r in rows:
        assert r["verified"] is True
        assert r["size"] == r["instance_spec"]["n"]
        assert r["env"]["python"] and "ortools" in r["env"]
        if r["method"] == "exact":
            assert r["status"] == "OPTIMAL" and r["objective"] == r["size"]
    before = out.read_bytes()
    again = run_tasks(s.tasks, out, executor="process", jobs=2)
    assert (again.ran, again.skipped) == (0, 16)
    assert out.read_bytes() == before


def test_process_pool_writes_each_row_once(tmp_path: Path) -> None:
    s = load_suite(toy_suite(tmp_path, sleep=0.02))
    out = tmp_path / "r.jsonl"
    summary = run_tasks(s.tasks, out, jobs=2)
    assert summary.ran == 16 and summary.lost == 0
    assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in s.tasks)


def test_torn_last_line_is_dropped_and_its_task_redone(tmp_path: Path) -> None:
    s = load_suite(toy_suite(tmp_path))
    out = tmp_path / "r.jsonl"
    run_tasks(s.tasks[:5], out, executor="serial")
    lost = s.tasks[5]
    full = json.dumps({"schema": "cpwords-bench/1", "key": lost.key, "status": "OPTIMAL"})
    with open(out, "ab") as fh:
        fh.write(full[: len(full) // 2].encode())  # a crash in the middle of a write
    assert len(read_rows(out)) == 5  # readers ignore the torn line
    summary = run_tasks(s.tasks, out, executor="serial")
    assert summary.ran == 11 and summary.skipped == 5
    assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in s.tasks)
    assert out.read_bytes().endswith(b"\n")


def test_a_whole_last_row_without_its_newline_is_kept(tmp_path: Path) -> None:
    # Issue 23, item 11: such a row (a file edited by hand) was dropped and its task redone.
    s = load_suite(toy_suite(tmp_path))
    out = tmp_path / "r.jsonl"
    run_tasks(s.tasks[:3], out, executor="serial")
    out.write_bytes(out.read_bytes().rstrip(b"\n"))
    assert len(read_rows(out)) == 3
    again = run_tasks(s.tasks[:4], out, executor="serial")
    assert (again.skipped, again.ran) == (3, 1)
    assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in s.tasks[:4])


@pytest.mark.slow
@pytest.mark.parametrize("defect", ["missing", "directory", "not_utf8"])
def test_an_instance_that_cannot_be_made_is_bad_input_and_gets_no_row(
    tmp_path: Path, defect: str
) -> None:
    # Issue 23, item 11: the run exited 0 with "1 errors" and kept an ERROR row.
    words = tmp_path / "words.txt"
    if defect == "directory":
        words.mkdir()
    elif defect == "not_utf8":
        words.write_bytes(b"caf\xe9\nrun\n")
    body = (
        '[suite]\nname = "bad"\ntime_limit = 5\n'
        '[[instances]]\npuzzle = "wordsnake"\nfile = "words.txt"\n'
        '[[instances]]\npuzzle = "wordsnake"\nwords = ["run", "nausea"]\n'
        '[[methods]]\npuzzle = "wordsnake"\nmethod = "greedy"\n'
    )
    suite = write_suite(tmp_path, body)
    out = tmp_path / "r.jsonl"
    res = subprocess.run(
        _cli("bench", str(suite), "--out", str(out), "--executor", "serial", "--json"),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2, res.stderr
    cause = {"missing": "not found", "directory": "directory", "not_utf8": "UTF-8"}[defect]
    assert res.stderr.count("\n") == 1 and cause in res.stderr, res.stderr
    summary = json.loads(res.stdout)
    assert (summary["ran"], summary["invalid"], summary["lost"]) == (1, 1, 0)
    assert len(read_rows(out)) == 1  # the good instance's row only


def test_a_malformed_middle_line_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text('{"schema": "cpwords-bench/1", "key": "a"}\nnot json\n{"schema": "x"}\n')
    with pytest.raises(InputError, match="line 2"):
        read_rows(out)


def test_foreign_files_and_directories_are_never_written(tmp_path: Path) -> None:
    s = load_suite(toy_suite(tmp_path))
    foreign = tmp_path / "notes.txt"
    foreign.write_text("my precious notes\n")
    with pytest.raises(InputError, match="not a cpwords results file"):
        run_tasks(s.tasks, foreign)
    assert foreign.read_text() == "my precious notes\n"
    with pytest.raises(InputError, match="directory"):
        run_tasks(s.tasks, tmp_path)
    suite_text = s.path.read_text()
    with pytest.raises(InputError):
        run_tasks(s.tasks, s.path, forbidden=(s.path,))
    assert s.path.read_text() == suite_text


@pytest.mark.slow
def test_a_second_writer_is_refused_while_the_first_holds_the_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with ResultsWriter(out), pytest.raises(InputError, match="another cpwords bench"):
        ResultsWriter(out).__enter__()


def test_failing_method_is_recorded_and_retried_on_request(tmp_path: Path) -> None:
    body = (
        f'[suite]\npuzzle = "{PUZZLE}"\n[[instances]]\nn = 4\n'
        '[[methods]]\nmethod = "boom"\n[[methods]]\nmethod = "exact"\n'
    )
    s = load_suite(write_suite(tmp_path, body))
    out = tmp_path / "r.jsonl"
    summary = run_tasks(s.tasks, out, executor="serial")
    assert summary.errors == 1
    (err,) = [r for r in read_rows(out) if r["status"] == "ERROR"]
    assert "boom" in err["error"] and err["method"] == "boom"
    assert run_tasks(s.tasks, out, executor="serial").ran == 0
    redo = run_tasks(s.tasks, out, executor="serial", retry_errors=True)
    assert redo.ran == 1 and redo.errors == 1


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-c", "from cpwords.cli import main; main()", *args]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.slow
def test_killed_study_resumes_with_every_row_exactly_once(tmp_path: Path) -> None:
    suite = toy_suite(tmp_path, sleep=0.25)
    tasks = load_suite(suite).tasks
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        _cli("bench", str(suite), "--out", str(out), "--jobs", "2", "--quiet"),
        env=_env(),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if out.exists() and out.read_bytes().count(b"\n") >= 4:
            break
        if proc.poll() is not None:
            pytest.fail(f"runner ended early: {proc.stderr.read() if proc.stderr else b''!r}")
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # a hard crash of the runner and its workers
    proc.wait()
    partial = read_rows(out)
    assert 4 <= len(partial) < len(tasks)
    done = subprocess.run(
        _cli("bench", str(suite), "--out", str(out), "--jobs", "2", "--json"),
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["skipped"] == len(partial)
    assert summary["ran"] == len(tasks) - len(partial)
    assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in tasks)


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        kids.extend(int(k) for k in text)
    return kids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_sigkilled_parent_takes_its_workers_along_and_resume_works_at_once(
    tmp_path: Path,
) -> None:
    # Issue 12: after kill -9 of the runner alone, its pool workers lived on as orphans
    # holding the results file's lock, and the documented resume failed.
    suite = toy_suite(tmp_path, sleep=60.0)
    tasks = load_suite(suite).tasks
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        _cli("bench", str(suite), "--out", str(out), "--jobs", "2", "--quiet"),
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(workers) < 2:
            assert proc.poll() is None, "the runner ended early"
            workers = _children(proc.pid)
            time.sleep(0.05)
        assert len(workers) >= 2, "the pool never started"
        time.sleep(0.5)  # let the workers take their first tasks
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, not its process group
        proc.wait()
        done = subprocess.run(
            _cli("bench", str(suite), "--out", str(out), "--jobs", "2", "--json"),
            env=_env() | {"CPWORDS_TOY_FAST": "1"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["ran"] == len(tasks)
        assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in tasks)
        assert not [w for w in workers if _alive(w)], "orphan workers outlived the runner"
    finally:
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_interrupt_keeps_finished_rows_and_exits_130(tmp_path: Path, as_json: bool) -> None:
    suite = toy_suite(tmp_path, sleep=0.3)
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        _cli(
            "bench",
            str(suite),
            "--out",
            str(out),
            "--jobs",
            "2",
            "--quiet",
            *(["--json"] if as_json else []),
        ),
        env=_env(),
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n")):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    stdout, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "resume" in err
    rows = read_rows(out)
    assert rows and len({r["key"] for r in rows}) == len(rows)
    if as_json:  # the summary still comes, on stdout
        summary = json.loads(stdout)
        assert summary["interrupted"] is True and summary["done"] == len(rows)
        assert summary["done"] + summary["left"] == summary["total"]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    "mode",
    [
        ["--executor", "serial"],
        ["--jobs", "1"],
        ["--isolate", "--jobs", "1"],
        ["--executor", "serial", "--isolate"],
    ],
    ids=["serial", "process", "process-isolate", "serial-isolate"],
)
def test_interrupted_task_is_not_recorded_and_nothing_is_left_running(
    tmp_path: Path, mode: list[str]
) -> None:
    # Issue 23, item 2: with --executor serial, Ctrl-C saved the interrupted solve as a
    # finished row (exit 0); with the process pool the command never exited and the forked
    # flow solve lived on; with --isolate, exit came when the task had finished.
    mark = tmp_path / "started"
    in_process = mode == ["--executor", "serial"]  # there the method stops its own children
    body = (
        f'[suite]\nname = "patience"\npuzzle = "{PUZZLE}"\ntime_limit = 600\n'
        "[[instances]]\nn = 3\n"
        f'[[methods]]\nmethod = "patient"\nparams = {{ mark = "{mark}", '
        f"grandchild = {str(not in_process).lower()} }}\n"
    )
    suite = write_suite(tmp_path, body)
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        _cli("bench", str(suite), "--out", str(out), "--quiet", *mode),
        env=_env(),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    kids: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not mark.is_file():
            assert proc.poll() is None, proc.communicate()[1]
            time.sleep(0.05)
        assert mark.is_file(), "the task never started"
        time.sleep(0.2)  # the mark is written: let the task reach its sleep
        kids = [int(k) for k in mark.read_text(encoding="utf-8").split()]
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's process group
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, err
        assert "resume" in err
        assert read_rows(out) == [], "the interrupted task was recorded as done"
        for _ in range(100):  # SIGKILL is delivered at once; the process ends a moment later
            if not any(_alive(k) for k in kids):
                break
            time.sleep(0.05)
        assert not [k for k in kids if _alive(k)], "a process the task started outlived it"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for k in kids:
            if _alive(k):
                os.kill(k, signal.SIGKILL)


@pytest.mark.slow
def test_dask_executor_on_a_local_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    s = load_suite(toy_suite(tmp_path))
    out = tmp_path / "r.jsonl"
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        cluster.scale(1)
        # The workers import the test spec by path, like any other puzzle module.
        client = distributed.Client(cluster)
        client.run(lambda: sys.path.insert(0, str(TESTS)))
        client.close()
        half = run_tasks(s.tasks[:7], out, executor="dask", scheduler=cluster.scheduler_address)
        assert half.ran == 7
        rest = run_tasks(s.tasks, out, executor="dask", scheduler=cluster.scheduler_address)
        assert (rest.ran, rest.skipped) == (9, 7)
    assert Counter(r["key"] for r in read_rows(out)) == Counter(t.key for t in s.tasks)


@pytest.mark.slow
def test_cli_bench_list_and_errors(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cpwords.cli import cli

    suite = toy_suite(tmp_path)
    res = CliRunner().invoke(
        cli, ["bench", str(suite), "--out", str(tmp_path / "r.jsonl"), "--list", "--json"]
    )
    assert res.exit_code == 0, res.output
    listed = json.loads(res.output)
    assert len(listed["tasks"]) == 16 and not any(t["done"] for t in listed["tasks"])
    bad = subprocess.run(
        _cli("bench", str(suite), "--out", str(tmp_path)),
        env=_env(),
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("cpwords: error:") and bad.stderr.count("\n") == 1


@pytest.mark.slow
def test_isolated_tasks_stuck_in_native_code_are_killed_at_the_hard_limit(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """A task that ignores SIGALRM (as LKH inside elkai does, holding the interpreter) is
    killed by the parent after the hard limit and recorded as TIMEOUT; the study goes on."""
    import signal

    from cpwords.bench import isolated, runner

    def stuck(task: Any, conn: Any) -> None:  # runs in the forked child
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        time.sleep(3600)

    monkeypatch.setattr(isolated, "_isolated_child", stuck)  # the isolated run's own module
    monkeypatch.setattr(isolated, "hard_limit", lambda limit: 0.2)
    (task, *_) = load_suite(toy_suite(tmp_path)).tasks
    started = time.perf_counter()
    row = runner.run_task_isolated(task)
    assert row["status"] == "TIMEOUT" and "killed by the harness" in row["error"]
    assert row["key"] == task.key
    assert time.perf_counter() - started < 600  # it did not wait for the child's hour


def test_params_cannot_set_what_the_harness_sets(tmp_path: Path) -> None:
    body = (
        f'[suite]\npuzzle = "{PUZZLE}"\n[[instances]]\nn = 3\n'
        '[[methods]]\nmethod = "exact"\nparams = { seed = 3 }\n'
    )
    with pytest.raises(InputError, match="'params' cannot set seed"):
        load_suite(write_suite(tmp_path, body, "clash.toml"))


def test_isolated_peak_memory_counts_no_fork_made_after_the_solve(tmp_path: Path) -> None:
    """No subprocess is forked inside an isolated task: read after the solve, platform's
    ``uname -p`` (and, at the start, ctypes' ``ldconfig -p``) was a copy of the task that
    ``ru_maxrss`` reported as a child as large as the task (its peak counted twice)."""
    from cpwords.bench import runner

    runner.environment.cache_clear()
    (task, *_) = load_suite(toy_suite(tmp_path)).tasks
    row = runner.run_task_isolated(task)
    assert row["status"] != "ERROR", row.get("error")
    assert row["env"]["platform"]
    assert row["peak_memory_children_mb"] < row["peak_memory_self_mb"] / 2
    assert row["peak_memory_mb"] == max(row["peak_memory_self_mb"], row["peak_memory_rss_tree_mb"])
    assert row["peak_memory_rss_tree_mb"] >= row["peak_memory_pss_mb"] > 0


_EXECS = """
import resource, subprocess
block = bytearray(300 * 2**20)
for i in range(0, len(block), 4096):
    block[i] = 1
subprocess.run(["true"], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="Linux's accounting of ru_maxrss")
def test_a_child_that_executes_a_program_reports_its_parents_peak() -> None:
    """Why ``peak_memory_mb`` does not add the largest child's ru_maxrss: ``true`` holds a few
    MiB, yet Linux reports the 300 MiB of the process that started it (its peak at the exec)."""
    out = subprocess.run([sys.executable, "-c", _EXECS], capture_output=True, text=True)
    assert int(out.stdout) >= 300


_SHARING = """
import os, sys, time
block = bytearray(200 * 2**20)
for i in range(0, len(block), 4096):
    block[i] = 1  # resident, then shared with the child by the fork
child = os.fork()
if child == 0:
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


def test_tree_memory_counts_pages_shared_after_a_fork_once() -> None:
    """A 200 MiB process that forks holds 200 MiB, not 400: the summed resident sets count the
    shared pages twice, the summed PSS once."""
    import psutil

    from cpwords.bench.runner import TreeMemory

    proc = subprocess.Popen([sys.executable, "-c", _SHARING], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        child = int(proc.stdout.readline())
        tree = TreeMemory(proc.pid)
        pss = tree.sample() / 2**20
        rss = sum(psutil.Process(p).memory_info().rss for p in (proc.pid, child)) / 2**20
        assert rss > 400  # each process's resident set holds the block
        assert 200 <= pss < 300, pss
        assert tree.peak_mb == pytest.approx(pss, abs=0.1) and tree.samples == 1
        assert tree.rss_peak_mb > 400  # the summed resident sets count the block twice
    finally:
        for p in psutil.Process(proc.pid).children(recursive=True):
            p.kill()
        proc.kill()
        proc.wait()
    assert TreeMemory(proc.pid).sample() == 0  # an ended root: nothing to count


def test_an_isolated_row_records_its_process_trees_summed_pss(tmp_path: Path) -> None:
    from cpwords.bench import runner

    (task, *_) = load_suite(toy_suite(tmp_path)).tasks
    row = runner.run_task_isolated(task)
    assert row["status"] != "ERROR", row.get("error")
    assert row["memory_samples"] >= 1
    assert 0 < row["peak_memory_pss_mb"] <= row["peak_memory_mb"] + 1
