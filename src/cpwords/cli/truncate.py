"""``cpwords truncate``: the longest valid Truncate sequence of a dictionary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from cpwords.cli._common import (
    CURATED,
    EPILOG,
    TRUNCATE_LIST,
    Deadline,
    alias,
    echo_json,
    exit_status,
    force_option,
    lang_options,
    progress,
    reject_unused,
    shared_options,
    time_guard,
)
from cpwords.cli._svg import check_svg_target, png_option, svg_option, write_svg
from cpwords.core.errors import InputError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.lexicon import MAX_ZIPF, Lexicon
from cpwords.core.result import SolveResult, counted


def load_dictionary(
    path: str | None,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    min_zipf: float = 0.0,
) -> Lexicon:
    """The ``--dict`` file or lexicon name, or without one the language's default: English,
    the game's own list (``truncate``, shipped with cpwords); French, ``wfrench``, ...; or
    wordfreq's whole list for a language without a dictionary
    (:func:`cpwords.truncate.spec.truncate_dictionary`, which the page reads too); with
    ``min_zipf``, only its words of at least that wordfreq Zipf frequency.

    Raises
    ------
    InputError
        A bad ``--dict`` file or name, or a dictionary that is not installed (one line with
        the command that installs it).
    """
    from cpwords.truncate.spec import truncate_dictionary

    return truncate_dictionary(path, lang, fold, proper, min_zipf)


@click.command("truncate", epilog=EPILOG)
@click.option("--start", "starting", metavar="WORD", help="Only sequences that start at this word.")
@click.option("--end", "ending", metavar="WORD", help="Only sequences that end at this word.")
@click.option(
    "--from",
    "from_word",
    metavar="WORD",
    help="Where the player stands: the longest continuation from WORD, and whether it is a "
    "dead end.",
)
# The old names, as `chain` had --start/--end: hidden aliases.
@click.option("--starting", "starting_old", metavar="WORD", hidden=True)
@click.option("--ending", "ending_old", metavar="WORD", hidden=True)
@click.option("--all", "all_sequences", is_flag=True, help="List every longest sequence.")
@click.option("--max-sequences", type=click.IntRange(min=0), default=None, hidden=True)
@click.option(
    "--min-zipf",
    type=click.FloatRange(min=0, max=MAX_ZIPF),
    metavar="Z",
    default=0.0,
    show_default=True,
    help="Only words a player knows: those with a wordfreq Zipf frequency of at least Z in "
    "--lang (3: once per million words of text; 0: every word of the dictionary).",
)
@svg_option("the longest sequence as a ladder, the letter added at each play marked")
@png_option("the ladder")
@force_option()
@lang_options(f"the default dictionary (English: the game's own list, truncate; {CURATED})")
@shared_options(dictionary=TRUNCATE_LIST, limit="all (with --all)", time_limit=None)
def truncate(
    dict_path: str | None,
    starting: str | None,
    ending: str | None,
    from_word: str | None,
    starting_old: str | None,
    ending_old: str | None,
    all_sequences: bool,
    limit: int | None,
    max_sequences: int | None,
    min_zipf: float,
    lang: str,
    fold_accents: bool,
    proper_nouns: bool,
    time_limit: float | None,
    as_json: bool,
    svg_path: str | None = None,
    force: bool = False,
    png_path: str | None = None,
) -> None:
    """Find the longest Truncate sequence and prove it.

    Each play adds one letter at either end of the word and every word must be in the
    dictionary (a, la, lap, laps, lapse, elapse, elapsed, relapsed). A longest-path DP with
    path counting on the word DAG gives one longest sequence (smallest word first), its length
    and the number of distinct longest sequences; --all lists them; --start and --end fix the
    first and last word (as in cpwords chain; --starting and --ending are their old names).
    --from WORD is help from where the player stands: the proven longest continuation from
    WORD, the words one play away, and whether WORD is a dead end (no play extends it).
    --min-zipf Z keeps only the dictionary's words of wordfreq Zipf frequency Z and up (3:
    once per million words of text), so the chain is made of words a player knows.

    JSON, beyond the conventions below: sequence, length, count, lexicon, lexicon_size,
    lexicon_skipped, lang, fold_accents, min_zipf, and with --all sequences and complete;
    with --from also from, plays_left, dead_end and next_words. Words are of any alphabet;
    --lang picks the language's list and case rules.
    """
    from cpwords.core.lexicon import check_language_code
    from cpwords.truncate.spec import truncate_query, truncate_row

    check_language_code(lang)
    starting = alias(starting, starting_old, "--start", "--starting")
    ending = alias(ending, ending_old, "--end", "--ending")
    max_sequences = alias(limit, max_sequences, "--limit", "--max-sequences")
    _refuse_unused(all_sequences, from_word, starting, ending)
    deadline = Deadline(time_limit)
    check_svg_target(svg_path, force, png_path)
    with time_guard(deadline):
        lex = load_dictionary(dict_path, lang, fold_accents, proper_nouns, min_zipf)
    with progress("truncate", enabled=not as_json) as tick:
        tick.update(stage="solving (and listing with --all)")
        # The listing keeps its own limit (what it listed is kept); the DP is guarded.
        with time_guard(deadline, grace=1.0):
            res = truncate_query(
                lex,
                starting=starting,
                ending=ending,
                from_word=from_word,
                all_sequences=all_sequences,
                max_sequences=max_sequences,
                time_limit=deadline.remaining(),
                lang=lang,
                fold=fold_accents,
            )
    sol = res.solution
    if (svg_path is not None or png_path is not None) and sol is not None:
        from cpwords.truncate.draw import ladder_svg

        write_svg(svg_path, ladder_svg(sol.sequence, note=res.status.value), png_path)
    if as_json:
        echo_json(truncate_row(res, lex, lang=lang, fold=fold_accents, min_zipf=min_zipf))
    else:
        _print_text(res, lex, from_word is not None, starting, ending)
    code = exit_status(res.status.value, bool(res.solver_info.get("interrupted")))
    if code:
        raise SystemExit(code)


def _refuse_unused(
    all_sequences: bool, from_word: str | None, starting: str | None, ending: str | None
) -> None:
    """Refuse --limit without --all, and --start or --end with --from (exit 2)."""
    if not all_sequences:
        reject_unused(
            click.get_current_context(),
            "without --all",
            {"limit": "--limit", "max_sequences": "--max-sequences"},
        )
    if from_word is not None and (starting is not None or ending is not None):
        raise InputError("--from is where the sequence starts: drop --start and --end")


def _print_text(
    res: SolveResult, lex: Lexicon, continuing: bool, starting: str | None, ending: str | None
) -> None:
    """The text answer: the dictionary, the --from lines, the sequence, its length and count,
    and the listed sequences (with whether the listing was stopped)."""
    sol = res.solution
    interrupted = bool(res.solver_info.get("interrupted"))
    stopped = res.solver_info.get("stopped")
    click.echo(f"dictionary  {lex.source} ({counted(len(lex), 'word', grouped=False)})")
    if continuing:
        _print_from(res.solver_info)
    if sol is None and interrupted:
        click.echo(f"interrupted ({interrupt_name()}) before the longest sequence was found")
        return
    if sol is None:
        click.echo(_no_solution(starting, ending))
        return
    click.echo(f"sequence    {' -> '.join(sol.sequence)}")
    plays = counted(sol.length, "play", grouped=False)
    if continuing:
        plays += f": {sol.sequence[0]} and {sol.length - 1:,} more"
    click.echo(f"length      {plays} (proven longest: exhaustive DP)")
    longest = counted(sol.count, "distinct longest sequence", grouped=False)
    click.echo(f"count       {longest}")
    click.echo(f"time        {1000 * res.wall_time:.1f} ms")
    if sol.sequences is not None:
        for s in sol.sequences:
            click.echo("  " + " -> ".join(s))
        if stopped is None and len(sol.sequences) < sol.count:
            click.echo(f"  ({len(sol.sequences)} of {sol.count} shown: --limit)")
        if stopped is not None:
            why = interrupt_name() if interrupted else "the time limit"
            click.echo(f"  [INCOMPLETE: listing stopped by {why}]")


def _print_from(info: Mapping[str, Any]) -> None:
    """The lines of --from: the word, the plays one letter on, or that it is a dead end
    (:func:`~cpwords.truncate.spec.continuation_lines`, the lines the page shows)."""
    from cpwords.truncate.spec import continuation_lines

    lines = continuation_lines(info)
    width = len("next plays")  # the column of the other lines
    for k, v in lines:
        click.echo(f"{k:<{width}}  {v}")


def _no_solution(starting: str | None, ending: str | None) -> str:
    return f"no Truncate sequence starts at {starting!r} and ends at {ending!r}"
