"""The producer of a chain certificate: the trail program's linear relaxation, with the cuts
the solve added, solved once more by HiGHS's simplex; its row duals, scaled and rounded to
integers, are the certificate's values (:mod:`cpwords.chain.certificate` checks them).

Rounding cannot make the bound wrong, only looser: the checker's inequality holds for any
integer values (weak duality with the variables' bounds), and a scale of ``2**32`` keeps the
loosening far below one point (card: ``models/chain.md``, "Certificate").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from cpwords.chain.certificate import ChainCertificate, ChainCut, list_fingerprint
from cpwords.chain.rules import ChainInstance

if TYPE_CHECKING:
    from cpwords.chain.models.trail import TrailGraph, _TrailMip

#: The values are the duals times this, rounded.
SCALE = 1 << 32


def lp_certificate(
    instance: ChainInstance, tg: TrailGraph, mip: _TrailMip, chain: Sequence[str]
) -> ChainCertificate | None:
    """The certificate of the bound of the trail program's relaxation with the cuts so far.

    Parameters
    ----------
    instance : ChainInstance
    tg : TrailGraph
    mip : the solve's trail program (its rows are kept; its columns are made continuous)
    chain : sequence of str
        The best chain found (the certificate carries it).

    Returns
    -------
    ChainCertificate or None
        None when HiGHS does not solve the relaxation to optimality.
    """
    import highspy

    h, G, N = mip.h, mip.G, mip.N
    cols = G + 2 * N
    h.changeColsIntegrality(cols, np.arange(cols, dtype=np.int32), np.zeros(cols, dtype=np.uint8))
    h.setOptionValue("solver", "simplex")
    h.setOptionValue("time_limit", float("inf"))
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    y = np.asarray(h.getSolution().row_dual, dtype=float)
    # HiGHS's row duals are the objective's rates in the rows' right-hand sides: for this
    # maximisation they are the checker's values as they are (a cut row, <= 0, has a dual >= 0;
    # measured on ENABLE with k = 2, where the opposite signs prove 840,427 instead of 14,516).
    val = [round(float(d) * SCALE) for d in y]
    nodes = tg.nodes
    potentials = tuple((nodes[v], val[v]) for v in range(N) if val[v])
    cuts = []
    for row, (comp, g, side) in enumerate(mip.cut_rows, start=N + 2):
        mu = max(0, val[row])  # a slightly negative float rounds to 0
        if mu:
            group = (nodes[int(tg.tail[g])], nodes[int(tg.head[g])], int(tg.weight[g]))
            cuts.append(ChainCut(tuple(nodes[int(v)] for v in comp), group, side, mu))
    letters = instance.objective == "letters"
    value = sum(len(w) if letters else 1 for w in chain)
    objective = float(h.getInfo().objective_function_value) + tg.constant
    return ChainCertificate(
        fingerprint=list_fingerprint(instance.words),
        overlap=instance.overlap,
        maximise=instance.objective,
        start=instance.start,
        end=instance.end,
        scale=SCALE,
        potentials=potentials,
        one_start=val[N],
        one_end=val[N + 1],
        cuts=tuple(cuts),
        chain=tuple(chain),
        bound=max(value, int(np.floor(objective + 1e-6))),
        producer={"method": "trail-mip", "relaxation": objective, "cut_rows": len(mip.cut_rows)},
    )
