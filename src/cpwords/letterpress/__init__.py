"""Letterpress: every word a bag of letters spells, and the best move on a 5x5 board.

The same rooms as every wing (lint-imports checks the order: a module may import only those
below it):

* ``spec.py`` and ``board_spec.py`` (the best move) — the methods registry, how an instance is
  read, how an answer is re-checked, and the Python entry point;
* ``models/`` — the exact models;
* ``heuristics.py`` — the seed's trie and plain scans;
* ``rules.py`` — the instance types, the rules, the scorer and the independent checker (no
  solver imports; shares no code with the models).
"""
