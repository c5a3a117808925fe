"""The prefix/suffix grid: boards, tokens, the rules, a drawing and an independent checker.

A *board* is a bipartite graph between prefix slots and suffix slots. A *filled board* puts one
token on every slot so that, on every edge, prefix token + suffix token spells a word of the
lexicon; the prefix tokens are pairwise distinct, the suffix tokens are pairwise distinct and no
word appears twice. Every word is cut once: its suffix is its last ``suffix_length`` letters and
its prefix the rest, which must keep at least ``min_prefix`` letters. A *puzzle* gives the suffix
tokens (for the default board a quadruple, slots ``s1..s4``); the player finds the prefixes.

The default board (``okwddm``, shipped in ``cpwords/data/boards``) is the board of the seed
article, a centre prefix slot inside a ring of 4 suffix slots, 4 corner and 4 outer prefix slots,
24 edges, invariant under the 8 symmetries of the square.

One room per part: :mod:`~cpwords.grid.rules.boards` (the boards),
:mod:`~cpwords.grid.rules.listings` (the suffix assignments that admit a full board),
:mod:`~cpwords.grid.rules.tokens` (cutting the words) and :mod:`~cpwords.grid.rules.filled` (the
filled boards: the checker, the parsing of fills and suffixes, the drawing); every name is
importable from here.

No solver is imported here. The checker (:func:`grid_problems`) recomputes every rule from the
strings and the lexicon's word set; it shares no code with the models.

References
----------
P. Baillehache, "Solving a word puzzle game for the OKWDDM community" (2023),
https://baillehachepascal.dev/2023/okwddm_word_puzzle.php
"""

from cpwords.grid.rules.boards import (
    Board,
    default_board,
    load_board,
    parse_board,
)
from cpwords.grid.rules.filled import (
    CheckerLexicon,
    board_words,
    draw_grid,
    grid_problems,
    is_valid_grid,
    parse_fill,
    parse_suffixes,
)
from cpwords.grid.rules.listings import (
    GridEnumeration,
    GridQuadruple,
)
from cpwords.grid.rules.tokens import (
    DEFAULT_MIN_PREFIX,
    DEFAULT_SUFFIX_LENGTH,
    DEFAULT_TOP,
    MIN_PREFIX_RANGE,
    SUFFIX_LENGTH_RANGE,
    GridTokens,
    board_and_tokens,
    common_tokens,
    cut_words,
    drop_plurals,
    is_token,
    validate_cut_options,
)

__all__ = [
    "DEFAULT_MIN_PREFIX",
    "DEFAULT_SUFFIX_LENGTH",
    "DEFAULT_TOP",
    "MIN_PREFIX_RANGE",
    "SUFFIX_LENGTH_RANGE",
    "Board",
    "CheckerLexicon",
    "GridEnumeration",
    "GridQuadruple",
    "GridTokens",
    "board_and_tokens",
    "board_words",
    "common_tokens",
    "cut_words",
    "default_board",
    "draw_grid",
    "drop_plurals",
    "grid_problems",
    "is_token",
    "is_valid_grid",
    "load_board",
    "parse_board",
    "parse_fill",
    "parse_suffixes",
    "validate_cut_options",
]
