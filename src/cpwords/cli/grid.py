"""``cpwords grid``: the prefix/suffix grid (enumerate puzzles, count answers, solve, check).

The command parses, calls the grid wing's Python API and prints: :mod:`cpwords.grid.modes`
(:func:`~cpwords.grid.modes.load_grid`, then each mode's function and ``--json`` row:
``check_grid``, ``count_grid``, ``list_grid``, and :func:`~cpwords.grid.spec.complete_board`,
:func:`~cpwords.grid.spec.unique_grid_puzzles` of :mod:`cpwords.grid.spec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from cpwords.cli._common import (
    EPILOG,
    Deadline,
    alias,
    answer,
    blocklist_options,
    echo_json,
    exit_status,
    force_option,
    lang_options,
    one_stdin,
    progress,
    reject_unused,
    shared_options,
    time_guard,
)
from cpwords.cli._svg import check_svg_target, png_option, puzzle_option, svg_option, write_svg
from cpwords.core.blocklist import Blocklist, load_blocklist
from cpwords.core.errors import InputError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.lexicon import check_language_code
from cpwords.core.result import counted
from cpwords.grid.rules import (
    DEFAULT_MIN_PREFIX,
    DEFAULT_SUFFIX_LENGTH,
    DEFAULT_TOP,
    Board,
    GridEnumeration,
    GridTokens,
    board_words,
    draw_grid,
    load_board,
    parse_fill,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cpwords.core.result import SolveResult
    from cpwords.grid.models.conflict import GridConflict
    from cpwords.grid.models.cpsat import GridCount
    from cpwords.grid.modes import GridGame
    from cpwords.grid.spec import UniqueGridPuzzles


def _fill(
    file: str | None, text: str | None, option: str, lang: str = "en", fold: bool = False
) -> dict[str, str] | None:
    """A (partial) filled board from ``OPTION FILE`` or ``OPTION-text FILL``, or None."""
    got = answer(file, text, "filled-board file", option)
    return None if got is None else parse_fill(*got, lang, fold)


def _header(board: Board, tokens: GridTokens, group: int) -> list[str]:
    np_, ns = len(board.prefix_slots), len(board.suffix_slots)
    return [
        f"board    {board.name}: {np_} prefix + {ns} suffix slots, {len(board.edges)} words, "
        f"{group} automorphisms",
        f"lexicon  {tokens.source}: {counted(len(tokens.words), 'word', grouped=False)}, "
        f"{len(tokens.pairs)} cut "
        f"(suffix length {tokens.suffix_length}, prefix >= {tokens.min_prefix} letters)",
    ]


def _show_board(board: Board, fill: dict[str, str]) -> None:
    for line in draw_grid(board, fill).splitlines():
        click.echo("    " + line)
    click.echo("    words: " + " ".join(board_words(board, fill)))


@click.command("grid", epilog=EPILOG)
@click.option(
    "--board",
    "board_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Board file ('-': stdin; JSON: suffix_slots, prefix_slots, edges [prefix, suffix], "
    "optional layout). Default: the seed's 13-slot board (okwddm).",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    metavar="N",
    default=DEFAULT_TOP,
    show_default=True,
    help="Lexicon: the N most common words of --lang's dictionary, ranked by wordfreq, plurals "
    "dropped (English: wamerican, else Webster's 2nd; others: see cpwords lexicons; wordfreq's "
    "own list for a language without one).",
)
@click.option("--lexicon", type=click.Path(dir_okay=False, allow_dash=True), hidden=True)
@click.option(
    "--suffix-length",
    "-L",
    type=click.IntRange(1, 8),
    metavar="L",
    default=DEFAULT_SUFFIX_LENGTH,
    show_default=True,
    help="Letters of a suffix token (the last L letters of a word), 1..8.",
)
@click.option(
    "--min-prefix",
    "-P",
    type=click.IntRange(1, 8),
    metavar="P",
    default=DEFAULT_MIN_PREFIX,
    show_default=True,
    help="Least letters of a prefix token (the rest of the word), 1..8.",
)
@click.option("--plurals", is_flag=True, help="Keep plural forms (w ending in s with w[:-1]).")
@click.option(
    "--count",
    "quadruple",
    metavar="QUADRUPLE",
    default=None,
    help="Count the full boards of this puzzle: suffixes in slot order s1..s4, e.g. 'ck,ll,nd,ss'.",
)
@click.option(
    "--solve",
    "solve_file",
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Complete the partial board in FILE ('-': stdin) instead of listing puzzles.",
)
@click.option(
    "--solve-text",
    "solve_text",
    metavar="FILL",
    default=None,
    help="The same, with the partial board given inline.",
)
@click.option(
    "--show",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    metavar="N",
    help="Boards to draw.",
)
@click.option("--list", "list_max", type=click.IntRange(min=0), default=None, hidden=True)
@click.option(
    "--all-orientations", is_flag=True, help="No symmetry breaking: list every orientation."
)
@click.option(
    "--unique",
    "unique",
    is_flag=True,
    help="List only the quadruples whose full board is unique up to symmetry (with a "
    "difficulty), and the completion count of every other class.",
)
@click.option(
    "--count-limit",
    type=click.IntRange(min=2),
    default=None,
    metavar="N",
    help="With --unique: stop counting a class at N boards (faster; default exact).",
)
@svg_option("the board shown (the checked, completed or first example board), its slots")
@png_option("the board shown")
@puzzle_option(
    "the suffixes of that board placed, every prefix slot empty (a given board to check, "
    "complete or count, the first --unique design or the listing's first example)"
)
@force_option()
@lang_options(
    "the --top N most common words of the language's dictionary (English: wamerican, else "
    "Webster's 2nd; others: e.g. wfrench, see cpwords lexicons)"
)
@blocklist_options()
@shared_options(
    dictionary="the --top N most common words",
    limit="60 quadruples in text, all in JSON",
    check=True,
    time_limit=None,
    workers=2,
    seed=True,
)
def grid(**options: Any) -> None:
    """List, count, solve or check prefix/suffix grid puzzles.

    Every edge of the board joins a prefix slot to a suffix slot and must spell a word;
    prefixes distinct, suffixes distinct, no word twice. A puzzle is the suffix quadruple; the
    player finds the prefixes.

    Modes: by default, every suffix quadruple that admits a full board, one per class of
    rotated/reflected boards (the lex-leader), with an example board; --count QUADRUPLE
    counts the full boards of one puzzle (is its answer unique?); --solve FILE or --solve-text
    completes a partial board (an unfillable one: a minimal set of slots that conflict);
    --check FILE or --check-text validates a filled one (a filled board is 'slot=token,...'
    or a JSON object); --unique keeps the quadruples with exactly
    one full board up to symmetry, each with a difficulty, and counts every other class. A
    listing or count stopped by the time limit or Ctrl-C keeps what it found, marked
    incomplete (its count is a lower bound). Generated boards are fit to print: a listing and
    --solve leave the blocklist's words out of the lexicon, and --unique (whose uniqueness is
    proven on the whole lexicon) withholds the designs whose answer shows a blocked word.
    --svg/--png draw the board shown; with --puzzle, the puzzle to hand out (its suffixes).

    JSON, beyond the conventions below: board, top, lexicon, lexicon_size, lang, fold_accents,
    suffix_length,
    min_prefix, group_order, count, quadruples (each: suffixes in slot order, board, words),
    complete, stopped; blocklist (source, with --unique withheld); with --solve, conflict: on
    an unfillable board (INFEASIBLE) a minimal set of conflicting slots (slots, placed,
    minimal, solves, wall_time, stopped), else null.
    """
    a = _Args(**options)
    deadline = Deadline(a.time_limit)
    one_stdin(
        {
            "--board": a.board_path,
            "--dict": a.dict_path,
            "--lexicon": a.lexicon,
            "--solve": a.solve_file,
            "--check": a.check_file,
        }
    )
    check_language_code(a.lang)
    partial = _fill(a.solve_file, a.solve_text, "--solve", a.lang, a.fold_accents)
    check = _fill(a.check_file, a.check_text, "--check", a.lang, a.fold_accents)
    _check_modes(a.quadruple, partial, check, a.unique, a.all_orientations, a.count_limit)
    lexicon = alias(a.dict_path, a.lexicon, "--dict", "--lexicon")
    # --limit N caps the listing, text and JSON alike; without it, text shows 60, JSON all.
    json_max = alias(a.limit, a.list_max, "--limit", "--list")
    list_max = 60 if json_max is None else json_max
    ctx = click.get_current_context()
    block = _refuse_unused(
        ctx, lexicon, a.quadruple, partial, check, (a.blocklist_file, a.no_blocklist, a.lang)
    )
    check_svg_target(a.svg_path, a.force, a.png_path, a.puzzle)
    g = _load(a, lexicon, block, deadline)
    if check is not None:
        _check_board(g, check)
    elif partial is not None:
        _solve_board(g, partial, a.workers, a.seed)
    elif a.quadruple is not None:
        _count(g, a.quadruple)
    elif a.unique:
        # The design keeps its own limit (and Ctrl-C): the classes counted so far are kept.
        with time_guard(deadline, grace=1.0):
            code = _run_unique(g, a.show, list_max, a.count_limit, json_max)
        raise SystemExit(code)
    else:
        _list(g, a.show, list_max, json_max)


# ---- Options ---------------------------------------------------------------------------------


def _check_modes(
    quadruple: str | None,
    partial: dict[str, str] | None,
    check: dict[str, str] | None,
    unique: bool,
    all_orientations: bool,
    count_limit: int | None,
) -> None:
    """Refuse modes that cannot go together (one line, exit 2)."""
    modes = [m for m in (quadruple, partial, check) if m is not None]
    if len(modes) > 1:
        raise InputError("give at most one of --count, --solve, --check")
    if unique and (modes or all_orientations):
        raise InputError(
            "--unique lists whole puzzle classes: drop --count/--solve/--check/--all-orientations"
        )
    if count_limit is not None and not unique:
        raise InputError("--count-limit needs --unique")


def _refuse_unused(
    ctx: click.Context,
    lexicon: str | None,
    quadruple: str | None,
    partial: dict[str, str] | None,
    check: dict[str, str] | None,
    blocking: tuple[str | None, bool, str],
) -> Blocklist | None:
    """Refuse options the chosen mode does not use; the blocklist of a mode that generates
    (``blocking``: the --blocklist file, --no-blocklist and --lang, whose default list)."""
    if lexicon is not None:
        reject_unused(ctx, "with --dict", {"top": "--top"})
    if quadruple is not None or partial is not None or check is not None:
        reject_unused(
            ctx,
            "with --count/--solve/--check",
            {
                "show": "--show",
                "limit": "--limit",
                "list_max": "--list",
                "all_orientations": "--all-orientations",
            },
        )
    if partial is None:
        reject_unused(ctx, "without --solve", {"workers": "--workers", "seed": "--seed"})
    if quadruple is not None or check is not None:  # the user's own board: counted as it is
        unused = {"blocklist_file": "--blocklist", "no_blocklist": "--no-blocklist"}
        reject_unused(ctx, "with --count/--check (nothing is generated)", unused)
        return None
    # a listing's example boards, a --solve completion, --unique designs
    blocklist_file, no_blocklist, lang = blocking
    return load_blocklist(blocklist_file, enabled=not no_blocklist, lang=lang)


# ---- What every mode shares ------------------------------------------------------------------


@dataclass(frozen=True)
class _Args:
    """The command's arguments, as click parses them (see the options of :func:`grid`)."""

    board_path: str | None
    top: int
    dict_path: str | None
    lexicon: str | None
    suffix_length: int
    min_prefix: int
    plurals: bool
    quadruple: str | None
    solve_file: str | None
    solve_text: str | None
    check_file: str | None
    check_text: str | None
    show: int
    limit: int | None
    list_max: int | None
    time_limit: float | None
    workers: int
    seed: int
    all_orientations: bool
    unique: bool
    count_limit: int | None
    lang: str
    fold_accents: bool
    proper_nouns: bool
    blocklist_file: str | None
    no_blocklist: bool
    as_json: bool
    svg_path: str | None = None
    force: bool = False
    png_path: str | None = None
    puzzle: bool = False


@dataclass
class _Grid:
    """The board, its tokens and symmetry (the library's :class:`GridGame`), and how to show
    the answer."""

    game: GridGame
    deadline: Deadline
    as_json: bool
    pictures: tuple[str | None, str | None]  # --svg, --png
    puzzle: bool = False  # --puzzle: draw the suffixes alone

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def tokens(self) -> GridTokens:
        return self.game.tokens

    def header(self) -> str:
        """The text output's first lines: the board and the lexicon."""
        return "\n".join(_header(self.board, self.tokens, self.game.symmetry.order))

    def svg(
        self, fill: dict[str, str], tokens: GridTokens | None = None, marked: Sequence[str] = ()
    ) -> None:
        """``--svg``, ``--png``: draw ``fill`` (against ``tokens``, by default the lexicon's),
        the ``marked`` slots (an unfillable board's conflict) drawn as wrong; with ``--puzzle``,
        the puzzle to hand out: ``fill``'s suffixes alone, no mark."""
        if self.puzzle:
            _puzzle(self.pictures, self.board, fill)
        else:
            _svg(self.pictures, self.board, fill, self.tokens if tokens is None else tokens, marked)


def _load(a: _Args, lexicon: str | None, block: Blocklist | None, deadline: Deadline) -> _Grid:
    """Read the board, the lexicon's tokens and the board's symmetry group
    (:func:`cpwords.grid.modes.load_grid`)."""
    from cpwords.grid.modes import load_grid
    from cpwords.grid.spec import GridLexicon

    board = load_board(a.board_path)
    source = GridLexicon(
        a.top,
        lexicon,
        a.suffix_length,
        a.min_prefix,
        a.plurals,
        a.lang,
        a.fold_accents,
        a.proper_nouns,
    )
    with time_guard(deadline), progress("grid", enabled=not a.as_json) as tick:
        game = load_grid(
            board,
            source,
            block,
            unique=a.unique,
            all_orientations=a.all_orientations,
            on_stage=lambda stage: tick.update(stage=stage),
        )
    return _Grid(game, deadline, a.as_json, (a.svg_path, a.png_path), a.puzzle)


def _svg(
    pictures: tuple[str | None, str | None],
    board: Board,
    fill: dict[str, str],
    tokens: GridTokens,
    marked: Sequence[str] = (),
) -> None:
    """``--svg``, ``--png``: the board shown, wrong words and tokens marked (cpwords.grid.draw)."""
    if pictures == (None, None):
        return
    from cpwords.grid.draw import grid_svg, problem_marks

    # A checked fill may name slots the board lacks (the check reports them): draw the rest.
    fill = {slot: token for slot, token in fill.items() if slot in board.kinds}
    words = set(tokens.words)
    edges, slots = problem_marks(board, fill, words, tokens.suffix_length, tokens.min_prefix)
    slots = set(slots) | set(marked)
    write_svg(pictures[0], grid_svg(board, fill, bad_edges=edges, bad_slots=slots), pictures[1])


def _puzzle(pictures: tuple[str | None, str | None], board: Board, fill: dict[str, str]) -> None:
    """``--puzzle`` with ``--svg``, ``--png``: the board with ``fill``'s suffixes placed and no
    prefix (:func:`cpwords.grid.draw.puzzle_svg`, the page's ``/grid/puzzle.svg``)."""
    if pictures == (None, None):
        return
    from cpwords.grid.draw import puzzle_svg

    write_svg(pictures[0], puzzle_svg(board, fill), pictures[1])


def _named(board: Board, suffixes: Any) -> str:
    """``s1=er s2=al ...``: suffixes by slot."""
    return " ".join(f"{s}={t}" for s, t in zip(board.suffix_slots, suffixes, strict=True))


def _incomplete(complete: bool, stopped: str | None) -> str:
    """The mark of a listing or count stopped early."""
    return "" if complete else f" [INCOMPLETE: stopped by {_stopped_by(stopped)}]"


def _stopped_by(stopped: str | None) -> str:
    """What stopped a listing: the time limit, Ctrl-C or the signal's name, ``?`` unknown."""
    if stopped == "interrupted":
        return interrupt_name()
    return "the time limit" if stopped == "time_limit" else "?"


# ---- --check ---------------------------------------------------------------------------------


def _check_board(g: _Grid, fill: dict[str, str]) -> None:
    """Validate a filled board (exit 1 when it is not valid)."""
    from cpwords.grid.modes import check_grid, grid_check_row

    problems = check_grid(g.board, g.tokens, fill)
    g.svg(fill)
    if g.as_json:
        echo_json(grid_check_row(g.game, fill, problems))
    else:
        _show_board(g.board, fill)
        click.echo("valid board" if not problems else "INVALID board:")
        for p in problems:
            click.echo(f"  - {p}")
    if problems:
        raise SystemExit(1)


# ---- --solve ---------------------------------------------------------------------------------


def _solve_board(g: _Grid, fill: dict[str, str], workers: int, seed: int) -> None:
    """Complete a partial board, print it, exit with the solve's status."""
    from cpwords.grid.modes import grid_solve_row
    from cpwords.grid.spec import complete_board

    game = g.game
    # The solve and the conflict search keep their own limit: the guard only backs them up.
    with time_guard(g.deadline, grace=1.0), progress("grid: solving", enabled=not g.as_json):
        done = complete_board(
            game.board,
            game.tokens,
            fill,
            game.source,
            game.block,
            time_left=g.deadline.remaining,
            workers=workers,
            seed=seed,
        )
        if done.every_completion_blocked and not g.as_json:  # said in JSON by the key
            click.echo(
                "cpwords: warning: every completion of this board uses a blocked word", err=True
            )
    res = done.result
    stopped = bool(res.solver_info.get("interrupted"))
    g.svg(res.solution or fill, done.tokens, done.conflict.slots if done.conflict else ())
    if g.as_json:
        echo_json(grid_solve_row(game, done))
    else:
        _solve_text(g, res, fill, done.tokens, stopped)
        _conflict_text(g.board, done.conflict)
    raise SystemExit(exit_status(res.status.value, stopped))


def _solve_text(
    g: _Grid, res: SolveResult, fill: dict[str, str], tokens: GridTokens, stopped: bool
) -> None:
    """``--solve``: the completed board, or why there is none."""
    click.echo("\n".join(_header(g.board, tokens, g.game.symmetry.order)))
    if res.solution is None:
        what = "unfillable: " if res.status.value == "INFEASIBLE" else ""
        click.echo(f"{what}no completion of {len(fill)} placed tokens ({res.status})")
    else:
        click.echo(f"completed in {res.wall_time:.2f} s (verified: {res.verified}):")
        _show_board(g.board, res.solution)
    if stopped:
        click.echo(f"interrupted ({interrupt_name()}) before the solve finished")


def _conflict_text(board: Board, c: GridConflict | None) -> None:
    """The conflicting slots of an unfillable board, each with its placed token or empty."""
    if c is None:
        return
    if not c.slots:
        click.echo(f"conflict  not found: stopped by {_stopped_by(c.stopped)}")
        return
    shown = " ".join(f"{v}={c.placed[v]}" if v in c.placed else f"{v}=(empty)" for v in c.slots)
    if c.minimal:
        how = "minimal: without any one of them the rest can be filled"
    else:
        how = f"not proven minimal: stopped by {_stopped_by(c.stopped or 'time_limit')}"
    click.echo(f"conflict  {shown}")
    if len(c.slots) == 1:
        kind = board.kinds[c.slots[0]]
        what = f"its token is in no word of the lexicon as a {kind} ({c.wall_time:.2f} s)"
    else:
        what = (
            f"these {len(c.slots)} slots cannot all be filled together ({how}; "
            f"{c.solves} CP-SAT solves, {c.wall_time:.2f} s)"
        )
    click.echo(f"          {what}")


# ---- --count ---------------------------------------------------------------------------------


def _count(g: _Grid, quadruple: str) -> None:
    """Count the full boards of one puzzle, print the count, exit with its status."""
    from cpwords.grid.modes import count_grid, grid_count_row

    # The count keeps its own limit (and Ctrl-C), so a stopped count is a lower bound.
    with time_guard(g.deadline, grace=0.5), progress("grid: counting", enabled=not g.as_json):
        counted = count_grid(g.game, quadruple, time_limit=g.deadline.remaining())
    cnt, sufs = counted.count, counted.suffixes
    g.svg(cnt.example or dict(zip(g.board.suffix_slots, sufs, strict=True)))
    if g.as_json:
        echo_json(grid_count_row(g.game, counted))
    else:
        _count_text(g, cnt, sufs)
    raise SystemExit(exit_status(counted.status, cnt.stopped == "interrupted"))


def _count_text(g: _Grid, cnt: GridCount, sufs: tuple[str, ...]) -> None:
    """``--count``: the count, its verdict (unique?) and an example board."""
    click.echo(g.header())
    verdict = {True: "unique answer", False: "not unique", None: "undecided"}[cnt.unique]
    if cnt.complete and not cnt.count:
        verdict = "no answer"
    least = "" if cnt.complete else "at least "
    cut = _incomplete(cnt.complete, cnt.stopped)
    click.echo(
        f"puzzle   {_named(g.board, sufs)}: {least}{cnt.count} full boards "
        f"({least}{cnt.count_up_to_symmetry} up to symmetry): {verdict}{cut}"
    )
    if cnt.example is not None:
        click.echo("example:")
        _show_board(g.board, cnt.example)


# ---- The listing (default) -------------------------------------------------------------------


def _list(g: _Grid, show: int, list_max: int, json_max: int | None) -> None:
    """List every suffix quadruple with a full board, exit with the listing's status."""
    from cpwords.grid.modes import grid_list_row, list_grid

    guard = time_guard(g.deadline, grace=0.3)
    with guard, progress("grid: enumerating", enabled=not g.as_json) as tick:
        res = list_grid(
            g.game,
            time_limit=g.deadline.remaining(),
            on_progress=lambda nodes, found: tick.update(stage=f"{nodes:,} nodes, {found} found"),
        )
    e: GridEnumeration = res.solution
    g.svg(e.quadruples[0].example if e.quadruples else {})
    if g.as_json:
        echo_json(grid_list_row(g.game, res, json_max))
    else:
        _list_text(g, e, show, list_max, not g.game.break_symmetry)
    if e.count == 0 and e.complete and not g.as_json:
        click.echo("no suffix quadruple admits a full board")
    # A listing is never OPTIMAL: FEASIBLE when it found something (complete or not, see
    # "complete"), INFEASIBLE when it finished with nothing, UNKNOWN when stopped with nothing.
    raise SystemExit(exit_status(res.status.value, e.stopped == "interrupted"))


def _list_text(
    g: _Grid, e: GridEnumeration, show: int, list_max: int, all_orientations: bool
) -> None:
    """The listing: how many, the first ``show`` boards drawn, up to ``list_max`` quadruples."""
    board = g.board
    click.echo(g.header())
    what = (
        f"one per class of {e.orbit_size} rotations/reflections"
        if not all_orientations
        else "every orientation"
    )
    click.echo(
        f"found    {e.count} suffix quadruples with a full board ({what}) "
        f"in {e.wall_time:.2f} s" + _incomplete(e.complete, e.stopped)
    )
    for i, q in enumerate(e.quadruples[:show], 1):
        click.echo(f"\n#{i}  {_named(board, q.suffixes)}")
        _show_board(board, q.example)
    if e.count:
        click.echo(f"\nquadruples ({', '.join(board.suffix_slots)}):")
        rows = [" ".join(q.suffixes) for q in e.quadruples[:list_max]]
        for j in range(0, len(rows), 6):
            click.echo("  " + "  |  ".join(rows[j : j + 6]))
        if e.count > list_max:
            click.echo(f"  ... {e.count - list_max} more (--limit N or --json for all)")


# ---- --unique --------------------------------------------------------------------------------


def _run_unique(
    g: _Grid, show: int, list_max: int, count_limit: int | None, json_max: int | None = None
) -> int:
    """The puzzles with a unique full board, each with its difficulty; the exit status."""
    from cpwords.grid.modes import grid_unique_row
    from cpwords.grid.spec import unique_grid_puzzles

    game = g.game
    with progress("grid: unique puzzles", enabled=not g.as_json, spinner=False) as tick:

        def advanced(stage: str, done: int, of: int) -> None:
            said = f"{done:,} nodes, {of:,} classes" if stage == "enumerating" else None
            tick.update(stage=stage, counts=said or f"{done:,} of {of:,} classes")

        u = unique_grid_puzzles(
            game.board,
            game.tokens,
            game.symmetry,
            count_limit,
            g.deadline.remaining(),
            game.block,
            advanced,
        )
    g.svg(u.unique[0].example if u.unique else {})
    if g.as_json:
        echo_json(grid_unique_row(game, u, count_limit, json_max))
    else:
        _unique_text(g, u, show, list_max, game.block)
    return exit_status(u.status, u.design.stopped == "interrupted")


#: What to change when a lexicon has no unique puzzle (English, default board: 1 at --top 5000,
#: none at 10,000, 2 at 20,000, 17 at --top 50000 -L 3), as the page says.
NO_UNIQUE_HINT = (
    "hint: try another lexicon (--top 5000, 20000, 50000 -L 3, or another --dict) or suffix length"
)


def _unique_text(
    g: _Grid, u: UniqueGridPuzzles, show: int, list_max: int, block: Blocklist | None
) -> None:
    """``--unique``: the summary, each unique puzzle (the first ``show`` drawn), the others."""
    from collections import Counter

    d, uniq = u.design, u.unique
    click.echo(g.header())
    if not d.complete:
        click.echo(f"[INCOMPLETE: stopped by {_stopped_by(d.stopped)}; the classes counted so far]")
    click.echo(
        f"unique   {len(uniq)} of {len(d.puzzles):,} puzzle classes have exactly one full board "
        f"up to symmetry (enumerated in {d.stats['enumerate_time']:.2f} s, counted in "
        f"{d.stats['count_time']:.2f} s)"
    )
    if block is not None and u.withheld:
        click.echo(
            f"withheld {u.withheld} more whose answer shows a blocked word ({block.source}; "
            "--no-blocklist shows them)"
        )
    hist = Counter(p.count_up_to_symmetry for p in d.puzzles)
    top = ", ".join(f"{c:,}: {n:,}" for c, n in sorted(hist.items())[:8])
    click.echo(
        f"boards   classes by completions (up to symmetry): {top}"
        + (", ..." if len(hist) > 8 else "")
    )
    for i, p in enumerate(uniq, 1):
        df = p.difficulty
        assert df is not None
        click.echo(
            f"\n#{i}  {_named(g.board, p.suffixes)}  difficulty {df.score:.2f} "
            f"(log2 of {df.search_nodes} partial fills searched; words Zipf min "
            f"{df.min_zipf:.2f}, mean {df.mean_zipf:.2f})"
        )
        if i <= show:
            _show_board(g.board, p.example)
    _others_text(g.board, u.others, list_max)
    if not uniq:
        click.echo("no suffix quadruple has a unique full board" + ("" if d.complete else " yet"))
        if d.complete:
            click.echo(NO_UNIQUE_HINT)


def _others_text(board: Board, others: list[Any], list_max: int) -> None:
    """The classes with other than one full board, by completions, up to ``list_max``."""
    if not (others and list_max):
        return
    others.sort(key=lambda p: (p.count, p.suffixes))
    click.echo(f"\nother quadruples ({', '.join(board.suffix_slots)}): completions")
    rows = [
        f"{' '.join(p.suffixes)} {p.count_up_to_symmetry:,}{'' if p.count_exact else '+'}"
        for p in others[:list_max]
    ]
    for j in range(0, len(rows), 5):
        click.echo("  " + "  |  ".join(rows[j : j + 5]))
    if len(others) > list_max:
        click.echo(f"  ... {len(others) - list_max:,} more (--limit N or --json for all)")
