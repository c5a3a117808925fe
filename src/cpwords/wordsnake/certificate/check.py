"""The one public entry of the independent checker: :func:`verify_certificate` (and
:func:`verify_pairwise`, its quadratic reference for tests).

The format and the argument: :mod:`cpwords.wordsnake.certificate`.
"""

from __future__ import annotations

import itertools
import operator
import os
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from cpwords.core.codepoints import Letters
from cpwords.core.errors import excerpt
from cpwords.wordsnake.certificate.columns import EachOnce, IntColumn, each_once
from cpwords.wordsnake.certificate.duals import (
    DualViolation,
    dual_violation,
    joint_gain,
    suffix_prefix_overlap,
)
from cpwords.wordsnake.certificate.format import (
    Certificate,
    CertificateCheck,
    CertificateError,
    certificate_cap,
    read_certificate,
    sorted_fingerprint,
)
from cpwords.wordsnake.certificate.recount import recount
from cpwords.wordsnake.certificate.scores import order_score, ordering_score, overlaps_score
from cpwords.wordsnake.certificate.tree import check_tree


def verify_certificate(
    words: Sequence[str],
    cert: Certificate | str | os.PathLike[str],
    *,
    cyclic: bool | None = None,
    proper: bool | None = None,
    time_limit: float | None = None,
    score: str | None = None,
) -> CertificateCheck:
    """Check a Wordsnake certificate against a word list, from the strings alone.

    Parameters
    ----------
    words : sequence of str
        The items, normalised as the solver read them (``WordsnakeInstance.words``).
    cert : Certificate or path
        The certificate, or the path of its file.
    cyclic, proper : bool, optional
        The variant the caller means; a certificate for another variant is refused. None
        accepts the certificate's.
    time_limit : float, optional
        Seconds after which the check stops (``TimeoutError``).
    score : {"squared", "linear"}, optional
        The score the caller means; a certificate of the other score is refused. None accepts
        the certificate's.

    Returns
    -------
    CertificateCheck
        VALID, PARTIAL or INVALID with the proven bound and the recounted ordering.

    Raises
    ------
    CertificateError
        The file cannot be read, or the certificate belongs to another list or variant, or its
        ids are out of range (one line each).
    TimeoutError
        ``time_limit`` passed.

    Notes
    -----
    Time ``O(total letters + letters of C * signatures)`` for ``C`` the words in cut sets of two
    words or more and *signatures* the distinct sets of such cuts that hold a word (one for a
    single cut, whatever its size); memory O(total letters). See the module docstring for the
    inequalities and why they prove the bound (weak duality of the assignment relaxation with
    connectivity cuts: Dantzig, Fulkerson and Johnson, *Operations Research* 2 (1954); Balas and
    Toth, in Lawler et al., *The Traveling Salesman Problem*, 1985, ch. 10).

    Examples
    --------
    >>> from cpwords.wordsnake.certificate import Certificate, verify_certificate, word_fingerprint
    >>> c = Certificate(word_fingerprint(["ab", "bc"]), 2, False, False, 1, u=(1, 0),
    ...                 v=(0, 0), depot=(0, 0), cuts=(), order=(0, 1), bound=1, objective=1)
    >>> verify_certificate(["ab", "bc"], c).message
    'VALID: every snake of these 2 words scores at most 1; the ordering scores 1 (optimal)'
    """
    t0 = time.perf_counter()
    items = list(words)
    if not isinstance(cert, Certificate):
        cert = read_certificate(cert, certificate_cap(len(items)))
    ordered = sorted(items)
    joined = "\n".join(ordered)  # read twice: the fingerprint's bytes, the letters' array
    _check_list_and_variant(ordered, cert, cyclic, proper, score, joined)
    letters, neighbours, mult = _distinct_letters(ordered, joined)
    del joined  # (a letter a byte or more, held through the check otherwise)
    distinct = letters.words
    _check_format(cert, len(distinct))
    deadline = None if time_limit is None else t0 + time_limit
    claimed = cert.bound
    order = _order_array(cert)
    if not _is_snake_of(order, mult):
        msg = "INVALID: the ordering is not a snake of this list"
        return _verdict(t0, claimed, "INVALID", None, None, msg)
    bad = dual_violation(distinct, mult, cert, deadline, letters, neighbours)
    objective = _objective(letters, order, cert, bad is None)
    if bad is not None:
        msg = _violation_message(bad, cert.scale, cert.score)
        return _verdict(t0, claimed, "INVALID", None, objective, msg, (bad.a, bad.b))
    return _bound_verdict(t0, cert, distinct, mult, len(items), objective, deadline)


def _objective(letters: Letters, order: np.ndarray, cert: Certificate, holds: bool) -> int:
    """The ordering's score: from the values when they ``holds`` (each joint's overlap the
    longest they cover, or counted: :mod:`.recount`), else its joints counted letter by
    letter."""
    overlaps = recount(letters, order, cert) if holds else None
    if overlaps is None:
        return order_score(letters, order, cert.cyclic, cert.proper, cert.score)
    return overlaps_score(overlaps, cert.score)


def _order_array(cert: Certificate) -> np.ndarray:
    """The certificate's ordering as an int64 array (the solver's column copied in C)."""
    if isinstance(cert.order, IntColumn):
        return np.asarray(cert.order, dtype=np.int64)
    return np.fromiter(cert.order, dtype=np.int64, count=len(cert.order))


def _distinct_letters(
    ordered: Sequence[str], joined: str
) -> tuple[Letters, np.ndarray | None, list[int]]:
    """The letters of the distinct words of the sorted items (``joined``: them joined by line
    feeds), every word's longest common prefix with the word before it (None when some word
    repeats) and how often the list holds each word.

    A repeated word is next to its copy and shares its whole length with it: the common
    prefixes, which the check needs anyway (:meth:`Letters.lcp_with_previous`), tell whether
    any word repeats, with no comparison of strings (then the letters are built again for the
    distinct words: :func:`_distinct_words`)."""
    letters = Letters(ordered, joined)
    lcp = letters.lcp_with_previous(np.arange(len(ordered)))
    lens = letters.lens
    if not np.any((lcp[1:] == lens[1:]) & (lens[1:] == lens[:-1])):
        return letters, lcp, EachOnce([1] * len(ordered))
    distinct, mult = _distinct_words(ordered)
    return Letters(distinct), None, mult


def _distinct_words(ordered: Sequence[str]) -> tuple[list[str], list[int]]:
    """The distinct words of the sorted items and how often the list holds each (a repeated
    word is next to its copy: compared in C, counted only when some word repeats)."""
    if not any(map(operator.eq, ordered, itertools.islice(ordered, 1, None))):
        return list(ordered), EachOnce([1] * len(ordered))
    distinct = list(dict.fromkeys(ordered))
    counts = Counter(ordered)
    return distinct, list(map(counts.__getitem__, distinct))


def _bound_verdict(
    t0: float,
    cert: Certificate,
    distinct: Sequence[str],
    mult: Sequence[int],
    n: int,
    objective: int,
    deadline: float | None,
) -> CertificateCheck:
    """The verdict once the values are dual feasible: the bound they prove, the proof tree's
    when it has one (INVALID if a leaf fails), PARTIAL when the claim rests on a search no tree
    covers, else VALID."""
    claimed = cert.bound
    bound = _proven_bound(cert, mult, n)
    if cert.tree and n > 1:
        top, problem = check_tree(distinct, mult, cert, deadline)
        if problem is not None:
            return _verdict(t0, claimed, "INVALID", None, objective, problem)
        assert cert.target is not None and top is not None
        bound = min(bound, max(cert.target - 1, top))
    elif cert.core_pairs is not None:
        msg = (
            f"PARTIAL: the values prove at most {bound:,}; the claimed {claimed:,} also rests on a "
            f"search of a core of {cert.core_pairs:,} pairs that this certificate does not cover"
        )
        return _verdict(t0, claimed, "PARTIAL", bound, objective, msg)
    tail = "(optimal)" if objective == bound else f"(gap {bound - objective:,})"
    msg = (
        f"VALID: every snake of these {n:,} words scores at most {bound:,}; "
        f"the ordering scores {objective:,} {tail}"
    )
    return _verdict(t0, claimed, "VALID", bound, objective, msg)


def _check_list_and_variant(
    ordered: Sequence[str],
    cert: Certificate,
    cyclic: bool | None,
    proper: bool | None,
    score: str | None = None,
    joined: str | None = None,
) -> None:
    """Raise :class:`CertificateError` when the certificate is for another list (its items
    ``ordered``, sorted; ``joined``: them joined by line feeds, when the caller has it) or
    variant."""
    if sorted_fingerprint(ordered, joined) != cert.fingerprint or len(ordered) != cert.items:
        raise CertificateError(
            "the certificate is for another word list (its fingerprint differs from this list's)"
        )
    for name, want, have in (("cyclic", cyclic, cert.cyclic), ("proper", proper, cert.proper)):
        if want is not None and want != have:
            on, off = ("is", "is not") if have else ("is not", "is")
            raise CertificateError(
                f"the certificate's snake {on} {name} and the one asked for {off}: "
                f"{'drop' if not have else 'add'} --{name}"
            )
    if score is not None and score != cert.score:
        raise CertificateError(
            f"the certificate bounds the {cert.score} score and the one asked for is the "
            f"{score} score (a joint of overlap k scores {'k' if cert.score == 'linear' else 'k^2'}"
            f" there, {'k' if score == 'linear' else 'k^2'} here)"
        )


def _check_format(cert: Certificate, W: int) -> None:
    """Raise :class:`CertificateError` when the values, cuts or depot do not fit ``W`` words."""
    if len(cert.u) != W:
        raise CertificateError(f"certificate: u has {len(cert.u)} entries, the list {W} words")
    for ids, _ in cert.cuts:
        if not ids or any(i < 0 or i >= W for i in ids) or len(set(ids)) != len(ids):
            raise CertificateError("certificate: a cut set is empty, repeats or has an unknown id")
        if cert.cyclic and len(ids) == W:
            raise CertificateError("certificate: a cut set of a cyclic snake holds every word")
    if (cert.depot is None) != cert.cyclic:
        raise CertificateError("certificate: a linear snake needs a depot, a cyclic one none")


def _is_snake_of(order: Sequence[int] | np.ndarray, mult: Sequence[int]) -> bool:
    """Whether the ordering (ids of distinct words) lists every word as often as the list does."""
    ids = np.asarray(order, dtype=np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= len(mult)):
        return False
    counts = np.bincount(ids, minlength=len(mult))
    if ids.size == len(mult) and each_once(mult):  # each word once
        return bool(np.all(counts == 1))
    return bool(np.array_equal(counts, np.fromiter(mult, dtype=np.int64, count=len(mult))))


def _violation_message(bad: DualViolation, scale: int, score: str = "squared") -> str:
    """The INVALID line naming the first violated inequality."""
    name_a = bad.a if bad.a else "the start"
    name_b = bad.b if bad.b else "the end"
    what = "overlap" if score == "linear" else "overlap squared"
    return (
        f"INVALID: u({excerpt(name_a, 30)}) + v({excerpt(name_b, 30)}) = {bad.lhs} "
        f"< {bad.rhs} ({what} times {scale}, plus the cuts entered)"
    )


def _proven_bound(cert: Certificate, mult: Sequence[int], n: int) -> int:
    """``floor(B / scale)``, the bound the (valid) values prove for ``n`` items."""
    bound = cert.dual_value(mult) // cert.scale
    if cert.cyclic and n == 1:
        bound = 0  # one item has no joint (and no inequality): every snake scores 0
    return bound


def _verdict(
    t0: float,
    claimed: int,
    status: str,
    bound: int | None,
    objective: int | None,
    message: str,
    pair: tuple[str, str] | None = None,
) -> CertificateCheck:
    """The check's answer, timed from ``t0`` (optimal: VALID, and the ordering scores the bound)."""
    optimal = status == "VALID" and bound is not None and objective == bound
    return CertificateCheck(
        status, bound, objective, claimed, optimal, message, pair, time.perf_counter() - t0
    )


def verify_pairwise(words: Sequence[str], cert: Certificate) -> CertificateCheck:
    """The same check by enumerating every ordered pair of items: O(n^2), for tests.

    Parameters
    ----------
    words : sequence of str
    cert : Certificate

    Returns
    -------
    CertificateCheck
        Status and bound as :func:`verify_certificate` (messages are shorter).
    """
    t0 = time.perf_counter()
    counts = Counter(words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    items = [i for i, m in enumerate(mult) for _ in range(m)]
    sets = [set(ids) for ids, _ in cert.cuts]
    lams = [lam for _, lam in cert.cuts]
    objective = ordering_score(
        [distinct[i] for i in cert.order], cert.cyclic, cert.proper, cert.score
    )

    def entered(a: int | None, b: int | None) -> int:
        return sum(
            lam for s, lam in zip(sets, lams, strict=True) if b in s and (a is None or a not in s)
        )

    def fail(a: str, b: str) -> CertificateCheck:
        return CertificateCheck(
            "INVALID",
            None,
            objective,
            cert.bound,
            False,
            "INVALID",
            (a, b),
            time.perf_counter() - t0,
        )

    for x, i in enumerate(items):
        for y, j in enumerate(items):
            if x == y:
                continue
            ov = suffix_prefix_overlap(distinct[i], distinct[j], cert.proper)
            if cert.u[i] + cert.v[j] < cert.scale * joint_gain(ov, cert.score) + entered(i, j):
                return fail(distinct[i], distinct[j])
    if cert.depot is not None:
        for i in range(len(distinct)):
            if cert.depot[0] + cert.v[i] < entered(None, i):
                return fail("", distinct[i])
            if cert.u[i] + cert.depot[1] < 0:
                return fail(distinct[i], "")
    bound = cert.dual_value(mult) // cert.scale
    if cert.cyclic and len(items) == 1:
        bound = 0
    status = "PARTIAL" if cert.core_pairs is not None else "VALID"
    if cert.tree and len(items) > 1:  # the tree's own check (its leaves are few joints each)
        top, problem = check_tree(distinct, mult, cert, None)
        if problem is not None:
            return fail("", "")
        assert cert.target is not None and top is not None
        bound, status = min(bound, max(cert.target - 1, top)), "VALID"
    return CertificateCheck(
        status,
        bound,
        objective,
        cert.bound,
        status == "VALID" and objective == bound,
        status,
        None,
        time.perf_counter() - t0,
    )
