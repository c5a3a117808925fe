"""Letter Boxed exact models: the layered DP (:mod:`~cpwords.letterboxed.models.dp`), the CP-SAT
set cover (:mod:`~cpwords.letterboxed.models.setcover`), box generation
(:mod:`~cpwords.letterboxed.models.design`).
"""
