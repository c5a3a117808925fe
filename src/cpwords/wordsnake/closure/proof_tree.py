"""A proof tree for a version 2 certificate: our own branching on the core, one integer dual
per leaf (issue 31).

The root is the flow's certificate (valid values ``u``, ``v``, cuts). At ``target = objective +
1`` the root values exclude every joint whose slack exceeds the budget ``B - scale * target``
(:func:`~cpwords.wordsnake.certificate.root_core`, the checker's own function); what is left is
a small explicit set of joints, the core. At a node (some joints forced, some forbidden) the
leaf's values are the root's lowered by the duals ``alpha``, ``beta`` of the assignment problem
on the core with the root slacks as costs::

    min sum s_e x_e   over the core's joints (forced: x >= 1, forbidden: left out),
    each word's copies leave once and enter once (the depot too, for a linear snake),

plus, for every word, an escape through a hub at cost ``budget + 1`` (so the problem is always
feasible, and a solution using one is beyond the budget). HiGHS solves it as an LP; its row duals
are rounded to integers and repaired (each ``alpha`` lowered until every core joint's slack is
``>= 0``), so the leaf's bound is recomputed exactly: ``floor((B - C) / scale)`` with ``C`` the
repaired dual's value. A node whose bound is below ``target`` is a leaf; otherwise it branches on a
joint its assignment uses (one of a subtour, when there is one): used / not used.

Format, checker and the proof of the leaf rule: ``models/wordsnake.md``, "Certificates", version 2.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from cpwords.core.native import lp_time_limit, new_highs, run_highs_interruptibly
from cpwords.wordsnake.certificate import (
    Certificate,
    RootCore,
    RootCoreTooLarge,
    TreeNode,
    carries_values,
    no_snake,
    root_core,
)
from cpwords.wordsnake.closure.components import closed_components, label_groups, word_labels
from cpwords.wordsnake.rules import WordsnakeInstance, joint_weight, pair_overlap

#: The largest core the tree is built on. The root's values are the flow's, whose core at the
#: target may exceed the search's (``CORE_MAX_PAIRS``, on the dual iterate): `ab` n=30,000
#: leaves 406,577 joints.
MAX_CORE_PAIRS = 600_000

#: Rounds of subtour cuts at a node (each adds the closed components of its assignment).
CUT_ROUNDS = 8

#: Rounds at the root (until no new cut): the branching starts from the root's own cuts. On
#: `abc` n=1,000 seed 3 (132 repeated words) the tree with the root cuts re-priced closed in 3
#: nodes and 3.8 s after the root's cuts were complete, and not in 66 s after 8 rounds.
ROOT_CUT_ROUNDS = 64

#: Cores of at least this many joints keep one HiGHS model and its basis from node to node;
#: smaller ones are solved afresh at each node. `ab` n=30,000 (420,287 columns): 3.6-7.9 s a
#: node afresh, no tree in 180 s; 0.1-1.5 s warm, 27 nodes in 79 s. `abc` n=1,000 seed 3
#: (20,420 joints): warm, the tree forced joint after joint of an integral solution that
#: never changed (no tree in 60 s); afresh it closes in 3 nodes.
WARM_START_PAIRS = 100_000

#: The most nodes a proof tree is given before the producer gives up (the certificate then stays
#: PARTIAL): VIPR's measurements say small trees are cheap and large ones are not.
MAX_NODES = 4_000

#: A tree's root node carries the root program's values as the tree's base (the leaves then
#: list their values against them) when the tree so lists at most this share of the values it
#: lists otherwise (:func:`_with_base`).
BASE_SHARE = 0.5

Joint = tuple[int, int]


@dataclass
class _Leaf:
    """A node's repaired dual: the values changed against the root, its bound, and the joints
    its assignment uses (to branch on)."""

    u: dict[int, int]
    v: dict[int, int]
    depot: tuple[int, int] | None
    bound: int
    copies: dict[int, int]
    cuts: list[tuple[tuple[int, ...], int]]
    used: list[Joint]
    frac: list[Joint]
    subtour: list[Joint]
    closed: list[frozenset[int]]


class _Duals(NamedTuple):
    """A node's duals rounded and repaired: the words' ``alpha`` and ``beta``, the depot's two,
    the cuts with a positive multiplier, and each head's load of them."""

    alpha: np.ndarray
    beta: np.ndarray
    ad: int
    bd: int
    cuts: list[tuple[frozenset[int], int]]
    load: np.ndarray


def tree_certificate(
    instance: WordsnakeInstance,
    cert: Certificate,
    *,
    deadline: float | None = None,
    max_nodes: int = MAX_NODES,
) -> Certificate | None:
    """The version 2 certificate of ``cert.objective``: ``cert``'s values as the root, the core
    they leave at ``objective + 1`` and a proof tree over it.

    Parameters
    ----------
    instance : WordsnakeInstance
    cert : Certificate
        A valid (version 1) certificate whose ordering scores ``objective``.
    deadline : float, optional
        ``time.perf_counter()`` value after which it gives up.
    max_nodes : int
        The most nodes of the tree.

    Returns
    -------
    Certificate or None
        None when the tree needs more nodes or time, or a node's dual cannot close it.
    """
    counts = Counter(instance.words)
    words = sorted(counts)
    mult = [counts[w] for w in words]
    target = cert.objective + 1
    try:
        core = root_core(words, mult, cert, target, deadline, max_pairs=MAX_CORE_PAIRS)
    except (TimeoutError, RootCoreTooLarge):
        return None
    if core.budget < 0:  # the root values alone prove the objective
        return replace(cert, core_pairs=None, bound=cert.objective)
    # Without cuts first (measured: `ab` n=60 seed 18 in 27 nodes and 1.7 s, against no tree
    # in 60 s with them), then with them, then with the root's cuts re-priced too (repeated
    # words whose snakes enter a root cut twice: the root's slacks alone miss that), each on a
    # share of the time left at its start. When words repeat, the re-priced tree comes second,
    # on half of what the first left, and the first gets an eighth: `abc` n=1,000 seed 3 is
    # proven only re-priced, while the trees without cuts, when they close, close at once and
    # check fastest (`ab` n=1,000 seed 1: 0.01 s, against 0.8 s re-priced). The tree without
    # cuts gets its share of the nodes too: on an integral assignment it forces a subtour's
    # joints one by one, each child taking its parent's solution (`ab` n=30,000 seed 1: 1,890
    # such nodes in its 18 s, and no tree).
    nodes = None
    attempts = [(1, False, 3), (CUT_ROUNDS, False, 2), (CUT_ROUNDS, True, 1)]
    if max(mult) > 1:
        attempts = [(1, False, 8), (CUT_ROUNDS, True, 2), (CUT_ROUNDS, False, 1)]
    for rounds, free_root, share in attempts:
        now = time.perf_counter()
        until = None if deadline is None else now + (deadline - now) / share
        lp = _CoreLP(cert, core, words, mult, rounds, free_root=free_root, deadline=until)
        nodes = _branch(lp, max_nodes if rounds > 1 else max_nodes // share)
        if nodes is not None:
            break
    if nodes is None:
        return None
    producer = {**cert.producer, "tree_nodes": len(nodes), "core_joints": len(core.pairs)}
    return replace(
        cert,
        core_pairs=None,
        bound=cert.objective,
        target=target,
        core=None,
        tree=tuple(nodes),
        producer=producer,
    )


def _branch(lp: _CoreLP, max_nodes: int) -> list[TreeNode] | None:
    """Depth-first branching from the root: the tree's nodes, or None when it gives up (past
    ``max_nodes`` or the LP's deadline)."""
    deadline = lp.deadline
    first: _Leaf | None = None  # the root program's solution
    nodes: list[TreeNode | None] = [None]
    stack: list[tuple[int, frozenset[Joint], frozenset[Joint], _Leaf | None]]
    stack = [(0, frozenset(), frozenset(), None)]
    while stack:
        if len(nodes) > max_nodes or (deadline is not None and time.perf_counter() > deadline):
            return None
        k, used, unused, parent = stack.pop()
        if no_snake(used, lp.mult, lp.items, not lp.linear) or len(used) > lp.arcs:
            nodes[k] = TreeNode(bound=lp.target - 1)  # covers no snake: no values needed
            continue
        if len(used) == lp.arcs:  # its snakes use exactly the forced joints: their score
            score = lp.score(used)
            if score >= lp.target:
                return None  # a snake better than the ordering: not a proof of its score
            nodes[k] = TreeNode(bound=score)
            continue
        if parent is not None:  # the parent's solution already uses the joint forced here
            leaf: _Leaf | None = parent  # so it is this node's optimum too: no program solved
        else:
            leaf = lp.solve(used, unused, ROOT_CUT_ROUNDS if k == 0 and lp.rounds > 1 else None)
        if leaf is None:
            return None
        if k == 0:
            first = leaf
        if leaf.bound < lp.target:
            nodes[k] = replace(_values(leaf), bound=leaf.bound)
            continue
        joint = next((j for j in chain(leaf.frac, leaf.subtour, leaf.used) if j not in used), None)
        if joint is None:
            return None  # every joint of the assignment is forced: branching cannot close it
        yes, no = len(nodes), len(nodes) + 1
        nodes += [None, None]
        nodes[k] = TreeNode(joint, yes, no)
        # Forcing a joint the solution uses integrally leaves that solution optimal: with a
        # warm start the child's solve would return it unchanged (afresh, another vertex may
        # bring other cuts: `abc` n=1,000 seed 3 closes so).
        whole = lp.warm and joint in leaf.used and joint not in leaf.frac
        stack.append((no, used, unused | {joint}, None))
        stack.append((yes, used | {joint}, unused, leaf if whole else None))
    if not all(n is not None for n in nodes):
        return None
    done = [n for n in nodes if n is not None]
    if done[0].joint is None or first is None:
        return done
    return _with_base(done, first, lp.cert)


def _with_base(nodes: list[TreeNode], first: _Leaf, cert: Certificate) -> list[TreeNode]:
    """The tree with its root node carrying the root program's values as the tree's base and
    each leaf's values stated against them, when that lists at most :data:`BASE_SHARE` of the
    values. The leaves of a warm-started tree differ from the root program's values in a few
    words, and from the root's in most (`ab` n=30,000 seed 1: 1 to 7 ``u`` against 587). The
    checker checks the base once, as a leaf, then each leaf against it: with 2 leaves (`abc`
    n=1,000 seed 3: 318 values based, 330 not) the base costs more check time than it saves."""
    base = _values(first)
    based = [
        replace(nodes[0], u=base.u, v=base.v, depot=base.depot, copies=base.copies, cuts=base.cuts)
    ]
    # a leaf that needs no values (it covers no snake, or one set of arcs) keeps none
    based += [
        _against(node, base, cert) if node.joint is None and carries_values(node) else node
        for node in nodes[1:]
    ]
    return based if _size(based) <= BASE_SHARE * _size(nodes) else nodes


def _values(leaf: _Leaf) -> TreeNode:
    """A program's values as a node's (changes against the root)."""
    return TreeNode(
        u=tuple(sorted(leaf.u.items())),
        v=tuple(sorted(leaf.v.items())),
        depot=leaf.depot,
        copies=tuple(sorted(leaf.copies.items())),
        cuts=tuple(leaf.cuts),
    )


def _against(node: TreeNode, base: TreeNode, cert: Certificate) -> TreeNode:
    """A leaf's values (changes against the root) restated against the base's: the values
    that differ from the base's, the copies whose gamma does (0 cancels one of the base's),
    the cut multipliers less the base's, the depot when it differs."""

    def differ(
        mine: tuple[tuple[int, int], ...],
        theirs: tuple[tuple[int, int], ...],
        at: Callable[[int], int],
    ) -> tuple[tuple[int, int], ...]:
        a, b = dict(mine), dict(theirs)
        return tuple(
            sorted(
                (i, a.get(i, at(i)))
                for i in a.keys() | b.keys()
                if a.get(i, at(i)) != b.get(i, at(i))
            )
        )

    sets: dict[frozenset[int], int] = {}
    for ids, lam in node.cuts:
        sets[frozenset(ids)] = sets.get(frozenset(ids), 0) + lam
    for ids, lam in base.cuts:
        sets[frozenset(ids)] = sets.get(frozenset(ids), 0) - lam
    root_depot = cert.depot
    mine = node.depot if node.depot is not None else root_depot
    theirs = base.depot if base.depot is not None else root_depot
    return replace(
        node,
        u=differ(node.u, base.u, lambda i: cert.u[i]),
        v=differ(node.v, base.v, lambda i: cert.v[i]),
        depot=None if mine == theirs else mine,
        copies=differ(node.copies, base.copies, lambda i: 0),
        cuts=tuple((tuple(sorted(c)), lam) for c, lam in sets.items() if lam),
    )


def _size(nodes: list[TreeNode]) -> int:
    """The values a tree lists (a cut counts its words)."""
    return sum(
        len(n.u) + len(n.v) + len(n.copies) + sum(len(ids) + 1 for ids, _ in n.cuts) for n in nodes
    )


class _CoreLP:
    """The assignment problem on the core (root slacks as costs), solved per node by HiGHS,
    with the subtour cuts found so far (a pool shared by every node: each is valid for every
    snake)."""

    def __init__(
        self,
        cert: Certificate,
        core: RootCore,
        words: list[str],
        mult: list[int],
        rounds: int,
        *,
        free_root: bool = False,
        deadline: float | None = None,
    ) -> None:
        self.cert, self.core, self.mult, self.rounds = cert, core, mult, rounds
        #: ``time.perf_counter()`` value after which no program is solved (HiGHS's own time
        #: limit too: a root of 400,000 joints over 64 rounds takes minutes).
        self.deadline = deadline
        self.items = sum(mult)
        self.words = words
        self.proper = cert.proper
        self.scoring = cert.score
        self.arcs = self.items - (1 if cert.depot is not None else 0)
        self.target = cert.objective + 1
        self.W = W = len(mult)
        self.B = cert.dual_value(mult)
        self.linear = cert.depot is not None
        self.pairs = sorted(core.pairs)
        # Rows: out(w) = w, in(w) = W + w, then dout, din (linear), then the hub, then the cuts.
        self.dout, self.din = 2 * W, 2 * W + 1
        self.hub = 2 * W + (2 if self.linear else 0)
        # The root's cut multipliers, by set, when the leaves may re-price them (a leaf's cut on
        # a root set lowers or raises the root's multiplier, never below 0): the columns then
        # cost their slacks plus the root multipliers they enter, and the root sets start the
        # pool. Otherwise they stay fixed inside the slacks.
        self.base: dict[frozenset[int], int] = {}
        if free_root:
            for ids, lam in cert.cuts:
                key = frozenset(ids)
                self.base[key] = self.base.get(key, 0) + lam
        self.pair_cost = dict(core.pairs)
        self.start_cost = dict(core.starts)
        holding: dict[int, list[tuple[frozenset[int], int]]] = {}  # a word's root cuts
        for cut, lam in self.base.items():
            for b in cut:
                holding.setdefault(b, []).append((cut, lam))
                if b in self.start_cost:
                    self.start_cost[b] += lam
        if holding:  # each pair the multipliers of the cuts it enters (per pair, not per cut)
            for a, b in self.pairs:
                enters = sum(lam for cut, lam in holding.get(b, ()) if a not in cut)
                if enters:
                    self.pair_cost[(a, b)] += enters
        self.escape = core.budget + 1 + sum(self.base.values())
        self.pool: list[frozenset[int]] = list(self.base)
        # On a large core, one HiGHS model for every node: a node changes its joints' bounds
        # (forced: at least 1, forbidden: 0) and a round adds the new cuts' rows, so each solve
        # starts from the last basis (WARM_START_PAIRS).
        self._cols: Any = None
        self._col_of: dict[Joint, int] = {}
        self._model: Any = None
        self._cut_rows = 0
        self._bounded: dict[int, float] = {}
        self._arr: _Arrays | None = None  # the columns as arrays (:meth:`_leaf`)
        self.warm = len(self.pairs) >= WARM_START_PAIRS

    def score(self, joints: frozenset[Joint]) -> int:
        """The score of arcs along ``joints``, each once (a whole snake's, when they are all
        its arcs)."""
        w = self.words
        return sum(
            joint_weight(pair_overlap(w[a], w[b], self.proper), self.scoring) for a, b in joints
        )

    def _columns(self) -> tuple[list[int], list[int], list[float], list[float], list[Joint | None]]:
        """Every column's two rows, cost, upper bound and joint (None: not a word pair), built
        once: a node's forced and forbidden joints are bounds (:meth:`_set_bounds`)."""
        if self._cols is not None:
            return self._cols
        W, core = self.W, self.core
        tails, heads, costs, ups, joints = [], [], [], [], []

        def add(t: int, h: int, c: int, j: Joint | None) -> None:
            tails.append(t)
            heads.append(h)
            costs.append(float(c))
            ups.append(float(self.mult[t] - 1) if t < W and h == W + t else float("inf"))
            joints.append(j)

        for a, b in self.pairs:
            self._col_of[(a, b)] = len(tails)
            add(a, W + b, self.pair_cost[(a, b)], (a, b))
        for b, s in self.start_cost.items():
            add(self.dout, W + b, s, None)
        for a, s in core.ends.items():
            add(a, self.din, s, None)
        sources = list(range(W)) + ([self.dout] if self.linear else [])
        sinks = [W + w for w in range(W)] + ([self.din] if self.linear else [])
        for r in sources:
            add(r, self.hub, self.escape, None)
        for r in sinks:
            add(self.hub, r, 0, None)
        self._cols = tails, heads, costs, ups, joints
        self._arr = _Arrays(self, tails, heads, costs)
        return self._cols

    def solve(
        self, used: frozenset[Joint], unused: frozenset[Joint], rounds: int | None = None
    ) -> _Leaf | None:
        """The node's repaired integer dual and its bound (None: HiGHS failed or the deadline
        passed), after rounds of subtour cuts (``rounds``, default the LP's, ending early when
        none is new)."""
        cols = self._columns()
        leaf = None
        for _ in range(self.rounds if rounds is None else rounds):
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                return None
            y, x = self._highs(used, unused)
            if y is None or x is None:
                return None
            leaf = self._leaf(y, x, cols, used, unused)
            if leaf.bound < self.target:
                return leaf
            new = [c for c in leaf.closed if c not in self.pool]
            if not new or self.rounds == 1:
                return leaf
            self.pool += new
        return leaf

    def _set_bounds(self, model: Any, used: frozenset[Joint], unused: frozenset[Joint]) -> None:
        """The node's bounds on the model: its forced joints at least 1, its forbidden ones 0,
        the columns the last node bounded back to theirs."""
        ups = self._cols[3]
        want = {self._col_of[j]: 1.0 for j in used} | {self._col_of[j]: -1.0 for j in unused}
        change = {c: 0.0 for c in self._bounded if c not in want}
        change |= {c: lo for c, lo in want.items() if self._bounded.get(c) != lo}
        if change:
            idx = np.array(sorted(change), dtype=np.int32)
            lows = np.array([max(change[c], 0.0) for c in idx])
            highs = np.array([0.0 if change[c] < 0 else ups[c] for c in idx])
            model.changeColsBounds(len(idx), idx, lows, highs)
        self._bounded = want

    def _build(self) -> Any:
        """The HiGHS model of every column and the degree rows (the cuts are added by
        :meth:`_highs` as the pool grows)."""
        if self._model is not None:
            return self._model
        tails, heads, costs, ups, _joints = self._columns()
        W, n = self.W, len(tails)
        rows = self.hub + 1
        rhs = np.zeros(rows)
        rhs[:W] = self.mult
        rhs[W : 2 * W] = self.mult
        if self.linear:
            rhs[self.dout] = rhs[self.din] = 1.0
        h = new_highs()
        h.addVars(n, np.zeros(n), np.array(ups))  # an infinite upper bound is HiGHS's kHighsInf
        h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(costs))
        starts, index, value = _row_matrix(rows, tails, heads, self.hub)
        h.addRows(rows, rhs, rhs, len(index), starts, index, value)
        h.setOptionValue("solver", "simplex")
        self._model = h
        return h

    def _violated(self, x: np.ndarray, known: list[set[int]]) -> list[set[int]]:
        """Word sets whose cut the fractional solution violates (entered less than once): the
        components of the joints used more than a threshold, for a few thresholds (a closed
        component of the joints used at least half may be entered by fractions; its cut, in
        the pool already, then holds while a larger set's does not)."""
        arr = self._arr
        assert arr is not None
        W, out = self.W, []
        seen = {frozenset(c) for c in known}
        xp = x[: arr.pairs]
        into_x = x[arr.into_cols]
        for least in (0.5, 0.25, 0.1, 1e-6):
            on = (xp > least) & arr.proper_pair
            if not on.any():
                continue
            label, n = word_labels(arr.pair_a[on], arr.pair_b[on], W)
            head = label[arr.into_head]
            tail = np.where(arr.into_tail < W, label[np.minimum(arr.into_tail, W - 1)], -2)
            enters = (head >= 0) & (tail != head)
            entering = np.bincount(head[enters], weights=into_x[enters], minlength=n)
            for part in label_groups(label, np.nonzero(entering < 1 - 1e-6)[0]):
                key = frozenset(part)
                if key in seen or (len(key) == W and not self.linear):
                    continue
                seen.add(key)
                out.append(set(key))
        return out

    def _changes(self, cuts: list[tuple[frozenset[int], int]]) -> list[tuple[tuple[int, ...], int]]:
        """A leaf's cuts as changes against the root: each set's multiplier less the root's
        (negative: a root cut lowered), the unchanged ones left out."""
        full = dict(cuts)
        out = []
        for c in dict.fromkeys([*self.base, *full]):
            change = full.get(c, 0) - self.base.get(c, 0)
            if change:
                out.append((tuple(sorted(c)), change))
        return out

    def _highs(
        self, used: frozenset[Joint], unused: frozenset[Joint]
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Row duals and the solution of the node's LP (None, None when not optimal): its
        bounds set and the new cuts' rows added first."""
        import highspy

        if not self.warm:  # a model of its own, from no basis
            self._model, self._cut_rows, self._bounded = None, 0, {}
        h = self._build()
        self._set_bounds(h, used, unused)
        arr = self._arr
        assert arr is not None
        for cut in self.pool[self._cut_rows :]:
            into, inside = arr.into(cut)
            cols = np.sort(into[~inside]).astype(np.int32)  # the columns entering the cut
            h.addRow(1.0, highspy.kHighsInf, len(cols), cols, np.ones(len(cols)))
        self._cut_rows = len(self.pool)
        if h.getNumRow() != self.hub + 1 + len(self.pool):  # a row HiGHS refused
            return None, None
        if self.deadline is not None:
            left = max(0.01, self.deadline - time.perf_counter())
            h.setOptionValue("time_limit", lp_time_limit(h, left))
        if run_highs_interruptibly(h, self.deadline):  # Ctrl-C: the stage keeps the ordering
            raise KeyboardInterrupt
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None, None
        sol = h.getSolution()
        return np.asarray(sol.row_dual, dtype=float), np.asarray(sol.col_value, dtype=float)

    def _leaf(
        self,
        y: np.ndarray,
        x: np.ndarray,
        cols: Any,
        used: frozenset[Joint],
        unused: frozenset[Joint],
    ) -> _Leaf:
        """Round and repair the duals (each ``alpha`` lowered until every core column's slack,
        less the multipliers of the cuts it enters, is >= 0; escapes need none), then the exact
        bound."""
        duals = self._repaired(y, unused)
        value, copies = self._value(duals, used, unused, cols[4])
        bound = (self.B - value) // self.cert.scale
        chosen, frac, closed = self._assignment(x, cols)
        alpha, beta, ad, bd = _gauge(
            duals.alpha.tolist(), duals.beta.tolist(), duals.ad, duals.bd, self.linear
        )
        cert = self.cert
        depot = None
        if cert.depot is not None and (ad or bd):
            depot = (cert.depot[0] - ad, cert.depot[1] - bd)
        return _Leaf(
            u={i: cert.u[i] - a for i, a in enumerate(alpha) if a},
            v={i: cert.v[i] - b for i, b in enumerate(beta) if b},
            depot=depot,
            bound=int(bound),
            copies=copies,
            cuts=self._changes(duals.cuts),
            used=chosen,
            frac=frac,
            subtour=sorted(
                (j for j in chosen if closed and j[0] in closed[0]), key=lambda j: j[0] == j[1]
            ),
            closed=[frozenset(c) for c in closed],
        )

    def _repaired(self, y: np.ndarray, unused: frozenset[Joint]) -> _Duals:
        """The row duals ``y`` rounded, the cuts with a positive multiplier kept, and each
        ``alpha`` (and the depot's) lowered to the least room of its columns not forbidden."""
        arr = self._arr
        assert arr is not None
        W, hub = self.W, self.hub
        dual = np.rint(y).astype(np.int64)
        ad, bd = (int(dual[self.dout]), int(dual[self.din])) if self.linear else (0, 0)
        lams = [max(0, lam) for lam in dual[hub + 1 :].tolist()]
        cuts = [(c, lam) for c, lam in zip(self.pool, lams, strict=True) if lam > 0]
        alpha_np, beta_np = dual[:W].copy(), dual[W : 2 * W]
        # The multipliers of the cuts each column enters: its head's load, less those of the
        # cuts holding its tail too; then each alpha lowered to its columns' least room.
        load, entered = arr.entered(cuts)
        room = arr.costs - np.where(arr.heads == self.din, bd, beta_np[arr.head_word] + entered)
        keep = arr.repair.copy()
        for j in unused:
            keep[self._col_of[j]] = False
        if self.linear:
            starts = keep & (arr.tails == self.dout)
            if starts.any():
                ad = min(ad, int(room[starts].min()))
        words = keep & (arr.tails < W)
        np.minimum.at(alpha_np, arr.tails[words], room[words])
        return _Duals(alpha_np, beta_np, ad, bd, cuts, load)

    def _value(
        self,
        duals: _Duals,
        used: frozenset[Joint],
        unused: frozenset[Joint],
        joints: list[Joint],
    ) -> tuple[int, dict[int, int]]:
        """The repaired duals' objective, exactly (the copy joints' negative slacks paid on
        every copy past the first, the forced joints' slacks paid once), and the words whose
        copy joint has a negative slack (the amount it lacks)."""
        arr = self._arr
        assert arr is not None
        alpha, beta = duals.alpha.tolist(), duals.beta.tolist()
        load_list = duals.load.tolist()
        cuts = duals.cuts
        value = int(arr.mult @ (duals.alpha + duals.beta)) + duals.ad + duals.bd
        value += sum(lam for _, lam in cuts) - sum(self.base.values())
        copies: dict[int, int] = {}
        for c in arr.copy_cols:
            j = joints[c]
            if j in unused:
                continue
            a = j[0]
            slack = self.pair_cost[j] - alpha[a] - beta[a]
            if j in used:
                value += slack if slack >= 0 else slack * (self.mult[a] - 1)
            elif slack < 0:
                copies[a] = -slack
                value += slack * (self.mult[a] - 1)
        for a, b in used:
            if a != b:  # >= 0 after the repair
                value += (
                    self.pair_cost[(a, b)]
                    - alpha[a]
                    - beta[b]
                    - _entered(a, b, cuts, load_list, self.W)
                )
        return value, copies

    def _assignment(
        self, x: np.ndarray, cols: Any
    ) -> tuple[list[Joint], list[Joint], list[set[int]]]:
        """The LP's assignment ``x``, to branch on: the joints it uses, its fractional ones (the
        most fractional first), and the sets it closes (its cycles, then the cuts it violates)."""
        tails, heads, _costs, _lows, joints = cols
        arr = self._arr
        assert arr is not None
        W = self.W
        xp = x[: arr.pairs]
        chosen = [joints[c] for c in np.nonzero(xp > 0.5)[0].tolist()]
        off = np.abs(xp - np.rint(xp))
        frac = sorted(
            ((off[c], joints[c]) for c in np.nonzero(off > 1e-6)[0].tolist()), reverse=True
        )
        ends = {heads[c] - W for c in arr.start_cols if x[c] > 0.5}
        ends |= {tails[c] for c in arr.end_cols if x[c] > 0.5}
        closed = closed_components(chosen, ends, W, self.linear)
        closed += self._violated(x, closed)
        return chosen, [j for _, j in frac], closed


def _gauge(
    alpha: list[int], beta: list[int], ad: int, bd: int, linear: bool
) -> tuple[list[int], list[int], int, int]:
    """The same dual with the fewest values changed against the root.

    ``alpha - c``, ``beta + c`` (and the depot's ``ad - c``, ``bd + c``) leave every joint's
    slack and the dual's value as they were, for any integer ``c``: the assignment dual's one
    degree of freedom. HiGHS's leaf duals often differ from the root's by such a shift on nearly
    every word (``abc`` n=1,000 seed 3: 706 ``u`` and 705 ``v`` of 708 words), which the checker
    then examines one by one; ``c`` is the shift that zeroes the most entries."""
    votes = Counter(alpha)
    votes.update(-b for b in beta)
    if linear:
        votes.update((ad, -bd))
    c = max(votes.items(), key=lambda kv: (kv[1], kv[0] == 0))[0] if votes else 0
    if c == 0:
        return alpha, beta, ad, bd
    shifted = [a - c for a in alpha], [b + c for b in beta]
    return shifted[0], shifted[1], (ad - c if linear else 0), (bd + c if linear else 0)


def _entered(
    t: int, b: int, cuts: list[tuple[frozenset[int], int]], load: list[int], W: int
) -> int:
    """The multipliers of the cuts the column from row ``t`` into word ``b`` enters."""
    if not cuts or not load[b]:
        return 0
    if t >= W:  # the depot (or the hub) is in no cut
        return load[b]
    return sum(lam for c, lam in cuts if b in c and t not in c)


class _Arrays:
    """The columns of a core LP as arrays, built once (:meth:`_CoreLP._columns`): what the
    repair of a node's dual and the search for violated cuts read at every node. The word
    pairs are the first ``pairs`` columns."""

    def __init__(self, lp: _CoreLP, tails: list[int], heads: list[int], costs: list[float]) -> None:
        W = lp.W
        self.W = W
        self.pairs = len(lp.pairs)
        self.tails = np.array(tails, dtype=np.int64)
        self.heads = np.array(heads, dtype=np.int64)
        # the costs are integers (slacks and multipliers); float64 holds them exactly
        self.costs = np.array(costs, dtype=np.float64).astype(np.int64)
        self.mult = np.array(lp.mult, dtype=np.int64)
        pair_a = self.tails[: self.pairs]
        pair_b = self.heads[: self.pairs] - W
        self.pair_a, self.pair_b = pair_a, pair_b
        self.proper_pair = pair_a != pair_b
        self.copy_cols = np.nonzero(~self.proper_pair)[0].tolist()
        word_head = (self.heads >= W) & (self.heads < 2 * W)
        self.word_head = word_head
        self.head_word = np.where(word_head, self.heads - W, 0)
        hub = lp.hub
        # the columns whose inequality the repair keeps: neither an escape nor a copy pair
        self.repair = (self.tails != hub) & (self.heads != hub)
        self.repair[: self.pairs] &= self.proper_pair
        self.start_cols: list[int] = []
        self.end_cols: list[int] = []
        if lp.linear:
            free = np.arange(self.pairs, len(tails))
            outside = free[(self.tails[free] != hub) & (self.heads[free] != hub)]
            self.start_cols = outside[self.tails[outside] == lp.dout].tolist()
            self.end_cols = outside[self.heads[outside] == lp.din].tolist()
        # the columns into each word (by head), as one sorted array and offsets
        into = np.nonzero(word_head)[0]
        into = into[np.argsort(self.heads[into], kind="stable")]
        self.into_cols = into
        self.into_head = self.heads[into] - W
        self.into_tail = self.tails[into]
        self.into_ptr = np.searchsorted(self.into_head, np.arange(W + 1))
        self._marked = np.zeros(W, dtype=bool)  # scratch: the words of one cut

    def into(self, cut: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
        """The columns into the words of ``cut``, and which of them leave a word of it too
        (the others enter the cut)."""
        ids = np.fromiter(cut, dtype=np.int64, count=len(cut))
        ptr = self.into_ptr
        cols = self.into_cols[np.concatenate([np.arange(ptr[i], ptr[i + 1]) for i in ids])]
        tail = self.tails[cols]
        inside = tail < self.W
        self._marked[ids] = True
        inside[inside] = self._marked[tail[inside]]
        self._marked[ids] = False
        return cols, inside

    def entered(self, cuts: list[tuple[frozenset[int], int]]) -> tuple[np.ndarray, np.ndarray]:
        """Each word's load (the multipliers of the cuts holding it) and, per column, the
        multipliers of the cuts it enters (its head in the cut, its tail not)."""
        load = np.zeros(self.W, dtype=np.int64)
        both = np.zeros(len(self.tails), dtype=np.int64)
        for cut, lam in cuts:
            load[np.fromiter(cut, dtype=np.int64, count=len(cut))] += lam
            cols, inside = self.into(cut)
            both[cols[inside]] += lam
        entered = load[self.head_word] - both
        entered[~self.word_head] = 0
        return load, entered


def _row_matrix(
    rows: int, tails: list[int], heads: list[int], hub: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of the LP in HiGHS's row-wise format: a column leaves its tail row (+1) and
    enters its head row (+1), except at the hub, where entering is +1 and leaving -1."""
    entries: list[list[tuple[int, float]]] = [[] for _ in range(rows)]
    for col, (t, h) in enumerate(zip(tails, heads, strict=True)):
        entries[t].append((col, -1.0 if t == hub else 1.0))
        entries[h].append((col, 1.0))
    starts = np.zeros(rows, dtype=np.int32)
    index: list[int] = []
    value: list[float] = []
    for r, row in enumerate(entries):
        starts[r] = len(index)
        index += [c for c, _ in row]
        value += [v for _, v in row]
    return starts, np.array(index, dtype=np.int32), np.array(value)
