"""``cpwords letterboxed``: proven fewest-word Letter Boxed solutions, counts and a checker."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import click

from cpwords.cli._common import (
    EPILOG,
    Deadline,
    TimeLimitReached,
    answer,
    blocklist_options,
    check_row,
    echo_json,
    exit_status,
    force_option,
    lang_options,
    one_stdin,
    progress,
    result_row,
    shared_options,
    time_guard,
)
from cpwords.cli._letterboxed_common import (
    lexicon_text,
    load_lexicon,
    refuse_design_options,
    refuse_unused,
    refuse_with_from,
    refuse_with_generate,
)
from cpwords.cli._letterboxed_generate import Design, run_generate
from cpwords.cli._letterboxed_generate import difficulty_text as difficulty_text
from cpwords.cli._svg import check_svg_target, png_option, puzzle_option, svg_option, write_svg
from cpwords.core.alphabet import foreign_letters
from cpwords.core.blocklist import load_blocklist
from cpwords.core.errors import InputError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.lexicon import Lexicon, check_language_code
from cpwords.core.result import SolveResult, Status, counted
from cpwords.letterboxed.draw import box_svg, puzzle_svg
from cpwords.letterboxed.models.answers import ANSWER_ZIPF, MAX_ZIPF, OTHER_ANSWER_ZIPF
from cpwords.letterboxed.models.design import MAX_BOXES
from cpwords.letterboxed.models.dp import DEFAULT_LEXICON_SIZE, LetterBoxedSolver
from cpwords.letterboxed.rules import (
    MAX_LETTERS,
    WORD_WEIGHT,
    LetterBox,
    box_script_problem,
    letterboxed_problems,
    parse_box,
    score,
    split_solution,
)
from cpwords.letterboxed.spec import (
    HINT_LEVELS,
    METHODS,
    SPEC,
    continue_row,
    finish_box,
    position_lines,
    solve_box_stoppable,
)

_HELP = f"""Solve a Letter Boxed puzzle with the fewest words.

The optimum is the fewest words, then the fewest letters.

SIDES is the box, as one argument abc-def-ghi-jkl or four (abc def ghi jkl): 4 sides of 3
distinct letters of any script (--lang fr: éra-tlo-sni-cuè; --any-shape: other shapes, k
sides of m letters, up to 16 letters). A playable word has 3+
letters, only box letters, and never two consecutive letters from one side; each word starts
with the last letter of the previous one; a solution uses every letter.

Methods: dp (default) is exact: a layered dynamic programme over (letters still needed,
current letter) whose exhaustive finish proves the optimum; cpsat is the set-cover model with
chained word slots in CP-SAT; seed-first and seed-best are the seed article's two-word pair
search (the first pair it finds, or its fewest-letter pair: baselines that prove nothing).
The default dictionary: the language's dictionary, cut to its {DEFAULT_LEXICON_SIZE:,} most
common words (ranked by wordfreq; a fixed cut, no option changes it: --dict NAME reads a whole
list, e.g. --dict wfrench); --generate reads all of it, so that a box's uniqueness counts every
word. For English, wamerican's a-z words (about 64,000: all of them), or Webster's 2nd (web2,
always installed) where wamerican is not; for another --lang, its curated dictionary (wfrench,
wngerman, ...: cpwords lexicons lists them and how to install them), proper nouns left out
unless --proper-nouns, or wordfreq's list where the language has no dictionary. The output
says which list was used.

Modes: solve (default; --all lists every optimal solution, --max-words K counts all solutions
of at most K words and --list lists them); --from WORD,... takes the words played so far (each
a playable word of the dictionary, chained) and says whether the box is still solvable and the
proven fewest words that finish it (--all: every such finish); --hint 1, 2 or 3 gives instead
the next word of such a finish: its first letter, its length too, or the word; --check FILE
or --check-text "WORD WORD" checks a proposed solution (words separated by spaces, commas or
dashes); --generate K makes K new boxes (no SIDES): 12 distinct letters (--shape KxM: K sides
of M) dealt from an answer of two chained common words (wordfreq Zipf >= --min-zipf, by
language; --seed), never a letter and its accented twin (--allow-accent-twins), or with
--min-zipf 0 drawn by letter frequency (English: Norvig's table, other languages: the letters
of the dictionary); each kept only when its fewest-word solution is proven to be 2 words
(--unique: exactly one 2-word solution; --max-solutions N, --min-playable M, --max-draws D),
the optimum, the counts and --unique read in the whole dictionary and recounted by an
independent brute force; with --svg or --png it draws the first box to play (its letters, no
answer). --puzzle makes --svg and --png draw a given box the same way (its letters and the
proven fewest words, no word of the answer).

JSON, beyond the conventions below: objective and bound are 1000 * words + letters (lower is
better); num_words, num_letters, box, lexicon, lexicon_size (its words, as in every
subcommand), lexicon_size_3plus (those of 3+ letters, the ones a box can use), lang, fold_accents,
playable_words; with --all optimal_solutions and n_optimal; with --max-words max_words,
counts {{"1": n1, "2": n2, ...}}, count_total, count_wall_time and solutions (with --list);
with --generate solution (the boxes), requested, found, complete, stopped, draws, rejected,
min_zipf, allow_accent_twins, blocklist (source: the lists used) and boxes (each with its
answer, answer_zipf, counts, difficulty and verification); with --from or --hint solution
(the finish: the words still to play; null with --hint), num_words and num_letters (the
finish's), plays, letters_used, letters_left, next_letter, solvable and, with --hint, hint
{{level, words_left, first_letter, length, word}}.
"""


#: Options that only tune a solve (refused with --check).
def _shape(text: str) -> tuple[int, int]:
    """``"KxM"`` -> (K, M), at least 2 sides of 1+ letters, at most 16 letters."""
    k, sep, m = text.lower().partition("x")
    if not (sep and k.isdigit() and m.isdigit()):
        raise InputError(f"--shape is K sides x M letters, like 4x3 or 3x4, not {text!r}")
    shape = int(k), int(m)
    if shape[0] < 2 or shape[1] < 1 or shape[0] * shape[1] > MAX_LETTERS:
        raise InputError(f"--shape {text}: at least 2 sides and at most {MAX_LETTERS} letters")
    return shape


def _box(
    sides: tuple[str, ...],
    any_shape: bool,
    lang: str = "en",
    fold: bool = False,
    shape: tuple[int, int] = (4, 3),
) -> LetterBox:
    if not sides:
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    return parse_box(list(sides), shape=None if any_shape else shape, lang=lang, fold=fold)


def _usable(box: LetterBox, solver: LetterBoxedSolver) -> None:
    """Refuse a box holding a letter that no word of the lexicon has (bad input, exit 2)."""
    problem = foreign_letters(box.letters, solver.letters, solver.source)
    if problem is not None:
        raise InputError(f"box {box}: {problem}")


def _run_check(
    box: LetterBox,
    text: str,
    lex: Lexicon | None,
    as_json: bool,
    lang: str = "en",
    fold: bool = False,
) -> int:
    words = split_solution(text, lang, fold)
    problems = letterboxed_problems(box, words, lex.as_set() if lex is not None else None)
    n_words, n_letters = score(words)
    if as_json:
        echo_json(
            check_row(
                not problems,
                problems,
                words,
                WORD_WEIGHT * n_words + n_letters if words else None,
                box=str(box),
                num_words=n_words,
                num_letters=n_letters,
                lexicon=lex.source if lex is not None else None,
            )
        )
    elif problems:
        click.echo(f"invalid: {'-'.join(w.upper() for w in words)}")
        for p in problems:
            click.echo(f"  - {p}")
    else:
        size = f"{counted(n_words, 'word')}, {counted(n_letters, 'letter')}"
        click.echo(f"valid: {'-'.join(w.upper() for w in words)} ({size})")
    return 0 if not problems else 1


@dataclass(frozen=True)
class _Args:
    """The command's arguments, as click parses them (see the options of :func:`letterboxed`)."""

    sides: tuple[str, ...]
    dict_path: str | None
    all_solutions: bool
    max_words: int | None
    list_solutions: bool
    plays: str | None
    hint: int | None
    limit: int | None
    method: str
    time_limit: float
    workers: int
    seed: int
    check_file: str | None
    check_text: str | None
    any_shape: bool
    shape: str
    lang: str
    fold_accents: bool
    proper_nouns: bool
    generate: int | None
    unique: bool
    max_solutions: int | None
    min_playable: int
    max_draws: int | None
    difficulty: str | None
    min_zipf: float | None
    allow_accent_twins: bool
    svg_path: str | None
    force: bool
    png_path: str | None
    puzzle: bool
    blocklist_file: str | None
    no_blocklist: bool
    as_json: bool


@click.command("letterboxed", help=_HELP, epilog=EPILOG)
@click.argument("sides", nargs=-1)
@click.option("--all", "all_solutions", is_flag=True, help="List every optimal solution.")
@click.option(
    "--max-words",
    type=click.IntRange(min=1),
    metavar="K",
    help="Count all solutions with at most K words (exact, per word count).",
)
@click.option("--list", "list_solutions", is_flag=True, help="With --max-words: list them too.")
@click.option(
    "--from",
    "plays",
    metavar="WORD,...",
    help="The words played so far: is the box still solvable, and the proven fewest words that "
    "finish it.",
)
@click.option(
    "--hint",
    type=click.IntRange(min=1, max=3),
    metavar="LEVEL",
    help="The next word of a fewest-word finish (from --from, else from the start): "
    + "; ".join(f"{k}: {v}" for k, v in HINT_LEVELS.items())
    + ".",
)
@click.option(
    "--method",
    "-m",
    type=click.Choice(list(METHODS)),
    default=SPEC.default_method,
    show_default=True,
    help="; ".join(f"{m}: {i.description}" for m, i in METHODS.items()) + ".",
)
@click.option("--any-shape", is_flag=True, help="Accept boxes of other shapes (<= 16 letters).")
@click.option(
    "--shape",
    metavar="KxM",
    default="4x3",
    show_default=True,
    help="Boxes of K sides of M letters (at most 16 letters): the shape SIDES must have, and "
    "the shape --generate draws.",
)
@lang_options(
    f"the default dictionary (the language's dictionary, at most its {DEFAULT_LEXICON_SIZE:,} "
    "most common words, all with --generate: English, wamerican or web2 where it is not "
    "installed; others, e.g. wfrench: cpwords lexicons lists them; wordfreq's list where it "
    "has none)"
)
@click.option(
    "--generate",
    "generate",
    type=click.IntRange(min=1, max=MAX_BOXES),
    metavar="K",
    help=f"Generate K new boxes with a proven 2-word optimum (no SIDES; K at most {MAX_BOXES:,}).",
)
@click.option("--unique", is_flag=True, help="With --generate: exactly one 2-word solution.")
@click.option(
    "--max-solutions",
    type=click.IntRange(min=1),
    metavar="N",
    help="With --generate: at most N 2-word solutions.",
)
@click.option(
    "--min-playable",
    type=click.IntRange(min=0),
    default=0,
    metavar="M",
    help="With --generate: at least M playable words.",
)
@click.option(
    "--max-draws",
    type=click.IntRange(min=1),
    metavar="D",
    help="With --generate: give up after D drawn boxes (default 1000 * K).",
)
@click.option(
    "--difficulty",
    type=click.Choice(["easy", "medium", "hard"]),
    default=None,
    help="With --generate: only boxes of this difficulty (box_difficulty's score: easy below "
    "2, medium 2 to 3, hard 3 and up).",
)
@click.option(
    "--min-zipf",
    type=click.FloatRange(min=0, max=MAX_ZIPF),
    metavar="Z",
    default=None,
    help="With --generate: the answer's words have a wordfreq Zipf frequency of at least Z "
    "(0: no floor). Default by --lang: "
    + ", ".join(f"{k} {v:g}" for k, v in ANSWER_ZIPF.items())
    + f", other wordfreq languages {OTHER_ANSWER_ZIPF:g}, else 0. The proof, the counts and "
    "--unique still read the whole dictionary.",
)
@click.option(
    "--allow-accent-twins",
    is_flag=True,
    help="With --generate: let a box hold a letter and its accented twin (o and ó).",
)
@svg_option(
    "the box with the solution's path drawn word by word (with --generate: the first box to "
    "play, its letters only, no answer)"
)
@png_option("the box and the solution's path (with --generate: the first box, no answer)")
@puzzle_option(
    "the box and its letters, no word, the caption naming the proven fewest words (what "
    "--generate draws of its first box)"
)
@force_option()
@blocklist_options()
@shared_options(
    dictionary=f"the language's dictionary, at most its {DEFAULT_LEXICON_SIZE:,} most common "
    "words; all of it with --generate",
    limit="all",
    check=True,
    time_limit=60.0,
    workers=1,
    seed=True,
)
@click.pass_context
def letterboxed(ctx: click.Context, **options: Any) -> None:
    a = _Args(**options)
    deadline = Deadline(a.time_limit)
    check_language_code(a.lang)
    box_shape = _shape(a.shape)
    checking = a.check_file is not None or a.check_text is not None
    if ((a.svg_path or a.png_path) is not None or a.puzzle) and checking:
        raise InputError("--svg, --png and --puzzle draw a solve or a box to play: drop --check")
    check_svg_target(a.svg_path, a.force, a.png_path, a.puzzle)
    if a.generate is not None:
        ctx.exit(_generate_mode(ctx, a, box_shape, deadline))
    refuse_design_options(
        a.blocklist_file,
        a.no_blocklist,
        a.unique,
        a.max_solutions,
        a.min_playable,
        a.max_draws,
        a.difficulty,
        a.min_zipf is not None or a.allow_accent_twins,
    )
    box = _box(a.sides, a.any_shape, a.lang, a.fold_accents, box_shape)
    wrong = box_script_problem(box, a.lang) if a.dict_path is None else None
    if wrong is not None:  # the default list of --lang: a box of another script is no puzzle
        raise InputError(wrong)
    one_stdin({"--dict": a.dict_path, "--check": a.check_file})
    refuse_unused(ctx, a.check_file, a.check_text, a.method, a.list_solutions, a.all_solutions)
    proposed = answer(a.check_file, a.check_text, "proposed solution")
    if proposed is not None:
        # Every word must be in the dictionary: --dict, else the default one (as the solver and
        # grid --check-text use).
        lex = load_lexicon(a.dict_path, a.lang, a.fold_accents, a.proper_nouns)
        ctx.exit(_run_check(box, proposed[0], lex, a.as_json, a.lang, a.fold_accents))
    if a.plays is not None or a.hint is not None:
        refuse_with_from(ctx, a.method, a.max_words, a.list_solutions, a.all_solutions, a.hint)
        ctx.exit(_run_from(box, _Position(a.plays, a.hint, a.all_solutions), a, deadline))
    ctx.exit(_solve_mode(box, a, deadline))


def _generate_mode(
    ctx: click.Context, a: _Args, box_shape: tuple[int, int], deadline: Deadline
) -> int:
    """--generate: refuse what it cannot use, make the boxes, show them; the exit status."""
    refuse_with_generate(
        ctx,
        a.sides,
        a.check_file is not None or a.check_text is not None,
        a.all_solutions,
        a.max_words,
        a.list_solutions,
        a.method,
        a.any_shape,
        a.plays is not None or a.hint is not None,
    )
    design = Design(
        a.unique,
        a.max_solutions,
        a.min_playable,
        a.max_draws,
        box_shape,
        a.difficulty,
        a.min_zipf,
        a.allow_accent_twins,
    )
    block = load_blocklist(a.blocklist_file, enabled=not a.no_blocklist, lang=a.lang)
    return run_generate(
        a.generate or 0,
        a.dict_path,
        design,
        a.seed,
        deadline,
        a.as_json,
        block,
        a.lang,
        a.fold_accents,
        a.proper_nouns,
        (a.svg_path, a.png_path),
    )


def _solve_mode(box: LetterBox, a: _Args, deadline: Deadline) -> int:
    """The solve (--all, --max-words, --list): solve, count, show; the exit status."""
    if a.method != "dp" and (a.all_solutions or a.max_words):
        raise InputError("--all and --max-words need --method dp")
    if a.list_solutions and not a.max_words:
        raise InputError("--list needs --max-words K")
    list_limit = a.limit if a.list_solutions else 0
    opts = _SolveOptions(
        a.method, a.time_limit, a.workers, a.seed, a.all_solutions, a.max_words, list_limit
    )
    solved = _solve(
        box, a.dict_path, a.lang, a.fold_accents, opts, deadline, a.as_json, a.proper_nouns
    )
    out = _solve_row(
        solved, box, a.lang, a.fold_accents, a.all_solutions, a.limit, a.list_solutions
    )
    res = solved.result
    fewest = out["num_words"] if res.status is Status.OPTIMAL else None
    _box_picture(box, a, (res.solution or [], res.status.value), fewest)
    if a.as_json:
        echo_json(out)
    else:
        _print_human(out, solved.result)
    if out["interrupted"] and not a.as_json:
        why = interrupt_name()
        click.echo(f"cpwords: interrupted ({why}): the answer above is the best so far", err=True)
    return exit_status(solved.result.status.value, out["interrupted"])


def _box_picture(
    box: LetterBox, a: _Args, drawn: tuple[list[str], str], fewest: int | None
) -> None:
    """``--svg``, ``--png``: the box with the words of ``drawn`` (the words, the status said in
    the caption), or with --puzzle the box to play, no word, its caption naming ``fewest`` (the
    proven fewest words, or None) as :func:`cpwords.letterboxed.draw.puzzle_svg` draws it for
    --generate and the page's ``/letterboxed/puzzle.svg``."""
    if a.svg_path is None and a.png_path is None:
        return
    words, status = drawn
    svg = puzzle_svg(box, fewest) if a.puzzle else box_svg(box, words, note=status)
    write_svg(a.svg_path, svg, a.png_path)


# ---- Solve -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Solved:
    """A solve's result, the solver (its lexicon), and the count of --max-words if any."""

    result: SolveResult
    solver: LetterBoxedSolver
    count: Any = None
    count_stopped: str | None = None


@dataclass(frozen=True)
class _SolveOptions:
    """How to solve: the method and its limits, and what to list or count."""

    method: str
    time_limit: float
    workers: int
    seed: int
    all_solutions: bool
    max_words: int | None
    list_limit: int | None


def _solve(
    box: LetterBox,
    dict_path: str | None,
    lang: str,
    fold: bool,
    opts: _SolveOptions,
    deadline: Deadline,
    as_json: bool,
    proper: bool = False,
) -> _Solved:
    """Load the lexicon, solve the box, and count its solutions of at most ``max_words``."""
    with progress("letterboxed", enabled=not as_json) as tick:
        tick.update(stage="loading the lexicon")
        with time_guard(deadline):
            solver = LetterBoxedSolver(load_lexicon(dict_path, lang, fold, proper))
        _usable(box, solver)
        tick.update(stage=f"solving ({opts.method})")
        result = _solve_box(box, solver, opts, deadline)
        if not opts.max_words or result.solver_info.get("interrupted"):
            return _Solved(result, solver)
        tick.update(stage="counting")
        try:
            with time_guard(deadline):
                count = solver.count(box, max_words=opts.max_words, list_limit=opts.list_limit)
        except KeyboardInterrupt:
            return _Solved(result, solver, count_stopped="interrupted")
        except TimeLimitReached:
            return _Solved(result, solver, count_stopped="time_limit")
    return _Solved(result, solver, count)


def _solve_box(
    box: LetterBox, solver: LetterBoxedSolver, opts: _SolveOptions, deadline: Deadline
) -> SolveResult:
    """Solve by ``opts.method``; on Ctrl-C, what the DP knows (or UNKNOWN)."""
    # CP-SAT keeps its own limit (and returns its best so far); the rest is pure Python.
    with time_guard(deadline) if opts.method != "cpsat" else contextlib.nullcontext():
        return solve_box_stoppable(
            box,
            solver,
            method=opts.method,
            all_solutions=opts.all_solutions,
            time_limit=deadline.remaining() or opts.time_limit,
            workers=opts.workers,
            seed=opts.seed,
        )


def _solve_row(
    solved: _Solved,
    box: LetterBox,
    lang: str,
    fold_accents: bool,
    all_solutions: bool,
    limit: int | None,
    list_solutions: bool,
) -> dict[str, Any]:
    """The JSON row of a solve (the text output prints from it too)."""
    result, solver = solved.result, solved.solver
    info = dict(result.solver_info)
    if solved.count_stopped == "interrupted":
        info["interrupted"] = True
    words = result.solution
    n_words, n_letters = score(words) if words else (None, None)
    # The result's own row, without solver_info (with --all it holds every optimal solution,
    # listed below up to --limit) and the trace.
    out: dict[str, Any] = {
        k: v for k, v in result.to_dict().items() if k not in ("solver_info", "trace")
    }
    out |= {
        "num_words": n_words,
        "num_letters": n_letters,
        "box": str(box),
        "lexicon": solver.source,
        "lexicon_size": len(solver.lexicon),
        "lexicon_size_3plus": solver.size,
        "lang": lang,
        "fold_accents": fold_accents,
        "playable_words": info.get("playable_words", len(solver.playable(box))),
    }
    if "reason" in info:
        out["reason"] = info["reason"]
    elif info.get("interrupted") and not words:
        least = f": at least {counted(info['min_words'], 'word')}" if "min_words" in info else ""
        out["reason"] = f"interrupted ({interrupt_name()}) before a solution was found{least}"
    out["interrupted"] = bool(info.get("interrupted"))
    if all_solutions and "optimal_solutions" in info:
        sols = info["optimal_solutions"]
        out["n_optimal"] = len(sols)
        out["optimal_solutions"] = sols[:limit] if limit is not None else sols
    _count_keys(out, solved, list_solutions)
    return result_row(out)


def _count_keys(out: dict[str, Any], solved: _Solved, list_solutions: bool) -> None:
    """Add the --max-words count to the row (or why it stopped, said on stderr too)."""
    if solved.count_stopped is not None:
        out["count_stopped"] = solved.count_stopped
        why = interrupt_name() if solved.count_stopped == "interrupted" else "the time limit"
        click.echo(f"cpwords: counting stopped by {why}; the solve's answer stands", err=True)
    count = solved.count
    if count is not None:
        out["max_words"] = count.max_words
        out["counts"] = {str(j + 1): c for j, c in enumerate(count.by_words)}
        out["count_total"] = count.total
        out["count_wall_time"] = count.wall_time
        if list_solutions:
            out["solutions"] = [list(s) for s in count.solutions]


def _print_human(out: dict[str, Any], result: SolveResult) -> None:
    rows: list[tuple[str, str]] = [
        ("box", out["box"]),
        ("lexicon", lexicon_text(out["lexicon"], out["lexicon_size"], out["lexicon_size_3plus"])),
        ("playable", counted(out["playable_words"], "word")),
    ]
    status = result.status
    if out["solution"]:
        proven = status is Status.OPTIMAL
        rows.append(("solution", "-".join(w.upper() for w in out["solution"])))
        rows.append(
            (
                "score",
                f"{counted(out['num_words'], 'word')}, {counted(out['num_letters'], 'letter')}"
                + (" (proven fewest words, then fewest letters)" if proven else ""),
            )
        )
    elif status is Status.INFEASIBLE:
        rows.append(("solution", f"none: {out.get('reason', 'no solution exists')}"))
    else:
        rows.append(("solution", f"none found ({out.get('reason', status.value)})"))
    rows.append(("status", f"{status.value} by {result.method} in {result.wall_time:.3f} s"))
    if "optimal_solutions" in out:
        shown = out["optimal_solutions"]
        rows.append(("optimal", f"{counted(out['n_optimal'], 'solution')}, {len(shown)} shown"))
    if out.get("counts") is not None:
        per = ", ".join(f"{c:,} with {counted(int(j), 'word')}" for j, c in out["counts"].items())
        total = counted(out["count_total"], "solution")
        rows.append(("count", f"{total} of <= {counted(out['max_words'], 'word')}"))
        rows.append(("", per))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        click.echo(f"{k:<{width}}  {v}")
    for sol in out.get("optimal_solutions", []):
        click.echo("  " + "-".join(w.upper() for w in sol))
    for sol in out.get("solutions", []):
        click.echo("  " + "-".join(w.upper() for w in sol))


# ---- --from and --hint ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Position:
    """Where the player stands: the --from words (as typed), the hint level, --all."""

    plays: str | None
    hint: int | None
    all_finishes: bool


def _run_from(box: LetterBox, here: _Position, a: _Args, deadline: Deadline) -> int:
    """--from and --hint: the position's proven finish (or hint), printed; the exit status."""
    lang, fold = a.lang, a.fold_accents
    if here.plays is not None and not split_solution(here.plays, lang, fold):
        raise InputError("--from needs the words played so far, like --from bead,dhl")
    with progress("letterboxed", enabled=not a.as_json) as tick:
        tick.update(stage="loading the lexicon")
        with time_guard(deadline):
            solver = LetterBoxedSolver(load_lexicon(a.dict_path, lang, fold, a.proper_nouns))
        _usable(box, solver)
        tick.update(stage="finishing from the plays")
        with time_guard(deadline):
            res, hint = finish_box(
                box,
                here.plays or "",
                solver,
                hint=here.hint,
                all_solutions=here.all_finishes,
                lang=lang,
                fold=fold,
            )
    out = continue_row(res, solver, hint, lang=lang, fold=fold, limit=a.limit)
    drawn = list(out["plays"]) + list(out["solution"] or [])
    # The fewest words from the start, when the finish starts there (no --from) and is proven.
    fewest = out["num_words"] or (out.get("hint") or {}).get("words_left")
    start = not out["plays"] and res.status is Status.OPTIMAL
    _box_picture(box, a, (drawn, res.status.value), fewest if start else None)
    if a.as_json:
        echo_json(out)
    else:
        _print_from(out, res)
    if out["interrupted"] and not a.as_json:
        click.echo(
            f"cpwords: interrupted ({interrupt_name()}) before the finish was found", err=True
        )
    return exit_status(res.status.value, out["interrupted"])


def _print_from(out: dict[str, Any], res: SolveResult) -> None:
    """The text of --from and --hint: the box, the lexicon, then where the player stands
    (:func:`~cpwords.letterboxed.spec.position_lines`, the lines the page shows), the status
    and every fewest finish (--all)."""
    rows: list[tuple[str, str]] = [
        ("box", out["box"]),
        ("lexicon", lexicon_text(out["lexicon"], out["lexicon_size"], out["lexicon_size_3plus"])),
        ("playable", counted(out["playable_words"], "word")),
        *position_lines(out),
        ("status", f"{res.status.value} by {res.method} in {res.wall_time:.3f} s"),
    ]
    if "optimal_solutions" in out:
        shown = out["optimal_solutions"]
        rows.append(
            ("fewest", f"{counted(out['n_optimal'], 'finish', 'finishes')}, {len(shown)} shown")
        )
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        click.echo(f"{k:<{width}}  {v}")
    for finish in out.get("optimal_solutions", []):
        click.echo("  " + "-".join(w.upper() for w in finish))
