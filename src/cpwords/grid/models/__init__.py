"""Grid exact models: the CP-SAT board (:mod:`~cpwords.grid.models.cpsat`), the listing by matching
(:mod:`~cpwords.grid.models.listing`), the token index (:mod:`~cpwords.grid.models.index`),
puzzle design (:mod:`~cpwords.grid.models.design`).
"""
