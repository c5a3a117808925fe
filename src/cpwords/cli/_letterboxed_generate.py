"""``cpwords letterboxed --generate``: new boxes whose 2-word optimum is proven, counted and rated.

Kept apart from :mod:`~cpwords.cli.letterboxed` so the command stays short; the logic lives in
:func:`cpwords.letterboxed.models.design.generate_boxes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from cpwords.cli._common import Deadline, echo_json, exit_status, progress, result_row
from cpwords.cli._letterboxed_common import lexicon_text, load_lexicon
from cpwords.cli._svg import write_svg
from cpwords.core.blocklist import Blocklist
from cpwords.core.errors import InputError
from cpwords.core.interrupts import interrupt_name
from cpwords.core.result import counted
from cpwords.letterboxed.draw import puzzle_svg
from cpwords.letterboxed.models.dp import LetterBoxedSolver


@dataclass(frozen=True)
class Design:
    """What --generate asks of each box."""

    unique: bool = False
    max_solutions: int | None = None
    min_playable: int = 0
    max_draws: int | None = None
    shape: tuple[int, int] = (4, 3)
    difficulty: str | None = None
    min_zipf: float | None = None
    accent_twins: bool = False


def run_generate(
    k: int,
    dict_path: str | None,
    design: Design,
    seed: int,
    deadline: Deadline,
    as_json: bool,
    block: Blocklist | None = None,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
    pictures: tuple[str | None, str | None] = (None, None),
) -> int:
    """Generate ``k`` boxes, print them, draw the first one empty (``pictures``: --svg,
    --png); the exit status."""
    from cpwords.letterboxed.models.design import generate_boxes

    if design.unique and design.max_solutions not in (None, 1):
        raise InputError(
            f"--unique means one 2-word solution; drop --max-solutions {design.max_solutions}"
        )
    with progress("letterboxed: loading the lexicon", enabled=not as_json):
        # Without --dict, the language's whole dictionary: a box is unique among all its words.
        solver = LetterBoxedSolver(load_lexicon(dict_path, lang, fold, proper, whole=True))
    label = f"letterboxed: generating {k} box{'es' if k != 1 else ''}"
    with progress(label, enabled=not as_json, spinner=False) as tick:

        def drawn(draws: int, found: int) -> None:
            tick.update(stage="drawing", counts=f"{draws:,} drawn, {found} of {k} found")

        gen = generate_boxes(
            k,
            solver,
            seed=seed,
            unique=design.unique,
            max_solutions=design.max_solutions,
            min_playable=design.min_playable,
            max_draws=design.max_draws,
            time_limit=deadline.remaining(),
            blocklist=block,
            lang=lang,
            shape=design.shape,
            difficulty=design.difficulty,
            min_zipf=design.min_zipf,
            allow_accent_twins=design.accent_twins,
            on_progress=drawn,
        )
    found = len(gen.boxes)
    interrupted = gen.stopped == "interrupted"
    _puzzle_picture(gen.boxes[0] if found else None, pictures)
    # A generated list of boxes is a listing: never OPTIMAL. FEASIBLE with boxes ("complete":
    # every requested box, each proven), UNKNOWN with none (exit 1).
    status = "FEASIBLE" if found else "UNKNOWN"
    if as_json:
        echo_json(
            result_row(
                gen.to_dict(),
                status=status,
                method="letterboxed-generate",
                solution=[str(b.box) for b in gen.boxes],
                counts={"boxes": found, "draws": gen.draws},
                verified=all(b.verified for b in gen.boxes) if found else None,
                interrupted=interrupted,
                lexicon_size=len(solver.lexicon),
                lexicon_size_3plus=solver.size,
                lang=lang,
                fold_accents=fold,
                blocklist={"source": block.source if block is not None else "off"},
            )
        )
    else:
        _generate_text(k, gen, solver, design, seed)
    return exit_status(status, interrupted)


def _puzzle_picture(first: Any, pictures: tuple[str | None, str | None]) -> None:
    """``--svg``/``--png`` with --generate: the first box to play, its letters and no answer
    (nothing is written when no box was generated: a note says so)."""
    if pictures == (None, None):
        return
    if first is None:
        click.echo("cpwords: note: no box was generated: no picture written", err=True)
        return
    write_svg(pictures[0], puzzle_svg(first.box, first.words), pictures[1])


def _generate_text(k: int, gen: Any, solver: LetterBoxedSolver, design: Design, seed: int) -> None:
    """The generated boxes: the draws, what was rejected and why, each box and its optimum."""
    if design.unique:
        what = "exactly one 2-word solution"
    elif design.max_solutions:
        what = f"at most {design.max_solutions} 2-word solutions"
    else:
        what = "2-word optimum"
    click.echo(f"lexicon    {lexicon_text(solver.source, len(solver.lexicon), solver.size)}")
    floor = gen.settings["min_zipf"]
    click.echo(
        f"answers    {'words of Zipf >= ' + format(floor, 'g') if floor else 'any words'}"
        f"{', accent twins allowed' if gen.settings['allow_accent_twins'] else ''}"
    )
    click.echo(
        f"generated  {len(gen.boxes)} of {counted(k, 'box', 'boxes')} ({what}) from "
        f"{counted(gen.draws, 'draw')} "
        f"in {gen.wall_time:.2f} s (seed {seed})"
    )
    reasons = {
        "repeat": "repeated",
        "few_playable": f"fewer than {max(design.min_playable, 1)} playable words",
        "one_word": "a 1-word solution",
        "needs_3_or_more": "no 2-word solution",
        "too_many_2_word": "too many 2-word solutions",
        "blocked": "a blocked word in a 2-word solution",
        "difficulty": f"not {design.difficulty}",
        "rare_answer": "no 2-word answer of common words",
    }
    rej = [f"{n:,} {reasons[r]}" for r, n in gen.rejected.items() if n]
    if rej:
        click.echo("rejected   " + ", ".join(rej))
    for i, b in enumerate(gen.boxes, 1):
        _generated_box_text(i, b)
    if gen.stopped is not None:
        why = interrupt_name() if gen.stopped == "interrupted" else "the time limit"
        click.echo(f"\nonly {len(gen.boxes)} of {counted(k, 'box', 'boxes')}: stopped by {why}")
    elif not gen.complete:
        click.echo(
            f"\nonly {len(gen.boxes)} of {counted(k, 'box', 'boxes')} within "
            f"{counted(gen.settings['max_draws'], 'draw')} "
            "(raise --max-draws or relax the demands)"
        )


def _generated_box_text(i: int, b: Any) -> None:
    """One generated box: its proven optimum, solution counts, playable words, difficulty."""
    d = b.difficulty
    per = ", ".join(f"{c:,} of {counted(j + 1, 'word')}" for j, c in enumerate(b.counts))
    click.echo(f"\n#{i}  {b.box}")
    answer = "-".join(w.upper() for w in b.solution)
    if b.answer_zipf is None:
        click.echo(
            f"    optimum     {answer}: {counted(b.words, 'word')}, "
            f"{counted(b.letters, 'letter')} (proven fewest words, then fewest letters)"
        )
    else:
        click.echo(
            f"    answer      {answer}: {counted(len(b.solution), 'word')}, "
            f"{counted(sum(map(len, b.solution)), 'letter')} (its rarer word at Zipf "
            f"{b.answer_zipf:g})"
        )
        click.echo(
            f"    optimum     {counted(b.words, 'word')}, {counted(b.letters, 'letter')} "
            "(proven fewest words, then letters, in the whole dictionary)"
        )
    click.echo(f"    solutions   {per} (verified: {b.verified})")
    click.echo(f"    playable    {counted(b.playable_words, 'word')}")
    click.echo(
        f"    difficulty  {difficulty_text(d.score)}: "
        f"{counted(sum(d.common_solutions), 'solution')} of "
        f"<= 3 common words (Zipf >= {d.zipf_threshold:g})"
    )


def difficulty_text(score: float) -> str:
    """A box's difficulty with its scale and band, as printed: the score runs from 0 (easiest)
    to 6 (``max(0, 6 - log10(1 + C))``, C the solutions of <= 3 common words).

    Examples
    --------
    >>> difficulty_text(3.12)
    '3.12 of 6 (hard)'
    >>> difficulty_text(1.9)
    '1.90 of 6 (easy)'
    """
    from cpwords.letterboxed.models.design import DIFFICULTY_BANDS

    band = next((n for n, (lo, hi) in DIFFICULTY_BANDS.items() if lo <= score < hi), "")
    return f"{score:.2f} of 6" + (f" ({band})" if band else "")
