"""One spec module per puzzle, each defining ``SPEC`` (a :class:`cpwords.spec.PuzzleSpec`).

A puzzle's spec names every room of that puzzle: its rules and checker (``cpwords.puzzles``),
its exact models (``cpwords.models``), its heuristics (``cpwords.heuristics``), and how an
instance is read. Register a new one in :data:`cpwords.spec.BUILTIN`.
"""
