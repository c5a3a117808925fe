"""Stage "bound descent": when the core is too large for the search (or the search ended with
time left), proof trees at targets descending from the bound to the incumbent's score + 1, each
one proving a lower bound the certificate carries (card: "The default `exact` method: its stages").

A tree at ``target`` proves that no snake scores ``target`` or more
(:func:`~cpwords.wordsnake.closure.proof_tree.tree_certificate` with ``target``; the version 2
format's ``target`` above ``objective + 1``). The higher the target, the smaller the core the
root values leave and the cheaper the tree: the descent starts at the bound and lowers the
target by a step that doubles after each tree that closes and shrinks after one that does not,
until the tree at ``objective + 1`` proves the incumbent optimal or the time runs out. The last
tree that closed is the certificate; the answer is FEASIBLE with its bound otherwise.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from cpwords.wordsnake.exact.stages.certificate import (
    TREE_MIN_SECONDS,
    solve_certificate,
    values_bound,
)
from cpwords.wordsnake.exact.state import ProofState

if TYPE_CHECKING:
    from cpwords.wordsnake.certificate import Certificate

#: The largest core a tree of the descent is built on. `ab` n=30,000 seed 3: 764,965 joints at
#: the incumbent's score + 1, closed in 83 nodes and 60 s, the whole solve at 1.4 GB.
DESCENT_MAX_PAIRS = 1_500_000

#: The share of the stages' time left that one tree of the descent may take: a tree that does
#: not close leaves the rest to trees at higher targets (smaller cores).
DESCENT_SHARE = 0.5

#: The most nodes of one tree of the descent (the certificate lists every leaf); a last try
#: (all the time left) that ends without a tree before the limit tries again with four times
#: as many, up to 16 times this.
DESCENT_MAX_NODES = 4_000


def descent_wanted(state: ProofState) -> bool:
    """Whether the stage "bound descent" runs: reduced-cost fixing found the core too large for
    the search (its log says ``too_large``), or the core search ended with the gap open before
    the limit (`ab` n=30,000 seed 2: its child ended 17 s early), on a checked solve left
    open with an ordering, a bound and at least
    :data:`~cpwords.wordsnake.exact.stages.certificate.TREE_MIN_SECONDS` left.

    Parameters
    ----------
    state : ProofState
        After reduced-cost fixing.

    Returns
    -------
    bool
    """
    remaining = state.remaining()
    log = state.stages[-1] if state.stages else {}
    return (
        # A core too large for the search, or one the search had and left open.
        (bool(log.get("too_large")) or state.core is not None)
        and state.bound is not None
        and bool(state.options.get("checked", True))
        and not (state.proven or state.interrupted)
        and bool(state.order)
        and (remaining is None or remaining > TREE_MIN_SECONDS)
    )


def bound_descent(state: ProofState) -> None:
    """Stage "bound descent": proof trees at descending targets, each within
    :data:`DESCENT_SHARE` of the time left (a tree one point below the bound proven that does
    not close gets one more try with all the time left).

    Parameters
    ----------
    state : ProofState
        After reduced-cost fixing. Each tree that closes lowers ``bound`` to its target - 1
        and becomes ``early_certificate`` (the certificate stage takes it, the checked proof
        stage checks it); the one at ``objective + 1`` sets ``proven``. The log
        (``solver_info["stages"]``, the entry ``core``) lists every tree tried
        (``descent``: target, nodes or None, seconds). Ctrl-C keeps the last tree; the time
        limit sets ``solver_info["stopped"]`` to ``"time"``.
    """
    assert state.bound is not None
    log = state.stages[-1]
    tried: list[dict[str, object]] = []
    log["descent"] = tried
    cert = solve_certificate(state)
    if cert is None or values_bound(state, cert) > state.bound:
        # Trees on the values cannot start below what the values prove: a bound the path
        # cover's cuts lowered further is left to the certificate's tree at that bound (the
        # union of the Spanish and Russian lists: its descent's four trees at 25,976,902 found
        # none, and left no time for that tree, so the answer's bound rose by two points).
        return
    goal = int(state.objective) + 1  # the target that proves the incumbent optimal
    proven = int(state.bound) + 1  # the lowest target a tree closed at (the bound's + 1)
    step, last_try, nodes_cap = 1, False, DESCENT_MAX_NODES
    while proven > goal and not state.stop.asked:
        remaining = state.remaining()
        if remaining is not None and remaining < TREE_MIN_SECONDS:
            state.info["stopped"] = "time"
            return
        target = max(goal, proven - step)
        now = time.perf_counter()
        until = None if remaining is None else now + DESCENT_SHARE * remaining
        state.report(state.elapsed(), state.objective, state.bound, f"proof tree at {target:,}")
        try:
            tree = _tree_at(state, cert, target, state.deadline if last_try else until, nodes_cap)
        except KeyboardInterrupt:  # the last tree that closed stands
            state.interrupted = True
            return
        nodes = None if tree is None or not tree.tree else len(tree.tree)
        tried.append({"target": target, "nodes": nodes, "time": time.perf_counter() - now})
        if tree is not None and tree.tree:
            _take(state, tree, target)
            proven, step, last_try = target, step * 2, False
            continue
        if last_try:  # all the time left and no tree: more nodes, while they may be listed
            nodes_cap *= 4
            if nodes_cap > DESCENT_MAX_NODES * 16:
                return
        last_try = step == 1  # the next bound down: once more, with all the time left
        step = max(1, step // 4)


def _tree_at(
    state: ProofState, cert: Certificate, target: int, until: float | None, max_nodes: int
) -> Certificate | None:
    """The proof tree of ``target - 1`` on ``cert``'s values, by ``until``, of at most
    ``max_nodes`` nodes: one tree with cuts, on a core of at most :data:`DESCENT_MAX_PAIRS`
    joints (the joints model)."""
    from cpwords.wordsnake.closure.proof_tree import tree_certificate

    return tree_certificate(
        state.instance,
        cert,
        deadline=until,
        max_nodes=max_nodes,
        through_root=False,
        target=target,
        max_pairs=DESCENT_MAX_PAIRS,
        cuts_only=True,
    )


def _take(state: ProofState, tree: Certificate, target: int) -> None:
    """A tree closed at ``target``: the bound is ``target - 1``, proven optimal at the
    incumbent's score + 1, and the tree is the certificate."""
    state.early_certificate = tree
    state.bound = float(target - 1)
    if target - 1 <= state.objective:
        state.proven = True
        state.bound = state.objective
    state.info.update(proof_tree_kind="core, bound descent", proof_tree_target=target)
    state.on_progress(state.elapsed(), state.objective, state.bound, "bound descent")
