"""Proof trees (version 2): the root's core of joints found from the values, and every leaf
checked as its changes against the root.

The format and the argument: :mod:`cpwords.wordsnake.certificate`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cpwords.core.errors import excerpt
from cpwords.wordsnake.certificate.columns import int_list
from cpwords.wordsnake.certificate.duals import (
    CutTerms,
    cut_terms,
    joint_gain,
    pair_rhs,
    signature_classes,
    suffix_prefix_overlap,
)
from cpwords.wordsnake.certificate.format import Certificate, CoreSet, TreeNode, carries_values
from cpwords.wordsnake.certificate.leaves import (
    LeafChange,
    LeafPath,
    MinTree,
    RootJoints,
    by_set,
    leaf_bound,
)

# ---------------------------------------------------------------------------------------------
# Version 2: reduced-cost fixing and the proof tree, checked.


@dataclass(frozen=True)
class RootCore:
    """The joints the root values leave within the budget at a target (version 2).

    Attributes
    ----------
    budget : int
        ``B - scale * target`` (units): a snake using a joint of larger slack scores less than
        ``target``.
    pairs : dict
        ``(a, b) -> slack`` for every word pair whose root slack is at most the budget.
    starts, ends : dict
        ``word -> slack`` of the depot's joints (a linear snake) within the budget.
    """

    budget: int
    pairs: dict[tuple[int, int], int]
    starts: dict[int, int]
    ends: dict[int, int]


class RootCoreTooLarge(Exception):
    """:func:`root_core` found more joints than its caller's cap."""


class _Group:
    """Some words (ids in code-point order) with values: the range of every prefix among them
    and its smallest value, and a segment tree that lists the words of a range under a limit."""

    def __init__(
        self, ids: Sequence[int], words: Sequence[str], values: Sequence[int], proper: bool
    ) -> None:
        self.ids = list(ids)
        self.values = [values[i] for i in self.ids]
        ranges: dict[str, list[int]] = {}
        get = ranges.get
        for p, i in enumerate(self.ids):
            w, val = words[i], values[i]
            for k in range(len(w) if proper else len(w) + 1):
                e = get(w[:k])
                if e is None:
                    ranges[w[:k]] = [p, p + 1, val]
                else:
                    e[1] = p + 1
                    if val < e[2]:
                        e[2] = val
        self.ranges = ranges
        self.tree: MinTree | None = None

    def below(self, prefix: str, limit: int) -> list[int]:
        """The ids of the words that start with ``prefix`` (and are longer, when proper) whose
        value is at most ``limit``."""
        e = self.ranges.get(prefix)
        if e is None or e[2] > limit:
            return []
        if self.tree is None:
            self.tree = MinTree(self.values)
        return [self.ids[p] for p in self.tree.at_most(e[0], e[1], limit)]


def root_core(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    target: int,
    deadline: float | None = None,
    max_pairs: int | None = None,
    through_root: bool = False,
) -> RootCore:
    """Every joint whose slack under the root values is at most the budget at ``target``
    (with ``through_root``, of positive overlap or a copy joint: the core of the tree model
    ``"root"``).

    The slack of ``a -> b`` is ``u(a) + v(b) - scale ov(a, b)^2 - (the multipliers of the cuts
    it enters)``; a snake using it scores at most ``floor((B - slack) / scale)``, so with
    ``budget = B - scale * target`` every joint of larger slack is excluded at ``target``. As in
    the check of the values, the cut terms are exact per group: for ``a`` outside ``C`` (the
    words of cuts of two words or more) the right side is ``scale ov^2 + L(b)``; for ``a`` in
    ``C``, ``scale ov^2 + L(b)`` for ``b`` outside ``C`` and ``scale ov^2 + L(b) - M(a, P)`` for
    ``b`` in the signature class ``P``. So ``u(a) (+ M) + (v - L)(b) - scale |s|^2`` is at least
    the slack for every common string ``s`` and equal to it at the longest one: every word
    under the limit in the range of a suffix of ``a`` is in the core, and every core joint is
    found at its overlap. Time O(total letters (x classes, for ``C``) + core x log W).

    Parameters
    ----------
    words : sequence of str
        The distinct words in code-point order.
    mult : sequence of int
        Their multiplicities.
    cert : Certificate
        Values already checked valid (the root).
    target : int
    deadline : float, optional
        ``time.perf_counter()`` value after which it stops (``TimeoutError``).
    max_pairs : int, optional
        Stop (:class:`RootCoreTooLarge`) past this many word pairs.
    through_root : bool
        Leave out the joints of zero overlap between two different words (they are found at
        the empty string only: a joint found at a longer common string overlaps by that much).

    Returns
    -------
    RootCore

    Raises
    ------
    RootCoreTooLarge
        More than ``max_pairs`` joints.
    TimeoutError
        The deadline passed.
    """
    D, proper, W, score = cert.scale, cert.proper, len(words), cert.score
    terms = cut_terms(cert, W)
    budget = cert.dual_value(mult) - D * target
    lookups = _core_lookups(words, cert, terms)
    pairs: dict[tuple[int, int], int] = {}
    u, v = cert.u, cert.v
    first = 1 if through_root else 0
    for i, a in enumerate(words):
        if deadline is not None and i % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        la, ua = len(a), u[i]
        mine = set(terms.member[i])
        for group, bonus in lookups(i):
            for k in range(first, la if proper else la + 1):
                for j in group.below(a[la - k :], budget + D * joint_gain(k, score) - ua - bonus):
                    if j == i or (i, j) in pairs:
                        continue
                    rhs = pair_rhs(a, words[j], terms.member[j], mine, terms.lams, D, proper, score)
                    if ua + v[j] - rhs <= budget:  # always, by the argument above
                        pairs[(i, j)] = ua + v[j] - rhs
        if mult[i] > 1:  # a copy followed by another: they share every cut
            gain = joint_gain(suffix_prefix_overlap(a, a, proper), score)
            if ua + v[i] - D * gain <= budget:
                pairs[(i, i)] = ua + v[i] - D * gain
        if max_pairs is not None and len(pairs) > max_pairs:
            raise RootCoreTooLarge
    return RootCore(budget, pairs, *_depot_joints(cert, terms, budget))


def _depot_joints(
    cert: Certificate, terms: CutTerms, budget: int
) -> tuple[dict[int, int], dict[int, int]]:
    """The starts and ends (``word -> slack``) whose root slack is at most ``budget``."""
    if cert.depot is None:
        return {}, {}
    ud, vd = cert.depot
    u, W = cert.u, len(cert.u)
    starts = {j: ud + terms.v_all[j] for j in range(W) if ud + terms.v_all[j] <= budget}
    return starts, {i: u[i] + vd for i in range(W) if u[i] + vd <= budget}


def _core_lookups(words: Sequence[str], cert: Certificate, terms: CutTerms) -> Any:
    """``lookups(i)``: the groups of words to search for the joints out of word ``i``, each with
    the multipliers ``i`` shares with all of its words (see :func:`root_core`)."""
    W, proper = len(words), cert.proper
    everyone = _Group(range(W), words, terms.v_all, proper)
    inside = [i for i in range(W) if terms.in_cut[i]]
    if not inside:
        return lambda i: [(everyone, 0)]
    outside = _Group([i for i in range(W) if not terms.in_cut[i]], words, terms.v_all, proper)
    _, sig, members = signature_classes(words, cert, terms)
    classes = [(held, _Group(ids, words, terms.v_all, proper)) for held, ids in members.items()]
    lams = terms.lams

    def lookups(i: int) -> list[tuple[_Group, int]]:
        if not terms.in_cut[i]:
            return [(everyone, 0)]
        return [(outside, 0)] + [(g, sum(lams[k] for k in sig[i] & held)) for held, g in classes]

    return lookups


def _core_problem(cert: Certificate, core: RootCore, words: Sequence[str]) -> str | None:
    """Why the certificate's core is not exactly the root's at its target, or None."""
    listed = cert.core or CoreSet(())
    if set(listed.pairs) != set(core.pairs) or len(listed.pairs) != len(core.pairs):
        missing = sorted(set(core.pairs) - set(listed.pairs))
        if missing:
            a, b = missing[0]
            return (
                f"INVALID: the core misses the joint {excerpt(words[a], 30)} -> "
                f"{excerpt(words[b], 30)}, whose root slack {core.pairs[(a, b)]} is within the "
                f"budget {core.budget} at {cert.target}"
            )
        return "INVALID: the core lists joints the root values already exclude (or twice)"
    if set(listed.starts) != set(core.starts) or set(listed.ends) != set(core.ends):
        return "INVALID: the core's starts and ends are not those the root values leave"
    if len(listed.starts) != len(core.starts) or len(listed.ends) != len(core.ends):
        return "INVALID: the core lists a start or an end twice"
    return None


def _shift(base: LeafChange) -> int:
    """At least the most any joint's slack under the base's values exceeds its root slack:
    the largest rise of a ``u``, plus the largest rise of a ``v`` with the falls of the
    multipliers of the cuts holding its word (a joint enters at most those less)."""
    fall: dict[int, int] = {}
    for cut, change in base.sets.items():
        if change < 0:
            for i in cut:
                fall[i] = fall.get(i, 0) - change
    rise_u = max([0, *base.du.values()])
    rise_v = max([0, *(max(0, base.dv.get(i, 0)) + fall.get(i, 0) for i in {*base.dv, *fall})])
    return rise_u + rise_v


def _based(cert: Certificate, base: TreeNode) -> Certificate:
    """The root's values with the base's changes: the values the leaves are stated against
    (the base's copies are the leaves' business, :class:`LeafChange`)."""
    u, v = int_list(cert.u), int_list(cert.v)
    for i, val in base.u:
        u[i] = val
    for i, val in base.v:
        v[i] = val
    sets = by_set(base.cuts, by_set(cert.cuts))
    cuts = tuple((tuple(sorted(c)), lam) for c, lam in sets.items() if lam)
    depot = base.depot if base.depot is not None else cert.depot
    return replace(cert, u=tuple(u), v=tuple(v), depot=depot, cuts=cuts)


def _tree_problem(cert: Certificate, W: int) -> str | None:
    """Why the tree is not a tree over joints of known words, or None."""
    nodes = cert.tree
    parents = [0] * len(nodes)
    below: dict[frozenset[int], int] | None = None  # the multipliers a leaf's cuts change
    for k, node in enumerate(nodes):
        if node.joint is not None and carries_values(node) and k > 0:
            return f"INVALID: node {k} lists values: only a leaf or the tree's root node may"
        if node.joint is None or (k == 0 and carries_values(node)):
            if below is None:
                below = by_set(cert.cuts)
            problem = _values_problem(k, node, cert, W, below)
            if problem is not None:
                return problem
            if node.joint is not None:  # the base: the leaves' cuts change its multipliers
                below = by_set(node.cuts, below)
        if node.joint is None:
            continue
        if any(not 0 <= i < W for i in node.joint):
            return f"INVALID: node {k} branches on an unknown word"
        for child in (node.used, node.unused):
            if not k < child < len(nodes):
                return f"INVALID: node {k} has a missing child ({child})"
            parents[child] += 1
    for k in range(1, len(nodes)):
        if parents[k] != 1:
            return f"INVALID: node {k} is not the child of exactly one node"
    return None


def _values_problem(
    k: int, node: TreeNode, cert: Certificate, W: int, below: dict[frozenset[int], int]
) -> str | None:
    """Why the values node ``k`` lists name unknown words or bad cut sets, or lower a cut's
    multiplier (``below``: the multipliers by set that its cuts change) below 0; or None."""
    if any(not 0 <= i < W for i, _ in (*node.u, *node.v, *node.copies)):
        return f"INVALID: node {k} changes the value of an unknown word"
    changes: dict[frozenset[int], int] = {}
    for ids, lam in node.cuts:
        if not ids or any(not 0 <= i < W for i in ids) or len(set(ids)) != len(ids):
            return f"INVALID: node {k} has a cut set empty, repeated or of unknown words"
        if cert.cyclic and len(ids) == W:
            return f"INVALID: node {k} has a cut set of a cyclic snake holding every word"
        changes[frozenset(ids)] = changes.get(frozenset(ids), 0) + lam
    for cut, change in changes.items():
        if change < 0 and below.get(cut, 0) + change < 0:
            return (
                f"INVALID: node {k} lowers a cut's multiplier below 0 (a leaf may "
                "lower only the root's cut of the same set, to 0 at least)"
            )
    return None


def no_snake(
    used: frozenset[tuple[int, int]], mult: Sequence[int], items: int, cyclic: bool
) -> bool:
    """Whether no snake uses every joint of ``used`` (each at least once).

    True when a joint ``w -> w`` names a word listed once; when a word has more distinct forced
    successors (or predecessors) than copies; or when a connected set ``S`` of words of the
    forced joints holds at least as many forced joints as items: every item of ``S`` then has
    its successor in ``S`` (an item has one), so the snake never leaves ``S``, which misses an
    item (the depot of a linear snake, or a word of a cyclic one).

    Parameters
    ----------
    used : frozenset of (int, int)
        Forced joints (distinct-word ids).
    mult : sequence of int
        The words' multiplicities.
    items : int
    cyclic : bool

    Returns
    -------
    bool
    """
    outs: Counter[int] = Counter()
    ins: Counter[int] = Counter()
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in used:
        if a == b and mult[a] < 2:
            return True
        outs[a] += 1
        ins[b] += 1
        parent[root(a)] = root(b)
    if any(outs[w] > mult[w] for w in outs) or any(ins[w] > mult[w] for w in ins):
        return True
    joints: Counter[int] = Counter(root(a) for a, _ in used)
    size: Counter[int] = Counter()
    for w in parent:
        size[root(w)] += mult[w]
    return any(joints[r] >= size[r] and (not cyclic or size[r] < items) for r in joints)


_no_snake = no_snake


def check_tree(
    words: Sequence[str], mult: Sequence[int], cert: Certificate, deadline: float | None
) -> tuple[int | None, str | None]:
    """The largest leaf bound of a version 2 certificate, or the line naming its first failing
    node (see :func:`verify_certificate`)."""
    if cert.target is None:
        return None, "INVALID: a proof tree needs a target"
    problem = _tree_problem(cert, len(words))
    if problem is not None:
        return None, problem
    if cert.core is not None:  # a listed core must be exactly the root's
        cap = len(cert.core.pairs)
        try:
            core = root_core(
                words,
                mult,
                cert,
                cert.target,
                deadline,
                max_pairs=cap,
                through_root=cert.tree_model == "root",
            )
        except RootCoreTooLarge:
            return None, (
                f"INVALID: the root values leave more than the {cap:,} joints the core lists "
                "within the budget at the target"
            )
        problem = _core_problem(cert, core, words)
        if problem is not None:
            return None, problem
    leaves, problem = _leaves(words, cert, deadline)
    if problem is not None:
        return None, problem
    joints = RootJoints(words, mult, cert, deadline)
    node0 = cert.tree[0]
    base = node0 if node0.joint is not None and carries_values(node0) else None
    if base is not None:  # checked once as a leaf of no path, then the leaves against it
        first = LeafChange(cert, base)
        joints.prepare([first])
        _, problem = leaf_bound(joints, first, (frozenset(), frozenset()))
        if problem is not None:
            return None, f"INVALID: node 0 (the tree's base): {problem}"
        based = _based(cert, base)
        joints = RootJoints(words, mult, based, deadline, core=joints, shift=_shift(first))
    inherited = {} if base is None else dict(base.copies)
    worth = sum((mult[a] - 1) * g for a, g in inherited.items())
    changes = [LeafChange(joints.cert, node, inherited, worth) for _, node, _ in leaves]
    joints.prepare(changes)
    top = None
    arcs = cert.items if cert.cyclic else cert.items - 1
    for (k, node, (used, unused)), change in zip(leaves, changes, strict=True):
        found: int | None
        if _no_snake(used, mult, cert.items, cert.cyclic) or len(used) > arcs:
            found, problem = node.bound, None  # the leaf covers no snake
        elif len(used) == arcs:  # its snakes use exactly the forced joints, once each
            found = sum(
                joint_gain(suffix_prefix_overlap(words[a], words[b], cert.proper), cert.score)
                for a, b in used
            )
            problem = None
        else:
            found, problem = leaf_bound(joints, change, (used, unused))
        if problem is not None:
            return None, f"INVALID: node {k} (leaf): {problem}"
        assert found is not None
        if node.bound < found:
            return None, f"INVALID: node {k} (leaf) claims {node.bound}, its values prove {found}"
        if node.bound >= cert.target:
            return None, f"INVALID: node {k} (leaf) proves {node.bound}, not below {cert.target}"
        top = node.bound if top is None else max(top, node.bound)
    return top, None


def _leaves(
    words: Sequence[str], cert: Certificate, deadline: float | None
) -> tuple[list[tuple[int, TreeNode, LeafPath]], str | None]:
    """Every leaf with its path, depth first (the used side first), or the line naming the
    first leaf whose path both forces and forbids a joint."""
    out: list[tuple[int, TreeNode, LeafPath]] = []
    stack: list[tuple[int, frozenset[tuple[int, int]], frozenset[tuple[int, int]]]]
    stack = [(0, frozenset(), frozenset())]
    while stack:
        k, used, unused = stack.pop()
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeoutError
        node = cert.tree[k]
        if node.joint is not None:
            j = node.joint
            stack.append((node.unused, used, unused | {j}))
            stack.append((node.used, used | {j}, unused))
            continue
        if used & unused:
            a, b = sorted(used & unused)[0]
            return out, (
                f"INVALID: node {k}: the joint {excerpt(words[a], 30)} -> {excerpt(words[b], 30)} "
                "is both used and not used on its path"
            )
        out.append((k, node, (used, unused)))
    return out, None
