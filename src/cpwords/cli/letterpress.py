"""``cpwords letterpress``: every dictionary word a bag of letters can spell."""

from __future__ import annotations

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
    result_row,
    shared_options,
    time_guard,
)
from cpwords.cli._svg import check_svg_target, png_option, svg_option, write_svg
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
@force_option()
@lang_options(f"the default dictionary (English: the game's own list, letterpress; {CURATED})")
@shared_options(dictionary=LETTERPRESS_LIST, limit="all", time_limit=20.0, workers=2, seed=True)
def letterpress(
    letters: str | None,
    dict_path: str | None,
    min_length: int,
    limit: int | None,
    longest_first: bool,
    no_cache: bool,
    colours: str | None,
    played: tuple[str, ...],
    lookahead: int,
    random_board: bool,
    lang: str,
    fold_accents: bool,
    proper_nouns: bool,
    time_limit: float,
    workers: int,
    seed: int,
    as_json: bool,
    svg_path: str | None = None,
    force: bool = False,
    png_path: str | None = None,
) -> None:
    """Find every word some letters spell, or the best move.

    LETTERS is the bag (e.g. the 25 letters of a Letterpress board), each letter usable as
    often as it appears; words are listed by length, then alphabetically. The dictionary's
    bitset index is built once and cached on disk, keyed by a hash of its content (see
    cpwords cache). --board COLOURS finds the best move on the position instead (CP-SAT).
    --random-board draws the 25 letters (no LETTERS) by the dictionary's letter frequencies:
    the same --seed and dictionary give the same board.

    JSON, beyond the conventions below: solution (the words), count, returned, complete
    (the listing is exhaustive), letters, lexicon, lexicon_size, lang, fold_accents, index,
    random_board, seed (the board's seed, null for given LETTERS); with --board, solution is
    the move and word its word. Letters are of any script (--lang picks the language's word
    list).
    """
    from cpwords.core.errors import InputError
    from cpwords.core.lexicon import check_language_code

    ctx = click.get_current_context()
    deadline = Deadline(time_limit)
    if random_board and letters is not None:
        raise InputError("give LETTERS or --random-board, not both")
    if not random_board and letters is None:
        raise InputError("give LETTERS (the bag or the board's letters) or --random-board")
    check_svg_target(svg_path, force, png_path)
    check_language_code(lang)
    drawn = {"random_board": random_board, "seed": seed if random_board else None}
    if colours is not None:
        reject_unused(
            ctx,
            "with --board",
            {"min_length": "--min-length", "limit": "--limit", "longest_first": "--longest-first"},
        )
        _board_mode(
            letters,
            colours,
            dict_path,
            played,
            deadline,
            workers,
            seed,
            no_cache,
            as_json,
            (svg_path, png_path),
            lang,
            fold_accents,
            proper_nouns,
            lookahead,
        )
        return
    reject_unused(
        ctx,
        "without --board (a word listing)",
        {"played": "--played", "workers": "--workers", "lookahead": "--lookahead"},
    )
    if not random_board:
        reject_unused(ctx, "without --board or --random-board", {"seed": "--seed"})
    query = _Listing(min_length, limit, longest_first, lang, fold_accents, proper_nouns)
    res = _list_words(letters, dict_path, no_cache, seed, query, deadline, as_json)
    words: list[str] = res.solution
    info = res.solver_info
    count = int(res.objective or 0)
    if svg_path is not None or png_path is not None:
        from cpwords.letterpress.draw import bag_svg

        longest = max(words, key=len) if words else None
        note = f"the longest of {counted(count, 'word')}" if longest else "no word"
        write_svg(svg_path, bag_svg(info["letters"], longest, note=note), png_path)
    # An exhaustive listing that found nothing is a proven "none" (INFEASIBLE, exit 1).
    if as_json:
        _words_json(res, count, lang, fold_accents, drawn)
    else:
        _words_text(res, count, seed if random_board else None)
    if count == 0:
        raise SystemExit(1)


@dataclass(frozen=True)
class _Listing:
    """What to list: the shortest word, how many, in which order, of which language."""

    min_length: int
    limit: int | None
    longest_first: bool
    lang: str
    fold: bool
    proper: bool = False


def _list_words(
    letters: str | None,
    dict_path: str | None,
    no_cache: bool,
    seed: int,
    query: _Listing,
    deadline: Deadline,
    as_json: bool,
) -> SolveResult:
    """Load the index, draw the board when no LETTERS, list the words (with the index's time)."""
    from cpwords.letterpress.models.index import load_letterpress_index
    from cpwords.letterpress.spec import find_letterpress_words, random_letterpress_board

    lang, fold = query.lang, query.fold
    with time_guard(deadline), progress("letterpress", enabled=not as_json) as tick:
        tick.update(stage="loading the index")
        t0 = time.perf_counter()
        index = load_letterpress_index(
            dict_path, use_cache=not no_cache, lang=lang, fold=fold, proper=query.proper
        )
        index_seconds = time.perf_counter() - t0
        _warn_cache(index.cache_problem)
        if letters is None:
            tick.update(stage="drawing the board")
            letters = random_letterpress_board(index, seed=seed)
        tick.update(stage="listing")
        res = find_letterpress_words(
            letters,
            index,
            min_length=query.min_length,
            limit=query.limit,
            longest_first=query.longest_first,
            lang=lang,
            fold=fold,
        )
    # The index was loaded here (for the progress display): its time is this load's.
    return dataclasses.replace(res, solver_info={**res.solver_info, "index_seconds": index_seconds})


def _words_json(res: SolveResult, count: int, lang: str, fold: bool, drawn: dict[str, Any]) -> None:
    """The listing as a result row."""
    info = res.solver_info
    row = result_row(
        res.to_dict(),
        counts={"words": count},
        letters=info["letters"],
        count=count,
        returned=len(res.solution),
        complete=info.get("complete", True),
        lexicon=info["source"],
        lexicon_size=info["words"],
        lang=lang,
        fold_accents=fold,
        index={"from_cache": info["index_from_cache"], "seconds": info["index_seconds"]},
        **drawn,
    )
    echo_json(row)


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


def _board_mode(
    letters: str | None,
    colours: str,
    dict_path: str | None,
    played: tuple[str, ...],
    deadline: Deadline,
    workers: int,
    seed: int,
    no_cache: bool,
    as_json: bool,
    pictures: tuple[str | None, str | None] = (None, None),
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    lookahead: int = 0,
) -> None:
    from cpwords.core.alphabet import foreign_letters
    from cpwords.core.errors import InputError
    from cpwords.letterpress.models.index import load_letterpress_index
    from cpwords.letterpress.rules import parse_board
    from cpwords.letterpress.spec import random_letterpress_board

    random_board = letters is None
    # given letters are read before the index is loaded (bad input fails fast)
    board = None if letters is None else parse_board(letters, colours, lang=lang, fold=fold)
    with progress("letterpress", enabled=not as_json) as tick:
        tick.update(stage="loading the index")
        with time_guard(deadline):
            index = load_letterpress_index(
                dict_path, use_cache=not no_cache, lang=lang, fold=fold, proper=proper
            )
        _warn_cache(index.cache_problem)
        if board is None:
            tick.update(stage="drawing the board")
            board = parse_board(
                random_letterpress_board(index, seed=seed), colours, lang=lang, fold=fold
            )
        problem = foreign_letters(board.letters, index.letters, index.source)
        if problem is not None:
            raise InputError(f"board: {problem}")
        tick.update(stage="every move and its best reply" if lookahead else "solving (CP-SAT)")
        res = _best_move(board, index, played, deadline, workers, seed, lookahead)
    move = res.solution
    stopped = bool(res.solver_info.get("interrupted"))
    if pictures != (None, None):
        from cpwords.letterpress.draw import board_svg

        tiles = move.tiles if move is not None else ()
        note = f"swing {move.swing:+d} · {res.status.value}" if move else res.status.value
        svg = board_svg(board, tiles, word=move.word if move else None, note=note)
        write_svg(pictures[0], svg, pictures[1])
    if as_json:
        row = result_row(
            res.to_dict(solution=move.to_dict() if move is not None else None),
            interrupted=stopped,
            word=move.word if move is not None else None,
            lexicon=index.source,
            lexicon_size=index.n,
            lang=lang,
            fold_accents=fold,
            letters=board.letters,
            random_board=random_board,
            seed=seed if random_board else None,
            lookahead=lookahead,
        )
        echo_json(row)
    elif move is None:
        click.echo("no move found (interrupted)" if stopped else "no playable word on this board")
    else:
        _move_text(res, board, stopped, lookahead, seed if random_board else None)
    code = exit_status(res.status.value, stopped)
    if code:
        raise SystemExit(code)


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
    board: LetterpressBoard,
    index: LetterpressIndex,
    played: Sequence[str],
    deadline: Deadline,
    workers: int,
    seed: int,
    lookahead: int,
) -> SolveResult:
    """The best move (CP-SAT), or with ``lookahead`` the best one ply ahead."""
    from cpwords.letterpress.board_spec import best_letterpress_move, lookahead_letterpress_move

    if lookahead:
        with time_guard(deadline, grace=1.0):  # the search keeps its own limit
            return lookahead_letterpress_move(board, index, played, deadline.remaining())
    left = deadline.remaining() or 20.0
    return best_letterpress_move(board, index, played, left, workers=workers, seed=seed)


def _reply_text(res: SolveResult) -> None:
    """``--lookahead 1``: the opponent's best reply, the value and what is proven."""
    move, info = res.solution, res.solver_info
    if move.game_over:
        click.echo("reply       none: the move colours the last neutral tile (the game ends)")
    elif move.reply_word is None:
        click.echo("reply       none: no word is left to play (a pass)")
    else:
        click.echo(
            f"reply       {move.reply_word.upper()}  (the opponent's best: swing "
            f"+{move.reply_swing} for them)"
        )
    if res.status.value == "OPTIMAL":
        proof = f"proven best of all {info['moves']:,} moves (every word and its tiles)"
    else:
        proof = (
            f"best of the {info['examined']:,} of {info['moves']:,} moves tried (largest swing "
            f"first), not proven; no move scores more than {res.bound:+.0f}"
        )
    click.echo(f"net         {move.net:+d} (swing - the best reply's): {proof}")


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
