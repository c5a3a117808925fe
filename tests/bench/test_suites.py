"""The puzzle specs and the shipped suites: every suite loads, every spec's rows check."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cpwords.bench import load_suite, read_rows, run_tasks
from cpwords.bench import task as task_mod
from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult, Status
from cpwords.core.spec import BUILTIN, call_method, get_spec

SUITES = Path(__file__).resolve().parents[2] / "benchmarks" / "suites"


@pytest.fixture
def stub_shared_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for ../shared/data holding what parsing a suite reads (dataset dates).

    Parsing a suite expands a Letter Boxed ``dataset`` into one instance per puzzle date; no
    word list is read before a task runs. So the shipped suites parse without the real data.
    """
    root = tmp_path / "shared-data"
    (root / "letterboxed").mkdir(parents=True)
    rows = [{"date": f"2024-02-{d:02d}", "sides": ["abc", "def", "ghi", "jkl"]} for d in (1, 2)]
    (root / "letterboxed" / "nyt-2024.jsonl").write_text(
        "".join(f"{json.dumps(r)}\n" for r in rows)
    )
    monkeypatch.setenv("CPWORDS_DATA", str(root))
    return root


@pytest.mark.parametrize("suite", sorted(p.name for p in SUITES.glob("*.toml")))
def test_shipped_suites_load(suite: str, stub_shared_data: Path) -> None:
    s = load_suite(SUITES / suite)
    assert s.tasks and len({t.key for t in s.tasks}) == len(s.tasks)


def test_quick_suite_covers_every_builtin_puzzle(stub_shared_data: Path) -> None:
    s = load_suite(SUITES / "quick.toml")
    assert {t.puzzle for t in s.tasks} == set(BUILTIN)
    kinds = {(t.puzzle, t.kind) for t in s.tasks}
    assert all((p, "exact") in kinds for p in BUILTIN)


@pytest.mark.parametrize("puzzle", sorted(BUILTIN))
def test_specs_import_and_declare_methods(puzzle: str) -> None:
    a = get_spec(puzzle)
    assert a.puzzle == puzzle and any(m.kind == "exact" for m in a.methods.values())


def _run_suite(tmp_path: Path, body: str) -> list[dict]:
    p = tmp_path / "s.toml"
    p.write_text(body)
    out = tmp_path / "r.jsonl"
    summary = run_tasks(load_suite(p).tasks, out, executor="serial")
    assert summary.errors == 0
    return read_rows(out)


@pytest.mark.slow
def test_letterboxed_real_puzzles_optimum_never_above_par(
    tmp_path: Path, shared_data: Path
) -> None:
    rows = _run_suite(
        tmp_path,
        '[suite]\npuzzle = "letterboxed"\n'
        '[[instances]]\ndataset = "shared:letterboxed/nyt-2024.jsonl"\nlimit = 3\n'
        '[[methods]]\nmethod = "dp"\n[[methods]]\nmethod = "seed-best"\n',
    )
    assert len(rows) == 6 and all(r["verified"] for r in rows)
    best: dict[str, float] = {}
    for r in rows:
        assert r["instance"].startswith("nyt-2024-")
        assert r["reference"]["par_measure"] == "words"
        if r["method"] == "dp":
            assert r["status"] == "OPTIMAL"
            assert r["measures"]["words"] <= r["reference"]["par"]
            best[r["instance"]] = r["objective"]
    for r in rows:
        if r["method"] == "seed-best" and r["objective"] is not None:
            assert r["objective"] >= best[r["instance"]]  # a baseline never beats the optimum


def test_truncate_methods_agree_on_a_small_dictionary(tmp_path: Path) -> None:
    words = ["a", "at", "cat", "cats", "scats", "i", "in", "tin", "tint", "tints"]
    (tmp_path / "d.txt").write_text("\n".join(words))
    rows = _run_suite(
        tmp_path,
        f'[suite]\npuzzle = "truncate"\n[[instances]]\nlexicon = "{tmp_path / "d.txt"}"\n'
        '[[methods]]\nmethod = "dp"\n[[methods]]\nmethod = "seed-shrink"\n'
        '[[methods]]\nmethod = "seed-extend"\n',
    )
    assert {r["objective"] for r in rows} == {5.0}  # a at cat cats scats / i in tin tint tints
    assert all(r["verified"] and r["status"] == "OPTIMAL" for r in rows)


def test_wordsnake_params_are_checked_against_the_method(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_text(
        '[suite]\npuzzle = "wordsnake"\n[[instances]]\nwords = ["ab", "bc", "ca"]\n'
        '[[methods]]\nmethod = "layered"\nparams = { iterationz = 3 }\n'
    )
    out = tmp_path / "r.jsonl"
    assert run_tasks(load_suite(p).tasks, out, executor="serial").errors == 1
    (row,) = read_rows(out)
    assert "iterationz" in row["error"] and "iterations" in row["error"]


def test_call_method_drops_fixed_arguments_the_method_lacks() -> None:
    def heuristic(x: int, *, seed: int = 0) -> SolveResult:
        return SolveResult(Status.FEASIBLE, float(x + seed), None, 0.0, [x], "h")

    res = call_method(heuristic, 2, params={}, seed=3, time_limit=5.0, workers=1)
    assert res.objective == 5
    with pytest.raises(InputError, match="no parameter 'speed'"):
        call_method(heuristic, 2, params={"speed": 1}, seed=3)


def test_method_instance_patterns(tmp_path: Path) -> None:
    p = tmp_path / "s.toml"
    p.write_text(
        '[suite]\npuzzle = "wordsnake"\n'
        '[[instances]]\nname = "small"\nwords = ["ab", "bc"]\n'
        '[[instances]]\nname = "large"\nwords = ["ab", "bc", "ca", "ad"]\n'
        '[[methods]]\nmethod = "cpsat"\ninstances = ["lar*"]\n'
        '[[methods]]\nmethod = "greedy"\n'
    )
    tasks = load_suite(p).tasks
    assert sorted((t.method, t.instance_name) for t in tasks) == [
        ("cpsat", "large"),
        ("greedy", "large"),
        ("greedy", "small"),
    ]
    p.write_text(p.read_text().replace('"lar*"', '"huge"'))
    with pytest.raises(InputError, match="no wordsnake instance matches"):
        load_suite(p)


def test_a_method_ignoring_its_time_limit_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cpwords.core.spec import MethodInfo, PuzzleSpec, register_spec

    def stubborn(inst: int, method: str, **_: object) -> SolveResult:
        time.sleep(30)
        raise AssertionError("not stopped")

    register_spec(
        PuzzleSpec(
            puzzle="stubborn",
            sense="max",
            methods={"slow": MethodInfo("heuristic")},
            default_method="slow",
            make_instance=lambda spec, base: 1,
            run=stubborn,
            size=lambda inst: 1,
            problems=lambda inst, res: [],
            objective=lambda inst, solution: 0.0,
            spec_keys=frozenset({"n"}),
        )
    )
    monkeypatch.setattr(task_mod, "hard_limit", lambda tl: 0.3)  # where run_task reads it
    p = tmp_path / "s.toml"
    p.write_text(
        '[suite]\npuzzle = "stubborn"\n[[instances]]\nn = 1\n[[methods]]\nmethod = "slow"\n'
    )
    rows = _run_suite(tmp_path, p.read_text())
    assert rows[0]["status"] == "TIMEOUT" and rows[0]["objective"] is None


def test_letterpress_spec_methods_agree_and_are_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(tmp_path / "cache"))
    lex = tmp_path / "words.txt"
    lex.write_text("cat\nact\ncoats\ntaco\ntact\na\nzebra\n")
    suite = tmp_path / "s.toml"
    suite.write_text(
        '[suite]\npuzzle = "letterpress"\n'
        f'[[instances]]\nlexicon = "{lex}"\nletters = "tacos"\n'
        '[[methods]]\nmethod = "index"\n[[methods]]\nmethod = "trie"\n'
        '[[methods]]\nmethod = "naive"\n[[methods]]\nmethod = "index-build"\n'
        '[[methods]]\nmethod = "index-load"\nrepeats = 2\n'
    )
    out = tmp_path / "r.jsonl"
    assert run_tasks(load_suite(suite).tasks, out, executor="serial").errors == 0
    rows = read_rows(out)
    assert {r["method"] for r in rows} == {"index", "trie", "naive", "index-build", "index-load"}
    # The setup methods time the index with the query: never faster than the query alone.
    by = {r["method"]: r for r in rows}
    assert by["index-build"]["solver_info"]["index_from_cache"] is False
    assert by["index-load"]["solver_info"]["index_from_cache"] is True
    assert all(r["verified"] is True and r["objective"] == 5 for r in rows)


def test_truncate_prebuilt_dag_and_letterboxed_cold_dp_agree(tmp_path: Path) -> None:
    words = ["a", "at", "cat", "cats", "scats", "i", "in", "tin", "tint", "tints"]
    (tmp_path / "d.txt").write_text("\n".join(words))
    rows = _run_suite(
        tmp_path,
        f'[suite]\npuzzle = "truncate"\n[[instances]]\nlexicon = "{tmp_path / "d.txt"}"\n'
        "prebuilt = true\n"
        '[[methods]]\nmethod = "dp"\n[[methods]]\nmethod = "seed-shrink"\n',
    )
    assert [r["objective"] for r in rows] == [5.0, 5.0] and all(r["verified"] for r in rows)
    lb = tmp_path / "lb.txt"
    lb.write_text("bechfag\ngjdkil\nbead\ndhl\nlcfgjik\ncab\n")
    (tmp_path / "lb").mkdir()
    rows = _run_suite(
        tmp_path / "lb",
        f'[suite]\npuzzle = "letterboxed"\n[[instances]]\nbox = "abc-def-ghi-jkl"\n'
        f'lexicon = "{lb}"\n[[methods]]\nmethod = "dp"\n[[methods]]\nmethod = "dp-cold"\n',
    )
    assert {r["objective"] for r in rows} == {2013.0} and all(r["verified"] for r in rows)
    assert {r["status"] for r in rows} == {"OPTIMAL"}


def test_grid_unique_lists_the_same_classes_as_matching(tmp_path: Path) -> None:
    rows = _run_suite(
        tmp_path,
        '[suite]\npuzzle = "grid"\n[[instances]]\ntop = 5000\n'
        '[[methods]]\nmethod = "matching"\n[[methods]]\nmethod = "unique"\n'
        '[[methods]]\nmethod = "unique"\nname = "unique-limit2"\nparams = { count_limit = 2 }\n',
    )
    by = {r["method"]: r for r in rows}
    assert set(by) == {"matching", "unique", "unique-limit2"}
    # The same classes by every method (how many depends on the English list installed).
    (classes,) = {r["objective"] for r in rows}
    assert classes >= 1
    assert all(r["verified"] is True and r["solver_info"]["complete"] for r in rows)
    uniques = set()
    for m in ("unique", "unique-limit2"):
        info = by[m]["solver_info"]
        assert info["classes"] == classes and len(info["unique_puzzles"]) == info["unique"]
        uniques.add(info["unique"])
    assert len(uniques) == 1  # a limit of 2 boards decides uniqueness as well
    assert by["unique-limit2"]["solver_info"]["count_limit"] == 2
