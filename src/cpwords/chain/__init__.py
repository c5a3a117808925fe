"""Word chains (shiritori): the longest sequence of distinct words in which each word begins
with the last ``k`` letters of the one before.

The same rooms as every wing (lint-imports checks the order: a module may import only those
below it):

* ``spec.py`` — the methods registry, how an instance is read, how an answer is re-checked, and
  the Python entry point :func:`cpwords.chain.spec.solve_chain`;
* ``models/`` — the exact model (a longest trail, MIP in HiGHS with lazy connectivity cuts);
* ``heuristics.py`` — the seeded randomised depth-first search;
* ``rules.py`` — the instance type, the rules, the scorer and the independent checker (no
  solver imports; shares no code with the model).
"""
