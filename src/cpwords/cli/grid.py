"""``cpwords grid``: the prefix/suffix grid (enumerate puzzles, count answers, solve, check).

The command parses and prints; the work is the grid wing's Python API
(:mod:`cpwords.grid.spec`: :class:`~cpwords.grid.spec.GridLexicon`,
:func:`~cpwords.grid.spec.complete_board`, :func:`~cpwords.grid.spec.unique_grid_puzzles`,
the ``matching`` listing; :func:`~cpwords.grid.models.cpsat.count_completions`).
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
    check_row,
    echo_json,
    exit_status,
    force_option,
    lang_options,
    one_stdin,
    progress,
    reject_unused,
    result_row,
    shared_options,
    time_guard,
)
from cpwords.cli._svg import check_svg_target, png_option, svg_option, write_svg
from cpwords.core.blocklist import Blocklist, load_blocklist
from cpwords.core.errors import CheckError, InputError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.lexicon import check_language_code
from cpwords.core.result import counted, listing_status
from cpwords.grid.rules import (
    DEFAULT_MIN_PREFIX,
    DEFAULT_SUFFIX_LENGTH,
    DEFAULT_TOP,
    Board,
    GridEnumeration,
    GridTokens,
    board_words,
    draw_grid,
    grid_problems,
    load_board,
    parse_fill,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cpwords.core.result import SolveResult
    from cpwords.grid.models.conflict import GridConflict
    from cpwords.grid.models.cpsat import GridCount
    from cpwords.grid.spec import GridLexicon, UniqueGridPuzzles
    from cpwords.grid.symmetry import BoardSymmetry


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
def grid(
    board_path: str | None,
    top: int,
    dict_path: str | None,
    lexicon: str | None,
    suffix_length: int,
    min_prefix: int,
    plurals: bool,
    quadruple: str | None,
    solve_file: str | None,
    solve_text: str | None,
    check_file: str | None,
    check_text: str | None,
    show: int,
    limit: int | None,
    list_max: int | None,
    time_limit: float | None,
    workers: int,
    seed: int,
    all_orientations: bool,
    unique: bool,
    count_limit: int | None,
    lang: str,
    fold_accents: bool,
    proper_nouns: bool,
    blocklist_file: str | None,
    no_blocklist: bool,
    as_json: bool,
    svg_path: str | None = None,
    force: bool = False,
    png_path: str | None = None,
) -> None:
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

    JSON, beyond the conventions below: board, top, lexicon, lexicon_size, lang, fold_accents,
    suffix_length,
    min_prefix, group_order, count, quadruples (each: suffixes in slot order, board, words),
    complete, stopped; blocklist (source, with --unique withheld); with --solve, conflict: on
    an unfillable board (INFEASIBLE) a minimal set of conflicting slots (slots, placed,
    minimal, solves, wall_time, stopped), else null.
    """
    from cpwords.grid.spec import GridLexicon

    ctx = click.get_current_context()
    deadline = Deadline(time_limit)
    one_stdin(
        {
            "--board": board_path,
            "--dict": dict_path,
            "--lexicon": lexicon,
            "--solve": solve_file,
            "--check": check_file,
        }
    )
    check_language_code(lang)
    partial = _fill(solve_file, solve_text, "--solve", lang, fold_accents)
    check = _fill(check_file, check_text, "--check", lang, fold_accents)
    _check_modes(quadruple, partial, check, unique, all_orientations, count_limit)
    lexicon = alias(dict_path, lexicon, "--dict", "--lexicon")
    list_max = alias(limit, list_max, "--limit", "--list")
    # --limit N caps the listing, text and JSON alike; without it, text shows 60, JSON all.
    json_max = list_max
    list_max = 60 if list_max is None else list_max
    block = _refuse_unused(
        ctx, lexicon, quadruple, partial, check, (blocklist_file, no_blocklist, lang)
    )
    check_svg_target(svg_path, force, png_path)
    board = load_board(board_path)
    source = GridLexicon(
        top, lexicon, suffix_length, min_prefix, plurals, lang, fold_accents, proper_nouns
    )
    pictures = (svg_path, png_path)
    g = _load(board, source, block, unique, all_orientations, deadline, as_json, pictures)
    if check is not None:
        _check_board(g, check)
    elif partial is not None:
        _solve_board(g, partial, source, block, workers, seed)
    elif quadruple is not None:
        _count(g, quadruple)
    elif unique:
        # The design keeps its own limit (and Ctrl-C): the classes counted so far are kept.
        with time_guard(deadline, grace=1.0):
            code = _run_unique(g, show, list_max, count_limit, json_max, block)
        raise SystemExit(code)
    else:
        _list(g, show, list_max, json_max, all_orientations)


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


@dataclass
class _Grid:
    """The board, its tokens and symmetry, and the JSON keys every mode's row starts with."""

    board: Board
    tokens: GridTokens
    sym: BoardSymmetry
    base: dict[str, Any]
    deadline: Deadline
    as_json: bool
    pictures: tuple[str | None, str | None]  # --svg, --png

    def header(self) -> str:
        """The text output's first lines: the board and the lexicon."""
        return "\n".join(_header(self.board, self.tokens, self.sym.order))

    def svg(
        self, fill: dict[str, str], tokens: GridTokens | None = None, marked: Sequence[str] = ()
    ) -> None:
        """``--svg``, ``--png``: draw ``fill`` (against ``tokens``, by default the lexicon's),
        the ``marked`` slots (an unfillable board's conflict) drawn as wrong."""
        _svg(self.pictures, self.board, fill, self.tokens if tokens is None else tokens, marked)


def _load(
    board: Board,
    source: GridLexicon,
    block: Blocklist | None,
    unique: bool,
    all_orientations: bool,
    deadline: Deadline,
    as_json: bool,
    pictures: tuple[str | None, str | None],
) -> _Grid:
    """Read the lexicon's tokens and the board's symmetry group."""
    from cpwords.grid.symmetry import board_symmetry

    with time_guard(deadline), progress("grid", enabled=not as_json) as tick:
        tick.update(stage="loading the lexicon")
        # A listing fills boards from the lexicon less its blocked words; --unique proves
        # uniqueness on the whole lexicon and withholds the designs that show a blocked word.
        tokens = source.tokens(None if unique else block)
        tick.update(stage="symmetry")
        sym = board_symmetry(board, not all_orientations)
    base: dict[str, Any] = {
        "board": board.name,
        "top": source.top if source.path is None else None,
        "lexicon": tokens.source,
        "lexicon_size": len(tokens.words),
        "lang": source.lang,
        "fold_accents": source.fold,
        "suffix_length": source.suffix_length,
        "min_prefix": source.min_prefix,
        "group_order": sym.order,
    }
    if block is not None:
        base["blocklist"] = {"source": block.source}
    return _Grid(board, tokens, sym, base, deadline, as_json, pictures)


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
    board, tokens = g.board, g.tokens
    problems = grid_problems(board, fill, tokens.words, tokens.suffix_length, tokens.min_prefix)
    g.svg(fill)
    if g.as_json:
        echo_json(
            check_row(
                not problems,
                problems,
                fill,
                None,
                **g.base,
                words_on_board=board_words(board, fill),
            )
        )
    else:
        _show_board(board, fill)
        click.echo("valid board" if not problems else "INVALID board:")
        for p in problems:
            click.echo(f"  - {p}")
    if problems:
        raise SystemExit(1)


# ---- --solve ---------------------------------------------------------------------------------


def _solve_board(
    g: _Grid,
    fill: dict[str, str],
    source: GridLexicon,
    block: Blocklist | None,
    workers: int,
    seed: int,
) -> None:
    """Complete a partial board, print it, exit with the solve's status."""
    from cpwords.grid.spec import complete_board

    # The solve and the conflict search keep their own limit: the guard only backs them up.
    with time_guard(g.deadline, grace=1.0), progress("grid: solving", enabled=not g.as_json):
        done = complete_board(
            g.board,
            g.tokens,
            fill,
            source,
            block,
            time_left=g.deadline.remaining,
            workers=workers,
            seed=seed,
        )
        if done.every_completion_blocked:  # said in JSON by the key, in text here
            g.base["blocklist"]["every_completion_blocked"] = True
            if not g.as_json:
                click.echo(
                    "cpwords: warning: every completion of this board uses a blocked word",
                    err=True,
                )
    res = done.result
    stopped = bool(res.solver_info.get("interrupted"))
    g.svg(res.solution or fill, done.tokens, done.conflict.slots if done.conflict else ())
    if g.as_json:
        _solve_json(g, res, stopped, done.conflict)
    else:
        _solve_text(g, res, fill, done.tokens, stopped)
        _conflict_text(g.board, done.conflict)
    raise SystemExit(exit_status(res.status.value, stopped))


def _conflict_row(c: GridConflict) -> dict[str, Any]:
    """The ``conflict`` of ``--solve --json``: the conflicting slots and how they were found."""
    return {
        "slots": list(c.slots),
        "placed": c.placed,
        "minimal": c.minimal,
        "solves": c.solves,
        "wall_time": c.wall_time,
        "stopped": c.stopped,
    }


def _solve_json(
    g: _Grid, res: SolveResult, stopped: bool, conflict: GridConflict | None = None
) -> None:
    """``--solve --json``: the result's row, with the completed board as the one quadruple;
    ``conflict`` the conflicting slots of an unfillable board (else null)."""
    board, sol = g.board, res.solution
    row = result_row(g.base | res.to_dict(), interrupted=stopped)
    row["conflict"] = None if conflict is None else _conflict_row(conflict)
    row["quadruples"] = []
    if sol:
        suffixes = [sol[s] for s in board.suffix_slots]
        row["quadruples"].append(_quadruple_row(board, suffixes, sol))
    row["count"] = len(row["quadruples"])
    echo_json(row)


def _quadruple_row(board: Board, suffixes: Sequence[str], fill: dict[str, str]) -> dict[str, Any]:
    """One quadruple of a JSON row: its suffixes, the board they fill and its words."""
    return {"suffixes": list(suffixes), "board": fill, "words": board_words(board, fill)}


def _solve_text(
    g: _Grid, res: SolveResult, fill: dict[str, str], tokens: GridTokens, stopped: bool
) -> None:
    """``--solve``: the completed board, or why there is none."""
    click.echo("\n".join(_header(g.board, tokens, g.sym.order)))
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
    from cpwords.grid.models.cpsat import count_completions
    from cpwords.grid.spec import grid_suffixes
    from cpwords.grid.symmetry import board_symmetry

    board = g.board
    sufs = grid_suffixes(quadruple, board, g.tokens, g.base["lang"], g.base["fold_accents"])
    # The count keeps its own limit (and Ctrl-C), so a stopped count is a lower bound.
    with time_guard(g.deadline, grace=0.5), progress("grid: counting", enabled=not g.as_json):
        cnt = count_completions(
            board,
            g.tokens,
            sufs,
            symmetry=board_symmetry(board),
            time_limit=g.deadline.remaining(),
        )
    # A count is never OPTIMAL: FEASIBLE (complete: an exact count; else a lower bound).
    status = listing_status(cnt.count, cnt.complete).value
    interrupted = cnt.stopped == "interrupted"
    g.svg(cnt.example or dict(zip(board.suffix_slots, sufs, strict=True)))
    if g.as_json:
        _count_json(g, cnt, sufs, status, interrupted)
    else:
        _count_text(g, cnt, sufs)
    raise SystemExit(exit_status(status, interrupted))


def _count_json(
    g: _Grid, cnt: GridCount, sufs: tuple[str, ...], status: str, interrupted: bool
) -> None:
    """``--count --json``: the count as a result row (objective: the boards)."""
    qs = [] if cnt.example is None else [_quadruple_row(g.board, sufs, cnt.example)]
    n = float(cnt.count)
    exact = cnt.complete and cnt.count > 0
    echo_json(
        result_row(
            g.base,
            status=status,
            objective=n if cnt.count else None,
            bound=n if exact else None,
            gap=0.0 if exact else None,
            method=cnt.method,
            wall_time=cnt.wall_time,
            solution=cnt.example,
            verified=_example_checked(g, cnt.example),
            counts={"boards": cnt.count, "boards_up_to_symmetry": cnt.count_up_to_symmetry},
            interrupted=interrupted,
            complete=cnt.complete,
            stopped=cnt.stopped,
            suffixes=list(sufs),
            count=cnt.count,
            count_up_to_symmetry=cnt.count_up_to_symmetry,
            unique=cnt.unique,
            quadruples=qs,
        )
    )


def _example_checked(g: _Grid, example: dict[str, str] | None) -> bool | None:
    """A count's example board re-checked by the independent checker (None: no example).

    Raises
    ------
    CheckError
        The checker rejects the board (a defect of the model, never of the input).
    """
    if example is None:
        return None
    t = g.tokens
    problems = grid_problems(g.board, example, t.words, t.suffix_length, t.min_prefix)
    if problems:
        raise CheckError(f"the counted example board fails the checker: {problems[0]}")
    return True


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


def _list(g: _Grid, show: int, list_max: int, json_max: int | None, all_orientations: bool) -> None:
    """List every suffix quadruple with a full board, exit with the listing's status."""
    from cpwords.core.spec import solve
    from cpwords.grid.spec import SPEC, GridCase

    guard = time_guard(g.deadline, grace=0.3)
    with guard, progress("grid: enumerating", enabled=not g.as_json) as tick:
        res = solve(
            SPEC,
            GridCase(g.board, g.tokens, not all_orientations, g.sym),
            "matching",
            time_limit=g.deadline.remaining(),
            on_progress=lambda nodes, found: tick.update(stage=f"{nodes:,} nodes, {found} found"),
        )
    e: GridEnumeration = res.solution
    g.svg(e.quadruples[0].example if e.quadruples else {})
    # A listing is never OPTIMAL: FEASIBLE when it found something (complete or not, see
    # "complete"), INFEASIBLE when it finished with nothing, UNKNOWN when stopped with nothing.
    status = res.status.value
    interrupted = e.stopped == "interrupted"
    if g.as_json:
        _list_json(g, res, status, interrupted, json_max)
    else:
        _list_text(g, e, show, list_max, all_orientations)
    if e.count == 0 and e.complete and not g.as_json:
        click.echo("no suffix quadruple admits a full board")
    raise SystemExit(exit_status(status, interrupted))


def _list_json(
    g: _Grid, res: SolveResult, status: str, interrupted: bool, json_max: int | None
) -> None:
    """The listing as a result row (objective: the quadruples)."""
    e: GridEnumeration = res.solution
    n = float(e.count)
    echo_json(
        result_row(
            g.base,
            status=status,
            objective=n if e.count else None,
            bound=n if e.complete and e.count else None,
            gap=0.0 if e.complete and e.count else None,
            method=res.method,
            verified=res.verified,
            wall_time=e.wall_time,
            solution=[list(q.suffixes) for q in e.quadruples[:json_max]],
            counts={"quadruples": e.count},
            interrupted=interrupted,
            complete=e.complete,
            stopped=e.stopped,
            orbit_size=e.orbit_size,
            count=e.count,
            stats=e.stats,
            quadruples=[q.to_dict(g.board) for q in e.quadruples[:json_max]],
        )
    )


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
    g: _Grid,
    show: int,
    list_max: int,
    count_limit: int | None,
    json_max: int | None = None,
    block: Blocklist | None = None,
) -> int:
    """The puzzles with a unique full board, each with its difficulty; the exit status."""
    from cpwords.grid.spec import unique_grid_puzzles

    with progress("grid: unique puzzles", enabled=not g.as_json, spinner=False) as tick:

        def advanced(stage: str, done: int, of: int) -> None:
            said = f"{done:,} nodes, {of:,} classes" if stage == "enumerating" else None
            tick.update(stage=stage, counts=said or f"{done:,} of {of:,} classes")

        u = unique_grid_puzzles(
            g.board, g.tokens, g.sym, count_limit, g.deadline.remaining(), block, advanced
        )
    base = g.base
    if block:  # unique on the whole lexicon, but not to be printed
        base = base | {"blocklist": {"source": block.source, "withheld": u.withheld}}
    g.svg(u.unique[0].example if u.unique else {})
    # Complete: the unique puzzles are all of them (none: INFEASIBLE); stopped: those found in
    # the classes counted so far (FEASIBLE, or UNKNOWN when none yet).
    status = listing_status(len(u.unique), u.design.complete).value
    interrupted = u.design.stopped == "interrupted"
    if g.as_json:
        _unique_json(g, u, base, status, interrupted, count_limit, json_max)
    else:
        _unique_text(g, u, show, list_max, block)
    return exit_status(status, interrupted)


def _unique_json(
    g: _Grid,
    u: UniqueGridPuzzles,
    base: dict[str, Any],
    status: str,
    interrupted: bool,
    count_limit: int | None,
    json_max: int | None,
) -> None:
    """``--unique --json``: the unique puzzles as a result row, the other classes' counts."""
    d, uniq, others = u.design, u.unique, u.others
    n = float(len(uniq))
    exact = d.complete and bool(uniq)
    row = result_row(
        base,
        status=status,
        objective=n if uniq else None,
        bound=n if exact else None,
        gap=0.0 if exact else None,
        method="grid-design",
        solution=[list(p.suffixes) for p in uniq[:json_max]],
        counts={"classes": len(d.puzzles), "unique": len(uniq)},
        verified=True if uniq else None,  # re-solved independently, else CheckError
        interrupted=interrupted,
    )
    other_rows = [
        {
            "suffixes": list(p.suffixes),
            "count": p.count_up_to_symmetry,
            "count_exact": p.count_exact,
        }
        for p in others[:json_max]
    ]
    row |= {
        "complete": d.complete,
        "stopped": d.stopped,
        "orbit_size": d.orbit_size,
        "classes": len(d.puzzles),
        "unique_count": len(uniq),
        "count_limit": count_limit,
        "wall_time": d.wall_time,
        "stats": {k: v for k, v in d.stats.items() if k != "counts"},
        "quadruples": [p.to_dict(g.board) for p in uniq[:json_max]],
        "others": other_rows,
    }
    echo_json(row)


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
