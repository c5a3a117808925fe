"""What the modes of ``cpwords letterboxed`` share: the lexicon they load and its line, and the
refusals of the options a mode does not use (exit 2).

Kept apart from :mod:`~cpwords.cli.letterboxed` so the command stays short; the logic lives in
:mod:`cpwords.letterboxed`.
"""

from __future__ import annotations

import click

from cpwords.cli._common import reject_unused
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon
from cpwords.core.result import counted
from cpwords.letterboxed.spec import letterboxed_lexicon

#: The options of a solve, by their parameter names: a check uses none of them.
_SOLVING = {
    "all_solutions": "--all", "max_words": "--max-words", "list_solutions": "--list",
    "limit": "--limit", "method": "--method", "time_limit": "--time-limit",
    "workers": "--workers", "seed": "--seed", "plays": "--from", "hint": "--hint",
}  # fmt: skip


def load_lexicon(
    dict_path: str | None,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    whole: bool = False,
) -> Lexicon:
    """``--dict``, else the language's lexicon (its whole dictionary when ``whole``)."""
    return letterboxed_lexicon(dict_path, lang=lang, fold=fold, proper=proper, whole=whole)


def lexicon_text(source: str, size: int, size_3plus: int) -> str:
    """The lexicon line: its words, and how many have the 3 letters a Letter Boxed word needs.

    Examples
    --------
    >>> lexicon_text("wamerican", 64005, 63746)
    'wamerican (64,005 words, 63,746 of 3+ letters)'
    """
    return f"{source} ({counted(size, 'word')}, {size_3plus:,} of 3+ letters)"


def refuse_with_generate(
    ctx: click.Context,
    sides: tuple[str, ...],
    checking: bool,
    all_solutions: bool,
    max_words: int | None,
    list_solutions: bool,
    method: str,
    any_shape: bool,
    helping: bool = False,
) -> None:
    """Refuse what --generate cannot use: a box, a check, the solve's options (exit 2)."""
    others = {
        "SIDES": bool(sides),
        "--check": checking,
        "--from and --hint": helping,
        "--all": all_solutions,
        "--max-words": max_words is not None,
        "--list": list_solutions,
        "--method": method != "dp",
        "--any-shape": any_shape,
    }
    clash = [k for k, v in others.items() if v]
    if clash:
        raise InputError(f"--generate makes new boxes: drop {', '.join(clash)}")
    reject_unused(ctx, "with --generate", {"limit": "--limit", "workers": "--workers"})


def refuse_design_options(
    blocklist_file: str | None,
    no_blocklist: bool,
    unique: bool,
    max_solutions: int | None,
    min_playable: int,
    max_draws: int | None,
    difficulty: str | None,
    answers: bool = False,
) -> None:
    """Refuse the options of --generate without it (exit 2); ``answers``: --min-zipf or
    --allow-accent-twins was given."""
    design = {
        "--blocklist": blocklist_file is not None,
        "--no-blocklist": no_blocklist,
        "--unique": unique,
        "--max-solutions": max_solutions is not None,
        "--min-playable": min_playable != 0,
        "--max-draws": max_draws is not None,
        "--difficulty": difficulty is not None,
        "--min-zipf or --allow-accent-twins": answers,
    }
    lonely = [k for k, v in design.items() if v]
    if lonely:
        verb = "needs" if len(lonely) == 1 else "need"
        raise InputError(f"{' and '.join(lonely)} {verb} --generate K")


def refuse_unused(
    ctx: click.Context,
    check_file: str | None,
    check_text: str | None,
    method: str,
    list_solutions: bool,
    all_solutions: bool,
) -> None:
    """Refuse the options a check, a method or a solve without a listing does not use."""
    if check_file is not None or check_text is not None:
        reject_unused(ctx, "with --check", _SOLVING)
    if method != "cpsat":
        reject_unused(ctx, f"with --method {method}", {"workers": "--workers", "seed": "--seed"})
    if not (list_solutions or all_solutions):
        reject_unused(ctx, "without --list or --all", {"limit": "--limit"})


def refuse_with_from(
    ctx: click.Context,
    method: str,
    max_words: int | None,
    list_solutions: bool,
    all_solutions: bool,
    hint: int | None,
) -> None:
    """Refuse what --from and --hint do not use (exit 2)."""
    if method != "dp":
        raise InputError("--from and --hint need --method dp (the exact DP)")
    if max_words is not None or list_solutions:
        raise InputError("--max-words and --list count from the start: drop --from and --hint")
    if hint is not None and all_solutions:
        raise InputError("--hint reveals one word: drop --all")
    reject_unused(ctx, "with --from or --hint", {"workers": "--workers", "seed": "--seed"})
