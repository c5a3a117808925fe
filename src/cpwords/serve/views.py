"""What the Letterpress, Truncate and grid pages show, from the public API and the renderers.

Each ``*_view`` function validates a page's query (the CLI's rules and one-line messages, as
:class:`~cpwords.core.errors.InputError`), calls the same functions a Python user calls, and
returns the template's context, drawings included. They block (the app runs them in its thread
pool) and share the dictionaries through a :class:`Lexicons` cache.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import cpwords
from cpwords.core.dictionaries import english_common_words, has_dictionary
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, lexicon_from_words, parse_word_lines
from cpwords.core.rows import result_row
from cpwords.core.sources import lexicon_names, lexicon_words, read_dictionary

if TYPE_CHECKING:  # the pages import the wings only when a page asks for them
    from cpwords.letterpress.models.index import LetterpressIndex
    from cpwords.letterpress.rules import LetterpressBoard

T = TypeVar("T")

#: Dictionaries a page may offer: name (as suites name them) -> label. The game lists and
#: ENABLE ship with cpwords; the curated ones (``dict:LANG``) are offered where cpwords knows
#: them (a missing one's error names its install command). ``english:N`` is the puzzles'
#: English default (:func:`cpwords.core.dictionaries.english_common_words`); wordfreq's lists
#: stay available by name, labelled as what they are.
DICTIONARIES = {
    "english:100000": "English: the 100,000 most common words of wamerican (web2 without it)",
    "web2": "Webster's 2nd (web2, english-words)",
    "dict:fr": "French: wfrench",
    "dict:de": "German: wngerman",
    "dict:es": "Spanish: wspanish",
    "dict:it": "Italian: witalian",
    "dict:pt": "Portuguese: wportuguese",
    "dict:nl": "Dutch: wdutch",
    "dict:sv": "Swedish: wswedish",
    "dict:pl": "Polish: wpolish",
    "dict:ru": "Russian: hunspell-ru",
    "wordfreq:100000": "wordfreq's 100,000 most frequent English tokens (names included)",
    "wordfreq:10000": "wordfreq's 10,000 most frequent English tokens",
    "wordfreq:1000": "wordfreq's 1,000 most frequent English tokens",
    "enable1": "ENABLE (enable1, public domain)",
    "letterpress": "Letterpress: the game's own word list",
    "truncate": "Truncate: the game's own dictionary",
}

#: The English lists of :data:`DICTIONARIES` (read as a-z; the others keep their letters).
ENGLISH = {"english:100000", "web2", "wordfreq:100000", "wordfreq:10000", "wordfreq:1000",
           "enable1", "letterpress", "truncate"}  # fmt: skip

#: The Letterpress and Truncate pages' default dictionaries: the games' own lists, as on the
#: command line (:data:`cpwords.letterpress.models.index.DEFAULT_DICTIONARY`,
#: :data:`cpwords.truncate.spec.DEFAULT_DICTIONARY`).
LETTERPRESS_DEFAULT, TRUNCATE_DEFAULT = "letterpress", "truncate"

#: Longest time a page's solve may take (seconds).
PAGE_TIME_LIMIT = 20.0


def dictionary_choices() -> list[tuple[str, str]]:
    """The dictionaries available here, as (name, label).

    Returns
    -------
    list of (str, str)
        The lists shipped with cpwords or its dependencies always; a curated dictionary
        where cpwords knows it.
    """
    out = []
    for name, label in DICTIONARIES.items():
        if name.startswith("dict:") and not has_dictionary(name.split(":", 1)[1]):
            continue
        out.append((name, label))
    return out


def check_dictionary(name: str) -> str:
    """The dictionary's name, or the one-line error listing the choices: a page's choice, or
    a name ``cpwords lexicons`` lists (``wbritish``, ``gcide``: as ``--dict NAME``).

    Raises
    ------
    InputError
        ``name`` is not offered here.
    """
    names = [n for n, _ in dictionary_choices()]
    if name not in names and name not in lexicon_names():
        raise InputError(f"unknown dictionary {name!r}: choose from {', '.join(names)}")
    return name


class Lexicons:
    """Dictionaries and what is built from them, built once per server (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[tuple[str, str], Any] = {}

    def once(self, kind: str, name: str, make: Callable[[], T]) -> T:
        """The ``kind`` structure of dictionary ``name``, made by ``make`` once."""
        with self._lock:
            key = (kind, name)
            if key not in self._items:
                self._items[key] = make()
            return self._items[key]

    def get(self, kind: str, name: str, build: Callable[[Lexicon], T]) -> T:
        """The ``kind`` structure of dictionary ``name`` (``build`` runs once)."""
        with self._lock:
            key = (kind, name)
            if key not in self._items:
                # The other languages keep their accented words; the English lists keep a-z,
                # as the CLI's English lexicons do.
                english = name in ENGLISH
                lex = lexicon_from_words(
                    _words(check_dictionary(name)), name, alphabet="a-z" if english else "any"
                )
                self._items[key] = build(lex)
            return self._items[key]


def page_lexicon(name: str) -> Lexicon:
    """Dictionary ``name`` of a page as the command line's ``--dict NAME`` reads it
    (:func:`cpwords.core.sources.read_dictionary`; a name only, never a file of the server's
    folder). ``english:N`` is ``lang:en:N``, the English default's ``N`` most common words.

    Raises
    ------
    InputError
        ``name`` is not offered here, or its dictionary is not installed.
    """
    check_dictionary(name)
    if name.startswith("english:"):
        name = "lang:en:" + name.split(":")[1]
    return read_dictionary(name, files=False)


def _words(name: str) -> list[str]:
    """The words of dictionary ``name`` (``english:N``: the English default's ``N``)."""
    if name.startswith("english:"):
        return english_common_words(int(name.split(":")[1]))[0]
    return list(lexicon_words(name))


def as_json(view: Mapping[str, Any]) -> dict[str, Any]:
    """A view's context as JSON-ready values (the ``/api/...`` answers).

    The board object is left out (its name is kept); a grid puzzle's difficulty becomes its
    ``to_dict()``; tuples become lists.

    Examples
    --------
    >>> as_json({"by_length": [(3, ["cat"])], "opts": {"top": 10}})
    {'by_length': [[3, ['cat']]], 'opts': {'top': 10}}
    """
    out: dict[str, Any] = {}
    for key, value in view.items():
        if key == "board":
            out["board"] = value.name
        elif key == "unique" and value is not None:
            out[key] = [
                {**p, "difficulty": p["difficulty"].to_dict() if p["difficulty"] else None}
                for p in value
            ]
        else:
            out[key] = _plain(value)
    return out


def command_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A command's ``--json`` row as plain JSON values, as the command prints it.

    Parameters
    ----------
    row : mapping
        A mode's row (:func:`cpwords.chain.spec.chain_row`, ...).

    Returns
    -------
    dict
        A new dict: non-finite numbers as None, objects as their ``to_dict()`` (a certificate's
        summary), tuples as lists.

    Examples
    --------
    >>> command_row({"gap": float("inf"), "solution": ("a", "b")})
    {'gap': None, 'solution': ['a', 'b']}
    """
    from cpwords.core.result import _json_default, json_safe

    plain = json.loads(json.dumps(json_safe(dict(row)), default=_json_default, allow_nan=False))
    assert isinstance(plain, dict)
    return plain


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v) for v in value]
    return value


def _flag(q: Mapping[str, str], key: str) -> bool:
    return q.get(key, "") in ("1", "on", "true")


def _int(text: str, name: str, low: int, high: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"{name} must be a whole number, got {text!r}") from None
    if value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"from {low} to {high}"
        raise InputError(f"{name} must be {span}, got {value}")
    return value


# ---- Letterpress ------------------------------------------------------------------------------


def letterpress_costly(q: Mapping[str, str]) -> bool:
    """Whether the Letterpress query asks for the best move (a CP-SAT solve of up to 20 s)."""
    return bool(q.get("colours", "").strip())


def letterpress_view(
    lexicons: Lexicons, q: Mapping[str, str], solve: bool = True
) -> dict[str, Any]:
    """The words a bag spells; with colours, the best move drawn on the board.

    Query keys: ``letters`` (the bag, or the 25 board letters, ``/`` allowed), ``colours``
    (optional, 25 of ``b r .``), ``dict``, ``played`` (words, spaces or commas between),
    ``word`` (a listed word to draw), ``lookahead`` (``1``: the move that leaves the opponent
    the weakest best reply, that reply and the net shown as ``reply_lines``, the lines of
    ``cpwords letterpress --board --lookahead 1``). With ``solve`` False the board is checked
    and drawn but its best move is left for later (``pending``).

    Raises
    ------
    InputError
        The CLI's messages for bad letters, colours, dictionary or word.
    """
    from cpwords.letterpress.draw import bag_svg, board_svg, spell_tiles
    from cpwords.letterpress.models.index import load_letterpress_index
    from cpwords.letterpress.rules import parse_board, parse_letters
    from cpwords.letterpress.spec import letterpress_words, letterpress_words_row

    name = q.get("dict") or LETTERPRESS_DEFAULT
    letters = q.get("letters", "")
    colours = q.get("colours", "").strip()
    index = lexicons.once("letterpress", name, lambda: load_letterpress_index(page_lexicon(name)))
    bag = parse_letters("".join(letters.split()).replace("/", ""))
    listing = letterpress_words(index, bag, longest_first=True)  # as the command lists
    words: list[str] = listing.solution
    by_length: dict[int, list[str]] = {}
    for w in words:
        by_length.setdefault(len(w), []).append(w)
    out: dict[str, Any] = {
        "bag": bag,
        "count": len(words),
        "by_length": sorted(by_length.items(), reverse=True),
        "lexicon": index.source,
        "lexicon_size": index.n,
        "list_time": listing.wall_time,
        "verified": listing.verified,
        "move": None,
        "row": letterpress_words_row(listing),  # as cpwords letterpress BAG --longest-first --json
    }
    word = q.get("word", "").strip().lower() or None
    if word is not None and word not in set(words):
        raise InputError(f"{word!r} is not a word the bag spells in {index.source}")
    if not colours:
        shown = word or (words[0] if words else None)
        out |= {"shown": shown, "svg": bag_svg(bag, shown)}
        return out
    board = parse_board(letters, colours)
    played = [w for w in q.get("played", "").replace(",", " ").split() if w]
    if not solve:
        tiles = spell_tiles(word, board.letters) if word is not None else ()
        out |= {
            "pending": True,
            "shown": word,
            "svg": board_svg(board, tiles, word=word),
            "colours": "".join(colours.split()).replace("/", ""),
            "played": " ".join(played),
            "svg_after": None,
        }
        return out
    lookahead = _int(q.get("lookahead") or "0", "lookahead", 0, 1)
    out |= _best_move_view(board, index, played, lookahead, colours, word)
    return out


def _best_move_view(
    board: LetterpressBoard,
    index: LetterpressIndex,
    played: list[str],
    lookahead: int,
    colours: str,
    word: str | None,
) -> dict[str, Any]:
    """The best move part of :func:`letterpress_view`: the move (with the opponent's best reply
    when ``lookahead``), its status, and the board drawn with it, or with ``word`` when one of
    the listed words is asked for."""
    from cpwords.letterpress.board_spec import letterpress_move, reply_lines
    from cpwords.letterpress.draw import board_svg, spell_tiles

    res = letterpress_move(
        board, index, played, lookahead=lookahead, time_limit=PAGE_TIME_LIMIT, workers=1
    )
    move = res.solution
    out: dict[str, Any] = {"move": None if move is None else move.to_dict()}
    # One ply ahead: the opponent's best reply and the net, as --lookahead 1 prints them.
    out["reply_lines"] = reply_lines(res) if lookahead and move is not None else []
    out |= {
        "status": res.status.value,
        "proven": res.status is cpwords.Status.OPTIMAL,
        "move_time": res.wall_time,
        "candidates": res.solver_info.get("candidates"),
        "colours": "".join(colours.split()).replace("/", ""),
        "played": " ".join(played),
        "move_verified": res.verified,
    }
    if word is not None:  # a listed word drawn on the board instead of the best move
        tiles = spell_tiles(word, board.letters)
        out |= {"shown": word, "svg": board_svg(board, tiles, word=word)}
        out["svg_after"] = board_svg(board, tiles, word=word, after=True)
    elif move is not None:
        out |= {"shown": move.word, "svg": board_svg(board, move.tiles, word=move.word)}
        out["svg_after"] = board_svg(board, move.tiles, word=move.word, after=True)
    else:
        out |= {"shown": None, "svg": board_svg(board), "svg_after": None}
    return out


# ---- Truncate ---------------------------------------------------------------------------------


#: Longest sequences listed on the page (the count is exact whatever it is).
TRUNCATE_LISTED = 50


def truncate_view(lexicons: Lexicons, q: Mapping[str, str]) -> dict[str, Any]:
    """The longest chains from or to a word (or anywhere), the picked one drawn as a ladder;
    from a word, where the player stands: whether it is a dead end, else its next plays
    (``from_lines``, the lines of ``cpwords truncate --from WORD``).

    Query keys: ``word`` (empty: any chain), ``direction`` (``from`` or ``to``), ``dict``,
    ``pick`` (which listed chain to draw).

    Raises
    ------
    InputError
        The CLI's messages (a word not in the dictionary, ...).
    """
    from cpwords.truncate.draw import ladder_svg
    from cpwords.truncate.models.dp import truncate_dag
    from cpwords.truncate.spec import continuation_lines, truncate_query, truncate_row

    name = q.get("dict") or TRUNCATE_DEFAULT
    word = q.get("word", "").strip().lower() or None
    direction = q.get("direction") or "from"
    if direction not in ("from", "to"):
        raise InputError(f"direction must be 'from' or 'to', got {direction!r}")
    lex = lexicons.once("truncate-lexicon", name, lambda: page_lexicon(name))
    dag = lexicons.once("truncate", name, lambda: truncate_dag(lex))
    starting, ending = (word, None) if direction == "from" else (None, word)
    res = truncate_query(  # from a word: where the player stands, as cpwords truncate --from
        dag,
        ending=ending,
        from_word=starting,
        all_sequences=True,
        max_sequences=TRUNCATE_LISTED,
        time_limit=PAGE_TIME_LIMIT,
    )
    sol = res.solution
    out: dict[str, Any] = {
        "word": word or "",
        "direction": direction,
        "status": res.status.value,
        "wall_time": res.wall_time,
        "verified": res.verified,
        "lexicon": name,
        "lexicon_size": dag.n,
        "sequence": None,
        "svg": None,
        "row": truncate_row(res, lex),  # as cpwords truncate --all --limit 50 --json
        "from_lines": continuation_lines(res.solver_info) if "from" in res.solver_info else [],
    }
    if sol is None:
        out["no_answer"] = (
            f"no Truncate sequence {'starts' if direction == 'from' else 'ends'} at {word!r}"
        )
        return out
    listed = [list(s) for s in (sol.sequences or (sol.sequence,))]
    pick = _int(q.get("pick") or "0", "pick", 0)
    if pick >= len(listed):
        raise InputError(f"pick must be below {len(listed)}, got {pick}")
    chain = listed[pick]
    out |= {
        "sequence": chain,
        "length": len(chain),
        "count": sol.count,
        "listed": listed,
        "pick": pick,
        "svg": ladder_svg(chain),
    }
    return out


# ---- Word chains ------------------------------------------------------------------------------

#: Words of a proven chain listed on the page (the drawing shows the first 300).
CHAIN_LISTED = 500


def _words_or_dictionary(q: Mapping[str, str], page: str, lexicons: Lexicons) -> tuple[str, Any]:
    """The list a page solves: the pasted ``words`` or the dictionary ``dict`` (exactly one),
    as ``(dictionary name or "", words)``; :class:`InputError` for both or neither, or a bad
    pasted list."""
    name, pasted = q.get("dict", "").strip(), q.get("words", "").strip()
    if bool(name) == bool(pasted):
        raise InputError("give the words or pick a dictionary, not both")
    if pasted:
        return name, parse_word_lines(pasted, "the list")
    return name, lexicons.get(page, name, lambda lex: lex.words)


def chain_costly(q: Mapping[str, str]) -> bool:
    """Every chain query solves a MIP (seconds on a whole dictionary): POST only."""
    return bool(q.get("dict") or q.get("words"))


def chain_view(lexicons: Lexicons, q: Mapping[str, str], solve: bool = True) -> dict[str, Any]:
    """The longest chain of a dictionary or of pasted words, proven and drawn.

    Query keys: ``dict`` (a dictionary name) or ``words`` (one a line), ``k`` (1-3, the
    letters each link shares), ``maximise`` (``words`` or ``letters``), ``start``, ``end``.

    Raises
    ------
    InputError
        The CLI's messages (a fixed word not in the list, a bad ``k``, both or neither of
        ``dict`` and ``words``).
    """
    from cpwords.chain.draw import chain_svg
    from cpwords.chain.spec import chain_instance, chain_row, solve_chain

    k = _int(q.get("k") or "1", "k", 1, 3)
    maximise = q.get("maximise") or "words"
    name, words = _words_or_dictionary(q, "chain", lexicons)
    ends = [(q.get(key) or "").strip().lower() or None for key in ("start", "end")]
    instance = chain_instance(words, k, maximise, ends[0], ends[1], name or "the list")
    out: dict[str, Any] = {
        "k": k,
        "maximise": maximise,
        "lexicon": name or "the list",
        "lexicon_size": len(instance.words),
        "svg": None,
    }
    if not solve:
        return out | {"pending": True}
    res = solve_chain(instance, time_limit=PAGE_TIME_LIMIT)
    chain = list(res.solution or ())
    row = result_row(res.to_dict(solution=chain or None))
    row.pop("solver_info", None)
    row.pop("trace", None)
    shown: dict[str, Any] = {
        "chain": chain[:CHAIN_LISTED],
        "words": len(chain),
        "letters": sum(map(len, chain)),
        "svg": chain_svg(chain, k, note=res.status.value) if chain else None,
        "row": command_row(chain_row(res, instance)),  # as cpwords chain FILE --json
    }
    return row | out | shown


# ---- Shortest superstrings ---------------------------------------------------------------------

#: Letters of a proven superstring shown on the page (the drawing shows its own start).
SUPERSTRING_SHOWN = 5000


def superstring_costly(q: Mapping[str, str]) -> bool:
    """Every superstring query runs the exact method (seconds on a whole dictionary): POST
    only."""
    return bool(q.get("dict") or q.get("words"))


def superstring_view(
    lexicons: Lexicons, q: Mapping[str, str], solve: bool = True
) -> dict[str, Any]:
    """The shortest superstring of a dictionary or of pasted words, proven and drawn.

    Query keys: ``dict`` (a dictionary name) or ``words`` (one a line).

    Raises
    ------
    InputError
        The CLI's messages (a bad list; both or neither of ``dict`` and ``words``).
    """
    from cpwords.superstring.draw import superstring_svg
    from cpwords.superstring.rules import superstring_instance
    from cpwords.superstring.spec import solve_superstring, superstring_row

    name, words = _words_or_dictionary(q, "superstring", lexicons)
    instance = superstring_instance(words, name or "the list")
    out: dict[str, Any] = {
        "lexicon": name or "the list",
        "lexicon_size": len(instance.words),
        "svg": None,
    }
    if not solve:
        return out | {"pending": True}
    res = solve_superstring(instance, time_limit=PAGE_TIME_LIMIT, workers=1)
    found = res.solution
    text = found.text if found is not None else ""
    row = result_row(res.to_dict(solution=text or None))
    info = res.solver_info
    row.pop("solver_info", None)
    row.pop("trace", None)
    svg = None
    if found is not None:
        svg = superstring_svg(
            instance.words, found, note=res.status.value, contained=info.get("contained")
        )
    shown: dict[str, Any] = {
        "superstring": text[:SUPERSTRING_SHOWN],
        "length": len(text),
        "kept": info.get("kept"),
        "contained": info.get("contained"),
        "proof": info.get("proof"),
        "svg": svg,
        "row": command_row(superstring_row(res, instance)),  # as cpwords superstring FILE --json
    }
    return row | out | shown


# ---- Grid -------------------------------------------------------------------------------------


def grid_tokens_options(q: Mapping[str, str]) -> dict[str, Any]:
    """The lexicon options of the grid page (``grid``'s --top, -L, -P, --plurals, --lang)."""
    from cpwords.core.lexicon import check_lang
    from cpwords.grid.rules import DEFAULT_MIN_PREFIX, DEFAULT_SUFFIX_LENGTH, DEFAULT_TOP

    return {
        "top": _int(q.get("top") or str(DEFAULT_TOP), "the most common words", 1, 200_000),
        "suffix_length": _int(q.get("L") or str(DEFAULT_SUFFIX_LENGTH), "the suffix length", 1, 8),
        "min_prefix": _int(
            q.get("P") or str(DEFAULT_MIN_PREFIX), "the prefix ('prefix at least')", 1, 8
        ),
        "plurals": _flag(q, "plurals"),
        "lang": check_lang((q.get("lang") or "en").strip().lower()),
    }


@functools.lru_cache(maxsize=8)
def _blocklist(lang: str = "en") -> Any:
    """The default blocklist of language ``lang`` (the page's language)."""
    from cpwords.core.blocklist import load_blocklist

    return load_blocklist(None, enabled=True, lang=lang)


@functools.lru_cache(maxsize=6)
def grid_tokens(
    top: int,
    suffix_length: int,
    min_prefix: int,
    plurals: bool,
    unblocked: bool = False,
    lang: str = "en",
) -> Any:
    """The tokens of the ``top`` most common words of ``lang`` (its dictionary's, ranked by
    wordfreq; wordfreq's own list for a language without one), as ``cpwords grid --top
    --lang`` cuts them.

    With ``unblocked``, the default blocklist's words are left out first (what ``grid
    --solve`` fills boards from).

    Raises
    ------
    InputError
        Cutting options out of range, or no word long enough.
    """
    from cpwords.core.languages import language_source, language_words
    from cpwords.grid.rules import common_tokens, cut_words, validate_cut_options

    if not unblocked:
        return common_tokens(top, suffix_length, min_prefix, plurals, lang)
    validate_cut_options(suffix_length, min_prefix)
    words = list(language_words(lang, top))
    kept = [w for w in words if not _blocklist(lang).blocks(w)]
    source = language_source(lang, top) + (
        f" less {len(words) - len(kept)} blocked words" if len(kept) < len(words) else ""
    )
    return cut_words(kept, suffix_length, min_prefix, source, plurals, lang)


def grid_form(q: Mapping[str, str]) -> dict[str, Any]:
    """What the grid page's form shows back, even when the query is wrong (never raises)."""
    from cpwords.grid.rules import default_board

    board = default_board()
    try:
        opts = grid_tokens_options(q)
    except InputError:
        opts = grid_tokens_options({})
    fill = {v: q.get(f"t_{v}", "").strip() for v in board.slots if q.get(f"t_{v}", "").strip()}
    return {"board": board, "opts": opts, "fill": fill}


def grid_costly(q: Mapping[str, str]) -> bool:
    """Whether the grid query asks for a completion or a design (a solve of up to 20 s)."""
    return q.get("action", "") in ("solve", "unique")


def grid_view(q: Mapping[str, str], solve: bool = True) -> dict[str, Any]:
    """The board with its slots; a hand fill checked or completed; the unique puzzles.

    Query keys: the lexicon options (``top``, ``L``, ``P``, ``plurals``), one ``t_SLOT`` per
    filled slot, ``action`` (``check``, ``solve`` or ``unique``). With ``solve`` False, a
    completion or a design is left for later (``pending`` names it) and the board is drawn.

    Raises
    ------
    InputError
        The CLI's messages for bad tokens or options.
    """
    from cpwords.grid.draw import grid_svg, problem_marks
    from cpwords.grid.modes import check_grid
    from cpwords.grid.rules import default_board, parse_fill

    board = default_board()
    opts = grid_tokens_options(q)
    placed = {v: q.get(f"t_{v}", "").strip() for v in board.slots}
    text = ",".join(f"{v}={t}" for v, t in placed.items() if t)
    fill = parse_fill(text, "the board") if text else {}
    action = q.get("action", "")
    out: dict[str, Any] = {
        "board": board,
        "opts": opts,
        "fill": fill,
        "action": action,
        "problems": None,
        "unique": None,
    }
    if action not in ("", "check", "solve", "unique"):
        raise InputError(f"unknown action {action[:40]!r}: check, solve or unique")
    if not solve and grid_costly(q):
        out |= {"pending": action, "action": ""}
        action = ""
    if action:
        tokens = grid_tokens(**opts)
        out |= {"lexicon": tokens.source, "lexicon_size": len(tokens.words)}
    conflict: set[str] = set()  # the slots of an unfillable board that conflict
    if action == "check":  # as grid --check
        problems = check_grid(board, tokens, fill)
        out["problems"] = problems
        out["valid"] = not problems
    elif action == "solve":
        out |= _grid_solve(board, opts, tokens, fill)
        fill = out["fill"]
        conflict = set(out["conflict"]["slots"]) if "conflict" in out else set()
    elif action == "unique":
        out |= _grid_unique(board, tokens, opts)
    bad_edges, bad_slots = problem_marks(
        board,
        fill,
        set(tokens.words) if action else set(),
        opts["suffix_length"],
        opts["min_prefix"],
    )
    if not action:  # nothing checked yet: no word is called wrong
        bad_edges = set()
    bad_slots = set(bad_slots) | conflict
    out["words"] = [
        (p, s, fill[p] + fill[s], (p, s) in bad_edges)
        for p, s in board.edges
        if p in fill and s in fill
    ]
    out["svg"] = grid_svg(board, fill, bad_edges=bad_edges, bad_slots=bad_slots)
    return out


def _grid_solve(
    board: Any, opts: Mapping[str, Any], tokens: Any, fill: Mapping[str, str]
) -> dict[str, Any]:
    """The grid page's completion, as grid --solve (:func:`cpwords.grid.spec.complete_board`):
    filled from the lexicon less its blocked words; when only blocked words complete the board,
    one completion from the whole lexicon, with a warning; an unfillable board's conflicting
    slots (``conflict``)."""
    from cpwords.grid.spec import complete_board

    done = complete_board(
        board,
        grid_tokens(**opts, unblocked=True),
        fill,
        tokens,
        _blocklist(opts["lang"]),
        time_left=lambda: PAGE_TIME_LIMIT,
        workers=1,
    )
    res = done.result
    out: dict[str, Any] = {
        "status": res.status.value,
        "wall_time": res.wall_time,
        "verified": res.verified,
        "fill": dict(fill),
    }
    if res.solution is not None:
        out["solved_from"] = dict(fill)
        out["fill"] = dict(res.solution)
        out["blocked"] = done.every_completion_blocked
    else:
        out["no_answer"] = f"no completion of {len(fill)} placed tokens ({res.status.value})"
        if done.conflict is not None:  # as grid --solve: what conflicts
            out["conflict"] = _grid_conflict(done.conflict)
    return out


def _grid_conflict(c: Any) -> dict[str, Any]:
    """The conflicting slots of an unfillable board (:func:`cpwords.grid_conflict`): each with
    its placed token or None, whether the set is proven minimal, why it stopped."""
    return {
        "slots": list(c.slots),
        "tokens": [(v, c.placed.get(v)) for v in c.slots],
        "minimal": c.minimal,
        "stopped": c.stopped,
        "wall_time": c.wall_time,
    }


def _grid_unique(board: Any, tokens: Any, opts: Mapping[str, Any]) -> dict[str, Any]:
    """The unique puzzles, as grid --unique (:func:`cpwords.grid.spec.unique_grid_puzzles`):
    those whose answer shows a blocked word withheld; ``row``, what ``cpwords grid --top N -L
    L -P P --unique --json`` prints (:func:`cpwords.grid.modes.grid_unique_row`)."""
    from cpwords.grid.modes import GridGame, grid_unique_row
    from cpwords.grid.spec import GridLexicon, unique_grid_puzzles
    from cpwords.grid.symmetry import board_symmetry

    source = GridLexicon(
        top=opts["top"],
        suffix_length=opts["suffix_length"],
        min_prefix=opts["min_prefix"],
        plurals=opts["plurals"],
        lang=opts["lang"],
    )
    game = GridGame(board, tokens, board_symmetry(board, True), source, _blocklist(opts["lang"]))
    u = unique_grid_puzzles(
        board, tokens, game.symmetry, time_limit=PAGE_TIME_LIMIT, block=game.block
    )
    d, uniq = u.design, u.unique
    return {
        "unique": [
            {
                "suffixes": list(p.suffixes),
                "difficulty": p.difficulty,
                "fill": dict(zip(board.suffix_slots, p.suffixes, strict=True)),
                "example": p.example,
            }
            for p in uniq
        ],
        "classes": len(d.puzzles),
        "withheld": u.withheld,
        "complete": d.complete,
        "design_time": d.wall_time,
        "row": command_row(grid_unique_row(game, u)),
    }
