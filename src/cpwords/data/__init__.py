"""Data files shipped with cpwords (built-in instances, boards)."""
