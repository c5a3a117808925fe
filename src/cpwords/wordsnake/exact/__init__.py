"""The default exact method: the typed proof state (:mod:`~cpwords.wordsnake.exact.state`), the
steps its flow stages share (:mod:`~cpwords.wordsnake.exact.flow_steps`), one module per entry of
``STAGES`` in :mod:`~cpwords.wordsnake.exact.stages`, the policy that runs them in the card's order
(:mod:`~cpwords.wordsnake.exact.policy`) and the one import for every exact method
(:mod:`~cpwords.wordsnake.exact.methods`).

The package imports nothing, so that the stages can import the state and be imported by the
policy in turn.
"""
