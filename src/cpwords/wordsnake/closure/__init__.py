"""Closing the gap the bounds leave: reduced-cost fixing and the exact search of the core
(:mod:`~cpwords.wordsnake.closure.core`), and the proof trees that let the certificate carry what a
search proved (on the core, :mod:`~cpwords.wordsnake.closure.proof_tree`, branching on the program
at each node, :mod:`~cpwords.wordsnake.closure.node_program`, its subtour cuts read from
:mod:`~cpwords.wordsnake.closure.components`; on the path cover,
:mod:`~cpwords.wordsnake.closure.cover_tree`).
"""
