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

No solver is imported here. The checker (:func:`grid_problems`) recomputes every rule from the
strings and the lexicon's word set; it shares no code with the models.

References
----------
P. Baillehache, "Solving a word puzzle game for the OKWDDM community" (2023),
https://baillehachepascal.dev/2023/okwddm_word_puzzle.php
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from cpwords.core.alphabet import is_letter, normalize_word
from cpwords.core.errors import InputError, excerpt
from cpwords.core.sources import resolve_path

_AZ_TOKEN = re.compile(r"[a-z]+")


class _Token:
    """A token is one or more letters of any script (:mod:`cpwords.core.alphabet`)."""

    @staticmethod
    def fullmatch(tok: str) -> bool:
        if _AZ_TOKEN.fullmatch(tok):
            return True
        return bool(tok) and all(is_letter(ch) for ch in tok)


_TOKEN = _Token()
_SLOT = re.compile(r"[A-Za-z0-9_]+")

#: Accepted ranges of the cutting options (letters).
SUFFIX_LENGTH_RANGE = (1, 8)
MIN_PREFIX_RANGE = (1, 8)

DEFAULT_TOP = 10000
DEFAULT_SUFFIX_LENGTH = 2
DEFAULT_MIN_PREFIX = 2


# --------------------------------------------------------------------------------------------
# Boards
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A board graph: prefix slots, suffix slots and the prefix-suffix edges between them.

    Parameters
    ----------
    name : str
        A label.
    suffix_slots, prefix_slots : tuple of str
        Slot names, in the board's order (the order of the lex-leader and of the output).
    edges : tuple of (str, str)
        ``(prefix_slot, suffix_slot)`` pairs, each a word on a filled board; no duplicates.
    layout : mapping str -> (int, int)
        Optional ``(row, column)`` of each slot, used by :func:`draw_grid`.
    description : str
        Free text.

    Raises
    ------
    InputError
        When the slots are not distinct, an edge names an unknown slot, an edge joins two slots
        of the same kind (the board must be bipartite), an edge is repeated or a slot has no edge.
    """

    name: str
    suffix_slots: tuple[str, ...]
    prefix_slots: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    layout: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        where = f"board {self.name!r}"
        if not self.suffix_slots or not self.prefix_slots:
            raise InputError(f"{where}: needs at least one prefix slot and one suffix slot")
        seen: set[str] = set()
        for s in (*self.suffix_slots, *self.prefix_slots):
            if s in seen:
                raise InputError(f"{where}: slot {s!r} is declared twice")
            seen.add(s)
        kinds = self.kinds
        pairs: set[tuple[str, str]] = set()
        for p, s in self.edges:
            for end in (p, s):
                if end not in kinds:
                    raise InputError(f"{where}: edge {p}-{s} names an unknown slot {end!r}")
            if kinds[p] == kinds[s]:
                raise InputError(
                    f"{where}: edge {p}-{s} joins two {kinds[p]} slots; the board must be "
                    "bipartite (every edge joins a prefix slot to a suffix slot)"
                )
            if kinds[p] != "prefix":
                raise InputError(f"{where}: edge {p}-{s} must be written [prefix, suffix]")
            if (p, s) in pairs:
                raise InputError(f"{where}: edge {p}-{s} is listed twice")
            pairs.add((p, s))
        lonely = [v for v in kinds if self.degree(v) == 0]
        if lonely:
            raise InputError(f"{where}: slot {lonely[0]!r} has no edge")
        cells: dict[tuple[int, int], str] = {}
        for v, rc in self.layout.items():
            if v not in kinds:
                raise InputError(f"{where}: layout names an unknown slot {v!r}")
            if rc in cells:
                raise InputError(f"{where}: slots {cells[rc]!r} and {v!r} share a layout cell")
            cells[rc] = v

    @property
    def kinds(self) -> dict[str, str]:
        """Slot name -> ``"prefix"`` or ``"suffix"``."""
        out = {s: "suffix" for s in self.suffix_slots}
        out.update({p: "prefix" for p in self.prefix_slots})
        return out

    @property
    def slots(self) -> tuple[str, ...]:
        """All slots, suffix slots first (the order used for the lex-leader)."""
        return (*self.suffix_slots, *self.prefix_slots)

    def neighbours(self, slot: str) -> tuple[str, ...]:
        """The slots joined to ``slot``, in the board's order."""
        nb = {s for p, s in self.edges if p == slot} | {p for p, s in self.edges if s == slot}
        return tuple(v for v in self.slots if v in nb)

    def degree(self, slot: str) -> int:
        """Number of edges at ``slot`` (words through it on a filled board)."""
        return sum(slot in e for e in self.edges)

    def to_dict(self) -> dict[str, Any]:
        """The board in the JSON board-file format."""
        d: dict[str, Any] = {
            "name": self.name,
            "suffix_slots": list(self.suffix_slots),
            "prefix_slots": list(self.prefix_slots),
            "edges": [list(e) for e in self.edges],
        }
        if self.description:
            d["description"] = self.description
        if self.layout:
            d["layout"] = {v: list(rc) for v, rc in self.layout.items()}
        return d


def _str_list(obj: Any, key: str, where: str) -> tuple[str, ...]:
    val = obj.get(key)
    if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
        raise InputError(f"{where}: {key!r} must be a list of slot names")
    for x in val:
        if not _SLOT.fullmatch(x):
            raise InputError(f"{where}: {x!r} is not a slot name (letters, digits, _)")
    return tuple(val)


def parse_board(text: str, source: str = "<board>") -> Board:
    """Parse a board file (JSON).

    The format is an object with ``suffix_slots`` and ``prefix_slots`` (lists of names),
    ``edges`` (a list of ``[prefix_slot, suffix_slot]``), and optionally ``name``,
    ``description`` and ``layout`` (slot -> ``[row, column]`` for the drawing).

    Raises
    ------
    InputError
        Malformed JSON, missing or ill-typed keys, or a board rejected by :class:`Board`.
    """
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{source}: not a JSON board file (line {exc.lineno}: {exc.msg})"
        ) from None
    if not isinstance(obj, dict):
        raise InputError(f"{source}: a board file must hold one JSON object")
    suffix_slots = _str_list(obj, "suffix_slots", source)
    prefix_slots = _str_list(obj, "prefix_slots", source)
    raw_edges = obj.get("edges")
    if not isinstance(raw_edges, list):
        raise InputError(f"{source}: 'edges' must be a list of [prefix_slot, suffix_slot]")
    edges = []
    for e in raw_edges:
        if not (isinstance(e, list) and len(e) == 2 and all(isinstance(x, str) for x in e)):
            raise InputError(f"{source}: edge {e!r} is not a pair of slot names")
        edges.append((e[0], e[1]))
    raw_layout = obj.get("layout", {})
    if not isinstance(raw_layout, dict):
        raise InputError(f"{source}: 'layout' must map slots to [row, column]")
    layout: dict[str, tuple[int, int]] = {}
    for v, rc in raw_layout.items():
        if not (
            isinstance(rc, list)
            and len(rc) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in rc)
        ):
            raise InputError(f"{source}: layout of {v!r} must be [row, column], integers >= 0")
        layout[v] = (rc[0], rc[1])
    name = obj.get("name", Path(source).stem)
    description = obj.get("description", "")
    if not isinstance(name, str) or not isinstance(description, str):
        raise InputError(f"{source}: 'name' and 'description' must be strings")
    try:
        return Board(name, suffix_slots, prefix_slots, tuple(edges), layout, description)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


def load_board(path: str | os.PathLike[str] | None = None) -> Board:
    """Load a board file (``-``: standard input), or the default board when ``path`` is None.

    Raises
    ------
    InputError
        Missing, unreadable, non-UTF-8 or malformed file (see :func:`parse_board`).
    """
    if path is None:
        return default_board()
    from cpwords.core.lexicon import read_file_bytes

    source = "<stdin>" if str(path) == "-" else str(path)
    try:
        text = read_file_bytes(path, "board file").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"board file {excerpt(source)} is not UTF-8 text") from None
    return parse_board(text, source)


def default_board() -> Board:
    """The seed's board (``okwddm``): 9 prefix slots, 4 suffix slots, 24 edges.

    Examples
    --------
    >>> b = default_board()
    >>> len(b.prefix_slots), len(b.suffix_slots), len(b.edges)
    (9, 4, 24)
    >>> [b.degree(v) for v in ("s1", "c", "ne", "n")]
    [6, 4, 2, 3]
    """
    text = resources.files("cpwords").joinpath("data/boards/okwddm.json").read_text("utf-8")
    return parse_board(text, "okwddm.json")


# --------------------------------------------------------------------------------------------
# Listings: the suffix assignments that admit a full board
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridQuadruple:
    """A suffix assignment that admits a full board.

    Attributes
    ----------
    suffixes : tuple of str
        One token per suffix slot, in the board's suffix-slot order (``s1..s4``).
    example : dict
        One full board (slot -> token) with these suffixes.
    """

    suffixes: tuple[str, ...]
    example: dict[str, str]

    def to_dict(self, board: Board) -> dict[str, Any]:
        """JSON form: suffixes, the example board in slot order and its words."""
        ex = {v: self.example[v] for v in board.slots}
        words = [ex[p] + ex[s] for p, s in board.edges]
        return {"suffixes": list(self.suffixes), "board": ex, "words": words}


@dataclass(frozen=True)
class GridEnumeration:
    """All feasible suffix assignments of a board, one per symmetry class.

    Attributes
    ----------
    board : Board
    quadruples : tuple of GridQuadruple
        Sorted by suffixes; each the lex-leader of its class.
    group_order : int
        ``|G|``, the number of automorphisms used (1 without symmetry breaking).
    orbit_size : int
        Suffix assignments per class, ``|G| / |K|`` (K fixes every suffix slot).
    wall_time : float
        Seconds, indexing included.
    method : str
    stats : dict
        Token counts and search nodes.
    """

    board: Board
    quadruples: tuple[GridQuadruple, ...]
    group_order: int
    orbit_size: int
    wall_time: float
    method: str
    stats: dict[str, Any] = field(default_factory=dict)
    #: None when the search finished (the listing is complete); else why it stopped early
    #: ("time_limit" or "interrupted"), and ``quadruples`` holds those found so far.
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        """Whether the listing is exhaustive."""
        return self.stopped is None

    @property
    def count(self) -> int:
        """Number of classes found."""
        return len(self.quadruples)

    def suffix_set(self) -> set[tuple[str, ...]]:
        """The suffix tuples found."""
        return {q.suffixes for q in self.quadruples}


# --------------------------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridTokens:
    """The words of a lexicon, each cut once into a (prefix, suffix) pair.

    Attributes
    ----------
    words : tuple of str
        The lexicon after filtering (plural forms dropped when asked), most frequent first
        when it came from wordfreq.
    pairs : tuple of (str, str)
        ``(prefix, suffix)`` of every word long enough to be cut, sorted; distinct words give
        distinct pairs because the cut is fixed.
    suffix_length, min_prefix : int
        The cutting rule (letters).
    source : str
        Where the words came from.
    lang : str
        The words' language (ISO 639-1), for their Zipf frequencies in a difficulty.
    """

    words: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    suffix_length: int
    min_prefix: int
    source: str = "<words>"
    lang: str = "en"

    @property
    def prefixes(self) -> tuple[str, ...]:
        """Distinct prefix tokens, sorted."""
        return tuple(sorted({p for p, _ in self.pairs}))

    @property
    def suffixes(self) -> tuple[str, ...]:
        """Distinct suffix tokens, sorted."""
        return tuple(sorted({s for _, s in self.pairs}))


def validate_cut_options(suffix_length: int, min_prefix: int) -> None:
    """Raise :class:`InputError` unless both cutting options are in their ranges."""
    lo, hi = SUFFIX_LENGTH_RANGE
    if not lo <= suffix_length <= hi:
        raise InputError(f"the suffix length must be in {lo}..{hi}, got {suffix_length}")
    lo, hi = MIN_PREFIX_RANGE
    if not lo <= min_prefix <= hi:
        raise InputError(f"the minimal prefix length must be in {lo}..{hi}, got {min_prefix}")


def drop_plurals(words: Iterable[str]) -> list[str]:
    """Drop every word ``w`` ending in ``s`` whose ``w[:-1]`` is also in the list (the seed's
    rule, for English; other languages keep their words).

    Order is kept and duplicates are removed.

    Examples
    --------
    >>> drop_plurals(["cat", "cats", "bus", "is", "i"])
    ['cat', 'bus', 'i']
    """
    uniq = list(dict.fromkeys(words))
    present = set(uniq)
    return [w for w in uniq if not (w.endswith("s") and w[:-1] in present)]


def cut_words(
    words: Iterable[str],
    suffix_length: int = DEFAULT_SUFFIX_LENGTH,
    min_prefix: int = DEFAULT_MIN_PREFIX,
    source: str = "<words>",
    plurals: bool = False,
    lang: str = "en",
    fold: bool = False,
) -> GridTokens:
    """Cut every word once: suffix = last ``suffix_length`` letters, prefix = the rest.

    Parameters
    ----------
    words : iterable of str
        Words of letters of any script, in any case (normalised: NFC, lower case with the
        rules of ``lang``, see :mod:`cpwords.core.alphabet`); others raise.
    suffix_length : int
        Letters of a suffix token (1..8).
    min_prefix : int
        Minimal letters of a prefix token (1..8); shorter words are not cut.
    source : str
        Name for messages.
    plurals : bool
        Keep plural forms; by default English plurals are dropped with :func:`drop_plurals`
        (other languages keep every word: the rule is English).
    lang : str
        ISO 639-1 code of the words.
    fold : bool
        Fold accents (words that become equal are kept once).

    Returns
    -------
    GridTokens

    Raises
    ------
    InputError
        Options out of range, an entry that is not a word, or no word long enough.

    Examples
    --------
    >>> t = cut_words(["hello", "jello", "cats", "cat"], 2, 2)
    >>> t.pairs
    (('hel', 'lo'), ('jel', 'lo'))
    """
    validate_cut_options(suffix_length, min_prefix)
    ws = list(dict.fromkeys(normalize_word(w, lang, fold) for w in words))
    for w in ws:
        if not _TOKEN.fullmatch(w):
            raise InputError(f"{source}: {excerpt(w)!r} is not a word (letters only)")
    if not plurals and lang == "en":
        ws = drop_plurals(ws)
    pairs = sorted(
        {
            (w[:-suffix_length], w[-suffix_length:])
            for w in ws
            if len(w) >= suffix_length + min_prefix
        }
    )
    if not pairs:
        raise InputError(
            f"{source}: the lexicon is empty (no word has at least "
            f"{suffix_length + min_prefix} letters)"
        )
    return GridTokens(tuple(ws), tuple(pairs), suffix_length, min_prefix, source, lang)


def common_tokens(
    top: int = DEFAULT_TOP,
    suffix_length: int = DEFAULT_SUFFIX_LENGTH,
    min_prefix: int = DEFAULT_MIN_PREFIX,
    plurals: bool = False,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
) -> GridTokens:
    """Tokens of the ``top`` most common words of ``lang``'s dictionary
    (:func:`cpwords.core.languages.language_words`): what ``cpwords grid --top --lang`` reads.

    The dictionary says what is a word and wordfreq's Zipf values only rank them: English
    takes ``wamerican`` (Webster's 2nd, ``web2``, where it is not installed), another language
    its curated dictionary (``cpwords lexicons``), proper nouns left out unless ``proper``; a
    language without one keeps wordfreq's words of its main scripts. Plural forms are dropped
    (see :func:`drop_plurals`) unless ``plurals``.

    Parameters
    ----------
    top : int
        How many of the most common words.
    suffix_length, min_prefix : int
        The cut of each word: its last ``suffix_length`` letters are the suffix token, the
        rest (at least ``min_prefix`` letters) the prefix token.
    plurals : bool
        Keep plural forms.
    lang : str
        ISO 639-1 code.
    fold : bool
        Fold accents.
    proper : bool
        Keep the dictionary's proper nouns.

    Returns
    -------
    GridTokens
        Named after the list read (``wamerican top 500``).

    Raises
    ------
    InputError
        ``top`` not positive, cutting options out of range, no word long enough, unknown
        language, or its dictionary not installed (with the command that installs it).

    Examples
    --------
    >>> tokens = common_tokens(500)
    >>> tokens.source.split()[1:3]
    ['top', '500']
    """
    from cpwords.core.languages import language_source, language_words

    validate_cut_options(suffix_length, min_prefix)
    words = language_words(lang, top, fold, proper)
    name = language_source(lang, top, fold, proper)
    return cut_words(words, suffix_length, min_prefix, name, plurals, lang)


# --------------------------------------------------------------------------------------------
# Filled boards: words, checker, drawing
# --------------------------------------------------------------------------------------------


def board_words(board: Board, fill: Mapping[str, str]) -> list[str]:
    """The words spelled on the edges of ``fill``, in edge order (missing slots skipped)."""
    return [fill[p] + fill[s] for p, s in board.edges if p in fill and s in fill]


class CheckerLexicon(frozenset[str]):
    """A lexicon normalised once, for checking many boards against the same words.

    :func:`grid_problems` normalises the words it is given on every call (NFC, lower case);
    given a ``CheckerLexicon`` it uses the set as it is. Build one with :meth:`of`.

    Examples
    --------
    >>> lex = CheckerLexicon.of(["Hello", "JELLO"])
    >>> sorted(lex)
    ['hello', 'jello']
    """

    @classmethod
    def of(cls, words: Iterable[str]) -> CheckerLexicon:
        """The normalised set of ``words`` (as :func:`grid_problems` reads them).

        Parameters
        ----------
        words : iterable of str
            The lexicon, in any case and normal form.

        Returns
        -------
        CheckerLexicon
        """
        if isinstance(words, CheckerLexicon):
            return words
        return cls(normalize_word(w) for w in words)


def grid_problems(
    board: Board,
    fill: Mapping[str, str],
    words: Iterable[str],
    suffix_length: int = DEFAULT_SUFFIX_LENGTH,
    min_prefix: int = DEFAULT_MIN_PREFIX,
    partial: bool = False,
) -> list[str]:
    """Every rule a filled board breaks, as readable messages (empty when valid).

    Parameters
    ----------
    board : Board
    fill : mapping slot -> token
        The tokens on the board.
    words : iterable of str
        The lexicon the words must come from (a :class:`CheckerLexicon` is used as it is, so
        that checking many boards normalises the lexicon once).
    suffix_length, min_prefix : int
        The cutting rule.
    partial : bool
        Accept empty slots (check only what is filled).

    Returns
    -------
    list of str
        One message per broken rule.

    Examples
    --------
    >>> b = Board("tiny", ("s",), ("p", "q"), (("p", "s"), ("q", "s")))
    >>> grid_problems(b, {"s": "lo", "p": "hel", "q": "hel"}, ["hello"])
    ['prefix token hel is on 2 slots', 'word hello appears 2 times']
    """
    lex = CheckerLexicon.of(words)  # case does not matter, as on the command line
    fill = {v: normalize_word(t) for v, t in fill.items()}
    out: list[str] = []
    kinds = board.kinds
    for v in fill:
        if v not in kinds:
            out.append(f"unknown slot {v!r}")
    for v in board.slots:
        tok = fill.get(v)
        if tok is None:
            if not partial:
                out.append(f"slot {v} is empty")
            continue
        if not _TOKEN.fullmatch(tok):
            out.append(f"slot {v}: {tok!r} is not a token of letters")
        elif kinds[v] == "suffix" and len(tok) != suffix_length:
            out.append(f"suffix slot {v}: {tok!r} does not have {suffix_length} letters")
        elif kinds[v] == "prefix" and len(tok) < min_prefix:
            out.append(f"prefix slot {v}: {tok!r} has fewer than {min_prefix} letters")
    for kind, slots in (("prefix", board.prefix_slots), ("suffix", board.suffix_slots)):
        counts: dict[str, int] = {}
        for v in slots:
            if v in fill:
                counts[fill[v]] = counts.get(fill[v], 0) + 1
        out += [f"{kind} token {t} is on {c} slots" for t, c in counts.items() if c > 1]
    spelled: dict[str, int] = {}
    for p, s in board.edges:
        if p in fill and s in fill:
            w = fill[p] + fill[s]
            spelled[w] = spelled.get(w, 0) + 1
            if w not in lex:
                out.append(f"edge {p}-{s}: {w} is not a word of the lexicon")
    out += [f"word {w} appears {c} times" for w, c in spelled.items() if c > 1]
    return out


def is_valid_grid(
    board: Board,
    fill: Mapping[str, str],
    words: Iterable[str],
    suffix_length: int = DEFAULT_SUFFIX_LENGTH,
    min_prefix: int = DEFAULT_MIN_PREFIX,
) -> bool:
    """True when ``fill`` is a complete valid board (see :func:`grid_problems`)."""
    return not grid_problems(board, fill, words, suffix_length, min_prefix)


def parse_fill(
    text: str, source: str = "<fill>", lang: str | None = None, fold: bool = False
) -> dict[str, str]:
    """Parse a (partial) filled board: a JSON object slot -> token, or ``slot=token,...``.

    Raises
    ------
    InputError
        When the text is neither form, or a token is not letters (tokens are normalised with
        the rules of ``lang``, accents folded when ``fold``).

    Examples
    --------
    >>> parse_fill("s1=er, c=ov")
    {'s1': 'er', 'c': 'ov'}
    """
    text = text.lstrip("\ufeff").strip()  # a byte-order mark is accepted
    if not text:
        raise InputError(f"{source}: empty filled board (give slot=token,... or a JSON object)")
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{source}: not JSON (line {exc.lineno}: {exc.msg})") from None
        if isinstance(obj, dict) and isinstance(obj.get("board"), dict):
            obj = obj["board"]
        if not isinstance(obj, dict) or not all(isinstance(v, str) for v in obj.values()):
            raise InputError(f"{source}: a filled board maps slot names to tokens")
        items = list(obj.items())
    else:
        items = []
        for part in filter(None, (x.strip() for x in text.split(","))):
            if "=" not in part:
                raise InputError(f"{source}: {excerpt(part)!r} is not slot=token")
            k, _, v = part.partition("=")
            items.append((k.strip(), v.strip()))
    fill: dict[str, str] = {}
    for k, v in items:
        tok = normalize_word(v, lang, fold)
        if not _TOKEN.fullmatch(tok):
            raise InputError(
                f"{source}: token {excerpt(v)!r} of slot {excerpt(k)!r} is not letters"
            )
        fill[k] = tok
    return fill


def parse_suffixes(
    text: str, board: Board, lang: str | None = None, fold: bool = False
) -> tuple[str, ...]:
    """Parse ``"er,al,ly,on"`` into one suffix token per suffix slot, in the board's order.

    Raises
    ------
    InputError
        Wrong number of tokens or a token that is not letters.
    """
    toks = tuple(
        normalize_word(t.strip(), lang, fold)
        for t in re.split(r"[,\s]+", text.strip())
        if t.strip()
    )
    k = len(board.suffix_slots)
    if len(toks) != k:
        raise InputError(
            f"expected {k} suffixes (slots {', '.join(board.suffix_slots)}), got {len(toks)}"
        )
    for t in toks:
        if not _TOKEN.fullmatch(t):
            raise InputError(f"suffix {excerpt(t)!r} is not letters")
    return toks


def draw_grid(board: Board, fill: Mapping[str, str], mark_suffixes: bool = True) -> str:
    """A plain-text drawing of a (partially) filled board.

    Slots are placed by the board's ``layout``; suffix tokens are shown as ``-er`` and prefix
    tokens as ``ov-``; empty slots as ``.``. Without a layout, one line per suffix slot lists
    the words through it.

    Examples
    --------
    >>> b = Board("tiny", ("s",), ("p", "q"), (("p", "s"), ("q", "s")), {"p": (0, 0), "s": (0, 1),
    ...     "q": (0, 2)})
    >>> print(draw_grid(b, {"p": "hel", "s": "lo", "q": "jel"}))
    hel-  -lo   jel-
    """
    kinds = board.kinds

    def label(v: str) -> str:
        tok = fill.get(v)
        if tok is None:
            return "."
        if not mark_suffixes:
            return tok
        return f"-{tok}" if kinds[v] == "suffix" else f"{tok}-"

    if board.layout and all(v in board.layout for v in board.slots):
        rows = 1 + max(r for r, _ in board.layout.values())
        cols = 1 + max(c for _, c in board.layout.values())
        width = max(len(label(v)) for v in board.slots)
        grid = [[""] * cols for _ in range(rows)]
        for v, (r, c) in board.layout.items():
            grid[r][c] = label(v)
        lines = ["  ".join(cell.center(width) for cell in row).rstrip() for row in grid]
        # Strip the common left margin so narrow boards do not float right.
        margin = min(len(x) - len(x.lstrip()) for x in lines if x.strip())
        return "\n".join(x[margin:] for x in lines)
    out = []
    for s in board.suffix_slots:
        ws = [f"{label(p)}{label(s)}" for p in board.neighbours(s)]
        out.append(f"{s}: " + " ".join(ws))
    return "\n".join(out)


def board_and_tokens(spec: Mapping[str, Any], base_dir: Path) -> tuple[Board, GridTokens]:
    """The board and the tokens of one instance table (a study suite's ``[[instances]]``).

    Parameters
    ----------
    spec : mapping
        ``top`` (int, the most frequent words kept), and optionally ``board`` (a board file,
        relative to ``base_dir``), ``suffix_length``, ``min_prefix``, ``plurals``, ``lang`` and
        ``fold`` (as :func:`common_tokens` takes them).
    base_dir : Path
        The folder relative paths are read from.

    Returns
    -------
    (Board, GridTokens)

    Raises
    ------
    InputError
        Without an integer ``top``, or with a board file that cannot be read.
    """
    if "top" not in spec or not isinstance(spec["top"], int):
        raise InputError("a grid instance needs an integer 'top' (most frequent words)")
    keys = ("suffix_length", "min_prefix", "plurals", "lang", "fold")
    kwargs = {k: spec[k] for k in keys if k in spec}
    tokens = common_tokens(int(spec["top"]), **kwargs)
    if "board" in spec:
        return load_board(resolve_path(str(spec["board"]), base_dir)), tokens
    return default_board(), tokens
