"""Wordsnake interoperability: TSPLIB export and tours, model export, outside solvers as peers."""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

import pytest

from cpwords.cli import main
from cpwords.core.errors import InputError
from cpwords.wordsnake.formulations.export import (
    export_model,
    hub_flow_cpsat,
    hub_mip,
    routes_cpsat,
)
from cpwords.wordsnake.heuristics import peers as wordsnake_peers
from cpwords.wordsnake.heuristics import tsplib
from cpwords.wordsnake.rules import WordsnakeInstance, snake_score
from cpwords.wordsnake.spec import compare_wordsnake, solve_wordsnake

needs_elkai = pytest.mark.skipif(
    not wordsnake_peers.elkai_available(),
    reason="elkai (LKH-3) is the optional extra peers, not installed: pip install -e '.[peers]'",
)


def run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def random_instance(rng: random.Random, n: int, alphabet: str = "abc", **kw) -> WordsnakeInstance:
    words = tuple("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(n))
    return WordsnakeInstance(words, **kw)


def brute_force(inst: WordsnakeInstance) -> int:
    return max(snake_score(p, inst.cyclic, inst.proper) for p in itertools.permutations(inst.words))


VARIANTS = [
    {"cyclic": False, "proper": False},
    {"cyclic": True, "proper": False},
    {"cyclic": False, "proper": True},
]


# --------------------------------------------------------------------------------------------
# The transformation itself
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(k for k in v if v[k]) or "plain"
)
def test_tour_length_transforms_back_to_the_score(variant):
    """For any tour, ``score(order read back) == word_edges * M - length``."""
    rng = random.Random(7)
    for _ in range(20):
        inst = random_instance(rng, rng.randint(1, 7), **variant)
        sm = tsplib.snake_matrix(inst)
        cost = sm.full()
        assert cost.shape == (sm.dimension, sm.dimension) and cost.min() >= 0
        assert cost.max() <= sm.big_m
        nodes = list(range(sm.dimension))
        for _ in range(5):
            rng.shuffle(nodes)
            length = sum(int(cost[a, b]) for a, b in zip(nodes, nodes[1:] + nodes[:1], strict=True))
            if len(nodes) == 1:
                length = 0  # a one-node tour has no arc
            order = tsplib.tour_to_order(inst, nodes)
            assert sorted(order) == sorted(inst.words)
            assert snake_score(order, inst.cyclic, inst.proper) == sm.score_from_length(length)


# --------------------------------------------------------------------------------------------
# Round trip: export, solve with a peer that only sees the file, read the tour back, check it
# --------------------------------------------------------------------------------------------


def parse_atsp(text: str) -> tuple[list[list[int]], int, int | None]:
    """A minimal reader of the exported file, independent of cpwords: matrix, M, dummy node."""
    head, _, body = text.partition("EDGE_WEIGHT_SECTION\n")
    found_dim = re.search(r"^DIMENSION\s*:\s*(\d+)", head, re.M)
    found_m = re.search(r"with M = (\d+)", head)
    assert found_dim and found_m, head
    dim, big_m = int(found_dim.group(1)), int(found_m.group(1))
    dummy = re.search(r"node (\d+) is a dummy", head)
    nums = [int(t) for t in body.replace("EOF", "").split()]
    assert len(nums) == dim * dim
    return (
        [nums[i * dim : (i + 1) * dim] for i in range(dim)],
        big_m,
        (int(dummy.group(1)) if dummy else None),
    )


def solve_matrix(text: str, matrix: list[list[int]]) -> list[int]:
    """A 1-based tour from LKH (elkai) when installed, else from OR-Tools routing."""
    if wordsnake_peers.elkai_available():
        from elkai import _elkai

        return list(_elkai.solve_problem("PROBLEM_FILE = :stdin:\nRUNS = 1\n", text))
    from ortools.constraint_solver import pywrapcp, routing_enums_pb2

    manager = pywrapcp.RoutingIndexManager(len(matrix), 1, 0)
    routing = pywrapcp.RoutingModel(manager)
    routing.SetArcCostEvaluatorOfAllVehicles(routing.RegisterTransitMatrix(matrix))
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    sol = routing.SolveWithParameters(params)
    tour, index = [], routing.Start(0)
    while not routing.IsEnd(index):
        tour.append(manager.IndexToNode(index) + 1)
        index = sol.Value(routing.NextVar(index))
    return tour


@pytest.mark.parametrize("cyclic", [False, True], ids=["linear", "cyclic"])
def test_round_trip_tsplib_peer_tour_checker(tmp_path, capsys, cyclic):
    rng = random.Random(3)
    words = sorted({"".join(rng.choice("ab") for _ in range(rng.randint(2, 6))) for _ in range(40)})
    wfile = tmp_path / "words.txt"
    wfile.write_text("\n".join(words) + "\n")
    atsp = tmp_path / "words.atsp"
    args = ["snake", str(wfile), "--export-tsplib", str(atsp)] + (["--cyclic"] if cyclic else [])
    code, out, _ = run(args, capsys)
    assert code == 0 and "wrote" in out
    text = atsp.read_text()
    assert "TYPE : ATSP" in text and "EDGE_WEIGHT_FORMAT : FULL_MATRIX" in text
    matrix, big_m, dummy = parse_atsp(text)
    assert (dummy is None) == cyclic and len(matrix) == len(words) + (0 if cyclic else 1)
    tour = solve_matrix(text, matrix)
    cost = sum(matrix[a - 1][b - 1] for a, b in zip(tour, tour[1:] + tour[:1], strict=True))
    tfile = tmp_path / "peer.tour"
    tfile.write_text(tsplib.tour_text([v - 1 for v in tour], "words", cost))
    check = ["snake", str(wfile), "--check", str(tfile), "--json"] + (
        ["--cyclic"] if cyclic else []
    )
    code, out, _ = run(check, capsys)
    data = json.loads(out)
    assert code == 0 and data["valid"]
    edges = len(words) if cyclic else len(words) - 1
    assert data["objective"] == edges * big_m - cost
    # and the peer never beats the proven optimum
    inst = WordsnakeInstance(tuple(words), cyclic=cyclic)
    exact = solve_wordsnake(inst, "exact", time_limit=30)
    assert exact.is_optimal and data["objective"] <= exact.objective


def test_check_accepts_tour_by_content_and_rejects_bad_tours(tmp_path, capsys):
    wfile = tmp_path / "w.txt"
    wfile.write_text("run\nnausea\nseasick\n")
    good = tmp_path / "order.txt"  # no .tour suffix: detected by its TOUR_SECTION
    good.write_text("NAME : x\nTYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n4\n1\n2\n3\n-1\nEOF\n")
    code, out, _ = run(["snake", str(wfile), "--check", str(good), "--json"], capsys)
    assert code == 0 and json.loads(out)["objective"] == snake_score(["run", "nausea", "seasick"])
    for name, body in {
        "repeat.tour": "TOUR_SECTION\n1 1 2 3\n-1\n",
        "short.tour": "DIMENSION : 3\nTOUR_SECTION\n1 2 3\n-1\n",  # linear needs the dummy
        "noend.tour": "TOUR_SECTION\n1 2 3 4\n",
        "junk.tour": "TOUR_SECTION\n1 2 x 4\n-1\n",
        "nosection.tour": "TYPE : TOUR\n",
    }.items():
        f = tmp_path / name
        f.write_text(body)
        code, _, err = run(["snake", str(wfile), "--check", str(f)], capsys)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, name


# --------------------------------------------------------------------------------------------
# Export refusals
# --------------------------------------------------------------------------------------------


def test_export_refuses_too_large_and_existing_files(tmp_path, capsys, monkeypatch):
    wfile = tmp_path / "w.txt"
    wfile.write_text("\n".join(f"w{'a' * (i % 7)}b{'c' * (i // 7)}" for i in range(60)) + "\n")
    out_file = tmp_path / "big.atsp"
    monkeypatch.setattr(tsplib, "DEFAULT_MAX_BYTES", 10_000)  # 61^2 entries do not fit
    code, _, err = run(["snake", str(wfile), "--export-tsplib", str(out_file)], capsys)
    assert code == 2 and "GiB" in err and err.count("\n") == 1 and not out_file.exists()
    # Issue 23, item 12: the limit of 2 GiB (2 * 2^30 bytes) printed as "2.15 GB".
    monkeypatch.setattr(tsplib, "DEFAULT_MAX_BYTES", 2 * 1024**3)
    monkeypatch.setattr(tsplib, "estimated_bytes", lambda instance: 3 * 1024**3)
    code, _, err = run(["snake", str(wfile), "--export-tsplib", str(out_file)], capsys)
    assert code == 2 and "(limit 2.00 GiB)" in err and "3.00 GiB" in err
    assert not list(tmp_path.glob(".*part*"))
    monkeypatch.undo()
    # an ENABLE-sized list is refused from its size alone, before anything is written
    huge = WordsnakeInstance(("ab",) * 40_000)  # 1.6e9 pairs of overlap 2: never computed
    with pytest.raises(InputError, match="n\\^2"):
        tsplib.write_atsp(huge, tmp_path / "huge.atsp")
    assert not (tmp_path / "huge.atsp").exists()
    existing = tmp_path / "keep.atsp"
    existing.write_text("precious\n")
    for flag in ("--export-tsplib", "--export-model"):
        target = existing if flag == "--export-tsplib" else tmp_path / "keep.mps"
        target.write_text("precious\n")
        code, _, err = run(["snake", str(wfile), flag, str(target)], capsys)
        assert code == 2 and "--force" in err and target.read_text() == "precious\n"
    code, _, _ = run(["snake", str(wfile), "--export-tsplib", str(existing), "--force"], capsys)
    assert code == 0 and existing.read_text().startswith("NAME")


# --------------------------------------------------------------------------------------------
# Model export: the files hold the exact model (or, on request, the relaxation)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant", VARIANTS, ids=lambda v: "-".join(k for k in v if v[k]) or "plain"
)
def test_exported_models_have_the_brute_force_optimum(tmp_path, variant):
    from ortools.linear_solver import pywraplp
    from ortools.linear_solver.python import model_builder as mb
    from ortools.sat.python import cp_model

    rng = random.Random(11)
    for k in range(4):
        inst = random_instance(rng, rng.randint(2, 6), alphabet="ab", **variant)
        best = brute_force(inst)
        mps = tmp_path / f"m{k}.mps"
        export_model(inst, mps)
        model = mb.Model()
        assert model.import_from_mps_file(str(mps))
        solver = mb.Solver("scip")
        assert solver.solve(model) == mb.SolveStatus.OPTIMAL
        assert round(solver.objective_value) == best, inst.words
        relax = hub_mip(inst, connectivity="none")
        assert relax.Solve() == pywraplp.Solver.OPTIMAL
        assert relax.Objective().Value() >= best - 1e-6
        cp = hub_flow_cpsat(inst) if inst.cyclic else routes_cpsat(inst)
        cps = cp_model.CpSolver()
        cps.parameters.num_workers = 1
        assert cps.solve(cp) == cp_model.OPTIMAL and round(cps.objective_value) == best
        if not inst.cyclic:
            flow = hub_flow_cpsat(inst)
            assert cps.solve(flow) == cp_model.OPTIMAL and round(cps.objective_value) == best


def test_export_model_formats_and_headers(tmp_path, capsys):
    wfile = tmp_path / "w.txt"
    wfile.write_text("run\nnausea\nseasick\nsickle\n")
    for name, marker in (("m.mps", "* "), ("m.lp", "\\ "), ("m.pbtxt", "# ")):
        code, _, _ = run(["snake", str(wfile), "--export-model", str(tmp_path / name)], capsys)
        text = (tmp_path / name).read_text()
        assert code == 0 and text.startswith(marker + "cpwords Wordsnake model")
    assert "Connectivity (exact)" in (tmp_path / "m.mps").read_text()
    code, _, _ = run(
        [
            "snake",
            str(wfile),
            "--export-model",
            str(tmp_path / "r.lp"),
            "--export-connectivity",
            "none",
        ],
        capsys,
    )
    assert code == 0 and "UPPER BOUND" in (tmp_path / "r.lp").read_text()
    code, _, _ = run(["snake", str(wfile), "--export-model", str(tmp_path / "m.pb")], capsys)
    assert code == 0 and (tmp_path / "m.pb").stat().st_size > 0
    code, _, err = run(["snake", str(wfile), "--export-model", str(tmp_path / "m.txt")], capsys)
    assert code == 2 and ".mps" in err and not (tmp_path / "m.txt").exists()


# --------------------------------------------------------------------------------------------
# Peers
# --------------------------------------------------------------------------------------------

PEERS = ["ortools-routing", pytest.param("lkh", marks=needs_elkai)]


@pytest.mark.parametrize("method", PEERS)
def test_peers_never_beat_brute_force(method):
    rng = random.Random(5)
    for k in range(8):
        inst = random_instance(rng, rng.randint(1, 7), **VARIANTS[k % 3])
        # A second (not 0.2 s): a forked routing child under a load of 4 had no tour yet.
        res = solve_wordsnake(inst, method, time_limit=1.0, seed=k)
        assert res.verified and res.bound is None and res.status.value == "FEASIBLE"
        assert res.objective <= brute_force(inst)
        assert snake_score(res.solution, inst.cyclic, inst.proper) == res.objective
        if "tour_length" in res.solver_info:  # n > 3: the peer really ran
            info = res.solver_info
            assert res.objective == info["word_edges"] * info["big_m"] - info["tour_length"]


@pytest.mark.parametrize("method", PEERS)
def test_peer_in_comparison_against_the_optimum(method):
    inst = random_instance(random.Random(9), 30, alphabet="ab")
    comp = compare_wordsnake(
        inst, ["exact", method], overrides={method: {"time_limit": 0.5}}, time_limit=30
    )
    assert comp.optimum is not None
    peer = comp.results[1]
    assert peer.method == method and 0 <= comp.gap_to_optimum(peer) < 1


def test_lkh_without_elkai_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(wordsnake_peers, "elkai_available", lambda: False)
    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle"))
    with pytest.raises(InputError, match=r"pip install -e .\.\[peers\]"):
        solve_wordsnake(inst, "lkh")
    wfile = tmp_path / "w.txt"
    wfile.write_text("\n".join(inst.words) + "\n")
    code, _, err = run(["snake", str(wfile), "--method", "lkh"], capsys)
    assert code == 2 and err.count("\n") == 1 and "elkai" in err
    code, out, err = run(
        ["snake", str(wfile), "--compare", "--peers", "--peer-time-limit", "0.2", "--json"], capsys
    )
    methods = [row["method"] for row in json.loads(out)["comparison"]]
    assert code == 0 and "ortools-routing" in methods and "lkh" not in methods


def test_peer_refuses_a_matrix_larger_than_memory(monkeypatch):
    monkeypatch.setattr(wordsnake_peers, "_available_memory", lambda: 1000)
    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle", "lemon"))
    with pytest.raises(InputError, match="cost matrix"):
        solve_wordsnake(inst, "ortools-routing", time_limit=1)


def test_tsplib_file_read_by_path_helper(tmp_path):
    inst = WordsnakeInstance(("run", "nausea", "seasick"), name=str(Path("some dir/my list.txt")))
    sm = tsplib.write_atsp(inst, tmp_path / "x.atsp")
    text = (tmp_path / "x.atsp").read_text()
    assert text.splitlines()[0] == "NAME : my_list.txt"
    assert sm.comment() in text and text.rstrip().endswith("EOF")


# --------------------------------------------------------------------------------------------
# Study families
# --------------------------------------------------------------------------------------------


def test_study_families_random_strings_and_repeats(tmp_path):
    from cpwords.wordsnake.spec import make_instance

    a = make_instance({"alphabet": "ab", "n": 300, "seed": 1}, tmp_path)
    b = make_instance({"alphabet": "ab", "n": 300, "seed": 1}, tmp_path)
    assert a.words == b.words and a.n == 300
    assert set("".join(a.words)) <= {"a", "b"} and all(3 <= len(w) <= 8 for w in a.words)
    assert a.duplicates()  # 300 strings from 504 possible ones repeat
    lex = tmp_path / "lex.txt"
    lex.write_text("\n".join(["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]) + "\n")
    r = make_instance({"lexicon": str(lex), "distinct": 3, "n": 50, "seed": 2}, tmp_path)
    assert r.n == 50 and len(set(r.words)) <= 3
    for bad in ({"alphabet": "AB", "n": 5, "seed": 1}, {"alphabet": "ab", "n": 0, "seed": 1}):
        with pytest.raises(InputError):
            make_instance(bad, tmp_path)


# Issue 23, item 7: the peers ignored their limits and Ctrl-C (OR-Tools ran 57 s after a
# Ctrl-C, LKH 85 s); they now run in a child process killed at the deadline or on Ctrl-C.

FIVE = WordsnakeInstance(("run", "nausea", "seasick", "sickle", "lemon"))


def _stubborn_routing(report, sm, time_limit, start):  # runs in the peer's process
    report(([sm.dummy, 0, 1, 2, 3, 4], 0))  # one tour reported, then the limit ignored
    import time

    time.sleep(300)


def _stubborn_lkh(report, params, problem):
    import time

    time.sleep(300)


def test_a_peer_that_ignores_its_limit_is_killed_and_its_last_tour_kept(monkeypatch):
    monkeypatch.setattr(wordsnake_peers, "_routing_search", _stubborn_routing)
    res = wordsnake_peers.ortools_routing(FIVE, time_limit=0.2)
    assert res.status.value == "FEASIBLE" and res.solver_info["stopped"] == "time_limit"
    assert res.solution == list(FIVE.words)  # the tour it reported, decoded
    assert res.objective == snake_score(FIVE.words, False, False)
    assert not res.solver_info.get("interrupted")


@needs_elkai
def test_lkh_killed_at_its_deadline_answers_the_input_order_with_the_reason(monkeypatch):
    # Issue 48, item 9: a method stopped before any tour of its own answers the input order.
    monkeypatch.setattr(wordsnake_peers, "_lkh_search", _stubborn_lkh)
    res = solve_wordsnake(FIVE, "lkh", time_limit=0.2)
    assert res.status.value == "FEASIBLE" and res.solution == list(FIVE.words)
    assert res.objective == snake_score(FIVE.words, False, False)
    assert "time limit" in res.solver_info["reason"]
    assert res.solver_info["answer"] == "the input order"


@pytest.mark.slow
def test_ctrl_c_stops_ortools_routing_at_once_with_its_best_tour(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    wfile = tmp_path / "five.txt"
    wfile.write_text("\n".join(FIVE.words) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-c", "from cpwords.cli import main; main()", "snake", str(wfile)]
    env = os.environ | {"CPWORDS_PROGRESS": "lines"}
    proc = subprocess.Popen(
        [*cmd, "--method", "ortools-routing", "--json"],  # the default limit: 60 s
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = ""
        while "solving" not in line:  # "progress: solving ..." once the solve has begun
            line = proc.stderr.readline()
            assert line, proc.communicate()
        time.sleep(0.4)  # guided local search is under way (it converges after 1 s here)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)  # before: 57 s
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    row = json.loads(out)
    assert row["interrupted"] and row["status"] == "FEASIBLE" and row["objective"] == 30


def test_a_routing_search_that_ran_its_time_says_it_stopped_at_the_limit() -> None:
    # Issue 34, item 19: guided local search runs to its limit; it said stopped: null.
    res = wordsnake_peers.ortools_routing(FIVE, time_limit=0.3)
    assert res.status.value == "FEASIBLE" and res.solver_info["stopped"] == "time_limit"
    assert res.wall_time >= 0.3
    res = wordsnake_peers.ortools_routing(FIVE, time_limit=None)  # no metaheuristic: it ends
    assert "stopped" not in res.solver_info
