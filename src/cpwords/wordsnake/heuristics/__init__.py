"""Wordsnake baselines (:mod:`~cpwords.wordsnake.heuristics.baselines`), outside peers
(:mod:`~cpwords.wordsnake.heuristics.peers`) and TSPLIB files.

Heuristics never import the exact models; they return FEASIBLE answers without a bound.
"""
