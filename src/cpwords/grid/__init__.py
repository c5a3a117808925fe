"""The prefix/suffix grid (OKWDDM): fill a 13-slot board so that every edge spells a word.

The same rooms as every wing (lint-imports checks the order: a module may import only those
below it):

* ``spec.py`` and ``fill_spec.py`` (complete a partial board) — the methods registry, how an
  instance is read, how an answer is re-checked, and the Python entry point;
* ``models/`` — the exact models;
* ``heuristics.py`` — the seed's centre-out backtracking;
* ``rules.py`` and ``symmetry.py`` (the board's automorphism group) — the instance types, the
  rules, the scorer and the independent checker (no solver imports; shares no code with the
  models).
"""
