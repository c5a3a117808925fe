"""``cpwords letterpress``: every dictionary word a bag of letters can spell."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from cpwords.cli._common import (
    CURATED,
    EPILOG,
    LETTERPRESS_LIST,
    Deadline,
    echo_json,
    exit_status,
    force_option,
    lang_options,
    progress,
    reject_unused,
    shared_options,
    time_guard,
)
from cpwords.cli._svg import check_svg_target, png_option, puzzle_option, svg_option, write_svg
from cpwords.core.result import counted

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from cpwords.core.result import SolveResult
    from cpwords.letterpress.models.index import LetterpressIndex
    from cpwords.letterpress.rules import LetterpressBoard


@click.command("letterpress", epilog=EPILOG)
@click.argument("letters", required=False)
@click.option(
    "--min-length",
    type=click.IntRange(min=1),
    metavar="N",
    default=1,
    show_default=True,
    help="Shortest word to list, in letters.",
)
@click.option("--longest-first", is_flag=True, help="Longest words first (default: shortest).")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the index cache ($CPWORDS_CACHE_DIR or the user cache dir).",
)
@click.option(
    "--board",
    "colours",
    metavar="COLOURS",
    default=None,
    help="Best-move mode: LETTERS are the 25 board letters (row-major, '/' allowed) and "
    "COLOURS their owners: b = mine (blue, to move), r = opponent (red), . = neutral. Finds "
    "the word and tiles maximising the score swing (CP-SAT), ties broken by defended tiles.",
)
@click.option("--played", multiple=True, metavar="WORD", help="With --board: already played.")
@click.option(
    "--lookahead",
    type=click.IntRange(0, 1),
    default=0,
    show_default=True,
    metavar="N",
    help="With --board: 1 picks the move that maximises its swing minus the opponent's best "
    "reply swing (one ply ahead; exact over every move, OPTIMAL when the search finished); 0 "
    "the largest swing.",
)
@click.option(
    "--random-board",
    is_flag=True,
    help="Draw the 25 letters instead of giving LETTERS: each tile by the dictionary's own "
    "letter frequencies (--seed; the dictionary of --dict, --lang and --fold-accents), then "
    "list their words (with --board: the best move on them).",
)
@svg_option("the board with the best move (without --board: the bag, its longest word)")
@png_option("the board (or the bag)")
@puzzle_option("the board with no move (without --board: the bag, no word)")
@force_option()
@lang_options(f"the default dictionary (English: the game's own list, letterpress; {CURATED})")
@shared_options(dictionary=LETTERPRESS_LIST, limit="all", time_limit=20.0, workers=2, seed=True)
def letterpress(**options: Any) -> None:
    """Find every word some letters spell, or the best move.

    LETTERS is the bag (e.g. the 25 letters of a Letterpress board), each letter usable as
    often as it appears; words are listed by length, then alphabetically. The dictionary's
    bitset index is built once and cached on disk, keyed by a hash of its content (see
    cpwords cache). --board COLOURS finds the best move on the position instead (CP-SAT).
    --random-board draws the 25 letters (no LETTERS) by the dictionary's letter frequencies:
    the same --seed and dictionary give the same board. --svg/--png draw the move (a listing:
    the bag and its longest word); with --puzzle, the puzzle to hand out, no move or word.

    JSON, beyond the conventions below: solution (the words), count, returned, complete
    (the listing is exhaustive), letters, lexicon, lexicon_size, lang, fold_accents, index,
    random_board, seed (the board's seed, null for given LETTERS); with --board, solution is
    the move and word its word. Letters are of any script (--lang picks the language's word
    list).
    """
    from cpwords.core.errors import InputError
    from cpwords.core.lexicon import check_language_code

    a = _Args(**options)
    ctx = click.get_current_context()
    deadline = Deadline(a.time_limit)
    if a.random_board and a.letters is not None:
        raise InputError("give LETTERS or --random-board, not both")
    if not a.random_board and a.letters is None:
        raise InputError("give LETTERS (the bag or the board's letters) or --random-board")
    check_svg_target(a.svg_path, a.force, a.png_path, a.puzzle)
    check_language_code(a.lang)
    if a.colours is not None:
        reject_unused(
            ctx,
            "with --board",
            {"min_length": "--min-length", "limit": "--limit", "longest_first": "--longest-first"},
        )
        _board_mode(a, a.colours, deadline)
        return
    reject_unused(
        ctx,
        "without --board (a word listing)",
        {"played": "--played", "workers": "--workers", "lookahead": "--lookahead"},
    )
    if not a.random_board:
        reject_unused(ctx, "without --board or --random-board", {"seed": "--seed"})
    res = _list_words(a, deadline)
    words: list[str] = res.solution
    count = int(res.objective or 0)
    if a.svg_path is not None or a.png_path is not None:
        _bag_picture(a, res.solver_info["letters"], words, count)
    # An exhaustive listing that found nothing is a proven "none" (INFEASIBLE, exit 1).
    if a.as_json:
        from cpwords.letterpress.spec import letterpress_words_row

        board_seed = a.seed if a.random_board else None
        echo_json(letterpress_words_row(res, lang=a.lang, fold=a.fold_accents, seed=board_seed))
    else:
        _words_text(res, count, a.seed if a.random_board else None)
    if count == 0:
        raise SystemExit(1)


@dataclass(frozen=True)
class _Args:
    """The command's arguments, as click parses them (see the options of :func:`letterpress`)."""

    letters: str | None
    dict_path: str | None
    min_length: int
    limit: int | None
    longest_first: bool
    no_cache: bool
    colours: str | None
    played: tuple[str, ...]
    lookahead: int
    random_board: bool
    lang: str
    fold_accents: bool
    proper_nouns: bool
    time_limit: float
    workers: int
    seed: int
    as_json: bool
    svg_path: str | None = None
    force: bool = False
    png_path: str | None = None
    puzzle: bool = False


def _load_index(a: _Args) -> LetterpressIndex:
    """The dictionary's index (from the cache unless --no-cache), a corrupt cache said."""
    from cpwords.letterpress.models.index import load_letterpress_index

    index = load_letterpress_index(
        a.dict_path,
        use_cache=not a.no_cache,
        lang=a.lang,
        fold=a.fold_accents,
        proper=a.proper_nouns,
    )
    _warn_cache(index.cache_problem)
    return index


def _list_words(a: _Args, deadline: Deadline) -> SolveResult:
    """Load the index, draw the board when no LETTERS, list the words (with the index's time)."""
    from cpwords.letterpress.spec import letterpress_words

    with time_guard(deadline), progress("letterpress", enabled=not a.as_json) as tick:
        tick.update(stage="loading the index")
        t0 = time.perf_counter()
        index = _load_index(a)
        index_seconds = time.perf_counter() - t0
        res = letterpress_words(
            index,
            a.letters,
            seed=a.seed,
            min_length=a.min_length,
            limit=a.limit,
            longest_first=a.longest_first,
            lang=a.lang,
            fold=a.fold_accents,
            on_stage=lambda stage: tick.update(stage=stage),
        )
    # The index was loaded here (for the progress display): its time is this load's.
    return dataclasses.replace(res, solver_info={**res.solver_info, "index_seconds": index_seconds})


def _words_text(res: SolveResult, total: int, seed: int | None) -> None:
    """The listing: a summary line, then the words, one line per length."""
    words: list[str] = res.solution
    info = res.solver_info
    if seed is not None:
        click.echo(f"random board {_rows(info['letters'])} (seed {seed})")
    shown = f" (showing {len(words)})" if len(words) < total else ""
    click.echo(
        f"{counted(total, 'word', grouped=False)} from {info['letters']!r} in {info['source']} "
        f"({counted(info['words'], 'word', grouped=False)}){shown}; "
        f"query {1000 * res.wall_time:.2f} ms, index "
        f"{'cached' if info['index_from_cache'] else 'built'} in "
        f"{1000 * info['index_seconds']:.0f} ms"
    )
    line: list[str] = []
    current = -1
    for w in words:
        if len(w) != current:
            if line:
                click.echo(f"{current:>2}: " + " ".join(line))
            current, line = len(w), []
        line.append(w)
    if line:
        click.echo(f"{current:>2}: " + " ".join(line))


def _board_mode(a: _Args, colours: str, deadline: Deadline) -> None:
    """``--board``: the best move on the position (or one ply ahead), printed; the exit
    status of its result."""
    from cpwords.letterpress.board_spec import letterpress_move_row, letterpress_position
    from cpwords.letterpress.rules import parse_board

    lang, fold = a.lang, a.fold_accents
    if a.letters is not None:  # given letters are read before the index is loaded (fail fast)
        parse_board(a.letters, colours, lang=lang, fold=fold)
    with progress("letterpress", enabled=not a.as_json) as tick:
        tick.update(stage="loading the index")
        with time_guard(deadline):
            index = _load_index(a)
        if a.letters is None:
            tick.update(stage="drawing the board")
        board = letterpress_position(a.letters, colours, index, seed=a.seed, lang=lang, fold=fold)
        tick.update(stage="every move and its best reply" if a.lookahead else "solving (CP-SAT)")
        res = _best_move(board, index, a, deadline)
    move = res.solution
    stopped = bool(res.solver_info.get("interrupted"))
    board_seed = a.seed if a.letters is None else None
    if (a.svg_path, a.png_path) != (None, None):
        _board_picture(a, board, res)
    if a.as_json:
        row = letterpress_move_row(
            res, board, index, lang=lang, fold=fold, seed=board_seed, lookahead=a.lookahead
        )
        echo_json(row)
    elif move is None:
        click.echo("no move found (interrupted)" if stopped else "no playable word on this board")
    else:
        _move_text(res, board, stopped, a.lookahead, board_seed)
    code = exit_status(res.status.value, stopped)
    if code:
        raise SystemExit(code)


def _board_picture(a: _Args, board: LetterpressBoard, res: SolveResult) -> None:
    """``--svg``, ``--png`` with --board: the board with the best move's tiles, or with
    --puzzle the bare board (:func:`cpwords.letterpress.draw.puzzle_svg`, the page's
    ``/letterpress/puzzle.svg``)."""
    from cpwords.letterpress.draw import board_svg, puzzle_svg

    move = res.solution
    if a.puzzle:
        svg = puzzle_svg(board)
    else:
        tiles = move.tiles if move is not None else ()
        note = f"swing {move.swing:+d} · {res.status.value}" if move else res.status.value
        svg = board_svg(board, tiles, word=move.word if move else None, note=note)
    write_svg(a.svg_path, svg, a.png_path)


def _bag_picture(a: _Args, letters: str, words: list[str], count: int) -> None:
    """``--svg``, ``--png`` of a listing: the bag with its longest word, or with --puzzle the
    bag alone (:func:`cpwords.letterpress.draw.puzzle_svg`, the page's export)."""
    from cpwords.letterpress.draw import bag_svg, puzzle_svg

    if a.puzzle:
        svg = puzzle_svg(letters)
    else:
        longest = max(words, key=len) if words else None
        note = f"the longest of {counted(count, 'word')}" if longest else "no word"
        svg = bag_svg(letters, longest, note=note)
    write_svg(a.svg_path, svg, a.png_path)


def _move_text(
    res: SolveResult, board: LetterpressBoard, stopped: bool, lookahead: int, seed: int | None
) -> None:
    """The text of --board: the move (with --lookahead, the reply and the value), its defence,
    the board with the move's tiles."""
    move = res.solution
    mark = ", INTERRUPTED: best so far" if stopped else ""
    click.echo(
        f"play        {move.word.upper()}  (swing {move.swing:+d}, {res.status.value}{mark})"
    )
    if lookahead:
        _reply_text(res)
    click.echo(f"defence     {move.defence:+d} (my defended tiles - opponent's, after)")
    if seed is not None:
        click.echo(f"board       {_rows(board.letters)} (random, seed {seed})")
    candidates = counted(res.solver_info["candidates"], "spellable word", grouped=False)
    click.echo(f"candidates  {candidates}")
    for line in board_lines(board.letters, board.owners, set(move.tiles), board.cols):
        click.echo(line)
    click.echo(BOARD_KEY.format(word=move.word.upper()))


def _best_move(
    board: LetterpressBoard, index: LetterpressIndex, a: _Args, deadline: Deadline
) -> SolveResult:
    """The best move (CP-SAT), or with --lookahead the best one ply ahead
    (:func:`cpwords.letterpress.board_spec.letterpress_move`)."""
    from cpwords.letterpress.board_spec import letterpress_move

    # One ply ahead keeps its own limit: the guard only backs it up.
    guard = time_guard(deadline, grace=1.0) if a.lookahead else contextlib.nullcontext()
    with guard:
        return letterpress_move(
            board,
            index,
            a.played,
            lookahead=a.lookahead,
            time_limit=deadline.remaining(),
            workers=a.workers,
            seed=a.seed,
        )


def _reply_text(res: SolveResult) -> None:
    """``--lookahead 1``: the opponent's best reply, the value and what is proven
    (:func:`~cpwords.letterpress.board_spec.reply_lines`, the lines the page shows)."""
    from cpwords.letterpress.board_spec import reply_lines

    for k, v in reply_lines(res):
        click.echo(f"{k:<10}  {v}")


#: The key printed under a board (the cells are those of :func:`board_lines`).
BOARD_KEY = (
    "key         [..] a tile {word} uses; after each letter its colour before the move:\n"
    "            b mine, r the opponent's, . neutral"
)


def board_lines(
    letters: str, owners: Sequence[int], used: Collection[int], cols: int = 5
) -> list[str]:
    """A board as text, row by row: each tile its letter and its colour (``b`` mine, ``r`` the
    opponent's, ``.`` neutral), the tiles of the move in brackets (no letter case, so ``ß`` and
    scripts without case read the same).

    Parameters
    ----------
    letters : str
        The tiles' letters, row-major.
    owners : sequence of int
        Per tile 0 neutral, 1 mine, 2 the opponent's.
    used : collection of int
        The tiles the move takes.
    cols : int
        Tiles per row.

    Returns
    -------
    list of str
        One line per row.

    Examples
    --------
    >>> board_lines("abcd", [1, 0, 2, 0], {0, 3}, cols=2)
    ['  [ab]  b.', '   cr  [d.]']
    """
    cells = [
        f"[{ch}{'.br'[o]}]" if t in used else f" {ch}{'.br'[o]} "
        for t, (ch, o) in enumerate(zip(letters, owners, strict=True))
    ]
    return ["  " + " ".join(cells[i : i + cols]).rstrip() for i in range(0, len(cells), cols)]


def _warn_cache(problem: str) -> None:
    """Say that a corrupt cached index was found and replaced (the answer is not affected)."""
    if problem:
        click.echo(f"cpwords: warning: {problem}", err=True)


def _rows(letters: str, cols: int = 5) -> str:
    """A board's letters row by row (``abcde/fghij/...``), as LETTERS may be given back."""
    return "/".join(letters[i : i + cols] for i in range(0, len(letters), cols))
