"""Truncate: the longest chain of words, each made from the last by adding one letter at either
end.

The same rooms as every wing (lint-imports checks the order: a module may import only those
below it):

* ``spec.py`` — the methods registry, how an instance is read, how an answer is re-checked, and
  the Python entry point;
* ``models/`` — the exact models;
* ``heuristics.py`` — the seed's shrink and extend searches;
* ``rules.py`` — the instance types, the rules, the scorer and the independent checker (no
  solver imports; shares no code with the models).
"""
