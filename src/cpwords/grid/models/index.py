"""Indexed tokens of the prefix/suffix grid and the sound degree preprocessing.

Tokens get integer ids in alphabetical order (so "smaller id" is "alphabetically smaller", the
order of the lex-leader). For every suffix token the set of prefix tokens it forms a word with
is kept both as a Python ``set`` and as a bitset (a Python ``int``, bit ``i`` = prefix id ``i``),
which makes the intersections of the enumeration cheap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from cpwords.grid.rules import Board, GridTokens


def reduce_pairs(
    pairs: Iterable[tuple[str, str]], min_prefix_degree: int, min_suffix_degree: int
) -> list[tuple[str, str]]:
    """Drop pairs whose tokens occur in too few pairs, until nothing changes.

    Parameters
    ----------
    pairs : iterable of (prefix, suffix)
    min_prefix_degree : int
        Least number of edges at a prefix slot of the board (2 on the default board).
    min_suffix_degree : int
        Least number of edges at a suffix slot (6 on the default board).

    Returns
    -------
    list of (prefix, suffix)
        The pairs that survive, in input order.

    Notes
    -----
    Sound: a prefix token on a slot of degree d forms d distinct words, so it needs d distinct
    suffix partners, at least ``min_prefix_degree``; likewise for suffix tokens. A token that
    fails cannot be on any filled board, hence neither can its pairs; removing them cannot
    remove a solution, and the argument repeats on the smaller set (a fixpoint).

    Examples
    --------
    >>> reduce_pairs([("a", "x"), ("a", "y"), ("b", "x")], 2, 1)
    [('a', 'x'), ('a', 'y')]
    """
    cur = list(dict.fromkeys(pairs))
    while True:
        pc = Counter(p for p, _ in cur)
        sc = Counter(s for _, s in cur)
        new = [(p, s) for p, s in cur if pc[p] >= min_prefix_degree and sc[s] >= min_suffix_degree]
        if len(new) == len(cur):
            return new
        cur = new


@dataclass(frozen=True)
class GridIndex:
    """Tokens with integer ids and per-suffix prefix sets, after preprocessing.

    Attributes
    ----------
    prefixes, suffixes : tuple of str
        Surviving tokens, sorted (the id is the position).
    bits_of_suf : tuple of int
        For suffix id ``j``, the bitset of the prefix ids forming a word with it.
    pairs : tuple of (int, int)
        ``(prefix id, suffix id)`` of every surviving word.
    n_pairs_before : int
        Pairs before preprocessing.
    """

    prefixes: tuple[str, ...]
    suffixes: tuple[str, ...]
    bits_of_suf: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    n_pairs_before: int

    @property
    def prefix_id(self) -> dict[str, int]:
        """Prefix token -> id."""
        return {p: i for i, p in enumerate(self.prefixes)}

    @property
    def suffix_id(self) -> dict[str, int]:
        """Suffix token -> id."""
        return {s: i for i, s in enumerate(self.suffixes)}


def build_index(tokens: GridTokens, board: Board, preprocess: bool = True) -> GridIndex:
    """Index the pairs of ``tokens`` for ``board``, with the degree preprocessing when asked.

    Parameters
    ----------
    tokens : GridTokens
    board : Board
        Gives the minimal slot degrees used by :func:`reduce_pairs`.
    preprocess : bool
        Apply :func:`reduce_pairs` (sound; see there).

    Returns
    -------
    GridIndex
    """
    pairs: list[tuple[str, str]] = list(tokens.pairs)
    if preprocess:
        dp = min(board.degree(v) for v in board.prefix_slots)
        ds = min(board.degree(v) for v in board.suffix_slots)
        pairs = reduce_pairs(pairs, dp, ds)
    prefixes = tuple(sorted({p for p, _ in pairs}))
    suffixes = tuple(sorted({s for _, s in pairs}))
    pid = {p: i for i, p in enumerate(prefixes)}
    sid = {s: i for i, s in enumerate(suffixes)}
    sets: list[set[int]] = [set() for _ in suffixes]
    id_pairs = []
    for p, s in pairs:
        sets[sid[s]].add(pid[p])
        id_pairs.append((pid[p], sid[s]))
    bits = tuple(sum(1 << i for i in st) for st in sets)
    return GridIndex(
        prefixes,
        suffixes,
        bits,
        tuple(sorted(id_pairs)),
        len(tokens.pairs),
    )
