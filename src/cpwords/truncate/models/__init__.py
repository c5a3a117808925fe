"""Truncate exact model: the dynamic programme over the word DAG
(:mod:`~cpwords.truncate.models.dp`).
"""
