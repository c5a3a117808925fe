"""Stage "checked proof": the certificate of the finished solve, checked in memory by the
independent checker (:func:`cpwords.wordsnake.certificate.verify_certificate`), decides the
status.

The default method answers OPTIMAL only when its certificate checks VALID and the ordering
scores the bound the checker proved; otherwise FEASIBLE with the checker's bound (the bound the
values prove), the solver's own bound kept in ``solver_info["solver_bound"]``. A certificate
that could not be computed or checked within the time limit leaves the solver's bound, marked
unchecked (``solver_info["bound_checked"]`` False): the check never runs past the limit, and the
stages end early enough to leave it :func:`proof_reserve`. Card: ``models/wordsnake.md``,
"Certificates: a bound anyone can check".
"""

from __future__ import annotations

import gc
import time

from cpwords.core.machine import give_back_freed_memory
from cpwords.wordsnake.certificate import verify_certificate
from cpwords.wordsnake.exact.state import STOP_PROOF_SECONDS, ProofState
from cpwords.wordsnake.rules import WordsnakeInstance

#: Seconds per letter and per word kept at the end of the time limit for the certificate and
#: its check, and a floor: about twice the slowest measured, for a loaded machine. Measured
#: (2026-12-07, 2 cores, the certificate and its check together): ENABLE 0.19 s, Debian's
#: German dictionary 0.81 s (4.3 million letters), the German wordfreq list 1.04 s (6.6
#: million), the union of the German, French and Spanish ones 2.23 s (10.1 million letters in
#: 1,037,915 words), 977,555 31-mers of C. elegans 6.5 s (30.3 million letters); lists of short
#: words cost more a letter (every word its own tables): Japanese 1.11 s for 844,568 letters in
#: 209,187 words (5.3 us a word), Chinese 0.34 s. The values kept before (1.5 us a letter, 10
#: us a word: 2026-11-28, before the checker's arrays) kept 55.7 s on C. elegans, whose proof
#: then needed a limit of 140 s for a command of 68 s.
CHECK_SECONDS_PER_LETTER = 0.3e-6
CHECK_SECONDS_PER_WORD = 8.0e-6
CHECK_MIN_SECONDS = 0.5

#: The fastest check measured, seconds per letter (phage lambda's 48,472 31-mers, 0.054 us a
#: letter; ENABLE 0.1 us): a check given less time than this cannot end, and is not started.
CHECK_FASTEST_PER_LETTER = 0.05e-6

#: The fastest check of the longest word's own letters, seconds per letter, on top of
#: :data:`CHECK_FASTEST_PER_LETTER`: one word's letters cost the check more than a list's (one
#: word of 20 million letters: 13 s and 5 GB, past a 5 s limit, inside passes that do not look
#: at the clock; it was not started while the fastest check counted 0.6 us every letter).
CHECK_FASTEST_PER_LONGEST_LETTER = 0.6e-6


def proof_reserve(instance: WordsnakeInstance) -> float:
    """Seconds the default method keeps at the end of its time limit for the certificate and
    its check: ``CHECK_MIN_SECONDS + CHECK_SECONDS_PER_LETTER * letters +
    CHECK_SECONDS_PER_WORD * words``.

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    float
        Seconds (linear in the letters and words: about 11.9 s for the union of the German,
        French and Spanish wordfreq lists, 10.1 million letters in 1,037,915 words; 2.4 s for
        the Japanese list).

    Examples
    --------
    >>> round(proof_reserve(WordsnakeInstance(("ab", "bc"))), 6)
    0.500017
    """
    letters = sum(len(w) for w in instance.words)
    return (
        CHECK_MIN_SECONDS
        + CHECK_SECONDS_PER_LETTER * letters
        + CHECK_SECONDS_PER_WORD * len(instance.words)
    )


def certificate_after_stop(instance: WordsnakeInstance) -> bool:
    """Whether a stop may still be answered with a certificate and its check: whether their
    share of :func:`proof_reserve` (without its floor) fits in
    :data:`~cpwords.wordsnake.exact.state.STOP_PROOF_SECONDS`, all a stop leaves them
    (:func:`fits_after_stop` is then False whatever the time left).

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    bool
        True for lists of up to about 45,000 words of ten letters.

    Examples
    --------
    >>> certificate_after_stop(WordsnakeInstance(("ab", "bc")))
    True
    >>> from itertools import product
    >>> words = tuple(map("".join, product("abcdefghij", repeat=5)))  # 100,000 words
    >>> certificate_after_stop(WordsnakeInstance(words))
    False
    """
    return _stop_share(instance) < STOP_PROOF_SECONDS


def _stop_share(instance: WordsnakeInstance) -> float:
    """The share of :func:`proof_reserve` the letters and words take (without its floor): what
    a certificate and its check need after a stop."""
    return proof_reserve(instance) - CHECK_MIN_SECONDS


def fastest_check(instance: WordsnakeInstance) -> float:
    """Seconds the check of a certificate takes at the least: one given less is not started
    (:data:`CHECK_FASTEST_PER_LETTER` every letter, :data:`CHECK_FASTEST_PER_LONGEST_LETTER`
    more each of the longest word's).

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    float
        Seconds (1.5 s for 977,555 31-mers of C. elegans; 13.6 s for one word of 20 million
        letters).

    Examples
    --------
    >>> round(fastest_check(WordsnakeInstance(("a" * 10**6,))), 6)
    0.65
    """
    lengths = [len(w) for w in instance.words]
    longest = max(lengths, default=0)
    return CHECK_FASTEST_PER_LETTER * sum(lengths) + CHECK_FASTEST_PER_LONGEST_LETTER * longest


def fits_after_stop(state: ProofState) -> bool:
    """After a stop: whether a certificate and its check fit in the time left (the share of
    :func:`proof_reserve` its letters and words take, without its floor).

    Parameters
    ----------
    state : ProofState
        Its ``end`` is the stop's bound on the certificate and its check
        (:data:`~cpwords.wordsnake.exact.state.STOP_PROOF_SECONDS` after the stop).

    Returns
    -------
    bool
        True for a list of up to about 45,000 words of ten letters within half a second;
        False for whole dictionaries (ENABLE: 1.9 s), whose bound is then reported unchecked.
    """
    left = state.left_in_limit()
    return left is None or _stop_share(state.instance) < left


def checked_proof(state: ProofState) -> None:
    """Stage "checked proof": check ``solver_info["certificate"]`` and set the status from the
    checker's verdict (``proof`` is ``"certificate"`` when OPTIMAL, else None).

    A signal stops the check (the solver's bound is then reported, unchecked); after a stop
    the check runs only when it fits in the time left (:func:`fits_after_stop`)."""
    info = state.info
    cert = info.get("certificate")
    info["proof"] = None
    claimed = state.bound
    # The network and the flow's arrays are not needed any more: the checker's tables take
    # their place in memory (see string_hub.estimate_memory).
    state.net = state.flow = state.out = state.core = None
    # The flow's ordering as items (the certificate's, read): a million Python ints on
    # 977,555 31-mers of C. elegans, 35 MB under the checker's tables.
    state.flow_order = None
    gc.collect()
    give_back_freed_memory()  # their smaller arrays' heap blocks, under the checker's tables
    if cert is None:
        _unchecked(state, info.get("certificate_error", "no certificate"))
        return
    limit = state.left_in_limit()  # never past the limit (the stages left it the reserve)
    if limit is not None and limit <= fastest_check(state.instance):
        _unchecked(state, "the time limit passed before the certificate was checked")
        return
    if state.stop.asked and not fits_after_stop(state):
        _unchecked(state, "stopped before the certificate could be checked")
        return
    t0 = time.perf_counter()
    # The checker allocates millions of small objects and no cycles: the cyclic collector,
    # traversing the whole solve's heap at each of its passes, tripled the check (ENABLE:
    # 4.4-8.7 s instead of about 1.5 s).
    collecting = gc.isenabled()
    gc.disable()
    try:
        with state.stop.raising():
            found = verify_certificate(
                state.instance.words,
                cert,
                cyclic=state.instance.cyclic,
                proper=state.instance.proper,
                time_limit=limit,
                score=state.instance.score,
            )
    except TimeoutError:
        _unchecked(state, "the time limit passed before the certificate was checked")
        return
    except KeyboardInterrupt:
        state.stop.ask("interrupt")
        _unchecked(state, "stopped while the certificate was checked")
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
