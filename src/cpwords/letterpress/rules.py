"""Letterpress: which dictionary words a bag of letters can spell, and an independent checker.

In Letterpress (Loren Brichter, 2012) two players share a 5x5 board of letters and take turns
spelling words with its tiles, each tile used at most once per word. The seed question
(S. H. Eskildsen, "Letterpress Cheater Algorithm", 2013) is the core of a solver: *given about 25
letters (a multiset), find every dictionary word that uses each letter no more often than it
appears*.

Ordering used by cpwords: by length, then alphabetically (shortest first unless asked otherwise).

No solver and no index code here: :func:`can_spell` and :func:`letterpress_problems` recount
letters with :class:`collections.Counter`, sharing nothing with
:mod:`cpwords.letterpress.models.index`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from cpwords.core.alphabet import TURKIC, is_letter, normalize_word
from cpwords.core.errors import CheckError, InputError

_LETTERS = re.compile(r"[a-z]+")


def parse_letters(letters: str, lang: str | None = None, fold: bool = False) -> str:
    """Normalise a bag of letters: strip, NFC, lower-case (the rules of ``lang``), accents
    folded when ``fold``, and require letters (of any script: :mod:`cpwords.core.alphabet`).

    Raises
    ------
    InputError
        When the bag is empty or holds anything but letters.

    Examples
    --------
    >>> parse_letters(" OvrK "), parse_letters("ÇAĞRI", "tr"), parse_letters("Éte", fold=True)
    ('ovrk', 'çağrı', 'ete')
    """
    bag = letters.strip().lower()
    if bag and _LETTERS.fullmatch(bag) and lang not in TURKIC:
        return bag
    bag = normalize_word(letters.strip(), lang, fold)
    if not bag:
        raise InputError("the bag of letters is empty")
    bad = sorted({ch for ch in bag if not is_letter(ch)})
    if bad:
        raise InputError(f"letters must be letters only; got {''.join(bad)!r} in {letters!r}")
    return bag


def can_spell(word: str, letters: str) -> bool:
    """True when ``word`` uses each letter no more often than ``letters`` holds it.

    Examples
    --------
    >>> can_spell("error", "ovrkqlwislrecrtgmvpfprzey"), can_spell("moon", "mon")
    (True, False)
    """
    need = Counter(word)
    have = Counter(letters)
    return all(have[ch] >= k for ch, k in need.items())


def sort_key(word: str) -> tuple[int, str]:
    """The order of every listing: by length, then alphabetically."""
    return (len(word), word)


def letterpress_problems(
    words: Sequence[str],
    letters: str,
    dictionary: Collection[str],
    min_length: int = 1,
    longest_first: bool = False,
) -> list[str]:
    """Everything wrong with a claimed listing (empty when it is sound).

    Sound means: every word is in the dictionary, spellable from ``letters``, at least
    ``min_length`` long, listed once, in the documented order. Completeness is a separate check
    (compare with a naive scan), done by the tests and the benchmark.
    """
    problems: list[str] = []
    seen: set[str] = set()
    for w in words:
        if w in seen:
            problems.append(f"{w!r} is listed twice")
        seen.add(w)
        if w not in dictionary:
            problems.append(f"{w!r} is not in the dictionary")
        if not can_spell(w, letters):
            problems.append(f"{w!r} cannot be spelled from {letters!r}")
        if len(w) < min_length:
            problems.append(f"{w!r} is shorter than {min_length}")
    keys = [(-len(w), w) for w in words] if longest_first else [sort_key(w) for w in words]
    if keys != sorted(keys):
        problems.append("the words are not in the documented order")
    return problems


def spellable_count(words: Iterable[str], letters: str, min_length: int = 1) -> int:
    """How many of ``words`` the bag spells (at least ``min_length`` letters long).

    An independent recount of a listing's total by a plain scan (no index, no trie): about
    0.02-0.18 s over ENABLE's 172,823 words, depending on the bag.

    Parameters
    ----------
    words : iterable of str
        The dictionary.
    letters : str
        The bag, normalised (a letter given twice may be used twice).
    min_length : int
        Shortest word counted, in letters.

    Returns
    -------
    int

    Examples
    --------
    >>> spellable_count(["cat", "act", "tact", "a"], "tacos"), spellable_count(["a"], "b")
    (3, 0)
    """
    have = Counter(letters)
    allowed = frozenset(have)
    return sum(
        1
        for w in words
        if len(w) >= min_length
        and allowed.issuperset(w)
        and all(w.count(ch) <= have[ch] for ch in set(w))
    )


def verify_letterpress_words(
    words: Sequence[str],
    letters: str,
    dictionary: Collection[str],
    min_length: int = 1,
    longest_first: bool = False,
) -> None:
    """Raise :class:`~cpwords.core.errors.CheckError` unless :func:`letterpress_problems` is
    empty."""
    problems = letterpress_problems(words, letters, dictionary, min_length, longest_first)
    if problems:
        raise CheckError("invalid Letterpress listing: " + "; ".join(problems[:5]))


# --- the board (for the best-move mode) ---------------------------------------------------------

ME, NEUTRAL, OPPONENT = 1, 0, -1
_OWNER_CODES = {"b": ME, "m": ME, "r": OPPONENT, "o": OPPONENT, ".": NEUTRAL, "w": NEUTRAL}


@dataclass(frozen=True)
class LetterpressBoard:
    """A Letterpress position: letters and owners, row-major, seen by the player to move.

    Attributes
    ----------
    letters : str
        ``rows * cols`` letters (NFC code points, any script).
    owners : tuple of int
        ``ME`` (1), ``NEUTRAL`` (0) or ``OPPONENT`` (-1) per tile.
    rows, cols : int
        Board shape (the game's is 5 x 5).
    """

    letters: str
    owners: tuple[int, ...]
    rows: int = 5
    cols: int = 5

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        if len(self.letters) != n or len(self.owners) != n:
            raise InputError(
                f"a {self.rows}x{self.cols} board needs {n} letters and {n} owners, got "
                f"{len(self.letters)} and {len(self.owners)}"
            )

    def neighbours(self, t: int) -> list[int]:
        """Orthogonal neighbours of tile ``t``."""
        r, c = divmod(t, self.cols)
        out = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.rows and 0 <= cc < self.cols:
                out.append(rr * self.cols + cc)
        return out


def parse_board(
    letters: str,
    colours: str,
    rows: int = 5,
    cols: int = 5,
    lang: str | None = None,
    fold: bool = False,
) -> LetterpressBoard:
    """Read a board from its letters and its colours, row-major (``/`` and spaces ignored).

    Colours: ``b`` or ``m`` = mine (blue, the player to move), ``r`` or ``o`` = the opponent's
    (red), ``.`` or ``w`` = neutral; case-insensitive. Defended tiles are derived, not given.

    Raises
    ------
    InputError
        A character that is not a letter, unknown colour codes, or the wrong number of tiles.
        Letters are NFC code points of any script, lower-cased with the rules of ``lang``,
        accents folded when ``fold`` (see :mod:`cpwords.core.alphabet`).

    Examples
    --------
    >>> b = parse_board("abcde/fghij/klmno/pqrst/uvwxy", "bb.../...../...../...../....r")
    >>> b.owners[:3], b.owners[-1]
    ((1, 1, 0), -1)
    """
    clean_letters = normalize_word("".join(letters.split()).replace("/", ""), lang, fold)
    clean_colours = "".join(colours.split()).replace("/", "").lower()
    if not clean_letters or not all(is_letter(ch) for ch in clean_letters):
        raise InputError(f"board letters must be letters only, got {letters!r}")
    bad = sorted({ch for ch in clean_colours if ch not in _OWNER_CODES})
    if bad:
        raise InputError(
            f"unknown colour code(s) {''.join(bad)!r}: use b (mine), r (opponent), . (neutral)"
        )
    return LetterpressBoard(
        clean_letters, tuple(_OWNER_CODES[ch] for ch in clean_colours), rows, cols
    )


def defended(owners: Sequence[int], board: LetterpressBoard) -> list[bool]:
    """Per tile: owned, and every orthogonal neighbour has the same owner."""
    return [
        owners[t] != NEUTRAL and all(owners[s] == owners[t] for s in board.neighbours(t))
        for t in range(len(owners))
    ]


def play(board: LetterpressBoard, tiles: Sequence[int]) -> tuple[int, ...]:
    """Owners after the player to move uses ``tiles``: every used tile not defended by the
    opponent (before the move) becomes mine."""
    shield = defended(board.owners, board)
    after = list(board.owners)
    for t in tiles:
        if not (board.owners[t] == OPPONENT and shield[t]):
            after[t] = ME
    return tuple(after)


def move_scores(board: LetterpressBoard, tiles: Sequence[int]) -> tuple[int, int]:
    """(swing, defence) of a move: the change of (my tiles - the opponent's tiles), and my
    defended tiles minus the opponent's defended tiles after the move."""
    after = play(board, tiles)
    swing = sum(after) - sum(board.owners)
    shield = defended(after, board)
    defence = sum(after[t] for t in range(len(after)) if shield[t])
    return swing, defence


def letterpress_move_problems(
    board: LetterpressBoard, word: str, tiles: Sequence[int], dictionary: Collection[str]
) -> list[str]:
    """Everything wrong with a move (empty when legal): the word must be in the dictionary and
    ``tiles`` distinct tiles whose letters, in order, spell it."""
    problems = []
    if word not in dictionary:
        problems.append(f"{word!r} is not in the dictionary")
    if len(set(tiles)) != len(tiles):
        problems.append("a tile is used twice")
    if any(not 0 <= t < len(board.letters) for t in tiles):
        problems.append("a tile is off the board")
    elif "".join(board.letters[t] for t in tiles) != word:
        problems.append(f"the tiles spell {''.join(board.letters[t] for t in tiles)!r}")
    return problems
