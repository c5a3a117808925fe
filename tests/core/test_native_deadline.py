"""A HiGHS solve stops at its deadline even when HiGHS's own clock would let it run on."""

from __future__ import annotations

import time

import numpy as np
import pytest

highspy = pytest.importorskip("highspy")


def hard_knapsacks(n: int = 120, rows: int = 30, seed: int = 0) -> object:
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
