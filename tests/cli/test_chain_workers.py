"""Issue 47, item 6: ``chain --workers N`` (HiGHS's threads), as every solving command has it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cpwords.chain.models import trail
from tests.conftest import run_cli

WORDS = ["seasick", "kiln", "nausea", "apple", "egg", "dog"]


@pytest.fixture
def words(tmp_path: Path) -> str:
    f = tmp_path / "words.txt"
    f.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return str(f)


@pytest.mark.parametrize("extra", [[], ["--compare"]])
def test_workers_reach_highs(
    words: str, extra: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    seen: list[int] = []
    real = trail.new_highs

    def spy(seed: int = 0, threads: int = 1) -> Any:
        seen.append(threads)
        return real(seed, threads)

    monkeypatch.setattr(trail, "new_highs", spy)
    code, out, _ = run_cli(["chain", words, "--workers", "2", *extra, "--json"], capsys)
    assert code == 0 and seen and set(seen) == {2}
    row = json.loads(out)
    first = row["results"][0] if "results" in row else row
    assert first["status"] == "OPTIMAL" and first["verified"]
    seen.clear()
    code, _, _ = run_cli(["chain", words, *extra, "--json"], capsys)
    assert code == 0 and set(seen) == {1}  # the default: one thread


@pytest.mark.parametrize(
    "args",
    [
        ["--workers", "2", "--method", "random-dfs"],
        ["--workers", "2", "--check-text", "seasick kiln"],
        ["--workers", "0"],
    ],
)
def test_workers_refused_where_highs_does_not_run(
    words: str, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["chain", words, *args], capsys)
    assert code == 2 and not out and err.count("\n") == 1 and err.startswith("cpwords: error: ")


def test_a_solve_after_another_thread_count_keeps_its_certificate() -> None:
    # HiGHS's task scheduler is one per process: a one-thread solve after a two-thread one
    # lost its certificate (its LP ended not optimal) until new_highs reset the scheduler.
    from cpwords.chain.spec import solve_chain

    for workers in (2, 1, 2):
        res = solve_chain(WORDS, workers=workers)
        assert res.status.value == "OPTIMAL" and res.solver_info["proof"] == "certificate"


def test_a_solve_after_another_threads_solve_keeps_its_certificate() -> None:
    # HiGHS keeps a task scheduler per thread: a server's worker thread resetting its own for
    # one thread left the main thread's set up for two, and the main thread's next one-thread
    # solve lost its certificate.
    import threading

    from cpwords.chain.spec import solve_chain

    proofs: list[str] = []

    def solve(workers: int) -> None:
        proofs.append(solve_chain(WORDS, workers=workers).solver_info["proof"])

    solve(2)
    other = threading.Thread(target=solve, args=(1,))
    other.start()
    other.join()
    solve(1)
    assert proofs == ["certificate"] * 3
