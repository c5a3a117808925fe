"""Bounds beyond the assignment relaxation, one module each: the path cover of the subtours'
neighbourhood on reduced costs (additive bounding, :mod:`~cpwords.wordsnake.bounds.path_cover`, its
subtour cuts in :mod:`~cpwords.wordsnake.bounds.cover_cuts`, where its paths start and end in
:mod:`~cpwords.wordsnake.bounds.path_ends`) and Hungarian dual steps on Hall sets
of zero-slack joints (:mod:`~cpwords.wordsnake.bounds.hall_step`).
"""
