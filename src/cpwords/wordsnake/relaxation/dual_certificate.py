"""A certificate from the string-hub flow: dual values per word from node potentials.

The bound of :func:`~cpwords.wordsnake.exact.policy.solve_string_flow` is the value of a min-cost
flow on the string-hub network, with the Lagrangian multipliers of the connectivity cuts priced into
the arc costs. Node potentials ``pi`` that prove that flow optimal (reduced cost ``cost + pi[tail] -
pi[head] >= 0`` on every arc with residual capacity) are a dual solution; on the word level they
read

* ``u(w) = pi[exit of w]`` and ``v(w) = -pi[entry of w]``; ``u(d) = pi[root]`` and
  ``v(d) = -pi[R_in]`` for a linear snake's depot.

Every joint ``a -> b`` has a route from ``a``'s exit to ``b``'s entry whose arcs add up to
``-scale * ov(a, b)^2`` less the multipliers of the cuts it enters, so summing reduced costs
along it gives the certificate's inequality (:mod:`cpwords.wordsnake.certificate`).

Capacities. The potentials are computed with every capacity that the supplies already imply
lifted (a word's exit has supply ``m`` and no arc in, so no arc out of it can carry more; the
same for entries, private chains and the depot), so the reduced costs are >= 0 on those arcs
whatever the flow. The one capacity that binds is the copy-to-copy arc of a repeated word
(``m - 1``): when its reduced cost is ``-delta < 0``, ``v(w)`` is raised by ``delta`` and the
cut ``{w}`` gets the multiplier ``delta`` (the constraint "the copies of ``w`` do not close a
cycle among themselves" is the connectivity cut of ``{w}``), which keeps the value.

Formulation card: ``models/wordsnake.md`` (section "Certificates").
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.wordsnake.certificate import Certificate, IntColumn, word_fingerprint
from cpwords.wordsnake.certificate.format import sorted_fingerprint
from cpwords.wordsnake.relaxation.assignment import Reoptimizer
from cpwords.wordsnake.relaxation.flow import FlowDual
from cpwords.wordsnake.relaxation.int_types import id_type
from cpwords.wordsnake.relaxation.string_hub import SELF, StringHubNetwork
from cpwords.wordsnake.rules import WordsnakeInstance, pair_overlap

#: A capacity no flow can reach (the supplies imply the real one).
_LIFTED = np.int64(1) << np.int64(60)


def dual_potentials(
    net: StringHubNetwork, dual: FlowDual, deadline: float | None = None
) -> np.ndarray:
    """Potentials proving ``dual.flows`` optimal, with the implied capacities lifted.

    With the potentials that settled the iterate (``dual.pi``), a local repair suffices: only a
    saturated arc can have a negative reduced cost, and a saturated arc whose capacity the
    supplies imply carries all of its word's units, so raising the potential of the exit it
    leaves (or of the private-chain nodes up to that exit), or lowering that of the entry it
    reaches, adds to the dual value exactly the capacity term the arc had. Exits have no arc in
    and entries no arc out, so nothing else changes. Otherwise (a cold iterate, or a repair that
    does not keep the value), Bellman-Ford with the capacities lifted.

    Parameters
    ----------
    net : StringHubNetwork
    dual : FlowDual
        The iterate (costs, optimal flow, warm potentials if any).
    deadline : float, optional
        ``time.perf_counter()`` value after which it stops.

    Returns
    -------
    numpy.ndarray of int64, shape (num_nodes,)
        Reduced costs ``>= 0`` on every arc but the copy-to-copy ones.

    Raises
    ------
    ModelError
        The flow is not optimal for its costs (a negative residual cycle): a bug.
    DeadlineReached
        The deadline passed.
    """
    if dual.pi is not None:
        pi = _repaired(net, dual, dual.pi)
        if pi is not None:
            return pi
    # Lifted but for the self arcs (as ``np.where(role == SELF, cap, _LIFTED)``, without the
    # network's capacities made whole).
    self_arcs = np.flatnonzero(net.role == SELF)
    cap = np.full(net.m, _LIFTED, dtype=np.result_type(net.cap.dtype, _LIFTED))
    cap[self_arcs] = net.cap[self_arcs]
    del self_arcs
    reopt = Reoptimizer(net, dual.flows.copy(), cap=cap)
    if dual.pi is not None:
        reopt.dist = dual.pi.astype(np.int64)  # a copy, in 64 bits (held in 32)
    pi = reopt.settle(dual.cost, max_rounds=net.num_nodes + 1, max_cycles=0, deadline=deadline)
    if pi is None:
        raise ModelError("the flow is not optimal for its costs: no certificate")
    return pi


def _repaired(net: StringHubNetwork, dual: FlowDual, pi0: np.ndarray) -> np.ndarray | None:
    """The local repair of :func:`dual_potentials`, or None when it does not keep the value."""
    pi = pi0.astype(np.int64)  # a copy, in 64 bits (held in 32 where they fit)
    cost, tail, head = dual.cost, net.tail, net.head
    # Raise tails (exits, private-chain nodes) on the arcs that do not end at an entry; a raised
    # chain node may break the arc into it, whose tail is raised next (chains are short). Then
    # lower the entries on the arcs into them. Every pass reads the arcs a block at a time.
    raised: np.ndarray | None = None  # None: every arc may be broken
    for _ in range(net.num_nodes + 1):
        found = [_broken(net, pi, cost, a, raised) for a in range(0, net.m, REPAIR_BLOCK)]
        t = np.concatenate([f[0] for f in found])
        if not t.size:
            break
        np.maximum.at(pi, t, np.concatenate([f[1] for f in found]))
        # Only the arcs into a raised tail lose: the others keep their reduced cost or gain.
        raised = np.zeros(net.num_nodes, dtype=bool)
        raised[t] = True
    else:  # pragma: no cover - a negative cycle: the flow is not optimal
        return None
    lows = [_lowering(net, pi, cost, a) for a in range(0, net.m, REPAIR_BLOCK)]
    np.minimum.at(pi, np.concatenate([f[0] for f in lows]), np.concatenate([f[1] for f in lows]))
    # The value must be the iterate's: sum of supplies x potentials plus the copy-to-copy terms.
    self_arcs = np.flatnonzero(net.role == SELF)
    rc_self = cost[self_arcs] + pi[tail[self_arcs]] - pi[head[self_arcs]]
    value = _supply_value(net.supply, pi)
    value -= int((net.cap[self_arcs] * np.minimum(rc_self, 0)).sum())
    penalty = sum(dual.cut_units)
    if value - penalty != dual.value_scaled:
        return None
    return pi


def _supply_value(supply: np.ndarray, pi: np.ndarray) -> int:
    """``sum(supply * pi)`` in 64 bits, :data:`REPAIR_BLOCK` nodes at a time (the products of
    every node at once were 0.2 GB of fresh memory on 977,555 31-mers of C. elegans: the
    solve's peak)."""
    total = 0
    for a in range(0, supply.shape[0], REPAIR_BLOCK):
        b = a + REPAIR_BLOCK
        total += int(np.dot(supply[a:b].astype(np.int64), pi[a:b].astype(np.int64, copy=False)))
    return total


#: Arcs read at a time by the repair of :func:`dual_potentials` (its temporaries stay small,
#: in the cache and in memory already mapped).
REPAIR_BLOCK = 1 << 16


def _broken(
    net: StringHubNetwork, pi: np.ndarray, cost: np.ndarray, a: int, raised: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The arcs ``a .. a + REPAIR_BLOCK - 1`` that do not end at an entry (nor join copies) and
    have a negative reduced cost (only those into ``raised`` nodes are looked at, when given):
    their tails, and the potential each needs."""
    b = a + REPAIR_BLOCK
    h = net.head[a:b]
    keep = (h < net.in_base) | (h >= net.in_base + net.num_words)
    keep &= net.role[a:b] != SELF
    if raised is not None:
        keep &= raised.take(h)
    at = np.flatnonzero(keep)
    t, h, c = net.tail[a:b].take(at), h.take(at), cost[a:b].take(at)
    need = pi.take(h) - c
    bad = need > pi.take(t)
    return t.compress(bad), need.compress(bad)


def _lowering(
    net: StringHubNetwork, pi: np.ndarray, cost: np.ndarray, a: int
) -> tuple[np.ndarray, np.ndarray]:
    """The arcs ``a .. a + REPAIR_BLOCK - 1`` into an entry (but those joining copies) that
    would lower its potential: their heads and candidates."""
    b = a + REPAIR_BLOCK
    h = net.head[a:b]
    keep = (h >= net.in_base) & (h < net.in_base + net.num_words)
    keep &= net.role[a:b] != SELF
    at = np.flatnonzero(keep)
    h = h.take(at)
    cand = pi.take(net.tail[a:b].take(at)) + cost[a:b].take(at)
    low = cand < pi.take(h)
    return h.compress(low), cand.compress(low)


def flow_certificate(
    net: StringHubNetwork,
    dual: FlowDual,
    order: Sequence[str],
    objective: int,
    bound: int,
    *,
    core_pairs: int | None = None,
    producer: dict[str, Any] | None = None,
    deadline: float | None = None,
    potentials: np.ndarray | None = None,
    order_ids: Sequence[int] | np.ndarray | None = None,
) -> Certificate:
    """The certificate of a string-hub flow iterate's bound.

    Parameters
    ----------
    net : StringHubNetwork
    dual : FlowDual
        The iterate whose bound is certified (``FlowOutcome.dual``).
    order : sequence of str
        The ordering (words).
    objective : int
        Its score.
    bound : int
        The solver's proven bound (written as claimed; the values prove ``dual``'s).
    core_pairs : int, optional
        Size of a core search the bound also rests on (the certificate is then PARTIAL).
    producer : dict, optional
        Free-form information written with it.
    deadline : float, optional
    potentials : numpy.ndarray of int64, shape (num_nodes,), optional
        :func:`dual_potentials` of ``dual`` when the caller has them (computed here otherwise).
    order_ids : sequence or numpy.ndarray of int, optional
        :func:`word_ids` of ``order`` when the caller has them (computed here otherwise).

    Returns
    -------
    Certificate

    Raises
    ------
    ModelError
        The iterate's flow is not optimal for its costs (a bug).
    DeadlineReached
        The deadline passed.
    """
    pi = dual_potentials(net, dual, deadline) if potentials is None else potentials
    W = net.num_words
    u = pi[net.out_base : net.out_base + W].astype(np.int64)  # the exits'
    v = (-pi[net.in_base : net.in_base + W]).astype(np.int64)  # the entries'
    cuts = _cuts(net, dual, pi, v)
    depot = None if net.instance.cyclic else (int(pi[0]), int(-pi[net.r_in]))
    del pi
    info = dict(producer or {})
    # The ordering's ids first (their dictionary freed), then the values as columns of
    # arrays (tuples of Python integers took about 40 bytes a word, each held twice on the whole
    # Polish dictionary: by the additive bound's certificate and the cover's).
    ids = id_column(word_ids(net, order) if order_ids is None else order_ids, W)
    u_values = IntColumn(u)
    del u
    v_values = IntColumn(v)
    del v
    return Certificate(
        fingerprint=network_fingerprint(net),
        items=net.instance.n,
        cyclic=net.instance.cyclic,
        proper=net.instance.proper,
        scale=int(dual.scale),
        u=u_values,
        v=v_values,
        depot=depot,
        cuts=tuple(cuts),
        order=ids,
        bound=int(bound),
        objective=int(objective),
        core_pairs=core_pairs,
        producer=info,
        score=net.instance.score,
    )


def _cuts(
    net: StringHubNetwork, dual: FlowDual, pi: np.ndarray, v: np.ndarray
) -> list[tuple[tuple[int, ...], int]]:
    """The certificate's cuts: the iterate's cut sets with a positive multiplier, then a cut
    of one word for each copy-to-copy arc of negative reduced cost ``-r``, whose ``v`` is
    raised by ``r`` here (in place)."""
    cuts: list[tuple[tuple[int, ...], int]] = []
    for members, lam in zip(dual.cut_words, dual.cut_units, strict=True):
        if lam > 0 and members.size:
            cuts.append((tuple(int(i) for i in members), int(lam)))
    self_arcs = np.nonzero(net.role == SELF)[0]
    if self_arcs.size:
        rc = dual.cost[self_arcs] + pi[net.tail[self_arcs]] - pi[net.head[self_arcs]]
        for arc, r in zip(self_arcs.tolist(), rc.tolist(), strict=True):
            if r < 0:
                w = int(net.tail[arc]) - net.out_base
                v[w] += -r
                cuts.append(((w,), -r))
    return cuts


def network_fingerprint(net: StringHubNetwork) -> str:
    """:func:`~cpwords.wordsnake.certificate.word_fingerprint` of the network's items, from its
    distinct words (already in code-point order: no sort of the items again).

    Parameters
    ----------
    net : StringHubNetwork

    Returns
    -------
    str
        ``word_fingerprint(net.instance.words)``.
    """
    words: Sequence[str] = net.words
    if net.words and int(net.mult.max()) > 1:  # each word as many times as it is listed
        words = list(
            itertools.chain.from_iterable(map(itertools.repeat, net.words, net.mult.tolist()))
        )
    return sorted_fingerprint(words)


def id_column(ids: Sequence[int] | np.ndarray, words: int) -> IntColumn:
    """Word ids as a certificate's column, in 32 bits when ``words`` allows.

    Parameters
    ----------
    ids : sequence or numpy.ndarray of int
        Distinct-word ids.
    words : int
        The number of distinct words (every id is below it).

    Returns
    -------
    IntColumn
    """
    return IntColumn(np.asarray(ids, dtype=np.int64).astype(id_type(words)))


def word_ids(net: StringHubNetwork, order: Sequence[str]) -> IntColumn:
    """Each word of an ordering by its id in the network (``net.words``).

    Parameters
    ----------
    net : StringHubNetwork
    order : sequence of str

    Returns
    -------
    IntColumn
        The ids (it reads as the tuple of them).

    Raises
    ------
    KeyError
        A word of the ordering is not the network's.

    Notes
    -----
    A dictionary of the words built by ``dict(zip(...))`` and read by ``map``, in C. Sorting
    the ordering instead (as :func:`~.string_hub.distinct_words` sorts a list given in order)
    was slower: an ordering is far from sorted (ENABLE 0.14 -> 0.20 s for the stage).
    """
    word_id = dict(zip(net.words, range(net.num_words), strict=True))
    ids = np.fromiter(map(word_id.__getitem__, order), dtype=np.int64, count=len(order))
    del word_id
    return id_column(ids, net.num_words)


def single_word_certificate(
    instance: WordsnakeInstance, order: Sequence[str], objective: int
) -> Certificate:
    """The certificate of a list of one distinct word (possibly repeated).

    Parameters
    ----------
    instance : WordsnakeInstance
        Every item the same word ``w``, ``m`` times.
    order : sequence of str
        The ordering (every item the same word).
    objective : int

    Returns
    -------
    Certificate
        ``u(w) = ov(w, w)^2``, ``v(w) = 0`` (and ``v(d) = -ov(w, w)^2`` for a linear snake), which
        proves ``(m - 1) ov^2`` (linear) or ``m ov^2`` (cyclic, ``m > 1``; 0 for one item);
        ``ov`` for ``ov^2`` with the linear score.
    """
    w = instance.words[0]
    m = instance.n
    ov = pair_overlap(w, w, instance.proper) if m > 1 else 0
    sq = instance.weight(ov)
    bound = sq * (m if instance.cyclic else m - 1)
    return Certificate(
        fingerprint=word_fingerprint(instance.words),
        items=m,
        cyclic=instance.cyclic,
        proper=instance.proper,
        scale=1,
        u=(sq,),
        v=(0,),
        depot=None if instance.cyclic else (0, -sq),
        cuts=(),
        order=tuple(0 for _ in order),
        bound=bound,
        objective=int(objective),
        producer={"method": "exact/flow"},
        score=instance.score,
    )
