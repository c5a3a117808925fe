"""Wordsnake's exact models, one concern per module.

* :mod:`~cpwords.wordsnake.models.auto` — the default method (``auto``): the measured policy
  over the stages below;
* :mod:`~cpwords.wordsnake.models.string_hub` — the string-hub network (assignment relaxation on
  O(total letters) arcs);
* :mod:`~cpwords.wordsnake.models.flow` — its min-cost flow (in a child process for large
  networks);
* :mod:`~cpwords.wordsnake.models.decode` — flow to successor map, cycle merging, the greedy
  successor map;
* :mod:`~cpwords.wordsnake.models.repair` — patching cycles into one ordering;
* :mod:`~cpwords.wordsnake.models.lagrangian` — connectivity cuts priced by Lagrangian
  relaxation (the dual bound);
* :mod:`~cpwords.wordsnake.models.core` — reduced-cost fixing and the exact search of the core
  (HiGHS or CP-SAT);
* :mod:`~cpwords.wordsnake.models.letter_hub`, :mod:`~cpwords.wordsnake.models.common`,
  :mod:`~cpwords.wordsnake.models.mip`, :mod:`~cpwords.wordsnake.models.cpsat` — the letter-hub
  models (MIP with subtour elimination, CP-SAT) and the routes and circuit models;
* :mod:`~cpwords.wordsnake.models.export` — the models as MPS/LP or CP-SAT files.

Formulation card: ``models/wordsnake.md``.
"""
