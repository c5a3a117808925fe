"""What a test may expect of the default method's status now that OPTIMAL means checked
(issue 31): the optimum found, and either a checked proof or FEASIBLE with the checked bound."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from cpwords.core.result import SolveResult, Status


def assert_optimum_found(res: SolveResult, optimum: float) -> None:
    """``res`` (the default method) found ``optimum``; it is OPTIMAL exactly when its certificate
    checked VALID, else FEASIBLE with the checked bound (at least the optimum) and the solver's
    own bound kept beside it."""
    info = res.solver_info
    assert res.objective == optimum, (res.objective, optimum)
    if res.is_optimal:
        assert info["proof"] == "certificate" and info["certificate_check"] == "VALID"
        return
    assert res.status is Status.FEASIBLE and info["proof"] is None
    assert info["certificate_check"] == "VALID", info.get("certificate_check")  # its own claim
    assert res.bound is not None and res.bound > optimum
    assert res.gap is not None and res.gap > 0


def ab_cases(min_size: int, max_size: int) -> tuple[st.SearchStrategy[Any], ...]:
    """Strategies for a list of 1-4-letter words over ``ab`` (``min_size`` to ``max_size`` of
    them), ``cyclic``, ``proper`` and a seed: the certificate tests' ``@given`` arguments."""
    words = st.text(alphabet="ab", min_size=1, max_size=4)
    return (
        st.lists(words, min_size=min_size, max_size=max_size),
        st.booleans(),
        st.booleans(),
        st.integers(0, 10**6),
    )
