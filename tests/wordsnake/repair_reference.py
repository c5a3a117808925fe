"""The repair as it was written before its successor, predecessor and main-cycle maps became
64-bit arrays and bytes (lists of every item, built by ``tolist``): the reference the tests
hold :func:`cpwords.wordsnake.primal.repair.patch_cycles` to, ordering for ordering.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from cpwords.wordsnake.primal.repair import (
    CandidateIndex,
    PairScore,
    order_from_succ,
)
from cpwords.wordsnake.relaxation.decode import Decoded
from cpwords.wordsnake.relaxation.string_hub import StringHubNetwork


def patch_cycles_lists(
    net: StringHubNetwork,
    dec: Decoded,
    pair: PairScore,
    index: CandidateIndex | Callable[[], CandidateIndex] | None = None,
    limit: int = 24,
    deadline: float | None = None,
) -> list[int]:
    """Join every cycle into the main one by the best 2-exchange found; return the item order.

    Parameters
    ----------
    net : StringHubNetwork
    dec : Decoded
        Successors after merging (modified in place).
    pair : PairScore
    index : CandidateIndex or callable, optional
        Candidate index, or a function returning it (called only when a cycle must be patched);
        built when omitted.
    limit : int
        Candidate words examined per overlap string.
    deadline : float, optional
        After it, remaining cycles are joined at the depot (cut at their weakest joint).

    Returns
    -------
    list of int
        The item sequence.

    Notes
    -----
    For a cycle ``C`` and a joint ``u -> v`` of ``C``, the exchange with a joint ``x -> y`` of the
    main cycle gives ``x -> v`` and ``u -> y``. Candidates ``y`` are the words below the suffixes of
    ``u`` in the trie and ``x`` the words that end with a prefix of ``v``, longest overlaps first;
    the depot joints (both ends of a linear snake) are always candidates.
    """
    N = net.instance.n
    cyclic = net.instance.cyclic
    comp_a = np.asarray(dec.comp)
    main, groups = _outside_main(comp_a, N, cyclic)
    if not groups:
        return order_from_succ(dec.succ, N, cyclic)
    # Past the deadline only the depot's joints are tried: no index (0.5 s on a dictionary).
    late = deadline is not None and time.perf_counter() >= deadline
    built: CandidateIndex | None = None
    succ_a = np.asarray(dec.succ)
    succ: list[int] = succ_a.tolist()  # read item by item below: a list (written to both)
    pred_a = np.zeros(N + 1, dtype=np.int64)
    pred_a[succ_a] = np.arange(N + 1)
    pred: list[int] = pred_a.tolist()
    in_main: list[bool] = (comp_a == main).tolist()
    if cyclic:
        in_main[N] = False
    main_items = np.flatnonzero(in_main).tolist() if not cyclic else None
    for members in sorted(groups.values(), key=len):
        if main_items is not None and len(main_items) <= SMALL_MAIN:
            # Every joint of the main cycle is a candidate: the index could only find these.
            best = _best_of(members, main_items, succ, pair, None)
        else:
            if built is None and not late:  # built when a cycle first needs it
                built = _index_of(net, index)
            best = _best_exchange(net, members, succ, pred, in_main, pair, built, limit, deadline)
        if best is None:  # cyclic, no candidate: join anywhere
            u = members[0]
            x = next(i for i in range(N) if in_main[i])
            best = (0, u, x)
        gain, u, x = best
        dec.extra.setdefault("losses", {})[int(comp_a[members[0]])] = max(0, -gain)
        v, y = succ[u], succ[x]
        succ[x], succ[u] = v, y
        dec.succ[x], dec.succ[u] = v, y
        pred[v], pred[y] = x, u
        for i in members:
            in_main[i] = True
        if main_items is not None:
            main_items.extend(members)
    return order_from_succ(dec.succ, N, cyclic)


def _outside_main(comp: np.ndarray, n: int, cyclic: bool) -> tuple[int, dict[int, list[int]]]:
    """The main component's label (the depot's; a cyclic snake's largest, ties to the first
    the set of labels yields) and the items of each other component, by label in the order of
    their smallest item."""
    if cyclic:
        labels = comp[:n].tolist()
        main = max(set(labels), key=labels.count)
    else:
        main = int(comp[n])
    outside = np.flatnonzero(comp[:n] != main)
    groups: dict[int, list[int]] = {}
    for i, c in zip(outside.tolist(), comp[outside].tolist(), strict=True):
        groups.setdefault(c, []).append(i)
    return main, groups


def _index_of(
    net: StringHubNetwork, index: CandidateIndex | Callable[[], CandidateIndex] | None
) -> CandidateIndex:
    """The candidate index given, made by the function given, or built."""
    if isinstance(index, CandidateIndex):
        return index
    return CandidateIndex(net) if index is None else index()


#: A main cycle of at most this many items (the depot's, before any cycle joined it: phage
#: lambda's 48,472 31-mers make one cycle and the depot) is searched whole for the best joint
#: to exchange with: the candidate index could only propose these, at a cost per member.
SMALL_MAIN = 16


def _best_of(
    members: list[int],
    main_items: list[int],
    succ: list[int],
    pair: PairScore,
    best: tuple[int, int, int] | None,
) -> tuple[int, int, int] | None:
    """The best 2-exchange ``(gain, u, x)`` of a joint ``u -> succ[u]`` of the cycle with a
    joint ``x -> succ[x]`` of the main cycle, every pair tried, or ``best`` if no better."""
    for u in members:
        v = succ[u]
        base = pair(u, v)
        for x in main_items:
            y = succ[x]
            gain = pair(x, v) + pair(u, y) - pair(x, y) - base
            if best is None or gain > best[0]:
                best = (gain, u, x)
    return best


def _best_exchange(
    net: StringHubNetwork,
    members: list[int],
    succ: list[int],
    pred: list[int],
    in_main: list[bool],
    pair: PairScore,
    index: CandidateIndex | None,
    limit: int,
    deadline: float | None,
) -> tuple[int, int, int] | None:
    """The best 2-exchange ``(gain, u, x)`` joining the cycle ``members`` to the main one
    (None: no candidate; without ``index``, or past ``deadline``, the depot's joints only)."""
    N = net.instance.n
    cyclic = net.instance.cyclic
    best: tuple[int, int, int] | None = None  # (gain, u, x)
    for u in members:
        v = succ[u]
        base = pair(u, v)
        cands: set[int] = set()
        if not cyclic:
            cands.update((pred[N], N))
        if index is not None and (deadline is None or time.perf_counter() < deadline):
            _add_candidates(index, u, v, limit, pred, in_main, cands)
        for x in cands:
            if not (x == N or in_main[x]):
                continue
            y = succ[x]
            gain = pair(x, v) + pair(u, y) - pair(x, y) - base
            if best is None or gain > best[0]:
                best = (gain, u, x)
    return best


def _add_candidates(
    index: CandidateIndex,
    u: int,
    v: int,
    limit: int,
    pred: list[int],
    in_main: list[bool],
    cands: set[int],
) -> None:
    """Add to ``cands`` the joints ``x -> y`` of the main cycle worth exchanging with ``u -> v``:
    ``y`` below a suffix of ``u`` (up to 8 of its failure chain), ``x`` ending with a prefix of
    ``v`` (up to 8 of its ancestors)."""
    fail, parent, copies = index.fail, index.parent, index.copies
    node = index.item_node[u]
    chain = [node]
    f = fail.item(node)
    while f > 0 and len(chain) < 8:
        chain.append(f)
        f = fail.item(f)
    for s in chain:
        found = [pred[y] for w in index.words_below(s, limit) for y in copies(w) if in_main[y]]
        cands.update(found[:limit])  # at most ``limit`` items a string, copies included
    p = index.item_node[v]
    steps = 0
    while p > 0 and steps < 8:
        found = [x for w in index.words_ending(p, limit) for x in copies(w) if in_main[x]]
        cands.update(found[:limit])
        p = parent.item(p)
        steps += 1
