"""Stage "checked proof": the certificate of the finished solve, checked in memory by the
independent checker (:func:`cpwords.wordsnake.certificate.verify_certificate`), decides the
status.

The default method answers OPTIMAL only when its certificate checks VALID and the ordering
scores the bound the checker proved; otherwise FEASIBLE with the checker's bound (the bound the
values prove), the solver's own bound kept in ``solver_info["solver_bound"]``. A certificate
that could not be computed or checked in time leaves the solver's bound, marked unchecked
(``solver_info["bound_checked"]`` False). Card: ``models/wordsnake.md``, "Certificates: a bound
anyone can check".
"""

from __future__ import annotations

import gc
import time

from cpwords.wordsnake.certificate import verify_certificate
from cpwords.wordsnake.models.pipeline.state import ProofState

#: Seconds per letter kept for the check past the deadline (the checker's measured 0.6 us per
#: letter, doubled), and a floor.
CHECK_SECONDS_PER_LETTER = 1.2e-6
CHECK_MIN_SECONDS = 0.5


def checked_proof(state: ProofState) -> None:
    """Stage "checked proof": check ``solver_info["certificate"]`` and set the status from the
    checker's verdict (``proof`` is ``"certificate"`` when OPTIMAL, else None)."""
    info = state.info
    cert = info.get("certificate")
    info["proof"] = None
    claimed = state.bound
    # The network and the flow's arrays are not needed any more: the checker's tables take
    # their place in memory (see string_hub.estimate_memory).
    state.net = state.flow = state.out = state.core = None
    gc.collect()
    if cert is None:
        _unchecked(state, info.get("certificate_error", "no certificate"))
        return
    letters = sum(len(w) for w in state.instance.words)
    reserve = CHECK_MIN_SECONDS + CHECK_SECONDS_PER_LETTER * letters
    left = state.remaining()
    limit = None if left is None else max(left, reserve)
    t0 = time.perf_counter()
    # The checker allocates millions of small objects and no cycles: the cyclic collector,
    # traversing the whole solve's heap at each of its passes, tripled the check (ENABLE:
    # 4.4-8.7 s instead of about 1.5 s).
    collecting = gc.isenabled()
    gc.disable()
    try:
        found = verify_certificate(
            state.instance.words, cert, cyclic=state.instance.cyclic,
            proper=state.instance.proper, time_limit=limit, score=state.instance.score,
        )  # fmt: skip
    except TimeoutError:
        _unchecked(state, "the time limit passed before the certificate was checked")
        return
    finally:
        if collecting:
            gc.enable()
    info["certificate_check"] = found.status
    info["certificate_check_time"] = time.perf_counter() - t0
    info["solver_bound"] = claimed
    info["bound_checked"] = found.bound is not None
    if found.optimal:
        state.bound = float(found.bound)  # type: ignore[arg-type]
        state.proven = True
        info["proof"] = "certificate"
        return
    if state.proven and not state.interrupted:
        info.setdefault("stopped", "exhausted")  # the solver finished; its proof is not checked
    state.proven = False
    state.bound = None if found.bound is None else float(found.bound)
    if found.status == "INVALID":
        info["certificate_problem"] = found.message


def _unchecked(state: ProofState, why: str) -> None:
    """No checked certificate: FEASIBLE with the solver's bound, marked unchecked."""
    state.info["bound_checked"] = False
    state.info["certificate_check"] = None
    state.info["certificate_unchecked"] = why
    state.info["solver_bound"] = state.bound
    if state.proven and not state.interrupted:
        state.info.setdefault("stopped", "exhausted")
    state.proven = False
