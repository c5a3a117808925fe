"""The default exact Wordsnake method as a list of named stages.

Each stage is a function in its own module, taking and returning one typed state
(:class:`~cpwords.wordsnake.models.pipeline.state.ProofState`: the incumbent, the bound and where
it came from, the dual, the deadline, the counters the report prints). The policy
(:mod:`~cpwords.wordsnake.models.pipeline.policy`) lists them in the order of the formulation
card (``models/wordsnake.md``, "The default `exact` method: its stages") and runs them:

==========================  ==============================================================
stage                       module
==========================  ==============================================================
string-hub network          :mod:`~cpwords.wordsnake.models.pipeline.policy`
greedy assignment           :mod:`~cpwords.wordsnake.models.pipeline.first_bound`
greedy proof                :mod:`~cpwords.wordsnake.models.pipeline.first_bound`
min-cost flow               :mod:`~cpwords.wordsnake.models.pipeline.first_bound`
repair                      :mod:`~cpwords.wordsnake.models.pipeline.first_bound`
additive bound              :mod:`~cpwords.wordsnake.models.pipeline.additive`
neighbourhood search        :mod:`~cpwords.wordsnake.models.pipeline.neighbourhood`
Lagrangian relaxation       :mod:`~cpwords.wordsnake.models.lagrangian`
reduced-cost fixing         :mod:`~cpwords.wordsnake.models.pipeline.core_search`
core search                 :mod:`~cpwords.wordsnake.models.pipeline.core_search`
routes                      :mod:`~cpwords.wordsnake.models.pipeline.routes`
certificate                 :mod:`~cpwords.wordsnake.models.pipeline.certificate`
==========================  ==============================================================

The package's ``__init__`` imports nothing, so that the stage modules can import the flow's
types from :mod:`~cpwords.wordsnake.models.lagrangian` and be imported from it in turn.
"""
