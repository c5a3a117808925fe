"""Additive bounding: a path cover of the subtours' neighbourhood on the reduced costs.

The assignment relaxation of a whole dictionary leaves a few dozen small subtours (periodic words
such as ``hahahahaha``, ``blablabla``), each closed on itself with large overlaps. With the dual
values ``u``, ``v`` of the relaxation (any valid certificate), every pair has a *reduced cost*
(slack) ``s(a, b) = u(a) + v(b) - ov(a, b)^2 >= 0`` and every snake scores exactly
``B - sum of the slacks of its joints``, ``B`` being the relaxation's bound. Restricted to a set
``F`` of words (the subtours and the words that overlap them), the joints of a snake that touch
``F`` form paths through ``F``: inside ``F`` a joint costs its slack, a path starts where a word
outside ``F`` (or the depot) hands over to it, at least the smallest slack of such a pair, and ends
likewise. The cheapest such *path cover* of ``F`` is therefore a lower bound on the slack of every
snake, and ``B`` less it an upper bound on every score (Fischetti and Toth's additive bounding).

The path cover is solved exactly, one weak component of its useful arcs at a time: the linear
relaxation with the degree equations and the subtour cuts it violates (added until none is), then
branch-and-cut (HiGHS) when that relaxation is fractional. The linear relaxation's dual values
make a new certificate in the same format (:mod:`cpwords.wordsnake.certificate`): ``u`` less the
out-degree duals, ``v`` less the in-degree duals, and each subtour cut as a cut set with its dual
as multiplier, so the bound is checked by the independent checker. When branching was needed the
certificate proves the relaxation's (weaker) bound and is marked as resting on a search.

Formulation card: ``models/wordsnake.md`` (section "Additive bounding").

References
----------
M. Fischetti, P. Toth, "An additive bounding procedure for the asymmetric travelling salesman
problem", Mathematical Programming 53 (1992); G. Carpaneto, M. Dell'Amico, P. Toth, "Exact
solution of large-scale asymmetric travelling salesman problems", ACM TOMS 21(4) (1995)
(reduced-cost fixing on the assignment relaxation).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from cpwords.wordsnake.bounds.cover_cuts import (
    CoverCache,
    branch_and_cut,
    cut_loop,
    cut_row,
    violated_cuts,
    weak_components,
)
from cpwords.wordsnake.bounds.path_ends import EndsMemo, PathEnds, Prices, path_ends
from cpwords.wordsnake.certificate import Certificate, IntColumn
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached
from cpwords.wordsnake.relaxation.word_ranges import WordRanges
from cpwords.wordsnake.rules import joint_weight

#: Words whose overlap string starts (or ends) at most this many words join the neighbourhood.
NEIGHBOURHOOD_CAP = 50

#: Dual values are written in units of ``1 / (scale * DUAL_UNITS)``, rounded down (valid).
DUAL_UNITS = 1 << 16

#: A growth round's expected time, in units of the round before (F about doubles a round:
#: 3,451 -> 16,339 words in 4 rounds on the Dutch list; the widest growth of the Chinese list
#: ran 2.3 s past its deadline in a round of 56,953 words before this guard).
ROUND_GROWTH = 2.0

_TOP = "\U0010ffff"


@dataclass
class CoverPart:
    """One component of the path cover whose linear relaxation was fractional.

    Attributes
    ----------
    nodes : numpy.ndarray of int64
        Its words (indices into ``F``).
    arcs : numpy.ndarray of int64
        Its useful joints (indices into the cover's joints).
    pool : list of numpy.ndarray
        Its subtour cuts (sets of indices into ``nodes``).
    lp, integer : float
        The cost of its linear relaxation and of its cheapest integer cover (slack units;
        ``integer`` is ``lp`` when the branch-and-cut stopped first).
    """

    nodes: np.ndarray
    arcs: np.ndarray
    pool: list[np.ndarray]
    lp: float
    integer: float


@dataclass
class CoverData:
    """The path cover's linear programs as the proof tree re-solves them
    (:mod:`~cpwords.wordsnake.closure.cover_tree`).

    Attributes
    ----------
    cert : Certificate
        The certificate that prices the cover (its slacks are the costs).
    neighbourhood : numpy.ndarray of int64
        The distinct-word ids of ``F``.
    tails, heads : numpy.ndarray of int64
        The useful joints inside ``F`` (indices into ``neighbourhood``).
    slack : numpy.ndarray of int64
        Their slacks (units of ``cert.scale``; the cut multipliers held, as the cover counts).
    in_min, out_min : numpy.ndarray of int64
        The cheapest start and end of a path at each word of ``F``.
    fractional : list of CoverPart
        The components whose linear relaxation was fractional.
    """

    cert: Certificate
    neighbourhood: np.ndarray
    tails: np.ndarray
    heads: np.ndarray
    slack: np.ndarray
    in_min: np.ndarray
    out_min: np.ndarray
    fractional: list[CoverPart]


@dataclass
class PathCoverBound:
    """What :func:`path_cover_bound` proved.

    Attributes
    ----------
    bound : int
        The upper bound on every snake's score (``floor``), at most the certificate's bound.
    lp_bound : int
        The bound the linear relaxation proves (what ``certificate`` checks to).
    certificate : Certificate
        The certificate of ``lp_bound`` (``core_pairs`` set when ``bound < lp_bound``).
    neighbourhood : numpy.ndarray of int64
        The distinct-word ids of ``F``.
    families : list of numpy.ndarray of int64
        The word ids of each component of the cover that costs slack, costliest first: where a
        better ordering has to differ from the relaxation.
    partners : numpy.ndarray of int64
        The words outside ``F`` where the best cover's paths start or end at a positive slack
        (an ordering that meets the bound hands over to them).
    cover_next, cover_prev : numpy.ndarray of int64, shape ``(len(neighbourhood),)``
        Each word of ``F``'s successor and predecessor in the best integer cover found: a word
        of ``F`` (a joint of a path), the word outside ``F`` where its path ends or starts at
        the smallest slack, or -1 (the depot). Where the cover ends or starts a path at a
        word outside, several paths may name the same one (the relaxation allows it).
    info : dict
        Sizes and times: ``words``, ``arcs``, ``components``, ``cuts``, ``branched``,
        ``slack`` (the path cover's cost in score points), ``time``.
    data : CoverData or None
        The cover's linear programs, for a proof tree when branching was needed.
    """

    bound: int
    lp_bound: int
    certificate: Certificate
    neighbourhood: np.ndarray
    families: list[np.ndarray] = field(default_factory=list)
    partners: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    cover_next: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    cover_prev: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    info: dict[str, Any] = field(default_factory=dict)
    data: CoverData | None = None


def neighbourhood(
    words: Sequence[str],
    seeds: Sequence[int],
    cap: int = NEIGHBOURHOOD_CAP,
    ranges: WordRanges | None = None,
) -> np.ndarray:
    """The seeds and the words that share an overlap string of 2 letters or more with one.

    Parameters
    ----------
    words : sequence of str
        The distinct words, sorted by code point.
    seeds : sequence of int
        Word ids (the subtours' words).
    cap : int
        A string of a seed adds the words that start (or end) with it only when they are at most
        this many (short strings such as ``a`` would add a good part of the list).
    ranges : WordRanges, optional
        The words' sorted orders when the caller has them (built here otherwise, O(W log W)).

    Returns
    -------
    numpy.ndarray of int64
        Sorted word ids.

    Examples
    --------
    >>> words = sorted(["aha", "haha", "hahaha", "zebra"])
    >>> [words[i] for i in neighbourhood(words, [words.index("haha")])]
    ['aha', 'haha', 'hahaha']
    """
    ranges = WordRanges(words) if ranges is None else ranges
    chosen = set(int(s) for s in seeds)
    for a in list(chosen):
        w = words[a]
        for j in range(2, len(w) + 1):
            lo, hi = ranges.starting(w[-j:])
            if hi - lo <= cap:
                chosen.update(range(lo, hi))
            lo, hi = ranges.ending(w[:j])
            if hi - lo <= cap:
                chosen.update(ranges.rev_ids[lo:hi].tolist())
    return np.array(sorted(chosen), dtype=np.int64)


def path_cover_bound(
    cert: Certificate,
    words: Sequence[str],
    mult: Sequence[int] | np.ndarray,
    seeds: Sequence[int],
    *,
    cap: int = NEIGHBOURHOOD_CAP,
    grow: int = 3,
    deadline: float | None = None,
    relaxed: tuple[np.ndarray, np.ndarray] | None = None,
    every_partner: bool = False,
    target: int | None = None,
    cache: CoverCache | None = None,
) -> PathCoverBound:
    """Strengthen a certificate's bound by the path cover of the subtours' neighbourhood.

    Parameters
    ----------
    cert : Certificate
        A valid certificate of the list (e.g. of the assignment relaxation's flow).
    words : sequence of str
        The distinct words, sorted by code point (the certificate's word ids).
    mult : sequence of int or numpy.ndarray of int64
        Multiplicity of each distinct word (an int64 array is taken as it is, not copied).
    seeds : sequence of int
        Word ids whose neighbourhood is covered: the words of the relaxation's subtours.
    cap : int
        See :func:`neighbourhood`.
    grow : int
        Most times ``F`` grows by the words outside it where the best cover's paths start or
        end at a positive slack (two paths may want the same one: inside ``F`` only one can).
    deadline : float, optional
        ``time.perf_counter()`` value after which it stops.
    relaxed : (numpy.ndarray, numpy.ndarray), optional
        Each distinct word's successor and predecessor (word ids, -1 for the depot) in the
        relaxation's solution. ``F`` then also grows by the words outside it that the cover
        *displaces*: the relaxation joins them to a word of ``F`` that the cover joins
        otherwise, so they have to re-join too (the cover assumed them free).
    every_partner : bool
        Grow ``F`` by every word outside it where the cover's paths start or end, not only
        those where that costs slack (a partner of zero slack may be claimed by several paths,
        and the words it displaces follow in the next round): a wider and slower growth.
    target : int, optional
        Stop growing once the bound is at most this (the incumbent's score: nothing to gain).
    cache : CoverCache, optional
        Components solved by an earlier call on the same certificate (the same ``words``,
        ``mult``): their solutions are taken, the new ones stored.

    Returns
    -------
    PathCoverBound
        Never weaker than the certificate's own bound.

    Raises
    ------
    DeadlineReached
        The deadline passed before the first cover was solved (a later growth round that
        meets it leaves the bound of the rounds before).

    Notes
    -----
    Words listed more than once stay outside ``F`` (their copies would need items of their own);
    the slack of a pair ignores the certificate's cut terms of the pair's own cut, which can only
    lower it, so the bound stays valid. Cost: one range minimum per prefix and suffix of a word of
    ``F`` (O(len) bisections and a scan of the range), the pairs of ``F`` that share a string, and
    one small linear program per weak component of the useful arcs.
    """
    t0 = time.perf_counter()
    mult_arr = np.asarray(mult, dtype=np.int64)
    ranges = WordRanges(words)
    rounds = _Rounds(cert, words, mult_arr, ranges, deadline, t0, every_partner, cache)
    rounds.memo = EndsMemo(len(words))  # the rounds' F grow: their ends carry over
    F = neighbourhood(words, [s for s in seeds if mult_arr[s] == 1], cap, ranges)
    best, make = _grow(rounds, rounds.bound_for(F[mult_arr[F] == 1]), grow, relaxed, target)
    if make is not None:  # the best round's certificate, the only one written out
        best.certificate = make()
    best.info["time"] = time.perf_counter() - t0
    return best


#: What a round proves: its bound (its certificate still ``cert`` when a maker follows), the
#: words outside ``F`` its paths start or end at, and the maker of its certificate (None: the
#: bound holds it already).
_Round = tuple[PathCoverBound, np.ndarray, Callable[[], Certificate] | None]


@dataclass
class _Rounds:
    """What every round of :func:`path_cover_bound` covers with (only ``F`` changes)."""

    cert: Certificate
    words: Sequence[str]
    mult: np.ndarray
    ranges: WordRanges
    deadline: float | None
    t0: float
    every_partner: bool
    cache: CoverCache | None = None
    memo: EndsMemo | None = None
    prices: Prices | None = None

    def bound_for(self, F: np.ndarray) -> _Round:
        """:func:`_bound_for` of ``F`` (the certificate's prices converted at the first)."""
        if self.prices is None:
            self.prices = Prices.of(self.cert, self.mult)
        return _bound_for(
            self.cert,
            self.words,
            self.mult,
            F,
            self.ranges,
            self.deadline,
            self.t0,
            self.every_partner,
            self.cache,
            self.memo,
            self.prices,
        )


def _grow(
    rounds: _Rounds,
    first: _Round,
    grow: int,
    relaxed: tuple[np.ndarray, np.ndarray] | None,
    target: int | None,
) -> tuple[PathCoverBound, Callable[[], Certificate] | None]:
    """The best bound of the first round (``first``: its bound, partners and certificate's
    maker) and of at most ``grow`` more, each on ``F`` grown by the partners of the round
    before (and the words it displaces): none once the bound is at most ``target``, none that
    would end past the deadline. With the maker of its certificate (only the best round's is
    made: 0.02 s a round of a whole dictionary's values)."""
    best, partners, make = first
    last = best
    took = time.perf_counter() - rounds.t0
    mult_arr, deadline = rounds.mult, rounds.deadline
    for _ in range(grow):
        if target is not None and best.bound <= target:
            break
        # A round takes about twice the one before (F about doubles) and its pieces do not all
        # look at the clock: none is started that would end past the deadline.
        t_round = time.perf_counter()
        if deadline is not None and t_round + ROUND_GROWTH * took > deadline:
            break
        wider = np.union1d(last.neighbourhood, partners)
        if relaxed is not None:
            wider = np.union1d(wider, _displaced(last, relaxed))
        wider = wider[mult_arr[wider] == 1]
        if wider.size == best.neighbourhood.size:
            break
        try:
            found, partners, found_make = rounds.bound_for(wider)
        except DeadlineReached:
            break  # the bound of the last finished round stands
        took = time.perf_counter() - t_round
        last = found
        if found.bound <= best.bound:
            best, make = found, found_make
    return best, make


def _displaced(pc: PathCoverBound, relaxed: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Words outside ``F`` joined in the relaxation to a word of ``F`` that the cover joins to
    another word (they lose that joint)."""
    succ, pred = relaxed
    F = pc.neighbourhood
    inside = np.zeros(succ.shape[0], dtype=bool)
    inside[F] = True
    out: list[np.ndarray] = []
    for mine, cover in ((pred[F], pc.cover_prev), (succ[F], pc.cover_next)):
        lost = (mine >= 0) & (mine != cover)
        lost[lost] &= ~inside[mine[lost]]
        out.append(mine[lost])
    return np.unique(np.concatenate(out)).astype(np.int64)


def _bound_for(
    cert: Certificate,
    words: Sequence[str],
    mult_arr: np.ndarray,
    F: np.ndarray,
    ranges: WordRanges,
    deadline: float | None,
    t0: float,
    every_partner: bool = False,
    cache: CoverCache | None = None,
    memo: EndsMemo | None = None,
    prices: Prices | None = None,
) -> _Round:
    """The bound of the path cover of ``F``, the words outside ``F`` its paths start or end at
    (where that costs slack, or all of them with ``every_partner``), and the maker of its
    certificate (the bound holds ``cert`` until it is made)."""
    sc = cert.scale
    W = len(words)
    prices = Prices.of(cert, mult_arr) if prices is None else prices
    u, v, vp = prices.u, prices.v, prices.vp
    proper = cert.proper
    n = int(F.size)
    if n == 0 or (n == W and cert.depot is None):
        # Nothing to cover, or no word outside F to start a path (a cyclic snake of F alone).
        return _nothing_to_cover(cert, mult_arr, F, t0), np.zeros(0, dtype=np.int64), None
    ends = path_ends(words, F, u, vp, ranges, cert.depot, sc, proper, deadline, cert.score, memo)
    in_min, out_min = ends.in_min, ends.out_min
    if (out_min < 0).any() or (in_min < 0).any():  # pragma: no cover - an invalid certificate
        raise ValueError("the certificate is not valid: a pair has a negative slack")
    # Useful arcs inside F: a joint a -> b beats ending a path at a and starting one at b.
    tails, heads, slack = _useful_arcs(
        words,
        F,
        u,
        vp,
        in_min,
        out_min,
        sc,
        proper,
        ends.min_u + ends.min_v,
        deadline,
        cert.score,
    )
    cov = _cover_components(F, tails, heads, slack, ends, deadline, cache)
    make, bound, lp_bound, old_bound = _new_certificate(
        cert, mult_arr, u, v, F, cov, int(tails.size), prices.value
    )
    info: dict[str, Any] = {
        "words": n,
        "arcs": int(tails.size),
        "components": int(cov.ncomp),
        "cuts": len(cov.cuts),
        "branched": cov.branched,
        "slack": cov.total_int / sc,
        "time": time.perf_counter() - t0,
    }
    partners = _partners(cov, ends, every_partner)
    costly = cov.costly
    costly.sort(key=lambda item: -item[0])
    families = [ids for _, ids in costly]
    info["family_slack"] = [round(c / sc, 3) for c, _ in costly]
    result = PathCoverBound(
        int(bound),
        int(min(lp_bound, old_bound)),
        cert,  # until ``make`` makes this round's (the best round's only)
        F,
        families,
        partners,
        cov.cover_next,
        cov.cover_prev,
        info,
        None
        if not cov.fractional
        else CoverData(cert, F, tails, heads, slack, in_min, out_min, cov.fractional),
    )
    return result, partners, make


def _partners(cov: _Covered, ends: PathEnds, every_partner: bool) -> np.ndarray:
    """The words outside ``F`` where the cover's paths start or end: where that costs slack,
    or all of them with ``every_partner``."""
    st = np.array(cov.starts, dtype=np.int64)
    en = np.array(cov.ends, dtype=np.int64)
    if not every_partner:
        st, en = st[ends.in_min[st] > 0], en[ends.out_min[en] > 0]
    partners = np.concatenate([ends.in_arg[st], ends.out_arg[en]]).astype(np.int64)
    return np.unique(partners[partners >= 0])


def _nothing_to_cover(
    cert: Certificate, mult_arr: np.ndarray, F: np.ndarray, t0: float
) -> PathCoverBound:
    """The certificate's own bound, for an ``F`` without paths to cover."""
    sc = cert.scale
    n = int(F.size)
    return PathCoverBound(
        cert.dual_value(mult_arr.tolist()) // sc,
        cert.dual_value(mult_arr.tolist()) // sc,
        cert,
        F,
        [],
        np.zeros(0, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        {
            "words": n,
            "arcs": 0,
            "components": 0,
            "cuts": 0,
            "branched": 0,
            "slack": 0.0,
            "time": time.perf_counter() - t0,
        },
    )


@dataclass
class _Covered:
    """The path covers of the components of the useful arcs, put together (``F``-local ids)."""

    ncomp: int
    alpha: np.ndarray  # in-degree duals
    beta: np.ndarray  # out-degree duals
    total_lp: float = 0.0
    total_int: float = 0.0
    cuts: list[tuple[list[int], float]] = field(default_factory=list)
    costly: list[tuple[float, np.ndarray]] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)  # where the best cover's paths start and end
    ends: list[int] = field(default_factory=list)
    # The best integer cover, word by word (F-local index -> word id, -1 for the depot).
    cover_next: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    cover_prev: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    branched: int = 0
    fractional: list[CoverPart] = field(default_factory=list)


def _cover_components(
    F: np.ndarray,
    tails: np.ndarray,
    heads: np.ndarray,
    slack: np.ndarray,
    ends: PathEnds,
    deadline: float | None,
    cache: CoverCache | None = None,
) -> _Covered:
    """Solve the path cover of each weak component of the useful arcs (:func:`_cover`)."""
    n = int(F.size)
    in_min, out_min = ends.in_min, ends.out_min
    ncomp, label = weak_components(n, tails, heads)
    # Isolated words: a path of their own.
    cov = _Covered(ncomp, in_min.astype(np.float64), out_min.astype(np.float64))
    cov.cover_next = ends.out_arg.copy()
    cov.cover_prev = ends.in_arg.copy()
    arc_comp = label[tails] if tails.size else tails
    by_comp = np.argsort(arc_comp, kind="stable")
    splits = np.searchsorted(arc_comp[by_comp], np.arange(ncomp + 1))
    node_order = np.argsort(label, kind="stable")
    node_splits = np.searchsorted(label[node_order], np.arange(ncomp + 1))
    for c in range(ncomp):
        nodes = node_order[node_splits[c] : node_splits[c + 1]]
        arcs = by_comp[splits[c] : splits[c + 1]]
        if arcs.size == 0:  # a path of its own
            alone = float(in_min[nodes].sum() + out_min[nodes].sum())
            cov.total_lp += alone
            cov.total_int += alone
            if alone > 0:
                cov.costly.append((alone, F[nodes]))
            cov.starts.extend(nodes.tolist())
            cov.ends.extend(nodes.tolist())
            continue
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached
        res = _cover(nodes, tails[arcs], heads[arcs], slack[arcs], in_min, out_min, deadline, cache)
        cov.total_lp += res["lp"]
        cov.total_int += res["int"]
        if res["int"] > 1e-9:
            cov.costly.append((res["int"], F[nodes]))
        cov.branched += int(res["branched"])
        if res["branched"]:
            cov.fractional.append(CoverPart(nodes, arcs, res["pool"], res["lp"], res["int"]))
        cov.alpha[nodes] = res["alpha"]
        cov.beta[nodes] = res["beta"]
        cov.cuts.extend(res["cuts"])
        cov.starts.extend(nodes[res["starts"]].tolist())
        cov.ends.extend(nodes[res["ends"]].tolist())
        ct, ch = tails[arcs], heads[arcs]  # indices into F
        used = res["joints"]
        cov.cover_next[ct[used]] = F[ch[used]]
        cov.cover_prev[ch[used]] = F[ct[used]]
    return cov


def _new_certificate(
    cert: Certificate,
    mult_arr: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    F: np.ndarray,
    cov: _Covered,
    n_arcs: int,
    old_value: int,
) -> tuple[Callable[[], Certificate], int, int, int]:
    """The maker of the certificate of the covers' linear relaxations, and the bounds: the best
    proven, the linear relaxation's and the old certificate's (``old_value``: its dual
    value)."""
    # The new certificate: u - beta, v - alpha, the subtour cuts as cut sets (units 1/(sc*K)).
    sc = cert.scale
    K = DUAL_UNITS
    depot = cert.depot
    new_scale = sc * K
    u_new = u * K
    v_new = v * K
    # Rounded down: every dual enters its constraints with coefficient +1, so still valid.
    u_new[F] -= np.floor(cov.beta * K).astype(np.int64)
    v_new[F] -= np.floor(cov.alpha * K).astype(np.int64)
    new_cuts = [(ids, lam * K) for ids, lam in cert.cuts]
    for members, weight in cov.cuts:
        units = int(np.floor(weight * K))
        if units > 0:
            new_cuts.append((tuple(int(F[m]) for m in members), units))
    new_depot = None if depot is None else (depot[0] * K, depot[1] * K)
    value = int((mult_arr * (u_new + v_new)).sum()) - sum(lam for _, lam in new_cuts)
    if new_depot is not None:
        value += new_depot[0] + new_depot[1]
    lp_bound = value // new_scale
    old_bound = old_value // sc
    int_bound = (old_value - int(np.ceil(cov.total_int - 1e-6))) // sc
    bound = min(old_bound, lp_bound, int_bound)
    core_pairs = n_arcs if bound < lp_bound else cert.core_pairs

    def make() -> Certificate:
        return replace(
            cert,
            scale=new_scale,
            u=IntColumn(u_new),  # arrays: 8 bytes a word, where tuples took about 40
            v=IntColumn(v_new),
            depot=new_depot,
            cuts=tuple(new_cuts),
            bound=int(bound),
            core_pairs=core_pairs,
        )

    return make, bound, lp_bound, old_bound


def _useful_arcs(
    words: Sequence[str],
    F: np.ndarray,
    u: np.ndarray,
    vp: np.ndarray,
    in_min: np.ndarray,
    out_min: np.ndarray,
    sc: int,
    proper: bool,
    far_zero: int,
    deadline: float | None,
    score: str = "squared",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The joints ``a -> b`` inside ``F`` whose slack is below ``out(a) + in(b)``.

    Returns the tails and heads (indices into ``F``) and the slacks. For each ``a`` the words of
    ``F`` that start with a suffix of ``a`` are taken longest suffix first, so the first suffix
    that reaches a word is its overlap with ``a`` (a periodic word reaches some words from
    several suffixes); the slacks of a suffix's words are computed at once. A word no suffix
    reaches overlaps ``a`` by nothing: it is kept when its zero-overlap joint is useful.
    """
    n = int(F.size)
    f_words = [words[a] for a in F.tolist()]
    vpF = vp[F]
    zero_key_all = vpF - in_min
    zero_order = np.argsort(zero_key_all, kind="stable")
    zero_key = zero_key_all[zero_order]
    mark = np.zeros(n, dtype=bool)
    arc_t: list[np.ndarray] = []
    arc_h: list[np.ndarray] = []
    arc_s: list[np.ndarray] = []
    for i, a in enumerate(F.tolist()):
        if deadline is not None and time.perf_counter() >= deadline:
            raise DeadlineReached
        w = words[a]
        ua = int(u[a])
        limit = int(out_min[i])
        touched: list[np.ndarray] = []
        for j in range(len(w) - (1 if proper else 0), 0, -1):
            s = w[-j:]
            lo = bisect.bisect_left(f_words, s)
            hi = bisect.bisect_left(f_words, s + _TOP)
            if proper and lo < hi and f_words[lo] == s:
                lo += 1  # a proper overlap is shorter than both words
            if hi <= lo:
                continue
            fresh = np.flatnonzero(~mark[lo:hi]) + lo
            if fresh.size == 0:
                continue
            mark[fresh] = True
            touched.append(fresh)
            s_ab = ua + vpF[fresh] - sc * joint_weight(j, score)
            keep = (s_ab < limit + in_min[fresh]) & (fresh != i)
            if keep.any():
                arc_t.append(np.full(int(keep.sum()), i, dtype=np.int64))
                arc_h.append(fresh[keep])
                arc_s.append(s_ab[keep])
        if far_zero > 0:
            # A zero-overlap joint a -> b inside F is useful when v'(b) - in(b) < out(a) - u(a).
            z = zero_order[: int(np.searchsorted(zero_key, limit - ua))]
            z = z[~mark[z] & (z != i)]
            if z.size:
                arc_t.append(np.full(z.size, i, dtype=np.int64))
                arc_h.append(z.astype(np.int64))
                arc_s.append(ua + vpF[z])
        for t in touched:
            mark[t] = False
    if not arc_t:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), empty.copy()
    return (
        np.concatenate(arc_t),
        np.concatenate(arc_h),
        np.concatenate(arc_s).astype(np.int64),
    )


def _cover(
    nodes: np.ndarray,
    tails: np.ndarray,
    heads: np.ndarray,
    slack: np.ndarray,
    in_min: np.ndarray,
    out_min: np.ndarray,
    deadline: float | None = None,
    cache: CoverCache | None = None,
) -> dict[str, Any]:
    """The cheapest path cover of one component: LP with subtour cuts, then branch-and-cut.

    Raises :class:`DeadlineReached` when the deadline passes (HiGHS gets the time left). With
    ``cache``, a component whose program (local arcs and costs) was solved before takes that
    solution (HiGHS is deterministic: the same one).
    """
    k = int(nodes.size)
    order = np.argsort(nodes, kind="stable")  # local ids: positions in ``nodes``
    t = order[np.searchsorted(nodes, tails, sorter=order)].astype(np.int64)
    h = order[np.searchsorted(nodes, heads, sorter=order)].astype(np.int64)
    m = int(t.size)
    # Variables: x (m arcs), y (k path starts), z (k path ends).
    c = np.concatenate([slack, in_min[nodes], out_min[nodes]]).astype(np.float64)
    known = None if cache is None else cache.get(k, t, h, c)
    if known is not None:
        return _with_ids(known, nodes)
    lp, cut_sets = cut_loop(c, t, h, k, deadline)
    # Duals: equality rows are in-degree (alpha, rows 0..k-1) then out-degree (beta).
    alpha, beta = lp.eq[:k], lp.eq[k:]
    lam = -lp.ineq if cut_sets else np.zeros(0)
    # Round down (every dual appears with coefficient +1 in the dual constraints: still valid).
    lam = np.maximum(lam, 0.0)  # (x <= 1 is implied by the degree equations: no bound duals)
    lp_value = float(alpha.sum() + beta.sum() + lam.sum())
    integral = bool(np.all(np.abs(lp.x - np.round(lp.x)) < 1e-7))
    int_value = lp_value
    branched = False
    best_x = lp.x
    found = None
    if not integral:
        from scipy.sparse import coo_matrix

        branched = True
        rows = np.concatenate([h, k + t, np.arange(k), k + np.arange(k)])
        cols = np.concatenate([np.arange(m), np.arange(m), m + np.arange(k), m + k + np.arange(k)])
        a_eq = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(2 * k, m + 2 * k)).tocsr()
        row_of = partial(cut_row, k, m, t, h)
        violated = partial(violated_cuts, k, t, h)
        int_value, found = branch_and_cut(c, a_eq, cut_sets, row_of, violated, m, k, deadline)
        if found is not None:
            best_x = found
    res = {
        "starts": np.nonzero(best_x[m : m + k] > 0.5)[0],
        "ends": np.nonzero(best_x[m + k :] > 0.5)[0],
        "joints": np.nonzero(best_x[:m] > 0.5)[0],
        "lp": lp_value,
        "int": max(int_value, lp_value),
        "branched": branched,
        "alpha": alpha,
        "beta": beta,
        "cuts": [(s, float(v)) for s, v in zip(cut_sets, lam, strict=True)],  # local ids
        "pool": cut_sets,
    }
    if cache is not None and (found is not None or not branched):  # not what a limit cut short
        cache.put(k, t, h, c, res)
    return _with_ids(res, nodes)


def _with_ids(res: dict[str, Any], nodes: np.ndarray) -> dict[str, Any]:
    """:func:`_cover`'s result with its cuts on ``nodes`` (the pool stays local, a copy)."""
    cuts = [(nodes[s].tolist(), w) for s, w in res["cuts"]]
    return {**res, "cuts": cuts, "pool": list(res["pool"])}
