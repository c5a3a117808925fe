"""The other exact formulations, whole models a solver is given: the letter-hub graph
(:mod:`~cpwords.wordsnake.formulations.letter_hub`), its MIP with subtour elimination
(:mod:`~cpwords.wordsnake.formulations.mip`), CP-SAT's letter-hub, routes and circuit models
(:mod:`~cpwords.wordsnake.formulations.cpsat`), their files for outside solvers
(:mod:`~cpwords.wordsnake.formulations.export`), and what every exact method shares
(:mod:`~cpwords.wordsnake.formulations.common`: limits, the result, the scorer).
"""
