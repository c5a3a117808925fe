"""A HiGHS solve stops at its deadline even when HiGHS's own clock would let it run on."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

highspy = pytest.importorskip("highspy")


def hard_knapsacks(n: int = 120, rows: int = 30, seed: int = 0) -> Any:
    """A MIP HiGHS needs seconds for: random multi-dimensional knapsacks."""
    from cpwords.core.native import new_highs

    rng = np.random.default_rng(seed)
    h = new_highs()
    h.addVars(n, np.zeros(n), np.ones(n))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.ones(n, dtype=np.uint8))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), -rng.integers(50, 100, n).astype(float))
    for _ in range(rows):
        w = rng.integers(20, 60, n).astype(float)
        h.addRow(-highspy.kHighsInf, float(w.sum() / 2), n, np.arange(n, dtype=np.int32), w)
    return h


def test_a_solve_past_its_deadline_is_cancelled_and_reports_an_interrupt() -> None:
    from cpwords.core.native import run_highs_interruptibly

    h = hard_knapsacks()
    h.setOptionValue("time_limit", highspy.kHighsInf)  # HiGHS would not stop on its own
    assert run_highs_interruptibly(h, deadline=time.perf_counter() + 0.1) is False  # no Ctrl-C
    assert h.getModelStatus() == highspy.HighsModelStatus.kInterrupt


def assignment_lp(n: int, seed: int) -> Any:
    """An assignment LP of ``n`` x ``n`` columns (simplex)."""
    from cpwords.core.native import new_highs

    rng = np.random.default_rng(seed)
    h = new_highs()
    m = n * n
    h.addVars(m, np.zeros(m), np.full(m, highspy.kHighsInf))
    h.changeColsCost(m, np.arange(m, dtype=np.int32), rng.random(m))
    rows = [np.arange(i * n, (i + 1) * n) for i in range(n)] + [
        np.arange(j, m, n) for j in range(n)
    ]
    starts = np.cumsum([0] + [len(r) for r in rows[:-1]]).astype(np.int32)
    index = np.concatenate(rows).astype(np.int32)
    h.addRows(2 * n, np.ones(2 * n), np.ones(2 * n), len(index), starts, index, np.ones(len(index)))
    h.setOptionValue("solver", "simplex")
    return h


def test_an_lp_solved_again_gets_its_time_counted_from_the_earlier_runs() -> None:
    from cpwords.core.native import lp_time_limit

    h = assignment_lp(200, 0)
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    spent = h.getRunTime()
    # HiGHS's simplex counts the earlier run: a limit below it stops the next solve at once.
    h.changeColsCost(
        40_000, np.arange(40_000, dtype=np.int32), np.random.default_rng(1).random(40_000)
    )
    h.setOptionValue("time_limit", spent / 2)
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kTimeLimit
    # The helper's limit gives the solve its time on top of what is spent.
    assert lp_time_limit(h, 60.0) == pytest.approx(h.getRunTime() + 60.0)
    h.setOptionValue("time_limit", lp_time_limit(h, 60.0))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def test_a_released_model_is_freed_with_its_last_reference() -> None:
    """A solved ``highspy.Highs`` is held by its own callbacks (a cycle only the collector
    breaks: a proof tree's model per node grew to 650 MB); released, its last reference frees
    it."""
    import gc
    import weakref

    from cpwords.core.native import new_highs, release_highs, run_highs_interruptibly

    def solved() -> Any:
        h = new_highs()
        h.addVars(1, np.zeros(1), np.ones(1))
        h.changeColsCost(1, np.array([0], dtype=np.int32), np.array([1.0]))
        run_highs_interruptibly(h)
        return h

    collecting = gc.isenabled()
    gc.disable()
    try:
        kept, freed = solved(), solved()
        kept_ref, freed_ref = weakref.ref(kept), weakref.ref(freed)
        release_highs(freed)
        del kept, freed
        assert kept_ref() is not None  # the cycle: without the release it waits for the collector
        assert freed_ref() is None
    finally:
        if collecting:
            gc.enable()
        gc.collect()
