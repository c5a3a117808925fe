"""Letter Boxed (New York Times): cover the box's 12 letters with the fewest chained words.

The same rooms as every wing (lint-imports checks the order: a module may import only those
below it):

* ``spec.py`` — the methods registry, how an instance is read, how an answer is re-checked, and
  the Python entry point;
* ``models/`` — the exact models;
* ``heuristics.py`` — the seed's two-word pair search;
* ``rules.py`` — the instance types, the rules, the scorer and the independent checker (no
  solver imports; shares no code with the models).
"""
