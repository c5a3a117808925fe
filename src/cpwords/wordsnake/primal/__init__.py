"""The primal side: orderings. Cycles patched into one ordering
(:mod:`~cpwords.wordsnake.primal.repair`; one into another first,
:mod:`~cpwords.wordsnake.primal.patching`), the local search on the certificate's reduced costs
(segment moves and ejection chains, :mod:`~cpwords.wordsnake.primal.local_search`) and the exact
re-ordering of pieces around a focus (:mod:`~cpwords.wordsnake.primal.lns`).
"""
