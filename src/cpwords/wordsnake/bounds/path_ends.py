"""Where a path of the additive bound's path cover starts and ends: for each word of the
neighbourhood ``F``, the cheapest pair (on the reduced costs) from or to a word outside ``F`` or
the depot (:mod:`~cpwords.wordsnake.bounds.path_cover`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cpwords.wordsnake.certificate import Certificate
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached
from cpwords.wordsnake.relaxation.word_ranges import WordRanges
from cpwords.wordsnake.rules import joint_weight


@dataclass
class Prices:
    """A certificate's values as arrays, converted once for every round of the path cover.

    Attributes
    ----------
    u, v : numpy.ndarray of int64, shape (W,)
        Its values.
    vp : numpy.ndarray of int64, shape (W,)
        ``v`` less the multipliers each word holds (the conservative slack).
    value : int
        Its dual value ``B`` (units of its scale).
    """

    u: np.ndarray
    v: np.ndarray
    vp: np.ndarray
    value: int

    @classmethod
    def of(cls, cert: Certificate, mult_arr: np.ndarray) -> Prices:
        """The prices of ``cert``.

        Parameters
        ----------
        cert : Certificate
        mult_arr : numpy.ndarray of int64, shape (W,)
            Each distinct word's multiplicity.

        Returns
        -------
        Prices
        """
        u = np.array(cert.u, dtype=np.int64)
        v = np.array(cert.v, dtype=np.int64)
        held = np.zeros(u.size, dtype=np.int64)  # each word's multipliers
        for ids, lam in cert.cuts:
            held[list(ids)] += lam
        return cls(u, v, v - held, cert.dual_value(mult_arr.tolist()))


@dataclass
class PathEnds:
    """The cheapest start and end of a path at each word of ``F`` (slack units).

    ``in_min`` / ``out_min``: the least slack of a pair from (to) a word outside ``F`` or the
    depot; ``in_arg`` / ``out_arg``: that word (-1: the depot); ``min_u`` / ``min_v``: the least
    ``u`` and ``v'`` outside ``F`` (the depot included).
    """

    out_min: np.ndarray
    in_min: np.ndarray
    out_arg: np.ndarray
    in_arg: np.ndarray
    min_u: int
    min_v: int


class EndsMemo:
    """Each word's cheapest path ends from an earlier call of :func:`path_ends` on a smaller
    ``F`` (a growth round before), kept while still right.

    Growing ``F`` only sets more far words' ``u`` and ``v'`` to infinity: a word's cheapest
    end stays where it was, at the same first suffix, unless that far word joined ``F`` or the
    default (the least ``v'`` outside ``F``, or the depot) changed.
    """

    def __init__(self, W: int) -> None:
        self.F = np.zeros(0, dtype=np.int64)
        self.default: tuple[int, int, int, int] | None = None
        self.done = np.zeros(W, dtype=bool)
        self.out_min = np.zeros(W, dtype=np.int64)
        self.in_min = np.zeros(W, dtype=np.int64)
        self.out_at = np.full(W, -1, dtype=np.int64)  # -1: the default
        self.in_at = np.full(W, -1, dtype=np.int64)

    def carried(self, F: np.ndarray, W: int, default: tuple[int, int, int, int]) -> tuple[Any, ...]:
        """For the words of ``F``: whether their out and in ends hold (masks; none when ``F``
        does not hold the memo's ``F`` or the defaults changed), and the ends carried over
        (``out_min``, ``out_at``, ``in_min``, ``in_at``; zeros and -1 elsewhere)."""
        n = int(F.size)
        out_min, in_min = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        out_at, in_at = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
        none = np.zeros(n, dtype=bool)
        if self.default is None or default != self.default:
            return none, none, out_min, out_at, in_min, in_at
        inside = np.zeros(W, dtype=bool)
        inside[F] = True
        if not bool(inside[self.F].all()):
            return none, none, out_min, out_at, in_min, in_at
        ok = self.done[F]
        was_out, was_in = self.out_at[F], self.in_at[F]
        out_ok = ok & ((was_out < 0) | ~inside[np.maximum(was_out, 0)])
        in_ok = ok & ((was_in < 0) | ~inside[np.maximum(was_in, 0)])
        out_min[out_ok], out_at[out_ok] = self.out_min[F[out_ok]], was_out[out_ok]
        in_min[in_ok], in_at[in_ok] = self.in_min[F[in_ok]], was_in[in_ok]
        return out_ok, in_ok, out_min, out_at, in_min, in_at

    def keep(
        self,
        F: np.ndarray,
        default: tuple[int, int, int, int],
        out_min: np.ndarray,
        out_at: np.ndarray,
        in_min: np.ndarray,
        in_at: np.ndarray,
    ) -> None:
        """Keep the ends of ``F`` (only these: the memo's ``F`` becomes ``F``)."""
        if self.done.size == 0:  # a memo of no words keeps nothing
            return
        self.F, self.default = F.copy(), default
        self.done[:] = False
        self.done[F] = True
        self.out_min[F], self.out_at[F] = out_min, out_at
        self.in_min[F], self.in_at[F] = in_min, in_at


def path_ends(
    words: Sequence[str],
    F: np.ndarray,
    u: np.ndarray,
    vp: np.ndarray,
    ranges: WordRanges,
    depot: tuple[int, int] | None,
    sc: int,
    proper: bool,
    deadline: float | None,
    score: str = "squared",
    memo: EndsMemo | None = None,
) -> PathEnds:
    """Where each word of ``F`` can most cheaply start or end a path (a word outside ``F``).

    Parameters
    ----------
    words : sequence of str
        The distinct words, sorted by code point.
    F : numpy.ndarray of int64
        The word ids of the neighbourhood.
    u, vp : numpy.ndarray of int64
        The certificate's ``u`` and ``v'`` (``v`` less the multipliers each word holds).
    ranges : WordRanges
        The words' sorted orders.
    depot : (int, int) or None
        The certificate's depot values (None: a cyclic snake).
    sc : int
        The certificate's scale.
    proper : bool
        Overlaps shorter than both words only.
    deadline : float or None
        ``time.perf_counter()`` value after which it stops.
    score : str
        The joints' weight (:func:`~cpwords.wordsnake.rules.joint_weight`).
    memo : EndsMemo, optional
        The ends of an earlier call on a smaller ``F`` (same ``u``, ``vp``): those still right
        are taken, and it is updated to this call's.

    Returns
    -------
    PathEnds

    Raises
    ------
    DeadlineReached
        The deadline passed.
    """
    infinity = np.iinfo(np.int64).max // 4
    u_far = u.copy()
    u_far[F] = infinity
    v_far = vp.copy()
    v_far[F] = infinity
    far = _Far(words, ranges, v_far, u_far[ranges.rev_ids], sc, proper, score)
    min_u = int(u_far.min())
    min_v = int(v_far.min())
    if depot is not None:
        min_u = min(min_u, depot[0])  # the depot hands over to any word (overlap 0)
        min_v = min(min_v, depot[1])
    # The far word each minimum is attained at (-1: the depot).
    out_default = int(v_far.argmin()) if min_v == int(v_far.min()) else -1
    in_default = int(u_far.argmin()) if min_u == int(u_far.min()) else -1
    default = (min_u, min_v, out_default, in_default)
    memo = EndsMemo(0) if memo is None else memo
    out_ok, in_ok, out_min, out_at, in_min, in_at = memo.carried(F, u.size, default)
    for i in np.flatnonzero(~(out_ok & in_ok)).tolist():
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached
        a = int(F[i])
        w = words[a]
        if not out_ok[i]:
            out_min[i], at = far.after(w, int(u[a]), int(u[a]) + min_v)
            out_at[i] = -1 if at is None else at
        if not in_ok[i]:
            in_min[i], at = far.before(w, int(vp[a]), int(vp[a]) + min_u)
            in_at[i] = -1 if at is None else at
    out_arg = np.where(out_at >= 0, out_at, out_default)
    in_arg = np.where(in_at >= 0, in_at, in_default)
    memo.keep(F, default, out_min, out_at, in_min, in_at)
    return PathEnds(out_min, in_min, out_arg, in_arg, min_u, min_v)


@dataclass
class _Far:
    """The words outside ``F``, where the paths of ``F`` end and start: their ``v'`` in sorted
    order and their ``u`` in the order of the reversed words (both infinite on ``F``), and how a
    joint is priced (the scale, proper overlaps, the joints' weight)."""

    words: Sequence[str]
    ranges: WordRanges
    v: np.ndarray
    u_rev: np.ndarray
    sc: int
    proper: bool
    score: str

    def after(self, w: str, own: int, best: int) -> tuple[int, int | None]:
        """The least slack ``own + v'(b) - sc * weight(j)`` below ``best`` of a joint from ``w``
        (``own``: its ``u``) to a word ``b`` outside ``F`` that starts with the last ``j``
        letters of ``w``, and ``b`` (None when no joint is below ``best``)."""
        words, ranges, v = self.words, self.ranges, self.v
        sc, proper, score = self.sc, self.proper, self.score
        arg = None
        for j in range(1, len(w) - (1 if proper else 0) + 1):
            s = w[-j:]
            lo, hi = ranges.starting(s)
            if proper and lo < hi and words[lo] == s:
                lo += 1  # a proper overlap is shorter than both words
            if hi > lo:
                at = lo + int(v[lo:hi].argmin())
                here = own + int(v[at]) - sc * joint_weight(j, score)
                if here < best:
                    best, arg = here, at
        return best, arg

    def before(self, w: str, own: int, best: int) -> tuple[int, int | None]:
        """The least slack ``own + u(b) - sc * weight(k)`` below ``best`` of a joint to ``w``
        (``own``: its ``v'``) from a word ``b`` outside ``F`` that ends with the first ``k``
        letters of ``w``, and ``b`` (None when no joint is below ``best``)."""
        ranges, u_rev = self.ranges, self.u_rev
        sc, proper, score = self.sc, self.proper, self.score
        arg = None
        for k in range(1, len(w) - (1 if proper else 0) + 1):
            p = w[:k]
            lo, hi = ranges.ending(p)
            if proper and lo < hi and ranges.rev_words[lo] == p[::-1]:
                lo += 1
            if hi > lo:
                at = lo + int(u_rev[lo:hi].argmin())
                here = own + int(u_rev[at]) - sc * joint_weight(k, score)
                if here < best:
                    best, arg = here, int(ranges.rev_ids[at])
        return best, arg
