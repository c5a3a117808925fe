"""Heuristic baselines from the seed articles and elsewhere; deliberately not re-exported."""
