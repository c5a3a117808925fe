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

In the tree model ``"root"`` (when the core above exceeds :data:`MAX_CORE_PAIRS`, as on lists
whose optimum has many chains) the core leaves out the zero-overlap joints of two different
words: the program sends them through a root of unbounded degree, ``a -> root`` at ``u(a)``
and ``root -> b`` at ``v(b) - L(b)``, and the checker checks them all at once by the leaf's two
smallest ``u`` and ``v - L``.

Format, checker and the proof of the leaf rule: ``models/wordsnake.md``, "Certificates", version 2.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from itertools import chain

from cpwords.wordsnake.certificate import (
    Certificate,
    RootCore,
    RootCoreTooLarge,
    TreeNode,
    carries_values,
    no_snake,
    root_core,
)
from cpwords.wordsnake.closure.node_program import WARM_START_PAIRS, CoreProgram, Joint, Leaf
from cpwords.wordsnake.rules import WordsnakeInstance

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

#: The most nodes a proof tree is given before the producer gives up (the certificate then stays
#: PARTIAL): VIPR's measurements say small trees are cheap and large ones are not.
MAX_NODES = 4_000

#: Joints tried at a node by strong branching (:func:`tree_certificate` with ``strong``): each
#: costs the two children's programs, which the children then reuse. The list `l545` of
#: issue 46 (73 {a,b} words, repeated ones among them) closed in 9 nodes and 49 programs
#: (23 s), and `abc` n=1,000 seed 3 cyclic in 3 nodes and 13 programs (20 s); branching on
#: the first fractional joint closed neither in 300 s.
STRONG_CANDIDATES = 6

#: The most nodes of the strong tree :func:`tree_certificate` tries before the trees with cuts
#: on a small core (its strong trees closed in 3 to 9 nodes; the check reads every leaf).
STRONG_EARLY_NODES = 64

#: A tree's root node carries the root program's values as the tree's base (the leaves then
#: list their values against them) when the tree so lists at most this share of the values it
#: lists otherwise (:func:`_with_base`).
BASE_SHARE = 0.5


def tree_certificate(
    instance: WordsnakeInstance,
    cert: Certificate,
    *,
    deadline: float | None = None,
    max_nodes: int = MAX_NODES,
    strong: int = 0,
    through_root: bool | None = None,
    target: int | None = None,
    max_pairs: int = MAX_CORE_PAIRS,
    cuts_only: bool = False,
) -> Certificate | None:
    """The version 2 certificate of ``target - 1`` (by default ``cert.objective``): ``cert``'s
    values as the root, the core they leave at ``target`` and a proof tree over it.

    Parameters
    ----------
    instance : WordsnakeInstance
    cert : Certificate
        A valid (version 1) certificate whose ordering scores ``objective``.
    deadline : float, optional
        ``time.perf_counter()`` value after which it gives up.
    max_nodes : int
        The most nodes of the tree.
    strong : int
        0: the trees of :func:`_attempts` one after another, most branching on the node's first
        fractional joint (then a subtour's, then a used one). Otherwise one tree, with the
        root's cuts re-priced, branching on the best of ``strong`` such joints by strong
        branching (the product of the two children's bound drops, their programs solved and
        reused; Achterberg, Koch and Martin, "Branching rules revisited", *Operations Research
        Letters* 33, 2005): fewer nodes, each dearer.
    through_root : bool or None
        The tree model (``tree_model``): False, every core joint a column (``"joints"``);
        True, the zero-overlap joints of two different words through the root (``"root"``:
        a far smaller core when the optimum has many chains); None, ``"joints"`` unless its
        core exceeds :data:`MAX_CORE_PAIRS`, then ``"root"``.
    target : int, optional
        The score no snake reaches (default ``objective + 1``: the ordering is optimal). Above
        it, the tree proves the bound ``target - 1`` and leaves the gap below it open (the
        stage "bound descent"); a snake found scoring ``target`` or more gives no tree.
    max_pairs : int
        The largest core the tree is built on (:data:`MAX_CORE_PAIRS`); a larger one gives
        the tree model ``"root"`` (with ``through_root`` None) or no tree.
    cuts_only : bool
        One tree, the first of :func:`_attempts` with cuts, on all the time (the stage "bound
        descent"; `ab` n=30,000 seed 3: the tree without cuts spent its share, an eighth of the
        time, on each target and closed none, the trees with cuts closed the top targets at the
        root in 1-3 s, and the tree at the incumbent's score + 1, 83 nodes, took 52 s of the
        first tree with cuts, which under load did not close in the half it was given). Not
        the strong tree: there its tree at 2,455,680 did not close in 140 s.

    Returns
    -------
    Certificate or None
        None when the tree needs more nodes or time, or a node's dual cannot close it. A tree
        that branched by strong branching says so in its producer (``"branching": "strong"``).
    """
    counts = Counter(instance.words)
    words = sorted(counts)
    mult = [counts[w] for w in words]
    target = cert.objective + 1 if target is None else target
    found = _core(words, mult, cert, target, deadline, through_root, max_pairs)
    if found is None:
        return None
    core, through_root = found
    if core.budget < 0:  # the root values alone prove the target's bound
        return replace(cert, core_pairs=None, bound=target - 1)
    attempts = _attempts(mult, len(core.pairs), strong, through_root)
    if cuts_only:
        attempts = _cuts_only(attempts)
    nodes, branching = _first_tree(
        cert, (core, target, through_root), words, mult, attempts, (deadline, max_nodes, strong)
    )
    if nodes is None:
        return None
    return _tree(cert, nodes, len(core.pairs), branching, through_root, target)


def _first_tree(
    cert: Certificate,
    at: tuple[RootCore, int, bool],
    words: list[str],
    mult: list[int],
    attempts: list[tuple[int, bool, int, int]],
    limits: tuple[float | None, int, int],
) -> tuple[list[TreeNode] | None, str]:
    """The first of ``attempts`` (:func:`_attempts`) that closes a tree on the core ``at`` its
    target (in the root model or not), each on its share of the time left (``limits``: the
    deadline, the most nodes, the strong branching width asked): its nodes (None when none
    closes) and ``"strong"`` when it branched by strong branching."""
    core, target, through_root = at
    deadline, max_nodes, strong = limits
    for rounds, free_root, share, width in attempts:
        now = time.perf_counter()
        until = None if deadline is None else now + (deadline - now) / share
        lp = CoreProgram(
            cert,
            core,
            words,
            mult,
            rounds,
            free_root=free_root,
            deadline=until,
            keep_model=width > 0,
            through_root=through_root,
            target=target,
        )
        cap = max_nodes if rounds > 1 else max_nodes // share
        nodes = _branch(lp, min(cap, STRONG_EARLY_NODES) if width and not strong else cap, width)
        lp.close()  # its model freed now, not by the collector
        if nodes is not None:
            return nodes, "strong" if width and len(nodes) > 1 else ""  # it branched so
    return None, ""


def _tree(
    cert: Certificate,
    nodes: list[TreeNode],
    joints: int,
    branching: str,
    through_root: bool,
    target: int,
) -> Certificate:
    """The version 2 certificate of ``target - 1`` with the tree ``nodes`` (its core of
    ``joints`` joints not listed), its producer saying how it branched."""
    producer = {**cert.producer, "tree_nodes": len(nodes), "core_joints": joints}
    if branching:
        producer["branching"] = branching
    return replace(
        cert,
        core_pairs=None,
        bound=target - 1,
        target=target,
        core=None,
        tree=tuple(nodes),
        producer=producer,
        tree_model="root" if through_root else "joints",
    )


def _core(
    words: list[str],
    mult: list[int],
    cert: Certificate,
    target: int,
    deadline: float | None,
    through_root: bool | None,
    max_pairs: int = MAX_CORE_PAIRS,
) -> tuple[RootCore, bool] | None:
    """The root's core at ``target`` in the tree model asked (None: the joints model's, or
    when it exceeds ``max_pairs`` the root model's) and whether it is the root model's; None
    when it exceeds the cap or the deadline passed."""
    for model in (False, True) if through_root is None else (through_root,):
        try:
            core = root_core(
                words, mult, cert, target, deadline, max_pairs=max_pairs, through_root=model
            )
        except TimeoutError:
            return None
        except RootCoreTooLarge:
            continue
        return core, model
    return None


def _attempts(
    mult: list[int], pairs: int, strong: int, through_root: bool = False
) -> list[tuple[int, bool, int, int]]:
    """The trees :func:`tree_certificate` tries one after another: each one's cut rounds, whether
    the root's cuts are re-priced, the share of the time left it gets (1 / share) and its strong
    branching width (0: the first fractional joint).

    Without cuts first (measured: `ab` n=60 seed 18 in 27 nodes and 1.7 s, against no tree in
    60 s with them), then with them, then with the root's cuts re-priced too (repeated words
    whose snakes enter a root cut twice: the root's slacks alone miss that), each on a share of
    the time left at its start. When words repeat, the re-priced tree comes second, on half of
    what the first left, and the first gets an eighth: `abc` n=1,000 seed 3 is proven only
    re-priced, while the trees without cuts, when they close, close at once and check fastest
    (`ab` n=1,000 seed 1: 0.01 s, against 0.8 s re-priced). The tree without cuts gets its share
    of the nodes too: on an integral assignment it forces a subtour's joints one by one, each
    child taking its parent's solution (`ab` n=30,000 seed 1: 1,890 such nodes in its 18 s, and
    no tree).

    A strong tree (at most :data:`STRONG_EARLY_NODES` nodes, half the time left) comes second:
    it keeps one model for every node, each solve starting from the last basis (the children it
    tries differ from their parent in one bound), and closed in a fraction of a second where the
    trees with cuts spent their whole budget and did not close (`l545`: 0.12 s, against 2.6 s;
    `abc` n=1,000 seed 3 cyclic: 0.39 s, against 5.3 s). On the large cores too (once only
    below :data:`WARM_START_PAIRS` joints): `ab` n=30,000 seed 2 (391,705 joints), whose trees
    with cuts spent the early tree's 84 s and did not close (then 116 s of core search and the
    certificate's strong tree, 268 s in all), is proven by it in 12 s (16 s in all). With
    ``strong``, only the strong tree.

    In the tree model ``"root"`` (many chains: the optimum's chains meet at the root), no tree
    without cuts: on /tmp/pieces.txt (2,074 words, 248,915 joints) it did not close in 100 s,
    against 11.3 s with cuts and 11.8 s with the root's cuts re-priced too.
    """
    if through_root and not strong:
        attempts = [(CUT_ROUNDS, False, 2, 0), (CUT_ROUNDS, True, 1, 0)]
        if pairs < WARM_START_PAIRS:
            attempts.insert(1, (CUT_ROUNDS, True, 2, STRONG_CANDIDATES))
        return attempts
    if strong:
        return [(CUT_ROUNDS, True, 1, strong)]
    attempts = [(1, False, 3, 0), (CUT_ROUNDS, False, 2, 0), (CUT_ROUNDS, True, 1, 0)]
    if max(mult) > 1:
        attempts = [(1, False, 8, 0), (CUT_ROUNDS, True, 2, 0), (CUT_ROUNDS, False, 1, 0)]
    attempts.insert(1, (CUT_ROUNDS, True, 2, STRONG_CANDIDATES))
    return attempts


def _cuts_only(attempts: list[tuple[int, bool, int, int]]) -> list[tuple[int, bool, int, int]]:
    """The one tree of ``cuts_only`` (:func:`tree_certificate`): the first of ``attempts`` with
    cuts that does not branch strongly, on all the time left.

    Parameters
    ----------
    attempts : list of (int, bool, int, int)
        :func:`_attempts`'s trees: cut rounds, root cuts re-priced, share, strong width.

    Returns
    -------
    list of (int, bool, int, int)
        That one tree, its share 1.

    Examples
    --------
    >>> _cuts_only([(1, False, 8, 0), (8, True, 2, 6), (8, True, 2, 0)])
    [(8, True, 1, 0)]
    """
    rounds, free_root, _, width = next(a for a in attempts if a[0] > 1 and a[3] == 0)
    return [(rounds, free_root, 1, width)]


def _branch(lp: CoreProgram, max_nodes: int, strong: int = 0) -> list[TreeNode] | None:
    """Depth-first branching from the root: the tree's nodes, or None when it gives up (past
    ``max_nodes`` or the LP's deadline). ``strong``: strong branching over that many joints
    (:func:`tree_certificate`)."""
    deadline = lp.deadline
    first: Leaf | None = None  # the root program's solution
    nodes: list[TreeNode | None] = [None]
    stack: list[tuple[int, frozenset[Joint], frozenset[Joint], Leaf | None]]
    stack = [(0, frozenset(), frozenset(), None)]
    solved = _Solved(lp)
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
            leaf: Leaf | None = parent  # so it is this node's optimum too: no program solved
        else:
            leaf = solved(used, unused, ROOT_CUT_ROUNDS if k == 0 and lp.rounds > 1 else None)
        if leaf is None:
            return None
        if k == 0:
            first = leaf
        if leaf.bound < lp.target:
            nodes[k] = replace(_values(leaf), bound=leaf.bound)
            continue
        joint = _branching_joint(leaf, used, unused, solved, strong)
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


class _Solved:
    """A node's program, solved once: strong branching solves the children of each joint it
    tries, and the chosen joint's children take theirs when they are reached."""

    def __init__(self, lp: CoreProgram) -> None:
        self.lp = lp
        self.kept: dict[tuple[frozenset[Joint], frozenset[Joint]], Leaf | None] = {}

    def __call__(
        self, used: frozenset[Joint], unused: frozenset[Joint], rounds: int | None = None
    ) -> Leaf | None:
        """The node's leaf (taken out of the store when it was solved before)."""
        if (used, unused) in self.kept:
            return self.kept.pop((used, unused))
        return self.lp.solve(used, unused, rounds)

    def keep(self, used: frozenset[Joint], unused: frozenset[Joint]) -> Leaf | None:
        """Solve the node and keep its leaf for when it is reached."""
        leaf = self.kept[(used, unused)] = self.lp.solve(used, unused)
        return leaf

    def forget(self, nodes: list[tuple[frozenset[Joint], frozenset[Joint]]]) -> None:
        """Drop the leaves of nodes that will not be reached."""
        for key in nodes:
            self.kept.pop(key, None)


def _branching_joint(
    leaf: Leaf, used: frozenset[Joint], unused: frozenset[Joint], solved: _Solved, strong: int
) -> Joint | None:
    """The joint to branch on: the first fractional one of the node's assignment (then one
    of a subtour, then one it uses), or with ``strong``, the best of the first ``strong`` by
    the product of the children's bound drops (ties: the larger smaller drop)."""
    free = (j for j in dict.fromkeys(chain(leaf.frac, leaf.subtour, leaf.used)) if j not in used)
    if not strong:
        return next(free, None)
    best: tuple[tuple[float, int], Joint] | None = None
    tried: list[tuple[frozenset[Joint], frozenset[Joint]]] = []
    for joint in list(free)[:strong]:
        children = [(used | {joint}, unused), (used, unused | {joint})]
        tried += children
        drops = []
        for child in children:
            found = solved.keep(*child)
            drops.append(leaf.bound + 1 if found is None else leaf.bound - found.bound)
        score = (max(drops[0], 0.001) * max(drops[1], 0.001), min(drops))
        if best is None or score > best[0]:
            best = (score, joint)
    if best is None:
        return None
    chosen = best[1]
    solved.forget(
        [c for c in tried if c not in ((used | {chosen}, unused), (used, unused | {chosen}))]
    )
    return chosen


def _with_base(nodes: list[TreeNode], first: Leaf, cert: Certificate) -> list[TreeNode]:
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


def _values(leaf: Leaf) -> TreeNode:
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
