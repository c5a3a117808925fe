"""The program at a node of a proof tree on the core: the assignment problem with the root slacks
as costs and the subtour cuts found so far, solved by HiGHS, its row duals rounded and repaired into
integer values whose bound is exact (:mod:`~cpwords.wordsnake.closure.proof_tree` branches on it).
In the tree model ``"root"`` a root row of unbounded degree carries the zero-overlap joints of two
different words (``through_root``; the card's version 2, item 6).

Format, checker and the proof of the leaf rule: ``models/wordsnake.md``, "Certificates", version 2.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from cpwords.core.native import (
    lp_time_limit,
    new_highs,
    release_highs,
    run_highs_interruptibly,
)
from cpwords.wordsnake.certificate import Certificate, RootCore
from cpwords.wordsnake.closure.components import closed_components, label_groups, word_labels
from cpwords.wordsnake.rules import joint_weight, pair_overlap

__all__ = ["WARM_START_PAIRS", "CoreProgram", "Joint", "Leaf", "gauge"]

Joint = tuple[int, int]

#: Cores of at least this many joints keep one HiGHS model and its basis from node to node;
#: smaller ones are solved afresh at each node. `ab` n=30,000 (420,287 columns): 3.6-7.9 s a
#: node afresh, no tree in 180 s; 0.1-1.5 s warm, 27 nodes in 79 s. `abc` n=1,000 seed 3
#: (20,420 joints): warm, the tree forced joint after joint of an integral solution that
#: never changed (no tree in 60 s); afresh it closes in 3 nodes.
WARM_START_PAIRS = 100_000


@dataclass
class Leaf:
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


class CoreProgram:
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
        keep_model: bool = False,
        through_root: bool = False,
        target: int | None = None,
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
        self.target = cert.objective + 1 if target is None else target
        self.W = W = len(mult)
        self.B = cert.dual_value(mult)
        self.linear = cert.depot is not None
        self.pairs = sorted(core.pairs)
        # Rows: out(w) = w, in(w) = W + w, then dout, din (linear), then the hub, then the root
        # (``through_root``), then the cuts.
        self.dout, self.din = 2 * W, 2 * W + 1
        self.hub = 2 * W + (2 if self.linear else 0)
        #: The tree model ``"root"``: the core holds no zero-overlap joint of two different
        #: words; each goes ``a -> root -> b`` at ``u(a) + (v - L)(b)``, at most its slack.
        self.through_root = through_root
        self.root = self.hub + 1 if through_root else -1
        self.cut0 = self.hub + (2 if through_root else 1)
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
        self._rows: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # :meth:`_build`
        self.warm = len(self.pairs) >= WARM_START_PAIRS
        #: One model for every node, each solve from the last basis: a large core's
        #: (:data:`WARM_START_PAIRS`), or at the caller's asking (the strong tree's, whose
        #: children differ from their parent in one bound).
        self.keep_model = self.warm or keep_model

    def close(self) -> None:
        """Release the HiGHS model (:func:`~cpwords.core.native.release_highs`): a warm core's
        one model, or a node's, freed when the program is dropped rather than by the cyclic
        collector."""
        release_highs(self._model)
        self._model = None

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
        if self.through_root:
            for w, (out, into) in enumerate(zip(*self._root_costs(), strict=True)):
                add(w, self.root, out, None)
                add(self.root, W + w, into, None)
        self._cols = tails, heads, costs, ups, joints
        self._arr = _Arrays(self, tails, heads, costs)
        return self._cols

    def _root_costs(self) -> tuple[list[int], list[int]]:
        """The root's columns' costs, word by word: out of ``a``, ``u(a)``; into ``b``,
        ``v(b) - L(b)`` plus the root multipliers re-priced on ``b`` (the column enters every
        cut holding ``b``). A zero-overlap joint ``a -> b``'s root slack is ``u(a) + v(b)``
        less the multipliers of the cuts it enters, at least ``u(a) + v(b) - L(b)``."""
        cert, W = self.cert, self.W
        load = [0] * W
        for ids, lam in cert.cuts:
            for b in ids:
                load[b] += lam
        held = [0] * W
        for cut, lam in self.base.items():
            for b in cut:
                held[b] += lam
        return [int(x) for x in cert.u], [int(cert.v[b]) - load[b] + held[b] for b in range(W)]

    def solve(
        self, used: frozenset[Joint], unused: frozenset[Joint], rounds: int | None = None
    ) -> Leaf | None:
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
        rows = self.cut0
        rhs = np.zeros(rows)
        rhs[:W] = self.mult
        rhs[W : 2 * W] = self.mult
        if self.linear:
            rhs[self.dout] = rhs[self.din] = 1.0
        if self._rows is None:  # built once: a small core builds a model at every node
            self._rows = _row_matrix(rows, tails, heads, (self.hub, self.root))
        starts, index, value = self._rows
        h = new_highs()
        h.addVars(n, np.zeros(n), np.array(ups))  # an infinite upper bound is HiGHS's kHighsInf
        h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(costs))
        h.addRows(rows, rhs, rhs, len(index), starts, index, value)
        h.setOptionValue("solver", "simplex")
        if not self.warm:  # `l545`'s node LP (853 rows, 770 columns): 31 ms a solve -> 12 ms
            h.setOptionValue("presolve", "off")
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

        if not self.keep_model:  # a model of its own, from no basis
            self.close()
            self._cut_rows, self._bounded = 0, {}
        h = self._build()
        self._set_bounds(h, used, unused)
        arr = self._arr
        assert arr is not None
        for cut in self.pool[self._cut_rows :]:
            cols = arr.entering(cut)
            h.addRow(1.0, highspy.kHighsInf, len(cols), cols, np.ones(len(cols)))
        self._cut_rows = len(self.pool)
        if h.getNumRow() != self.cut0 + len(self.pool):  # a row HiGHS refused
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
    ) -> Leaf:
        """Round and repair the duals (each ``alpha`` lowered until every core column's slack,
        less the multipliers of the cuts it enters, is >= 0; escapes need none), then the exact
        bound."""
        duals = self._repaired(y, unused)
        value, copies = self._value(duals, used, unused, cols[4])
        bound = (self.B - value) // self.cert.scale
        chosen, frac, closed = self._assignment(x, cols)
        alpha, beta, ad, bd = gauge(
            duals.alpha.tolist(), duals.beta.tolist(), duals.ad, duals.bd, self.linear
        )
        cert = self.cert
        depot = None
        if cert.depot is not None and (ad or bd):
            depot = (cert.depot[0] - ad, cert.depot[1] - bd)
        return Leaf(
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
        W = self.W
        dual = np.rint(y).astype(np.int64)
        ad, bd = (int(dual[self.dout]), int(dual[self.din])) if self.linear else (0, 0)
        lams = [max(0, lam) for lam in dual[self.cut0 :].tolist()]
        cuts = [(c, lam) for c, lam in zip(self.pool, lams, strict=True) if lam > 0]
        alpha_np, beta_np = dual[:W].copy(), dual[W : 2 * W]
        # The multipliers of the cuts each column enters: its head's load, less those of the
        # cuts holding its tail too; then each alpha lowered to its columns' least room.
        load, entered = arr.entered(cuts)
        room = arr.costs - np.where(arr.heads == self.din, bd, beta_np[arr.head_word] + entered)
        if self.through_root:  # the root's value: at least every column out of it needs
            into = arr.tails == self.root
            y_root = max(int(dual[self.root]), int(-room[into].min()))
            room = np.where(arr.heads == self.root, arr.costs - y_root, room)
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
        # a chain through the root (an arc into it or out of it) is open, as one at the depot
        ends |= {heads[c] - W for c in arr.root_in_cols if x[c] > 0.5}
        ends |= {tails[c] for c in arr.root_out_cols if x[c] > 0.5}
        closed = closed_components(chosen, ends, W, self.linear or self.through_root)
        if not self.linear:  # a cyclic snake's cut never holds every word
            closed = [c for c in closed if len(c) < W]
        closed += self._violated(x, closed)
        return chosen, [j for _, j in frac], closed


def gauge(
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
    """The columns of a core LP as arrays, built once (:meth:`CoreProgram._columns`): what the
    repair of a node's dual and the search for violated cuts read at every node. The word
    pairs are the first ``pairs`` columns."""

    def __init__(
        self, lp: CoreProgram, tails: list[int], heads: list[int], costs: list[float]
    ) -> None:
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
        self.root_in_cols = np.nonzero(self.tails == lp.root)[0].tolist() if lp.through_root else []
        self.root_out_cols = (
            np.nonzero(self.heads == lp.root)[0].tolist() if lp.through_root else []
        )
        # the columns into each word (by head), as one sorted array and offsets
        into = np.nonzero(word_head)[0]
        into = into[np.argsort(self.heads[into], kind="stable")]
        self.into_cols = into
        self.into_head = self.heads[into] - W
        self.into_tail = self.tails[into]
        self.into_ptr = np.searchsorted(self.into_head, np.arange(W + 1))
        self._marked = np.zeros(W, dtype=bool)  # scratch: the words of one cut
        self._entering: dict[frozenset[int], np.ndarray] = {}

    def entering(self, cut: frozenset[int]) -> np.ndarray:
        """The columns entering ``cut`` (into a word of it from outside), ascending, as int32:
        its row's entries, kept for the next node's model that adds the same cut."""
        cols = self._entering.get(cut)
        if cols is None:
            into, inside = self.into(cut)
            cols = self._entering[cut] = np.sort(into[~inside]).astype(np.int32)
        return cols

    def into(self, cut: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
        """The columns into the words of ``cut``, and which of them leave a word of it too
        (the others enter the cut)."""
        ids = np.fromiter(cut, dtype=np.int64, count=len(cut))
        cols = self.into_cols[self._ranges(ids)]
        tail = self.tails[cols]
        inside = tail < self.W
        self._marked[ids] = True
        inside[inside] = self._marked[tail[inside]]
        self._marked[ids] = False
        return cols, inside

    def _ranges(self, ids: np.ndarray) -> np.ndarray:
        """The positions in :attr:`into_cols` of the columns into each word of ``ids``, word by
        word (one array pass instead of a range a word)."""
        ptr = self.into_ptr
        start, count = ptr[ids], ptr[ids + 1] - ptr[ids]
        first = np.cumsum(count) - count  # where each word's columns start in the answer
        return np.repeat(start - first, count) + np.arange(int(count.sum()))

    def entered(self, cuts: list[tuple[frozenset[int], int]]) -> tuple[np.ndarray, np.ndarray]:
        """Each word's load (the multipliers of the cuts holding it) and, per column, the
        multipliers of the cuts it enters (its head in the cut, its tail not)."""
        W = self.W
        load = np.zeros(W, dtype=np.int64)
        both = np.zeros(len(self.tails), dtype=np.int64)
        if cuts:
            # every (cut, word) at once: the cut's number and multiplier beside each word
            sizes = np.array([len(cut) for cut, _ in cuts], dtype=np.int64)
            ids = np.fromiter((w for cut, _ in cuts for w in cut), np.int64, int(sizes.sum()))
            lam = np.repeat(np.array([lam for _, lam in cuts], dtype=np.int64), sizes)
            label = np.repeat(np.arange(len(cuts), dtype=np.int64), sizes)
            np.add.at(load, ids, lam)
            # the columns into each (cut, word), and whether their tail is a word of that cut
            per_word = self.into_ptr[ids + 1] - self.into_ptr[ids]
            cols = self.into_cols[self._ranges(ids)]
            col_label = np.repeat(label, per_word)
            tail = self.tails[cols]
            members = np.sort(label * W + ids)
            key = col_label * W + np.minimum(tail, W - 1)
            hit = np.minimum(np.searchsorted(members, key), len(members) - 1)
            inside = (tail < W) & (members[hit] == key)
            np.add.at(both, cols[inside], np.repeat(lam, per_word)[inside])
        entered = load[self.head_word] - both
        entered[~self.word_head] = 0
        return load, entered


def _row_matrix(
    rows: int, tails: list[int], heads: list[int], hubs: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of the LP in HiGHS's row-wise format: a column leaves its tail row (+1) and
    enters its head row (+1), except at the hubs (the escape's, and the root's or -1), where
    entering is +1 and leaving -1; each row's columns ascending."""
    t = np.asarray(tails, dtype=np.int64)
    h = np.asarray(heads, dtype=np.int64)
    col = np.arange(len(t), dtype=np.int64)
    row_of = np.concatenate([t, h])
    col_of = np.concatenate([col, col])
    value = np.concatenate([np.where(np.isin(t, hubs), -1.0, 1.0), np.ones(len(h))])
    order = np.lexsort((col_of, row_of))
    starts = np.searchsorted(row_of[order], np.arange(rows)).astype(np.int32)
    return starts, col_of[order].astype(np.int32), value[order]
