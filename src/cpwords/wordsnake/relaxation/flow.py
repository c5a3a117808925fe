"""The min-cost flow of the string-hub network, solved inline or in a killable child process.

OR-Tools' ``SimpleMinCostFlow`` holds the GIL and has no time limit, so networks of more than
:data:`FORK_MIN_ARCS` arcs are solved in a forked child that a deadline or Ctrl-C can stop.

Formulation card: ``models/wordsnake.md``.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cpwords.core.errors import ModelError
from cpwords.core.machine import give_back_freed_memory
from cpwords.core.procs import die_with_parent
from cpwords.wordsnake.relaxation.sparse_flow import SparseFlow
from cpwords.wordsnake.relaxation.string_hub import (
    DeadlineReached,
    StringHubNetwork,
)

#: Networks with more arcs than this are solved in a forked child process, so that a time limit
#: or Ctrl-C can stop the solve (OR-Tools' min-cost flow holds the GIL and has no time limit).
FORK_MIN_ARCS = 200_000

#: Networks of at least this many arcs give the heap's freed blocks back to the kernel between
#: their steps (:func:`give_back_between`): on 977,555 31-mers of C. elegans (68 million arcs) a
#: stage's start fell by 0.3-0.5 GB; on ENABLE (2 million) the pages faulted in again cost about
#: a tenth more CPU for nothing that mattered.
GIVE_BACK_ARCS = 16_000_000


def give_back_between(net: StringHubNetwork | None) -> bool:
    """Between two steps of a solve on ``net``: give the heap's freed blocks back to the
    kernel (:func:`~cpwords.core.machine.give_back_freed_memory`) when the network has at
    least :data:`GIVE_BACK_ARCS` arcs (the next step's arrays seldom fit the heap's holes,
    which counted in its peak).

    Parameters
    ----------
    net : StringHubNetwork or None
        None (not built yet): nothing is done.

    Returns
    -------
    bool
        Whether the blocks were given back.
    """
    if net is None or net.m < GIVE_BACK_ARCS:
        return False
    return give_back_freed_memory()


#: Costs are ``-(SCALE * weight + multipliers)``: Lagrangian multipliers in units of 1/SCALE.
SCALE = 64


#: A flow solve (or a Python stage) was abandoned because the deadline passed.
FlowStopped = DeadlineReached


def _solve_flow_inline(net: StringHubNetwork, cost: np.ndarray) -> tuple[np.ndarray, int]:
    from ortools.graph.python import min_cost_flow  # 17 MB: only when a flow is solved

    flow = min_cost_flow.SimpleMinCostFlow()
    arcs = flow.add_arcs_with_capacity_and_unit_cost(
        net.tail.astype(np.int32, copy=False),
        net.head.astype(np.int32, copy=False),
        net.cap.full(),
        cost,
    )
    nodes = np.nonzero(net.supply)[0]
    flow.set_nodes_supplies(nodes.astype(np.int32), net.supply[nodes].astype(np.int64))
    status = flow.solve()
    if status != flow.OPTIMAL:
        raise ModelError(f"min-cost flow failed on the string-hub network (status {status})")
    # Every flow is within its arc's capacity: the capacities' type holds it (int32, half the
    # memory of OR-Tools' int64 flows on the whole Polish dictionary's 72 million arcs).
    return flow.flows(arcs).astype(net.cap.dtype), int(flow.optimal_cost())


def _child(
    net: StringHubNetwork, cost: np.ndarray, conn: Any, parent_pid: int
) -> None:  # pragma: no cover - runs in the forked child
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Die with the parent, however it dies (SIGTERM, SIGKILL), and never hold the caller's
    # standard output or error open: a shell pipeline reading them ends with the parent.
    die_with_parent(parent_pid)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        flows, value = _solve_flow_inline(net, cost)
        conn.send_bytes(np.int64(value).tobytes() + flows.tobytes())
    except Exception as exc:  # report, never hang the parent
        conn.send_bytes(b"E" + str(exc).encode())
    finally:
        conn.close()


class FlowJob:
    """A min-cost flow solve under way (in a forked child for large networks).

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int32 or int64, shape (m,)
        Unit cost of each arc (negated scores).

    Notes
    -----
    Networks with at least ``FORK_MIN_ARCS`` arcs are solved in a forked child process: the
    parent stays free (it runs the greedy start meanwhile, on the second core) and can abandon
    the solve at a deadline or on Ctrl-C within a tenth of a second, which OR-Tools' solver,
    holding the GIL with no time limit, would not allow in-process.
    """

    def __init__(self, net: StringHubNetwork, cost: np.ndarray) -> None:
        import multiprocessing  # 10 ms of start-up: only a cold solve forks

        self.proc: Any = None
        self.recv: Any = None
        self.done: tuple[np.ndarray, int] | None = None
        self.dtype = net.cap.dtype  # the flows' (the child's bytes)
        if net.m < FORK_MIN_ARCS or "fork" not in multiprocessing.get_all_start_methods():
            self.net, self.cost = net, cost
            return
        ctx = multiprocessing.get_context("fork")
        self.recv, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_child, args=(net, cost, send, os.getpid()), daemon=True)
        self.proc.start()
        send.close()

    def result(self, deadline: float | None = None) -> tuple[np.ndarray, int]:
        """Wait for the solve; return ``(flows, optimal cost)``.

        Raises
        ------
        FlowStopped
            The deadline passed first (the child is stopped).
        KeyboardInterrupt
            Ctrl-C while waiting (the child is stopped).
        ModelError
            The solver failed.
        """
        if self.done is not None:
            return self.done
        if self.proc is None:
            if deadline is not None and time.perf_counter() >= deadline:
                raise FlowStopped
            self.done = _solve_flow_inline(self.net, self.cost)
            return self.done
        try:
            while not self.recv.poll(0.05):
                if deadline is not None and time.perf_counter() >= deadline:
                    raise FlowStopped
                if not self.proc.is_alive() and not self.recv.poll(0):
                    raise ModelError(f"the flow process died (exit code {self.proc.exitcode})")
            data = self.recv.recv_bytes()
        finally:
            self.close()
        if data[:1] == b"E":
            raise ModelError(data[1:].decode())
        value = int(np.frombuffer(data[:8], dtype=np.int64)[0])
        self.done = (np.frombuffer(data[8:], dtype=self.dtype).copy(), value)
        return self.done

    def close(self) -> None:
        """Stop the child process, if any."""
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join()
            self.recv.close()
            self.proc = None


def solve_flow(
    net: StringHubNetwork, cost: np.ndarray, deadline: float | None = None
) -> tuple[np.ndarray, int]:
    """Min-cost flow of the network with the given arc costs (see :class:`FlowJob`).

    Parameters
    ----------
    net : StringHubNetwork
    cost : numpy.ndarray of int32 or int64, shape (m,)
        Unit cost of each arc (negated scores).
    deadline : float, optional
        ``time.perf_counter()`` value after which the solve is abandoned.

    Returns
    -------
    flows : numpy.ndarray of the capacities' type (``net.cap.dtype``), shape (m,)
    cost : int
        The optimal total cost.

    Raises
    ------
    FlowStopped
        The deadline passed first.
    KeyboardInterrupt
        Ctrl-C during the solve.
    ModelError
        The flow solver failed (the network is always feasible: a bug).
    """
    job = FlowJob(net, cost)
    try:
        return job.result(deadline)
    finally:
        job.close()


# ---------------------------------------------------------------------------------------------
# Decoding a flow into item successors, and merging cycles that share a hub.
# ---------------------------------------------------------------------------------------------


@dataclass
class FlowDual:
    """The flow iterate that gave the best bound, for reduced-cost fixing.

    Attributes
    ----------
    cost : numpy.ndarray of int32 or int64, shape ``(m,)``
        The arc costs of that iterate (``-scale * weight`` less the multipliers' bonus): the
        network's weight type for plain costs (int32 where every score fits), int64 for
        Lagrangian iterates. Sums over arcs are taken in 64 bits.
    flows : numpy.ndarray of the capacities' type (int32), or SparseFlow, shape ``(m,)``
        Its optimal flow (held as its support after the greedy proof:
        :class:`~cpwords.wordsnake.relaxation.sparse_flow.SparseFlow`; whole where a stage reads
        it whole, :func:`~cpwords.wordsnake.relaxation.sparse_flow.dense_flows`).
    value_scaled : int
        Its Lagrangian value in cost units: ``scale * bound <= value_scaled < scale * (bound + 1)``.
    scale : int
        Cost units per score point (1 for plain costs, ``SCALE`` for Lagrangian iterates).
    cut_words : list of numpy.ndarray of int64
        The distinct words of each cut priced into ``cost`` (the words whose entry lies in the
        cut's support component).
    cut_units : list of int
        Each cut's multiplier in cost units (``scale * lambda``).
    pi : numpy.ndarray of int32 or int64, or None
        Potentials that proved ``flows`` optimal, when the iterate was settled here (a warm
        start for the certificate's): int32 where every one fits, read in 64 bits.
    """

    cost: np.ndarray
    flows: np.ndarray | SparseFlow
    value_scaled: int
    scale: int
    cut_words: list[np.ndarray] = field(default_factory=list)
    cut_units: list[int] = field(default_factory=list)
    pi: np.ndarray | None = None
