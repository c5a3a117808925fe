"""Letterpress exact models: the bitset word index (:mod:`~cpwords.letterpress.models.index`), the
CP-SAT best move (:mod:`~cpwords.letterpress.models.board`).
"""
