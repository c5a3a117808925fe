"""Wordsnake (Shasha, Dr Dobb's Journal 2000): order all words to maximise the sum of squared
overlaps.

The same rooms as every wing (lint-imports checks the order: a module may import only those
below it):

* ``spec.py`` — the methods registry, how an instance is read, how an answer is re-checked, and
  the Python entry point;
* ``models/`` — the exact models;
* ``heuristics/`` — the seed's layered greedy, nearest neighbour, local search, and the outside
  peers (OR-Tools routing, LKH-3 through TSPLIB files);
* ``rules.py`` — the instance types, the rules, the scorer and the independent checker (no
  solver imports; shares no code with the models).
"""
