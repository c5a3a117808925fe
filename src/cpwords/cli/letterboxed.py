"""``cpwords letterboxed``: proven fewest-word Letter Boxed solutions, counts and a checker."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from ..errors import InputError
from ..lexicon import Lexicon, load_lexicon
from ..models.letterboxed import (
    DEFAULT_LEXICON_SIZE,
    LetterBoxedSolver,
    default_lexicon,
)
from ..puzzles.letterboxed import (
    LetterBox,
    letterboxed_problems,
    parse_box,
    score,
    split_solution,
)
from ..result import SolveResult, Status
from ._common import (
    Deadline,
    echo_json,
    progress,
    reject_unused,
    seed_option,
    time_guard,
    time_limit_option,
    workers_option,
)

_HELP = f"""Solve a Letter Boxed puzzle: proven fewest words, then fewest letters.

SIDES is the box as one argument ``abc-def-ghi-jkl`` or as four arguments ``abc def ghi jkl``
(4 sides of 3 distinct letters a-z). A playable word has 3+ letters, only box letters, and
never two consecutive letters from one side; each word starts with the last letter of the
previous one; a solution uses every letter, and ends as soon as it has.

\b
Lexicon: --dict FILE (one word per line; extra columns and '*' marks are ignored), else the
built-in list: wordfreq's {DEFAULT_LEXICON_SIZE:,} most frequent English entries, a-z only
(about 93,600 words; a frequency list, so it holds some names and abbreviations).

\b
Methods: dp (default) is exact and fast: a layered dynamic programme over (letters still
needed, current letter) whose exhaustive finish proves the optimum; cpsat is the set-cover
model with chained word slots in CP-SAT; seed is the seed article's two-word pair search
(a baseline that proves nothing).

\b
--json prints one object with the keys:
  status        OPTIMAL | INFEASIBLE (no solution) | FEASIBLE | UNKNOWN
  solution      list of words (null without a solution)
  num_words, num_letters   the solution's score
  objective, bound         1000 * words + letters (lower is better)
  wall_time     seconds (solve only, lexicon loading excluded)
  method, verified, box, lexicon, lexicon_size, playable_words
  with --all:   optimal_solutions (lists of words), n_optimal
  with --max-words K: max_words, counts ({{"1": n1, "2": n2, ...}}), count_total,
                count_wall_time, solutions (with --list)
  with --check: valid (bool), problems (list of str), num_words, num_letters

  interrupted   true when Ctrl-C stopped the solve (the answer is the best so far)

\b
--generate K makes K new boxes instead (no SIDES): 12 distinct letters drawn by English
letter frequency (--seed), each kept only when its fewest-word solution is proven to be 2
words; --unique demands exactly one 2-word solution, --max-solutions N at most N,
--min-playable M at least M playable words. Every box is recounted by an independent brute
force before it is printed. --json prints one object: requested, found, complete, draws,
rejected, seed, lexicon, unique, max_solutions, min_playable, max_draws, wall_time and boxes
(each: box, status, num_words, num_letters, solution, counts {"1", "2", "3"}, unique,
two_word_solutions, playable_words, verified, difficulty, common_words, common_solutions).

Exit status: 0 solved (or --check valid, or all K boxes generated), 1 no solution (or --check
invalid, or fewer than K boxes within --max-draws), 2 bad input, 130 interrupted
(Ctrl-C).
"""


def _load(dict_path: str | None) -> Lexicon:
    return load_lexicon(dict_path) if dict_path else default_lexicon()


def _box(sides: tuple[str, ...], any_shape: bool) -> LetterBox:
    if not sides:
        raise InputError("give the box, like abc-def-ghi-jkl or abc def ghi jkl")
    return parse_box(list(sides), shape=None if any_shape else (4, 3))


def _run_check(box: LetterBox, text: str, lex: Lexicon | None, as_json: bool) -> int:
    words = split_solution(text)
    problems = letterboxed_problems(box, words, lex.as_set() if lex is not None else None)
    n_words, n_letters = score(words)
    if as_json:
        echo_json(
            {
                "box": str(box),
                "solution": words,
                "valid": not problems,
                "problems": problems,
                "num_words": n_words,
                "num_letters": n_letters,
                "lexicon": lex.source if lex is not None else None,
            }
        )
    elif problems:
        click.echo(f"invalid: {'-'.join(w.upper() for w in words)}")
        for p in problems:
            click.echo(f"  - {p}")
    else:
        click.echo(
            f"valid: {'-'.join(w.upper() for w in words)} ({n_words} words, {n_letters} letters)"
        )
    return 0 if not problems else 1


def _solve(
    solver: LetterBoxedSolver,
    box: LetterBox,
    method: str,
    all_solutions: bool,
    time_limit: float,
    workers: int = 1,
    seed: int = 0,
) -> SolveResult:
    if method == "dp":
        return solver.solve(box, all_solutions=all_solutions)
    if method == "cpsat":
        from ..models.letterboxed_setcover import solve_letterboxed_setcover

        playable = [w for w, _ in solver.playable(box)]
        return solve_letterboxed_setcover(
            box,
            playable,
            time_limit=time_limit,
            workers=workers,
            seed=seed,
            lexicon=solver.lexicon.as_set(),
        )
    from ..heuristics.letterboxed import seed_baseline

    return seed_baseline(box, solver.lexicon.words)


@click.command("letterboxed", help=_HELP)
@click.argument("sides", nargs=-1)
@click.option(
    "--dict",
    "dict_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Lexicon file, '-' for stdin (default: built-in).",
)
@click.option("--all", "all_solutions", is_flag=True, help="List every optimal solution.")
@click.option(
    "--max-words",
    type=click.IntRange(min=1),
    help="Count all solutions with at most K words (exact, per word count).",
)
@click.option("--list", "list_solutions", is_flag=True, help="With --max-words: list them too.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help="With --list or --all: print at most N solutions.",
)
@click.option(
    "--method",
    "-m",
    type=click.Choice(["dp", "cpsat", "seed"]),
    default="dp",
    show_default=True,
    help="dp: exact DP; cpsat: CP-SAT set-cover model; seed: the seed's two-word search.",
)
@time_limit_option(60.0, "cpsat returns its best so far, dp stops with a message")
@workers_option(1)
@seed_option()
@click.option("--check", "check_text", help='Check a proposed solution, e.g. "WORD WORD".')
@click.option("--any-shape", is_flag=True, help="Accept boxes of other shapes (<= 16 letters).")
@click.option(
    "--generate",
    "generate",
    type=click.IntRange(min=1),
    metavar="K",
    help="Generate K new boxes with a proven 2-word optimum (no SIDES).",
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
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (keys above).")
@click.pass_context
def letterboxed(
    ctx: click.Context,
    sides: tuple[str, ...],
    dict_path: str | None,
    all_solutions: bool,
    max_words: int | None,
    list_solutions: bool,
    limit: int | None,
    method: str,
    time_limit: float,
    workers: int,
    seed: int,
    check_text: str | None,
    any_shape: bool,
    generate: int | None,
    unique: bool,
    max_solutions: int | None,
    min_playable: int,
    max_draws: int | None,
    as_json: bool,
) -> None:
    deadline = Deadline(time_limit)
    if generate is not None:
        others = {
            "SIDES": bool(sides),
            "--check": check_text is not None,
            "--all": all_solutions,
            "--max-words": max_words is not None,
            "--list": list_solutions,
            "--method": method != "dp",
            "--any-shape": any_shape,
        }
        clash = [k for k, v in others.items() if v]
        if clash:
            raise InputError(f"--generate makes new boxes: drop {', '.join(clash)}")
        ctx.exit(
            _run_generate(
                generate, dict_path, unique, max_solutions, min_playable, seed, max_draws, as_json
            )
        )
    design = {
        "--unique": unique,
        "--max-solutions": max_solutions is not None,
        "--min-playable": min_playable != 0,
        "--max-draws": max_draws is not None,
    }
    lonely = [k for k, v in design.items() if v]
    if lonely:
        verb = "needs" if len(lonely) == 1 else "need"
        raise InputError(f"{' and '.join(lonely)} {verb} --generate K")
    box = _box(sides, any_shape)
    if method != "cpsat":
        reject_unused(ctx, f"--method {method}", {"workers": "--workers", "seed": "--seed"})
    if check_text is not None:
        # The rules need no lexicon; membership is checked only against a given --dict.
        lex = load_lexicon(dict_path) if dict_path else None
        ctx.exit(_run_check(box, check_text, lex, as_json))
    if method != "dp" and (all_solutions or max_words):
        raise InputError("--all and --max-words need --method dp")
    if list_solutions and not max_words:
        raise InputError("--list needs --max-words K")
    with progress("letterboxed", enabled=not as_json) as tick:
        tick.update(stage="loading the lexicon")
        with time_guard(deadline):
            solver = LetterBoxedSolver(_load(dict_path))
        tick.update(stage=f"solving ({method})")
        # CP-SAT keeps its own limit (and returns its best so far); the rest is pure Python.
        with time_guard(deadline) if method != "cpsat" else contextlib.nullcontext():
            result = _solve(
                solver, box, method, all_solutions, deadline.remaining() or time_limit, workers,
                seed,
            )  # fmt: skip
        count = None
        tick.update(stage="counting")
        if max_words:
            with time_guard(deadline):
                count = solver.count(
                    box, max_words=max_words, list_limit=(limit if list_solutions else 0)
                )
    info = dict(result.solver_info)
    words = result.solution
    n_words, n_letters = score(words) if words else (None, None)
    out: dict[str, Any] = {
        "status": result.status.value,
        "solution": words,
        "num_words": n_words,
        "num_letters": n_letters,
        "objective": result.objective,
        "bound": result.bound,
        "wall_time": result.wall_time,
        "method": result.method,
        "verified": result.verified,
        "box": str(box),
        "lexicon": solver.source,
        "lexicon_size": solver.size,
        "playable_words": info.get("playable_words", len(solver.playable(box))),
    }
    if "reason" in info:
        out["reason"] = info["reason"]
    out["interrupted"] = bool(info.get("interrupted"))
    out["gap"] = result.gap
    if all_solutions and "optimal_solutions" in info:
        sols = info["optimal_solutions"]
        out["n_optimal"] = len(sols)
        out["optimal_solutions"] = sols[:limit] if limit else sols
    if count is not None:
        out["max_words"] = count.max_words
        out["counts"] = {str(j + 1): c for j, c in enumerate(count.by_words)}
        out["count_total"] = count.total
        out["count_wall_time"] = count.wall_time
        if list_solutions:
            out["solutions"] = [list(s) for s in count.solutions]
    solved = result.status in (Status.OPTIMAL, Status.FEASIBLE)
    if as_json:
        echo_json(out)
    else:
        _print_human(out, result)
    if out["interrupted"]:
        if not as_json:
            click.echo(
                "cpwords: interrupted (Ctrl-C): the answer above is the best so far", err=True
            )
        ctx.exit(130)
    if not solved:
        ctx.exit(1)


def _print_human(out: dict[str, Any], result: SolveResult) -> None:
    rows: list[tuple[str, str]] = [
        ("box", out["box"]),
        ("lexicon", f"{out['lexicon']} ({out['lexicon_size']:,} words of 3+ letters)"),
        ("playable", f"{out['playable_words']:,} words"),
    ]
    status = result.status
    if out["solution"]:
        proven = status is Status.OPTIMAL
        rows.append(("solution", "-".join(w.upper() for w in out["solution"])))
        rows.append(
            (
                "score",
                f"{out['num_words']} words, {out['num_letters']} letters"
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
        rows.append(("optimal", f"{out['n_optimal']} solution(s), {len(shown)} shown"))
    if "counts" in out:
        per = ", ".join(f"{c:,} with {j} word(s)" for j, c in out["counts"].items())
        rows.append(("count", f"{out['count_total']:,} solutions of <= {out['max_words']} words"))
        rows.append(("", per))
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        click.echo(f"{k:<{width}}  {v}")
    for sol in out.get("optimal_solutions", []):
        click.echo("  " + "-".join(w.upper() for w in sol))
    for sol in out.get("solutions", []):
        click.echo("  " + "-".join(w.upper() for w in sol))


def _run_generate(
    k: int,
    dict_path: str | None,
    unique: bool,
    max_solutions: int | None,
    min_playable: int,
    seed: int,
    max_draws: int | None,
    as_json: bool,
) -> int:
    from ..models.letterboxed_design import generate_boxes

    if unique and max_solutions not in (None, 1):
        raise InputError(
            f"--unique means one 2-word solution; drop --max-solutions {max_solutions}"
        )
    with progress("letterboxed: loading the lexicon", enabled=not as_json):
        solver = LetterBoxedSolver(_load(dict_path))
    with progress(f"letterboxed: generating {k} boxes", enabled=not as_json):
        gen = generate_boxes(
            k,
            solver,
            seed=seed,
            unique=unique,
            max_solutions=max_solutions,
            min_playable=min_playable,
            max_draws=max_draws,
        )
    if as_json:
        echo_json(gen.to_dict() | {"lexicon_size": solver.size})
        return 0 if gen.complete else 1
    what = (
        "exactly one 2-word solution"
        if unique
        else (f"at most {max_solutions} 2-word solutions" if max_solutions else "2-word optimum")
    )
    click.echo(f"lexicon    {solver.source} ({solver.size:,} words of 3+ letters)")
    click.echo(
        f"generated  {len(gen.boxes)} of {k} boxes ({what}) from {gen.draws:,} draws "
        f"in {gen.wall_time:.2f} s (seed {seed})"
    )
    reasons = {
        "repeat": "repeated",
        "few_playable": f"fewer than {max(min_playable, 1)} playable words",
        "one_word": "a 1-word solution",
        "needs_3_or_more": "no 2-word solution",
        "too_many_2_word": "too many 2-word solutions",
    }
    rej = [f"{n:,} {reasons[r]}" for r, n in gen.rejected.items() if n]
    if rej:
        click.echo("rejected   " + ", ".join(rej))
    for i, b in enumerate(gen.boxes, 1):
        d = b.difficulty
        per = ", ".join(f"{c:,} of {j + 1} word(s)" for j, c in enumerate(b.counts))
        click.echo(f"\n#{i}  {b.box}")
        click.echo(
            f"    optimum     {'-'.join(w.upper() for w in b.solution)}: {b.words} words, "
            f"{b.letters} letters (proven fewest words, then fewest letters)"
        )
        click.echo(f"    solutions   {per} (verified: {b.verified})")
        click.echo(f"    playable    {b.playable_words:,} words")
        click.echo(
            f"    difficulty  {d.score:.2f} ({sum(d.common_solutions):,} solutions of <= 3 "
            f"common words, Zipf >= {d.zipf_threshold:g})"
        )
    if not gen.complete:
        click.echo(
            f"\nonly {len(gen.boxes)} of {k} boxes within {gen.settings['max_draws']:,} draws "
            "(raise --max-draws or relax the demands)"
        )
        return 1
    return 0
