"""A proof tree on the additive bound's path cover (issue 31): our own branching on the joints
of the cover's fractional components, one integer dual per leaf, written as a version 2
certificate.

The additive bound's certificate (the root) proves the path cover's *linear relaxation*; when
that relaxation is fractional the solver's bound rests on HiGHS's branch-and-cut of the cover,
which nobody can check. Here the same cover is branched on by us: a node forces some joints of a
component (``x >= 1``) and forbids others (``x = 0``), its linear program is re-solved (with the
component's subtour cuts, separated again), and its duals, rounded down to units of
``1 / (scale * DUAL_UNITS)`` and repaired in exact integers, are the leaf's values: the words of
the re-solved components get ``u - beta`` and ``v - alpha`` of the flow's certificate, and their
cut sets replace the root's. The cover's argument (every joint from or to a word outside ``F``
costs at least the cheapest start or end of a path there) makes them satisfy every inequality
of the format but those of the forbidden joints, so the checker, which looks only at the joints
of the changed words, finds them valid; the leaf's bound is recomputed exactly. Branching is by
*strong branching*: of the most fractional joints, the one whose weaker child bound rises most
(measured on the Italian list: 26,005 nodes branching on the most fractional joint, in a first
prototype; 53 with strong branching over 16 candidates).

Joints whose root slack exceeds the budget at the target are outside the core: a snake using
one scores below the target, so no leaf needs them and they are left out of every node's
program (and never branched on: a forced joint must be in the core).

Format and checker: ``models/wordsnake.md``, "Certificates", version 2 and "Proof trees on the
path cover".
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from cpwords.wordsnake.bounds.cover_cuts import cut_row, min_cuts, violated_cuts
from cpwords.wordsnake.bounds.path_cover import DUAL_UNITS, CoverData, CoverPart
from cpwords.wordsnake.certificate import Certificate, TreeNode, no_snake
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached
from cpwords.wordsnake.rules import joint_weight, pair_overlap

#: The most nodes a tree is given before the producer gives up (the certificate stays PARTIAL).
MAX_NODES = 4_000

#: Joints tried by strong branching at a node (the most fractional ones of each component).
#: Measured on the Italian list (two components 14 and 8 points above their relaxations):
#: 211 nodes with 8, 53 with 16; the Spanish, Dutch and Portuguese lists: 3, 3 and 7 nodes.
STRONG_CANDIDATES = 16

#: A component whose integer cover costs no more than its relaxation (slack units) has nothing
#: to gain from branching: its root values stay in every leaf.
GAIN_TOLERANCE = 1e-6

#: A component's branching: the joints forced and those forbidden (indices of its joints).
Branching = tuple[tuple[int, ...], tuple[int, ...]]


@dataclass
class _Solved:
    """A node's linear program of one component: its value (cover units), solution (joints,
    starts, ends), in- and out-degree duals and the duals of the cuts ``pool``."""

    value: float
    x: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    lam: np.ndarray
    pool: list[np.ndarray]


class _Component:
    """One fractional component of the cover: its linear program under a branching, cached."""

    def __init__(self, data: CoverData, part: CoverPart) -> None:
        nodes, arcs, pool = part.nodes, part.arcs, part.pool
        self.k = k = int(nodes.size)
        loc = np.full(int(data.neighbourhood.size), -1, dtype=np.int64)
        loc[nodes] = np.arange(k)
        self.t, self.h = loc[data.tails[arcs]], loc[data.heads[arcs]]
        self.m = m = int(arcs.size)
        self.words = data.neighbourhood[nodes]  # word ids
        self.slack = data.slack[arcs].astype(np.int64)
        self.in_min = data.in_min[nodes].astype(np.int64)
        self.out_min = data.out_min[nodes].astype(np.int64)
        self.cost = np.concatenate([self.slack, self.in_min, self.out_min]).astype(np.float64)
        from scipy.sparse import coo_matrix

        rows = np.concatenate([self.h, k + self.t, np.arange(k), k + np.arange(k)])
        cols = np.concatenate([np.arange(m), np.arange(m), m + np.arange(k), m + k + np.arange(k)])
        self.a_eq = coo_matrix((np.ones(rows.size), (rows, cols)), shape=(2 * k, m + 2 * k)).tocsr()
        self.pool = list(pool)
        self.outside = np.zeros(m, dtype=bool)  # joints outside the core: in no program
        self.cache: dict[Branching, _Solved | None] = {}

    def joint(self, e: int) -> tuple[int, int]:
        """Joint ``e`` as distinct-word ids."""
        return int(self.words[self.t[e]]), int(self.words[self.h[e]])

    def solve(self, br: Branching, deadline: float | None) -> _Solved | None:
        """The program under ``br`` with subtour cuts separated until none is violated (None:
        infeasible)."""
        if br in self.cache:
            return self.cache[br]
        from scipy.optimize import linprog

        k, m = self.k, self.m
        bounds = np.zeros((m + 2 * k, 2))
        bounds[:, 1] = np.inf
        bounds[np.flatnonzero(self.outside), 1] = 0.0
        bounds[list(br[0]), 0] = 1.0
        bounds[list(br[1]), 1] = 0.0
        row_of = partial(cut_row, k, m, self.t, self.h)
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeoutError
            a_ub = np.array([-row_of(s) for s in self.pool]) if self.pool else None
            b_ub = -np.ones(len(self.pool)) if self.pool else None
            lp = linprog(
                self.cost,
                A_ub=a_ub,
                b_ub=b_ub,
                A_eq=self.a_eq,
                b_eq=np.ones(2 * k),
                bounds=bounds,
                method="highs",
            )
            if lp.status != 0:  # infeasible (forced joints no snake can use together)
                self.cache[br] = None
                return None
            x, y = lp.x[:m], lp.x[m : m + k]
            new = violated_cuts(k, self.t, self.h, x, y, integral=False)
            if not new:
                known = {tuple(c.tolist()) for c in self.pool}
                try:
                    new = min_cuts(self.t, self.h, x, y, k, known, deadline)
                except DeadlineReached:
                    raise TimeoutError from None  # how this tree stops at its deadline
            if not new:
                break
            self.pool.extend(new)
        eq = np.asarray(lp.eqlin.marginals)
        lam = -np.asarray(lp.ineqlin.marginals) if self.pool else np.zeros(0)
        solved = _Solved(float(lp.fun), lp.x, eq[:k], eq[k:], lam, list(self.pool))
        self.cache[br] = solved
        return solved

    def integer_duals(
        self, solved: _Solved, br: Branching, units: int
    ) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, int]]]:
        """``alpha``, ``beta`` and the cuts in units of ``1 / (scale * units)``, rounded down and
        repaired so that every joint of the program (but the forced and forbidden ones) and
        every start and end keeps a slack ``>= 0``, exactly."""
        lam = np.maximum(0, np.floor(solved.lam * units)).astype(np.int64)
        cuts = [(s, int(v)) for s, v in zip(solved.pool, lam.tolist(), strict=True) if v > 0]
        held = np.zeros(self.k, dtype=np.int64)  # the multipliers of the cuts holding each word
        entered = np.zeros(self.m, dtype=np.int64)  # ... that each joint enters
        for members, v in cuts:
            inside = np.zeros(self.k, dtype=bool)
            inside[members] = True
            held[members] += v
            entered[inside[self.h] & ~inside[self.t]] += v
        alpha = np.minimum(
            np.floor(solved.alpha * units).astype(np.int64), units * self.in_min - held
        )
        beta = np.minimum(np.floor(solved.beta * units).astype(np.int64), units * self.out_min)
        free = ~self.outside.copy()
        free[list(br[0])] = False
        free[list(br[1])] = False
        room = units * self.slack - alpha[self.h] - entered
        np.minimum.at(beta, self.t[free], room[free])
        return alpha, beta, cuts


class CoverTree:
    """The proof tree of the additive bound's certificate ``root`` at ``target`` (by default
    ``root.objective + 1``: the ordering is optimal).

    Parameters
    ----------
    root : Certificate
        The additive bound's certificate (valid, written by
        :func:`~cpwords.wordsnake.bounds.path_cover.path_cover_bound` from ``data``).
    data : CoverData
        The cover's programs.
    words : sequence of str
        The distinct words in code-point order.
    mult : sequence of int
        Their multiplicities.
    target : int, optional
        Every snake is proven to score below it (above ``root.objective + 1``: a bound for an
        ordering not proven optimal, such as the cover's integer bound).
    """

    def __init__(
        self,
        root: Certificate,
        data: CoverData,
        words: Sequence[str],
        mult: Sequence[int],
        target: int | None = None,
    ) -> None:
        self.root, self.data, self.words, self.mult = root, data, words, mult
        self.units = root.scale // data.cert.scale
        self.target = root.objective + 1 if target is None else target
        self.B = root.dual_value(mult)
        self.budget = self.B - root.scale * self.target
        self.items = root.items
        self.member: dict[int, list[int]] = {}  # root cuts holding each word of a component
        # Only the components whose integer cover costs more than their relaxation can gain.
        parts = [p for p in data.fractional if p.integer > p.lp + GAIN_TOLERANCE]
        fractional = {int(w) for p in parts for w in data.neighbourhood[p.nodes].tolist()}
        for c, (ids, _lam) in enumerate(root.cuts):
            for w in ids:
                if w in fractional:
                    self.member.setdefault(w, []).append(c)
        flow_cuts = len(data.cert.cuts)
        self.root_cover_cuts = root.cuts[flow_cuts:]
        self.comps = [_Component(data, part) for part in parts]
        for comp in self.comps:
            comp.outside = np.array(
                [self.root_slack(*comp.joint(e)) > self.budget for e in range(comp.m)], dtype=bool
            )

    def root_slack(self, a: int, b: int) -> int:
        """The root slack of ``a -> b`` (two different words of the components)."""
        root = self.root
        ov = pair_overlap(self.words[a], self.words[b], root.proper)
        entered = sum(root.cuts[c][1] for c in self.member.get(b, ()) if a not in root.cuts[c][0])
        return root.u[a] + root.v[b] - root.scale * joint_weight(ov, root.score) - entered

    def build(
        self, deadline: float | None = None, max_nodes: int = MAX_NODES
    ) -> Certificate | None:
        """The version 2 certificate of ``target - 1``, or None when the tree needs more nodes
        or time, or a node's program cannot close it.

        Parameters
        ----------
        deadline : float, optional
            ``time.perf_counter()`` value after which it gives up.
        max_nodes : int
            The most nodes of the tree.

        Returns
        -------
        Certificate or None
        """
        try:
            nodes = self._branch(deadline, max_nodes)
        except TimeoutError:
            return None
        if nodes is None:
            return None
        root = self.root
        producer = {**root.producer, "tree_nodes": len(nodes), "tree": "path cover"}
        return replace(
            root,
            core_pairs=None,
            bound=self.target - 1,
            target=self.target,
            core=None,
            tree=tuple(nodes),
            producer=producer,
        )

    def _branch(self, deadline: float | None, max_nodes: int) -> list[TreeNode] | None:
        """Depth first from the root: the tree's nodes, or None when it gives up."""
        empty: Branching = ((), ())
        nodes: list[TreeNode | None] = [None]
        stack = [(0, tuple(empty for _ in self.comps))]
        arcs = self.items if self.root.cyclic else self.items - 1
        while stack:
            if len(nodes) > max_nodes or (deadline is not None and time.perf_counter() > deadline):
                return None
            k, state = stack.pop()
            used = self._used(state)
            if no_snake(used, self.mult, self.items, self.root.cyclic):
                nodes[k] = TreeNode(bound=self.target - 1)  # covers no snake: no values needed
                continue
            if len(used) >= arcs:
                return None  # (not met on lists large enough for the additive bound)
            solved = [comp.solve(br, deadline) for comp, br in zip(self.comps, state, strict=True)]
            if any(s is None for s in solved):
                return None
            leaf = self._leaf(state, solved)  # type: ignore[arg-type]
            if leaf.bound < self.target:
                nodes[k] = leaf
                continue
            rest = leaf.bound - self.target + 1  # points the children still have to gain
            choice = self._choose(state, solved, rest, deadline)  # type: ignore[arg-type]
            if choice is None:
                return None
            c, e = choice
            forced, forbidden = state[c]
            yes = (*state[:c], ((*forced, e), forbidden), *state[c + 1 :])
            no = (*state[:c], (forced, (*forbidden, e)), *state[c + 1 :])
            nodes[k] = TreeNode(self.comps[c].joint(e), len(nodes), len(nodes) + 1)
            stack.append((len(nodes) + 1, no))
            stack.append((len(nodes), yes))
            nodes += [None, None]
        return [n for n in nodes if n is not None] if all(n is not None for n in nodes) else None

    def _used(self, state: tuple[Branching, ...]) -> frozenset[tuple[int, int]]:
        """The forced joints of a node, as word pairs."""
        return frozenset(
            comp.joint(e)
            for comp, (forced, _) in zip(self.comps, state, strict=True)
            for e in forced
        )

    def _choose(
        self,
        state: tuple[Branching, ...],
        solved: list[_Solved],
        rest: int,
        deadline: float | None,
    ) -> tuple[int, int] | None:
        """Strong branching: of each component's most fractional joints, the one whose
        children's programs rise most (the product of the two rises, each counted up to the
        ``rest`` points that close a child; a child no snake can use closes)."""
        best: tuple[float, float, int, int] | None = None
        for c, (comp, br, sol) in enumerate(zip(self.comps, state, solved, strict=True)):
            x = sol.x[: comp.m]
            frac = np.abs(x - np.round(x))
            order = [
                int(e)
                for e in np.argsort(-frac, kind="stable")[:STRONG_CANDIDATES]
                if frac[e] > 1e-6
            ]
            for e in order:
                gains = []
                for child in ((br[0] + (e,), br[1]), (br[0], br[1] + (e,))):
                    gains.append(self._gain(state, c, child, sol.value, deadline))
                key = (min(gains), max(gains), c, e)
                if best is None or key > best:
                    best = key
        return None if best is None else (best[2], best[3])

    def _gain(
        self,
        state: tuple[Branching, ...],
        c: int,
        child: Branching,
        value: float,
        deadline: float | None,
    ) -> float:
        """How much component ``c``'s program rises in a child (infinite: no snake there; -1: a
        child the tree could not close, infeasible for another reason)."""
        used = self._used((*state[:c], child, *state[c + 1 :]))
        if no_snake(used, self.mult, self.items, self.root.cyclic):
            return float("inf")
        sol = self.comps[c].solve(child, deadline)
        return -1.0 if sol is None else sol.value - value

    def _leaf(self, state: tuple[Branching, ...], solved: list[_Solved]) -> TreeNode:
        """The node's values as changes against the root and the bound they prove (the
        checker's formula, in exact integers)."""
        root, fc, units = self.root, self.data.cert, self.units
        du: dict[int, int] = {}
        dv: dict[int, int] = {}
        changes: dict[frozenset[int], int] = {}
        for comp, br, sol in zip(self.comps, state, solved, strict=True):
            if br == ((), ()):
                continue  # the root's values
            alpha, beta, cuts = comp.integer_duals(sol, br, units)
            for w, a, b in zip(comp.words.tolist(), alpha.tolist(), beta.tolist(), strict=True):
                if units * fc.u[w] - b != root.u[w]:
                    du[w] = units * fc.u[w] - b - root.u[w]
                if units * fc.v[w] - a != root.v[w]:
                    dv[w] = units * fc.v[w] - a - root.v[w]
            mine = set(comp.words.tolist())
            for ids, lam in self.root_cover_cuts:
                if ids[0] in mine:
                    key = frozenset(ids)
                    changes[key] = changes.get(key, 0) - lam
            for members, lam in cuts:
                key = frozenset(comp.words[members].tolist())
                changes[key] = changes.get(key, 0) + lam
        changes = {s: lam for s, lam in changes.items() if lam}
        mult = self.mult
        value = self.B + sum(mult[w] * d for w, d in (*du.items(), *dv.items()))
        value -= sum(changes.values())
        for a, b in self._used(state):
            slack = self.root_slack(a, b) + du.get(a, 0) + dv.get(b, 0)
            slack -= sum(lam for s, lam in changes.items() if b in s and a not in s)
            value -= slack * (1 if slack >= 0 else min(mult[a], mult[b]))
        return TreeNode(
            u=tuple(sorted((w, root.u[w] + d) for w, d in du.items())),
            v=tuple(sorted((w, root.v[w] + d) for w, d in dv.items())),
            bound=int(value // root.scale),
            cuts=tuple((tuple(sorted(s)), lam) for s, lam in changes.items()),
        )


def cover_tree_certificate(
    root: Certificate,
    data: CoverData,
    words: Sequence[str],
    mult: Sequence[int],
    *,
    deadline: float | None = None,
    max_nodes: int = MAX_NODES,
    target: int | None = None,
) -> Certificate | None:
    """The version 2 certificate of ``target - 1`` (by default ``root.objective``) by a proof
    tree on the path cover.

    Parameters
    ----------
    root : Certificate
        The additive bound's certificate (valid; its ordering scores ``objective``).
    data : CoverData
        The cover behind it (``PathCoverBound.data``).
    words : sequence of str
        The distinct words in code-point order.
    mult : sequence of int
        Their multiplicities.
    deadline : float, optional
        ``time.perf_counter()`` value after which it gives up.
    max_nodes : int
        The most nodes of the tree.
    target : int, optional
        The tree proves every snake scores below it (default ``root.objective + 1``).

    Returns
    -------
    Certificate or None
        None when the tree needs more nodes or time (or a node cannot be closed).

    Notes
    -----
    Sound whatever the programs return: the independent checker verifies every leaf's values
    on the joints of its changed words and recomputes its bound.
    """
    if DUAL_UNITS <= 0 or root.scale % data.cert.scale:  # pragma: no cover - not this root's
        return None
    return CoverTree(root, data, words, mult, target).build(deadline, max_nodes)
