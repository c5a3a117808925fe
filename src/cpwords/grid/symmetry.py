"""Symmetry of a prefix/suffix board: its automorphism group and the lex-leader rules.

An automorphism of a board is a permutation of its slots that keeps every slot's kind (prefix or
suffix) and maps edges onto edges. It maps every filled board to a filled board (the same words
on permuted edges), so the group acts on solutions. With the slots ordered suffix slots first,
the lex-leader of an orbit is its lexicographically smallest member (tokens compared
alphabetically). Because tokens are pairwise distinct within a kind, two slots of the same kind
never hold equal tokens, and the lex-leader condition ``X <=lex X o g`` collapses to one strict
comparison per group element, at the first slot ``v`` that ``g`` moves: ``x[v] < x[g(v)]``
(Puget 2005). The set of these comparisons is what the models post.

References
----------
J.-F. Puget, "Breaking symmetries in all different problems", IJCAI 2005.
J. Crawford, M. Ginsberg, E. Luks, A. Roy, "Symmetry-breaking predicates for search problems",
KR 1996.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx
from networkx.algorithms import isomorphism

from cpwords.grid.rules import Board

Perm = dict[str, str]


def board_graph(board: Board) -> nx.Graph:
    """The board as a networkx graph whose nodes carry ``kind`` ("prefix" or "suffix")."""
    g = nx.Graph()
    for v, k in board.kinds.items():
        g.add_node(v, kind=k)
    g.add_edges_from(board.edges)
    return g


def board_automorphisms(board: Board) -> list[Perm]:
    """All automorphisms of the board graph that keep slot kinds, identity first.

    Computed with networkx's VF2 matcher of the graph against itself.

    Returns
    -------
    list of dict
        Each maps every slot to its image; sorted by the image of the slot sequence.

    Examples
    --------
    >>> from cpwords.grid.rules import default_board
    >>> len(board_automorphisms(default_board()))
    8
    """
    g = board_graph(board)
    gm = isomorphism.GraphMatcher(g, g, node_match=lambda a, b: a["kind"] == b["kind"])
    order = board.slots
    autos = [dict(m) for m in gm.isomorphisms_iter()]
    autos.sort(key=lambda m: (any(m[v] != v for v in order), [order.index(m[v]) for v in order]))
    return autos


@dataclass(frozen=True)
class BoardSymmetry:
    """The automorphism group of a board and the lex-leader rules it yields.

    Attributes
    ----------
    board : Board
    group : tuple of dict
        All automorphisms, identity first.
    rules : tuple of (str, str)
        Lex-leader comparisons ``(u, v)`` meaning ``token[u] < token[v]``, deduplicated.
        ``u`` is the first slot (suffix slots first) that some automorphism moves, ``v`` its image.
    """

    board: Board
    group: tuple[Perm, ...]
    rules: tuple[tuple[str, str], ...]

    @property
    def order(self) -> int:
        """``|G|``, the number of automorphisms."""
        return len(self.group)

    @property
    def suffix_rules(self) -> tuple[tuple[str, str], ...]:
        """Rules between suffix slots: they pick one suffix assignment per orbit."""
        s = set(self.board.suffix_slots)
        return tuple(r for r in self.rules if r[0] in s)

    @property
    def prefix_rules(self) -> tuple[tuple[str, str], ...]:
        """Rules between prefix slots; they come from the kernel (automorphisms fixing every
        suffix slot, e.g. swapping two prefix slots with the same neighbours)."""
        s = set(self.board.prefix_slots)
        return tuple(r for r in self.rules if r[0] in s)

    @property
    def kernel_order(self) -> int:
        """``|K|``: automorphisms that fix every suffix slot (the stabiliser of any suffix
        assignment, since suffix tokens are pairwise distinct)."""
        return sum(all(g[s] == s for s in self.board.suffix_slots) for g in self.group)

    @property
    def suffix_orbit_size(self) -> int:
        """``|G| / |K|``: how many suffix assignments each class of quadruples stands for."""
        return self.order // self.kernel_order

    def suffix_orbit(self, suffixes: Sequence[str]) -> set[tuple[str, ...]]:
        """Every suffix assignment (in slot order) equivalent to ``suffixes``."""
        slots = self.board.suffix_slots
        tok = dict(zip(slots, suffixes, strict=True))
        return {tuple(tok[g[s]] for s in slots) for g in self.group}

    def canonical_suffixes(self, suffixes: Sequence[str]) -> tuple[str, ...]:
        """The lex-leader (alphabetically smallest) member of the orbit of ``suffixes``."""
        return min(self.suffix_orbit(suffixes))

    def canonical_fill(self, fill: Mapping[str, str]) -> tuple[str, ...]:
        """The lex-leader of the orbit of a complete filled board, as tokens in slot order."""
        order = self.board.slots
        return min(tuple(fill[g[v]] for v in order) for g in self.group)


def board_symmetry(board: Board, break_symmetry: bool = True) -> BoardSymmetry:
    """Compute the automorphism group and the lex-leader rules of ``board``.

    Parameters
    ----------
    board : Board
    break_symmetry : bool
        When False, the group is the trivial one (no rules): every arrangement counts.

    Returns
    -------
    BoardSymmetry

    Notes
    -----
    For an automorphism ``g`` let ``v`` be the first slot (in ``board.slots``) with ``g(v) != v``.
    The full lex-leader constraint ``X <=lex X o g`` holds iff ``X[v] <= X[g(v)]``, because all
    earlier positions compare a slot with itself, and ``X[v] != X[g(v)]`` since distinct slots of
    one kind hold distinct tokens. So ``X[v] < X[g(v)]`` is exact, and the conjunction over ``G``
    keeps exactly the lex-leader of every orbit. Since tokens are distinct within a kind, only
    the identity fixes a complete board: every orbit of complete boards has exactly ``|G|``
    members.
    """
    identity = {v: v for v in board.slots}
    if not break_symmetry:
        return BoardSymmetry(board, (identity,), ())
    group = board_automorphisms(board)
    rules: list[tuple[str, str]] = []
    for g in group:
        moved = [v for v in board.slots if g[v] != v]
        if moved:
            r = (moved[0], g[moved[0]])
            if r not in rules:
                rules.append(r)
    return BoardSymmetry(board, tuple(group), tuple(rules))
