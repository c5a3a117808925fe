"""Stage "greedy proof": the greedy assignment's flow made optimal by cancelling negative cycles,
proven so by potentials (the first bound without a cold solve).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from cpwords.wordsnake.exact.flow_steps import flow_cost, take_iterate
from cpwords.wordsnake.exact.stages.checked_proof import certificate_after_stop
from cpwords.wordsnake.exact.state import FlowState
from cpwords.wordsnake.relaxation.assignment import WARM_CYCLES, WARM_ROUNDS
from cpwords.wordsnake.relaxation.flow import GIVE_BACK_ARCS
from cpwords.wordsnake.relaxation.held_trie import trie_held_small
from cpwords.wordsnake.relaxation.int_types import held_small, narrowed
from cpwords.wordsnake.relaxation.sparse_flow import SparseFlow


def greedy_proof(f: FlowState) -> None:
    """Stage "greedy proof": the greedy's flow made optimal by cancelling negative cycles and
    proven so by potentials, the first bound without a cold solve (when the rounds settle).

    On a list whose stop cannot be answered with a certificate
    (:func:`~.checked_proof.certificate_after_stop`), a stop leaves the network's ends, the
    flow and the trie as the sweeps held them (:class:`~cpwords.core.interrupts.LeftUnmade`):
    nothing reads them after it, and making them again took 5 of the 8 s between a Ctrl-C and
    the answer on 977,555 31-mers of C. elegans."""
    assert f.reopt is not None
    f.report("proving the greedy assignment optimal")
    found = f.reopt
    f.drop_index()  # the residual network below is the stage's peak: the repair builds it again
    # The plain costs (no Lagrangian iterate yet) let go while the residual network holds
    # them, and the network's arc ends too: made again after (0.8 GB of C. elegans' peak).
    with f.plain_cost_released() as plain, _trie_small(f):
        pi = found.settle(
            None if plain else f.cost,
            max_rounds=WARM_ROUNDS,
            max_cycles=WARM_CYCLES,
            deadline=f.deadline,
            release=True,
            leave_unmade=not certificate_after_stop(f.net.instance),
        )
    f.reopt = None
    f.info["cancelled_cycles"] = found.cycles
    if pi is None:
        f.info["first_bound"] = "min-cost flow"
        return
    f.warm_solves += 1
    # Held through the repair and the certificate (read there in 64 bits): in the narrowest
    # type every potential fits (977,555 31-mers of C. elegans: 16 bits, 0.15 GB less than 64).
    f.settled = held_small(narrowed(pi))
    del pi
    f.warm_first = True
    # Held as its support through the repair and the certificate, which read no other arc
    # (0.26 GB less on 977,555 31-mers of C. elegans: 3 million arcs of 68 carry units).
    flows = SparseFlow.of(found.flows)
    del found
    take_iterate(f, flows, flow_cost(f.cost, flows))


def _trie_small(f: FlowState) -> AbstractContextManager[None]:
    """On large networks, the trie held small while the sweeps peak (they read its size
    alone): 0.29 GB less on 977,555 31-mers of C. elegans, made again in 1.4 s of CPU after
    (:func:`~cpwords.wordsnake.relaxation.held_trie.trie_held_small`); as is on small ones,
    where making it again would cost more than the memory matters."""
    return trie_held_small(f.net.trie) if f.net.m >= GIVE_BACK_ARCS else nullcontext()
