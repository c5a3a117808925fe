"""``cpwords grid``: the prefix/suffix grid (enumerate puzzles, count answers, solve, check)."""

from __future__ import annotations

from typing import Any

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
from cpwords.cli._svg import check_svg_target, svg_option, write_svg
from cpwords.core.blocklist import Blocklist, load_blocklist
from cpwords.core.errors import InputError
from cpwords.core.lexicon import check_lang
from cpwords.core.result import Status, listing_status
from cpwords.grid.rules import (
    DEFAULT_MIN_PREFIX,
    DEFAULT_SUFFIX_LENGTH,
    DEFAULT_TOP,
    Board,
    GridEnumeration,
    GridTokens,
    board_words,
    cut_words,
    draw_grid,
    grid_problems,
    load_board,
    parse_fill,
    parse_suffixes,
    validate_cut_options,
    wordfreq_tokens,
)


def _tokens(
    top: int, lexicon: str | None, L: int, P: int, plurals: bool, block: Blocklist | None = None,
    lang: str = "en", fold: bool = False,
) -> GridTokens:  # fmt: skip
    """The tokens of the lexicon; with ``block``, its blocked words left out first."""
    if lexicon is None and not block:
        return wordfreq_tokens(top, L, P, plurals, lang, fold)
    from cpwords.core.lexicon import load_dictionary

    if lexicon is None:
        validate_cut_options(L, P)
        base = wordfreq_tokens(top, L, P, True, lang, fold)  # its words and name, uncut
        words, source = list(base.words), base.source
    else:
        lex = load_dictionary(lexicon, lang, fold)
        words, source = list(lex.words), lex.source
    if block:
        kept = [w for w in words if not block.blocks(w)]
        if len(kept) < len(words):
            source += f" less {len(words) - len(kept)} blocked words"
        words = kept
    return cut_words(words, L, P, source, plurals, lang, fold)


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
        f"lexicon  {tokens.source}: {len(tokens.words)} words, {len(tokens.pairs)} cut "
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
    help="Lexicon: the N most common words of --lang (wordfreq; English: a-z only, plurals "
    "dropped).",
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
@force_option()
@lang_options("the --top N most common words of the language")
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
    blocklist_file: str | None,
    no_blocklist: bool,
    as_json: bool,
    svg_path: str | None = None,
    force: bool = False,
) -> None:
    """List, count, solve or check prefix/suffix grid puzzles.

    Every edge of the board joins a prefix slot to a suffix slot and must spell a word;
    prefixes distinct, suffixes distinct, no word twice. A puzzle is the suffix quadruple; the
    player finds the prefixes.

    Modes: by default, every suffix quadruple that admits a full board, one per class of
    rotated/reflected boards (the lex-leader), with an example board; --count QUADRUPLE
    counts the full boards of one puzzle (is its answer unique?); --solve FILE or --solve-text
    completes a partial board; --check FILE or --check-text validates a filled one (a filled
    board is 'slot=token,...' or a JSON object); --unique keeps the quadruples with exactly
    one full board up to symmetry, each with a difficulty, and counts every other class. A
    listing or count stopped by the time limit or Ctrl-C keeps what it found, marked
    incomplete (its count is a lower bound). Generated boards are fit to print: a listing and
    --solve leave the blocklist's words out of the lexicon, and --unique (whose uniqueness is
    proven on the whole lexicon) withholds the designs whose answer shows a blocked word.

    JSON, beyond the conventions below: board, top, lexicon, lexicon_size, lang, fold_accents,
    suffix_length,
    min_prefix, group_order, count, quadruples (each: suffixes in slot order, board, words),
    complete, stopped; blocklist (source, with --unique withheld).
    """
    from cpwords.core.spec import solve
    from cpwords.grid.fill_spec import solve_grid
    from cpwords.grid.models.cpsat import count_completions
    from cpwords.grid.spec import SPEC, GridCase
    from cpwords.grid.symmetry import board_symmetry

    ctx = click.get_current_context()
    deadline = Deadline(time_limit)
    one_stdin({"--board": board_path, "--dict": dict_path, "--lexicon": lexicon,
               "--solve": solve_file, "--check": check_file})  # fmt: skip
    check_lang(lang)
    partial = _fill(solve_file, solve_text, "--solve", lang, fold_accents)
    check = _fill(check_file, check_text, "--check", lang, fold_accents)
    modes = [m for m in (quadruple, partial, check) if m is not None]
    if len(modes) > 1:
        raise InputError("give at most one of --count, --solve, --check")
    if unique and (modes or all_orientations):
        raise InputError("--unique lists whole puzzle classes: drop --count/--solve/--check/"
                         "--all-orientations")  # fmt: skip
    if count_limit is not None and not unique:
        raise InputError("--count-limit needs --unique")
    lexicon = alias(dict_path, lexicon, "--dict", "--lexicon")
    list_max = alias(limit, list_max, "--limit", "--list")
    # --limit N caps the listing, text and JSON alike; without it, text shows 60, JSON all.
    json_max = list_max
    list_max = 60 if list_max is None else list_max
    if lexicon is not None:
        reject_unused(ctx, "with --dict", {"top": "--top"})
    if modes:
        reject_unused(
            ctx,
            "with --count/--solve/--check",
            {"show": "--show", "limit": "--limit", "list_max": "--list",
             "all_orientations": "--all-orientations"},
        )  # fmt: skip
    if partial is None:
        reject_unused(ctx, "without --solve", {"workers": "--workers", "seed": "--seed"})
    block = None
    if quadruple is not None or check is not None:  # the user's own board: counted as it is
        blocking = {"blocklist_file": "--blocklist", "no_blocklist": "--no-blocklist"}
        reject_unused(ctx, "with --count/--check (nothing is generated)", blocking)
    else:  # a listing's example boards, a --solve completion, --unique designs
        block = load_blocklist(blocklist_file, enabled=not no_blocklist)
    check_svg_target(svg_path, force)
    board = load_board(board_path)
    with time_guard(deadline), progress("grid", enabled=not as_json) as tick:
        tick.update(stage="loading the lexicon")
        # A listing fills boards from the lexicon less its blocked words; --unique proves
        # uniqueness on the whole lexicon and withholds the designs that show a blocked word.
        tokens = _tokens(
            top, lexicon, suffix_length, min_prefix, plurals, None if unique else block,
            lang, fold_accents,
        )  # fmt: skip
        tick.update(stage="symmetry")
        sym = board_symmetry(board, not all_orientations)
    base: dict[str, Any] = {
        "board": board.name,
        "top": top if lexicon is None else None,
        "lexicon": tokens.source,
        "lexicon_size": len(tokens.words),
        "lang": lang,
        "fold_accents": fold_accents,
        "suffix_length": suffix_length,
        "min_prefix": min_prefix,
        "group_order": sym.order,
    }
    if block is not None:
        base["blocklist"] = {"source": block.source}
    if check is not None:
        fill = check
        problems = grid_problems(board, fill, tokens.words, suffix_length, min_prefix)
        _svg(svg_path, board, fill, tokens)
        if as_json:
            echo_json(
                check_row(not problems, problems, fill, None, **base,
                          words_on_board=board_words(board, fill))
            )  # fmt: skip
        else:
            _show_board(board, fill)
            click.echo("valid board" if not problems else "INVALID board:")
            for p in problems:
                click.echo(f"  - {p}")
        if problems:
            raise SystemExit(1)
        return
    if partial is not None:
        fill = partial
        with time_guard(deadline), progress("grid: solving", enabled=not as_json):
            res = solve_grid(
                board, tokens, fill, time_limit=deadline.remaining() or 60.0, workers=workers,
                seed=seed,
            )  # fmt: skip
            if block and res.status is Status.INFEASIBLE:
                # "No completion" must stay a proof on the whole lexicon: only the blocked
                # words can complete this board, so one is shown, with a warning.
                tokens = _tokens(
                    top, lexicon, suffix_length, min_prefix, plurals, None, lang, fold_accents
                )
                res = solve_grid(
                    board, tokens, fill, time_limit=deadline.remaining() or 60.0,
                    workers=workers, seed=seed,
                )  # fmt: skip
                if res.solution is not None:  # said in JSON by the key, in text here
                    base["blocklist"]["every_completion_blocked"] = True
                if res.solution is not None and not as_json:
                    click.echo(
                        "cpwords: warning: every completion of this board uses a blocked word",
                        err=True,
                    )
        stopped = bool(res.solver_info.get("interrupted"))
        _svg(svg_path, board, res.solution or fill, tokens)
        if as_json:
            sol = res.solution
            row = result_row(base | res.to_dict(), interrupted=stopped)
            row["quadruples"] = (
                [{"suffixes": [sol[s] for s in board.suffix_slots], "board": sol,
                  "words": board_words(board, sol)}] if sol else []
            )  # fmt: skip
            row["count"] = len(row["quadruples"])
            echo_json(row)
        else:
            click.echo("\n".join(_header(board, tokens, sym.order)))
            if res.solution is None:
                click.echo(f"no completion of {len(fill)} placed tokens ({res.status})")
            else:
                click.echo(f"completed in {res.wall_time:.2f} s (verified: {res.verified}):")
                _show_board(board, res.solution)
            if stopped:
                click.echo("interrupted (Ctrl-C) before the solve finished")
        raise SystemExit(exit_status(res.status.value, stopped))
    if quadruple is not None:
        sufs = parse_suffixes(quadruple, board, lang, fold_accents)
        wrong = [t for t in sufs if len(t) != tokens.suffix_length]
        if wrong:  # no board can hold it: bad input, not "no answer"
            raise InputError(
                f"suffix {wrong[0]!r} has {len(wrong[0])} letters, not the "
                f"{tokens.suffix_length} of --suffix-length"
            )
        # The count keeps its own limit (and Ctrl-C), so a stopped count is a lower bound.
        with time_guard(deadline, grace=0.5), progress("grid: counting", enabled=not as_json):
            cnt = count_completions(
                board, tokens, sufs, symmetry=board_symmetry(board),
                time_limit=deadline.remaining(),
            )  # fmt: skip
        # A count is never OPTIMAL: FEASIBLE (complete: an exact count; else a lower bound).
        status = listing_status(cnt.count, cnt.complete).value
        interrupted = cnt.stopped == "interrupted"
        _svg(
            svg_path, board, cnt.example or dict(zip(board.suffix_slots, sufs, strict=True)), tokens
        )
        if as_json:
            qs: list[dict[str, Any]] = [] if cnt.example is None else [{
                "suffixes": list(sufs), "board": cnt.example,
                "words": board_words(board, cnt.example)}]  # fmt: skip
            n = float(cnt.count)
            exact = cnt.complete and cnt.count > 0
            echo_json(
                result_row(
                    base, status=status, objective=n if cnt.count else None,
                    bound=n if exact else None, gap=0.0 if exact else None,
                    method=cnt.method, wall_time=cnt.wall_time, solution=cnt.example,
                    counts={"boards": cnt.count,
                            "boards_up_to_symmetry": cnt.count_up_to_symmetry},
                    interrupted=interrupted, complete=cnt.complete, stopped=cnt.stopped,
                    suffixes=list(sufs), count=cnt.count,
                    count_up_to_symmetry=cnt.count_up_to_symmetry, unique=cnt.unique,
                    quadruples=qs,
                )
            )  # fmt: skip
        else:
            click.echo("\n".join(_header(board, tokens, sym.order)))
            named = " ".join(f"{s}={t}" for s, t in zip(board.suffix_slots, sufs, strict=True))
            verdict = {True: "unique answer", False: "not unique", None: "undecided"}[cnt.unique]
            if cnt.complete and not cnt.count:
                verdict = "no answer"
            least = "" if cnt.complete else "at least "
            cut = "" if cnt.complete else f" [INCOMPLETE: stopped by {_STOPPED[cnt.stopped or '']}]"
            click.echo(
                f"puzzle   {named}: {least}{cnt.count} full boards "
                f"({least}{cnt.count_up_to_symmetry} up to symmetry): {verdict}{cut}"
            )
            if cnt.example is not None:
                click.echo("example:")
                _show_board(board, cnt.example)
        raise SystemExit(exit_status(status, interrupted))
    if unique:
        # The design keeps its own limit (and Ctrl-C): the classes counted so far are kept.
        with time_guard(deadline, grace=1.0):
            code = _run_unique(
                board,
                tokens,
                sym,
                base,
                show,
                list_max,
                count_limit,
                deadline,
                as_json,
                json_max,
                block,
                svg_path,
            )
        raise SystemExit(code)
    guard = time_guard(deadline, grace=0.3)
    with guard, progress("grid: enumerating", enabled=not as_json) as tick:
        res = solve(
            SPEC, GridCase(board, tokens, not all_orientations, sym), "matching",
            time_limit=deadline.remaining(),
            on_progress=lambda nodes, found: tick.update(stage=f"{nodes:,} nodes, {found} found"),
        )  # fmt: skip
    e: GridEnumeration = res.solution
    _svg(svg_path, board, e.quadruples[0].example if e.quadruples else {}, tokens)
    # A listing is never OPTIMAL: FEASIBLE when it found something (complete or not, see
    # "complete"), INFEASIBLE when it finished with nothing, UNKNOWN when stopped with nothing.
    status = res.status.value
    interrupted = e.stopped == "interrupted"
    if as_json:
        n = float(e.count)
        echo_json(
            result_row(
                base, status=status, objective=n if e.count else None,
                bound=n if e.complete and e.count else None,
                gap=0.0 if e.complete and e.count else None, method=res.method,
                verified=res.verified,
                wall_time=e.wall_time,
                solution=[list(q.suffixes) for q in e.quadruples[:json_max]],
                counts={"quadruples": e.count}, interrupted=interrupted, complete=e.complete,
                stopped=e.stopped, orbit_size=e.orbit_size, count=e.count, stats=e.stats,
                quadruples=[q.to_dict(board) for q in e.quadruples[:json_max]],
            )
        )  # fmt: skip
    else:
        click.echo("\n".join(_header(board, tokens, sym.order)))
        what = (
            f"one per class of {e.orbit_size} rotations/reflections"
            if not all_orientations
            else "every orientation"
        )
        click.echo(
            f"found    {e.count} suffix quadruples with a full board ({what}) "
            f"in {e.wall_time:.2f} s"
            + ("" if e.complete else f" [INCOMPLETE: stopped by {_STOPPED[e.stopped or '']}]")
        )
        for i, q in enumerate(e.quadruples[:show], 1):
            named = " ".join(
                f"{s}={t}" for s, t in zip(board.suffix_slots, q.suffixes, strict=True)
            )
            click.echo(f"\n#{i}  {named}")
            _show_board(board, q.example)
        if e.count:
            click.echo(f"\nquadruples ({', '.join(board.suffix_slots)}):")
            rows = [" ".join(q.suffixes) for q in e.quadruples[:list_max]]
            for j in range(0, len(rows), 6):
                click.echo("  " + "  |  ".join(rows[j : j + 6]))
            if e.count > list_max:
                click.echo(f"  ... {e.count - list_max} more (--limit N or --json for all)")
    if e.count == 0 and e.complete and not as_json:
        click.echo("no suffix quadruple admits a full board")
    raise SystemExit(exit_status(status, interrupted))


def _svg(path: str | None, board: Board, fill: dict[str, str], tokens: GridTokens) -> None:
    """``--svg``: the board shown, wrong words and tokens marked (cpwords.grid.draw)."""
    if path is None:
        return
    from cpwords.grid.draw import grid_svg, problem_marks

    words = set(tokens.words)
    edges, slots = problem_marks(board, fill, words, tokens.suffix_length, tokens.min_prefix)
    write_svg(path, grid_svg(board, fill, bad_edges=edges, bad_slots=slots))


def _run_unique(
    board: Board,
    tokens: GridTokens,
    sym: Any,
    base: dict[str, Any],
    show: int,
    list_max: int,
    count_limit: int | None,
    deadline: Deadline,
    as_json: bool,
    json_max: int | None = None,
    block: Blocklist | None = None,
    svg_path: str | None = None,
) -> int:
    from collections import Counter

    from cpwords.grid.models.design import design_grid_puzzles

    with progress("grid: enumerating and counting", enabled=not as_json):
        d = design_grid_puzzles(
            board, tokens, symmetry=sym, count_limit=count_limit,
            time_limit=deadline.remaining(),
        )  # fmt: skip
    uniq = d.unique
    others = [p for p in d.puzzles if not p.unique]
    withheld = 0
    if block:  # unique on the whole lexicon, but not to be printed
        clean = [p for p in uniq if not block.any_blocked(board_words(board, p.example))]
        withheld = len(uniq) - len(clean)
        uniq = tuple(clean)
        base = base | {"blocklist": {"source": block.source, "withheld": withheld}}
    _svg(svg_path, board, uniq[0].example if uniq else {}, tokens)
    # Complete: the unique puzzles are all of them (none: INFEASIBLE); stopped: those found in
    # the classes counted so far (FEASIBLE, or UNKNOWN when none yet).
    status = listing_status(len(uniq), d.complete).value
    interrupted = d.stopped == "interrupted"
    if as_json:
        n = float(len(uniq))
        exact = d.complete and bool(uniq)
        echo_json(
            result_row(
                base, status=status, objective=n if uniq else None,
                bound=n if exact else None, gap=0.0 if exact else None, method="grid-design",
                solution=[list(p.suffixes) for p in uniq[:json_max]],
                counts={"classes": len(d.puzzles), "unique": len(uniq)},
                verified=True if uniq else None,  # re-solved independently, else CheckError
                interrupted=interrupted,
            ) | {"complete": d.complete, "stopped": d.stopped,
                    "orbit_size": d.orbit_size, "classes": len(d.puzzles),
                    "unique_count": len(uniq), "count_limit": count_limit,
                    "wall_time": d.wall_time,
                    "stats": {k: v for k, v in d.stats.items() if k != "counts"},
                    "quadruples": [p.to_dict(board) for p in uniq[:json_max]],
                    "others": [{"suffixes": list(p.suffixes), "count": p.count_up_to_symmetry,
                                "count_exact": p.count_exact} for p in others[:json_max]]}
        )  # fmt: skip
        return exit_status(status, interrupted)
    click.echo("\n".join(_header(board, tokens, sym.order)))
    if not d.complete:
        click.echo(f"[INCOMPLETE: stopped by {_STOPPED[d.stopped or '']}; the classes counted "
                   "so far]")  # fmt: skip
    click.echo(
        f"unique   {len(uniq)} of {len(d.puzzles):,} puzzle classes have exactly one full board "
        f"up to symmetry (enumerated in {d.stats['enumerate_time']:.2f} s, counted in "
        f"{d.stats['count_time']:.2f} s)"
    )
    if block is not None and withheld:
        click.echo(
            f"withheld {withheld} more whose answer shows a blocked word ({block.source}; "
            "--no-blocklist shows them)"
        )
    hist = Counter(p.count_up_to_symmetry for p in d.puzzles)
    top = ", ".join(f"{c:,}: {n:,}" for c, n in sorted(hist.items())[:8])
    click.echo(f"boards   classes by completions (up to symmetry): {top}" +
               (", ..." if len(hist) > 8 else ""))  # fmt: skip
    for i, p in enumerate(uniq, 1):
        named = " ".join(f"{s}={t}" for s, t in zip(board.suffix_slots, p.suffixes, strict=True))
        df = p.difficulty
        assert df is not None
        click.echo(
            f"\n#{i}  {named}  difficulty {df.score:.2f} ({df.search_nodes} partial fills; "
            f"words Zipf min {df.min_zipf:.2f}, mean {df.mean_zipf:.2f})"
        )
        if i <= show:
            _show_board(board, p.example)
    if others and list_max:
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
    if not uniq:
        click.echo("no suffix quadruple has a unique full board" + ("" if d.complete else " yet"))
    return exit_status(status, interrupted)


_STOPPED = {"time_limit": "the time limit", "interrupted": "Ctrl-C", "": "?"}
