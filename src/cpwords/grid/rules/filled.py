"""The grid's filled boards: the words they spell, the independent checker, the parsing of a
fill and of a puzzle's suffixes, and a plain-text drawing.

The checker (:func:`grid_problems`) recomputes every rule from the strings and the lexicon's word
set; it shares no code with the models.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping

from cpwords.core.alphabet import normalize_word
from cpwords.core.errors import InputError, excerpt
from cpwords.grid.rules.boards import Board
from cpwords.grid.rules.tokens import DEFAULT_MIN_PREFIX, DEFAULT_SUFFIX_LENGTH, is_token


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
        if not is_token(tok):
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
        if not is_token(tok):
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
        if not is_token(t):
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
