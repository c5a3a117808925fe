"""Exact models (CP-SAT, MIP, dynamic programming). OR-Tools is imported only in this package."""
