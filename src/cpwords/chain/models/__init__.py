"""Exact models of word chains."""
