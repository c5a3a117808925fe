"""One adapter module per puzzle, each defining ``ADAPTER`` (a ``PuzzleAdapter``).

Register a new one in :data:`cpwords.bench.adapter.BUILTIN`.
"""
