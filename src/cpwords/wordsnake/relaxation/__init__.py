"""The assignment relaxation and its dual: the string-hub network (the overlap graph on
O(total letters) arcs), its min-cost flow (:mod:`~cpwords.wordsnake.relaxation.flow`, with
:class:`~cpwords.wordsnake.relaxation.flow.FlowDual`), the flow decoded into successors
(:mod:`~cpwords.wordsnake.relaxation.decode`), the greedy assignment proven optimal by potentials
(:mod:`~cpwords.wordsnake.relaxation.assignment`), the residual network's augmenting paths
(:mod:`~cpwords.wordsnake.relaxation.residual`), the flow's dual written as a certificate
(:mod:`~cpwords.wordsnake.relaxation.dual_certificate`) and range queries on the sorted words
(:mod:`~cpwords.wordsnake.relaxation.word_ranges`).
"""
