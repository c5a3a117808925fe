"""Wordsnake (Shasha, Dr Dobb's Journal 2000): order all words to maximise the sum of squared
overlaps.

The wing is laid out by each part's role in the proof (lint-imports checks the order: a room may
import only those below it):

* ``spec.py`` — the methods registry, how an instance is read, how an answer is re-checked, and
  the Python entry point; ``draw.py`` — the pictures;
* ``exact/`` — the default exact method: its state, its stages (one module each) and the policy;
* ``formulations/`` — the other exact models (letter-hub MIP and CP-SAT, routes, export);
* ``closure/`` — reduced-cost fixing, the core search, proof trees;
* ``primal/`` — repair, the local search on reduced costs, the pieces' re-ordering;
* ``bounds/`` — bounds beyond the relaxation (path cover, Hall steps);
* ``relaxation/`` — the string-hub network, its flow and dual, decoding, the assignment;
* ``heuristics/`` — the seed's layered greedy, nearest neighbour, local search, and the outside
  peers (OR-Tools routing, LKH-3 through TSPLIB files);
* ``certificate/`` — the proof format and its independent checker (no solver, no model code);
* ``rules.py`` — the instance types, the rules, the scorer and the independent ordering checker
  (no solver imports; shares no code with the models).
"""
