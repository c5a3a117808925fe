"""Stage "repair": the first flow iterate decoded and its cycles patched into one ordering."""

from __future__ import annotations

from contextlib import nullcontext

from cpwords.wordsnake.exact.flow_steps import decode_and_repair
from cpwords.wordsnake.exact.state import FlowState


def repair(f: FlowState) -> None:
    """Stage "repair": the first iterate decoded (one cycle per support component) and its
    remaining cycles patched into one ordering (the greedy's flow is reported by the Lagrangian
    stage, which decodes the cold solver's flow instead)."""
    # The plain costs, read by neither, let go while the decoding and the candidate index peak.
    with f.plain_cost_released() if f.large else nullcontext():
        decode_and_repair(f, record=not f.warm_first)
        if f.proven:  # no repair after: the costs are made again without the index held
            f.drop_index()  # (977,555 31-mers of C. elegans: 0.5 GB, the solve's peak)
    if f.proven:
        f.ended = True
