"""Stage "proof tree": before the core search, a proof tree that the incumbent is optimal, on the
core the flow's certificate leaves at ``objective + 1``
(:func:`~cpwords.wordsnake.closure.proof_tree.tree_certificate`).
"""

from __future__ import annotations

import time

from cpwords.wordsnake.exact.stages.certificate import (
    TREE_MIN_SECONDS,
    core_tree_kind,
    solve_certificate,
)
from cpwords.wordsnake.exact.state import ProofState

#: The stage "proof tree" runs before the core search when the core has at least this many
#: joints: there HiGHS's branch-and-cut is slow and proves nothing a checker can read (`ab`
#: n=30,000: 398,184 joints, 231 s), while the proof tree, warm-started
#: (:data:`~cpwords.wordsnake.closure.proof_tree.WARM_START_PAIRS`), closed in 27 nodes and 79 s.
EARLY_TREE_PAIRS = 100_000


#: The share of the stages' time left that the stage "proof tree" may take (the core search
#: keeps the rest, and the certificate stage may try again after it).
EARLY_TREE_SHARE = 0.5


def early_tree_wanted(state: ProofState) -> bool:
    """Whether the stage "proof tree" runs before the core search.

    Parameters
    ----------
    state : ProofState
        After reduced-cost fixing.

    Returns
    -------
    bool
        On a checked solve left open whose core holds at least :data:`EARLY_TREE_PAIRS` joints,
        with an ordering, not interrupted, and more than :data:`TREE_MIN_SECONDS` left.
    """
    large = state.core_pairs is not None and state.core_pairs >= EARLY_TREE_PAIRS
    return large and _tree_may_run(state)


def _tree_may_run(state: ProofState) -> bool:
    """A checked solve left open, with an ordering, not interrupted, with time left."""
    remaining = state.remaining()
    return (
        bool(state.options.get("checked", True))
        and not (state.proven or state.interrupted)
        and bool(state.order)
        and (remaining is None or remaining > TREE_MIN_SECONDS)
    )


def early_tree(state: ProofState) -> None:
    """Stage "proof tree": before the core search, a proof tree that the incumbent is optimal.

    Parameters
    ----------
    state : ProofState
        After reduced-cost fixing. When the tree closes: ``proven``, ``bound`` (the
        objective), ``early_certificate`` (the version 2 certificate, which the certificate
        stage takes and the checked proof stage checks) and ``info["proof_tree_*"]``; the core
        search is then skipped. Ctrl-C sets ``interrupted`` and keeps the ordering. It may take
        :data:`EARLY_TREE_SHARE` of the stages' time left.

    Notes
    -----
    The tree is built on the core the flow's certificate leaves at ``objective + 1``
    (:func:`~cpwords.wordsnake.closure.proof_tree.tree_certificate`; format: the card's
    "Certificates", version 2).
    """
    from cpwords.wordsnake.closure.proof_tree import tree_certificate

    state.report(state.elapsed(), state.objective, state.bound, "proof tree")
    t0 = time.perf_counter()
    remaining = state.remaining()
    until = None if remaining is None else t0 + EARLY_TREE_SHARE * remaining
    tree = None
    try:
        cert = solve_certificate(state)
        if cert is not None:
            # the joints model only: its core fits or the stage ends at once (the root model's
            # tree cannot close on an ordering the search may still improve, and would spend
            # the stage's share: /tmp/pieces.txt's 2,074 words, 43 s at 46,839)
            tree = tree_certificate(state.instance, cert, deadline=until, through_root=False)
    except KeyboardInterrupt:  # the ordering stands; the certificate stage still runs
        state.interrupted = True
    elapsed = time.perf_counter() - t0
    state.stages[-1]["proof_tree_time"] = elapsed
    if tree is None or not tree.tree:
        return
    state.early_certificate = tree
    state.proven = True
    state.bound = state.objective
    state.info.update(
        proof_tree_kind=core_tree_kind(tree),
        proof_tree_time=elapsed,
        proof_tree_nodes=len(tree.tree),
    )
    state.on_progress(state.elapsed(), state.objective, state.bound, "proof tree")
