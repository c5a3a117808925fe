"""``cpwords superstring``: the shortest string that contains every word of a list, proven."""

from __future__ import annotations

import functools
import os
import re
import time
from dataclasses import dataclass
from typing import Any

import click

from cpwords.cli._common import (
    EPILOG,
    TimeLimitReached,
    answer,
    check_row,
    echo_json,
    exit_status,
    force_option,
    one_stdin,
    progress,
    reject_unused,
    shared_options,
    skip_invalid_option,
    started,
    stop_line,
    stop_reason,
    word_list_lang_options,
)
from cpwords.cli._svg import check_svg_target, png_option, svg_option, write_svg
from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import check_output, write_output
from cpwords.core.result import SolveResult, counted, format_gap, format_value
from cpwords.superstring.draw import superstring_svg
from cpwords.superstring.rules import Superstring, SuperstringInstance
from cpwords.superstring.spec import comparison_rows, gap_to_optimum, superstring_row

#: Superstrings longer than this are not printed in the text output (use --json).
LISTING_MAX_LETTERS = 2_000

#: What an OPTIMAL superstring rests on, by ``proof``.
PROOF_LINE = "certificate, checked VALID by the independent checker (kept words substring-free)"


@dataclass(frozen=True)
class _Args:
    """The command's arguments, as click parses them (see the options of :func:`superstring`)."""

    file: str
    method: str
    lang: str | None
    fold_accents: bool
    compare: bool
    certificate_path: str | None
    verify_path: str | None
    out_path: str | None
    cyclic: bool
    proper: bool
    svg_path: str | None
    png_path: str | None
    force: bool
    skip_invalid: bool
    check_file: str | None
    check_text: str | None
    time_limit: float
    workers: int
    seed: int
    as_json: bool


@click.command("superstring", epilog=EPILOG)
@click.argument("file", metavar="FILE")
@click.option(
    "--method",
    type=click.Choice(["exact", "greedy"]),
    default="exact",
    show_default=True,
    help="The proven shortest superstring (the Wordsnake's default method with the linear "
    "score) or greedy merging (the largest overlap first).",
)
@word_list_lang_options()
@click.option(
    "--compare",
    is_flag=True,
    help="Also run greedy merging and print both against the proven optimum: the exact method "
    "has half of --time-limit, greedy merging what is left.",
)
@click.option(
    "--certificate",
    "certificate_path",
    metavar="CERT",
    default=None,
    help="Also write the certificate of the bound (a Wordsnake certificate of the kept words, "
    "linear score; JSON, gzip when CERT ends in .gz), checked by --verify-certificate.",
)
@click.option(
    "--verify-certificate",
    "verify_path",
    metavar="CERT",
    default=None,
    help="Check a certificate against FILE instead of solving: prints VALID with the proven "
    "lower bound on the length, PARTIAL, or the first violated inequality (exit 1); "
    "--time-limit bounds the check.",
)
@click.option(
    "--out",
    "out_path",
    metavar="FILE",
    default=None,
    help="Also write the superstring itself to FILE (one line), for `superstring LIST > s.txt` "
    "prints the summary too; an existing FILE is never replaced (exit 2).",
)
@click.option("--cyclic", is_flag=True, hidden=True)
@click.option("--proper", is_flag=True, hidden=True)
@svg_option("the superstring, each word underlined where it sits (the first 800 letters)")
@png_option("the superstring")
@force_option()
@skip_invalid_option()
@shared_options(check=True, time_limit=600.0, workers=2, seed=True)
def superstring(**options: Any) -> None:
    """Find the shortest superstring of a list and prove it.

    FILE holds one word a line ('-': stdin); repeated words count once.

    A superstring contains every word as a run of consecutive letters ("cat", "atom", "a":
    "catom"). The words contained in another word drop out (the output says how many); the
    others, the kept words, are ordered to overlap as much as possible, which is the Wordsnake
    whose joints score their overlap (not its square): the exact method proves it with the
    Wordsnake's certificate, checked by its independent checker, so OPTIMAL is a proof, and a
    stopped solve prints its best superstring with the proven lower bound on the length. The
    answer is re-checked by an independent checker (every word found in it).

    --check FILE or --check-text TEXT checks a superstring of one's own instead (spaces and
    new lines are ignored): exit 0 when it contains every word, 1 when not. The superstring
    is linear (it does not wrap around: --cyclic is refused), and once contained words drop
    out every overlap is shorter than both words (--proper changes nothing: refused).

    JSON, beyond the conventions below: superstring, length, list, list_size (distinct words),
    repeated, contained (words inside others), kept, letters (of the distinct words),
    kept_letters, overlap (letters the kept words share), order (the kept words in order),
    proof, solver_info; with --compare comparison; with --certificate certificate; with --out
    out (the file written, null when no superstring was found).
    """
    a = _Args(**options)
    _refuse_options(a)
    one_stdin({"FILE": a.file, "--check": a.check_file, "--verify-certificate": a.verify_path})
    check_svg_target(a.svg_path, a.force, a.png_path)
    if a.certificate_path is not None:
        check_output(a.certificate_path, "--certificate", a.force)
    if a.out_path is not None:
        checking = a.check_file is not None or a.check_text is not None
        _check_out(a.out_path, checking or bool(a.verify_path))
    # The time limit covers the whole command, start-up and reading included.
    start = time.perf_counter() - (time.monotonic() - started())
    instance = _load(a.file, a.lang, a.fold_accents, a.skip_invalid)
    proposed = answer(a.check_file, a.check_text, "superstring")
    if proposed is not None:
        raise SystemExit(_check(instance, proposed[0], a.lang, a.fold_accents, a.as_json))
    if a.verify_path is not None:
        left = a.time_limit - (time.perf_counter() - start)
        raise SystemExit(_verify(instance, a.verify_path, a.as_json, left))
    res, others = _solve(instance, a, start)
    cert_line, cert_json, cert_error = _write_certificate(res, a.certificate_path)
    interrupted = any(bool(r.solver_info.get("interrupted")) for r in (res, *others))
    written = _write_out(res, a.out_path)
    if a.as_json:
        row = superstring_row(res, instance, interrupted=interrupted)
        if a.out_path is not None:
            row["out"] = written
        if others:
            row["comparison"] = comparison_rows(res, others)
        if a.certificate_path is not None:
            row["certificate"] = cert_json
        echo_json(row)
    else:
        _text(res, instance, a.time_limit)
        _text_after(res, others, written, cert_line)
    if (a.svg_path or a.png_path) is not None and isinstance(res.solution, Superstring):
        contained = res.solver_info.get("contained")
        note = res.status.value
        picture = superstring_svg(instance.words, res.solution, note=note, contained=contained)
        write_svg(a.svg_path, picture, a.png_path)
    if cert_error is not None:
        raise cert_error
    code = exit_status(res.status.value, interrupted)
    if code:
        raise SystemExit(code)


def _text_after(
    res: SolveResult, others: list[SolveResult], written: str | None, cert_line: str | None
) -> None:
    """The text lines after the summary: the --out file written, the certificate, --compare."""
    if written is not None:
        found = res.solution
        assert isinstance(found, Superstring)
        click.echo(f"{'written':<11}  {written} ({counted(len(found.text), 'letter')})")
    if cert_line:
        click.echo(cert_line)
    if others:
        _comparison_text(res, others)


def _refuse_options(a: _Args) -> None:
    """Refuse, before reading anything, options that clash or do nothing (one line, exit 2)."""
    if a.cyclic:
        raise InputError(
            "superstring: --cyclic is not supported: a circular superstring lets words wrap "
            "around its end, which no ordering of the words models"
        )
    if a.proper:
        raise InputError(
            "superstring: --proper changes nothing: once the words contained in others drop "
            "out, every overlap is already shorter than both words"
        )
    ctx = click.get_current_context()
    checking = a.check_file is not None or a.check_text is not None
    asked = (
        ("--check", checking),
        ("--verify-certificate", a.verify_path),
        ("--compare", a.compare),
    )
    modes = [m for m, on in asked if on]
    if len(modes) > 1:
        raise InputError(f"give one of {', '.join(modes)}")
    if a.certificate_path is not None and (checking or a.verify_path is not None):
        raise InputError("--certificate comes with a solve: drop --check/--verify-certificate")
    if a.certificate_path is not None and a.method != "exact":
        raise InputError(f"certificates come from the exact method: drop --method {a.method}")
    if a.verify_path is not None and a.verify_path != "-" and not os.path.exists(a.verify_path):
        raise InputError(f"certificate not found: {excerpt(a.verify_path)}")
    solving = {"method": "--method", "workers": "--workers", "seed": "--seed"}
    if checking:
        reject_unused(ctx, "with --check", {**solving, "time_limit": "--time-limit"})
    elif a.verify_path is not None:
        reject_unused(ctx, "with --verify-certificate", solving)
    elif a.method == "greedy" and not a.compare:
        reject_unused(ctx, "with --method greedy", {"workers": "--workers", "seed": "--seed"})
    if a.compare:
        reject_unused(ctx, "with --compare (it runs both methods)", {"method": "--method"})
    if (checking or a.verify_path is not None) and (a.svg_path or a.png_path) is not None:
        raise InputError("--svg and --png draw a solve's superstring: drop the checking mode")
    writes = a.certificate_path is not None or (a.svg_path or a.png_path) is not None
    if not writes:
        reject_unused(ctx, "without --svg, --png or --certificate", {"force": "--force"})


def _check_out(path: str, checking: bool) -> None:
    """Refuse ``--out`` before any work: with a checking mode, on an existing file (never
    replaced), or where it cannot be written (one line, exit 2)."""
    if checking:
        raise InputError("--out writes a solve's superstring: drop --check/--verify-certificate")
    if os.path.isfile(path):
        raise InputError(
            f"--out {excerpt(path)}: the file exists; cpwords does not replace it (remove it "
            "or name another file)"
        )
    check_output(path, "--out")


def _write_out(res: SolveResult, path: str | None) -> str | None:
    """Write the superstring to ``--out`` (one line); the path written, or None (no --out, or
    nothing written: no superstring found, or a file made there while the solve ran, which is
    never replaced; said on stderr).

    Raises
    ------
    InputError
        The write failed (the target is left as it was).
    """
    if path is None:
        return None
    why = None
    if not isinstance(res.solution, Superstring):
        why = "no superstring was found"
    elif os.path.isfile(path):
        why = "the file appeared while solving; cpwords does not replace it"
    if why is not None:
        click.echo(f"cpwords: note: --out {excerpt(path)} not written: {why}", err=True)
        return None
    assert isinstance(res.solution, Superstring)
    write_output(path, res.solution.text + "\n", "--out")
    return path


def _load(file: str, lang: str | None, fold: bool, skip_invalid: bool) -> SuperstringInstance:
    """The list, read as every cpwords puzzle reads one."""
    from cpwords.superstring.spec import load_superstring_instance

    return load_superstring_instance(file, lang=lang, fold=fold, skip_invalid=skip_invalid)


def _report(
    ticker: Any, elapsed: float, length: float | None, bound: float | None, stage: Any = None
) -> None:
    """The exact method's progress: the best length and the lower bound, shown live."""
    ticker.update(incumbent=length, bound=bound, stage=stage)


def _solve(
    instance: SuperstringInstance, a: _Args, start: float
) -> tuple[SolveResult, list[SolveResult]]:
    """The main result and, with --compare, the others (greedy merging), shown live."""
    from cpwords.superstring.spec import superstring_query

    what = "compare" if a.compare else a.method
    label = f"superstring of {len(instance.words):,} words ({what})"
    with progress(label, sense="min", enabled=not a.as_json) as status:
        return superstring_query(
            instance,
            method=a.method,
            compare=a.compare,
            time_limit=a.time_limit,
            start=start,
            workers=a.workers,
            seed=a.seed,
            certificate=a.certificate_path is not None,
            progress=functools.partial(_report, status),
        )


def _text(res: SolveResult, instance: SuperstringInstance, time_limit: float) -> None:
    """The superstring (or why there is none), the list, the result's summary, the proof and
    why it stopped."""
    found = res.solution if isinstance(res.solution, Superstring) else None
    info = res.solver_info
    if found is None:
        click.echo("stopped before any superstring was found")
    elif len(found.text) <= LISTING_MAX_LETTERS:
        click.echo(found.text)
    else:
        click.echo(f"(superstring of {len(found.text):,} letters not listed: use --json)")
    click.echo()
    n = len(instance.words)
    kept, dropped = info.get("kept"), info.get("contained")
    inside = "inside another" if dropped == 1 else "inside others"
    parts = counted(n, "word") + ("" if kept is None else f": {dropped:,} {inside}, {kept:,} kept")
    click.echo(f"{'list':<11}  {instance.source} ({parts})")
    if found is not None:
        click.echo(
            f"{'letters':<11}  {instance.letters:,} in the words, "
            f"{info.get('kept_letters', 0):,} in the kept words, "
            f"{len(found.text):,} in the superstring"
        )
    click.echo(res.summary(width=11))
    proof = info.get("proof")
    if proof == "certificate" and res.is_optimal:
        click.echo(f"{'proof':<11}  {PROOF_LINE}")
    elif info.get("bound_problem"):
        click.echo(f"{'proof':<11}  none: {info['bound_problem']}")
    elif res.bound is not None and info.get("wordsnake", {}).get("bound_checked") is False:
        why = info["wordsnake"].get("certificate_unchecked", "no certificate")
        click.echo(f"{'proof':<11}  none: the bound is the solver's, not checked ({why})")
    line = stop_line(
        stop_reason(res.to_dict() | {"interrupted": bool(info.get("interrupted"))}),
        time_limit,
        click.get_current_context().get_parameter_source("time_limit")
        is not click.core.ParameterSource.COMMANDLINE,
        "best superstring so far",
    )
    if line:
        click.echo(line.replace(f"{'stopped':<10}", f"{'stopped':<11}", 1))


def _comparison_text(res: SolveResult, others: list[SolveResult]) -> None:
    """With --compare: the table of methods against the proven optimum."""
    from rich.console import Console
    from rich.table import Table

    optimum = res.objective if res.is_optimal else None
    title = "no proven optimum" if optimum is None else f"the proven optimum {optimum:,.0f}"
    table = Table(title=f"Superstrings compared, against {title} (letters)")
    for col in ("method", "status", "letters", "bound", "gap to optimum", "time (s)"):
        table.add_column(col, justify="left" if col in ("method", "status") else "right")
    for r in (res, *others):
        table.add_row(
            r.method,
            r.status.value,
            format_value(r.objective),
            format_value(r.bound),
            format_gap(gap_to_optimum(r, optimum)),
            f"{r.wall_time:.3f}",
        )
    Console(width=100).print(table)


def _check(
    instance: SuperstringInstance, text: str, lang: str | None, fold: bool, as_json: bool
) -> int:
    """Check a superstring of one's own (spaces and new lines ignored); its exit status."""
    from cpwords.core.alphabet import normalize_word
    from cpwords.superstring.rules import superstring_problems

    proposed = normalize_word(re.sub(r"\s+", "", text), lang, fold)
    problems = superstring_problems(instance.words, proposed) if proposed else ["it is empty"]
    valid = not problems
    if as_json:
        echo_json(
            check_row(
                valid,
                problems,
                proposed,
                len(proposed),
                list=instance.source,
                list_size=len(instance.words),
            )
        )
    elif valid:
        every = (
            "the one word"
            if len(instance.words) == 1
            else (f"every one of the {len(instance.words):,} words")
        )
        click.echo(f"valid: {counted(len(proposed), 'letter')}, {every} in it")
    else:
        click.echo(f"invalid: {counted(len(proposed), 'letter')}")
        for p in problems:
            click.echo(f"  - {p}")
    return 0 if valid else 1


def _verify(instance: SuperstringInstance, path: str, as_json: bool, seconds: float) -> int:
    """Check a certificate within ``seconds``; print the verdict; its exit status."""
    from cpwords.superstring.spec import verify_superstring_certificate

    try:
        found = verify_superstring_certificate(instance.words, path, time_limit=max(seconds, 0.05))
    except TimeoutError:
        raise TimeLimitReached("the certificate check reached --time-limit") from None
    if as_json:
        valid = found.status == "VALID"
        row = check_row(
            valid,
            [] if valid else [found.message],
            None,
            found.length,
            list=instance.source,
            list_size=len(instance.words),
        )
        row.update((k, v) for k, v in found.to_dict().items() if k not in row)
        echo_json(row)
    else:
        click.echo(found.message)
    return 1 if found.status == "INVALID" else 0


def _write_certificate(
    res: SolveResult, path: str | None
) -> tuple[str | None, dict[str, Any] | None, InputError | None]:
    """Write the certificate a solve returned: the text line, the JSON entry and the error of a
    write that failed (raised once the answer is printed)."""
    from cpwords.wordsnake.certificate import write_certificate

    if path is None:
        return None, None, None
    cert = res.solver_info.get("certificate")
    if cert is None:
        snake = res.solver_info.get("wordsnake", {})
        why = snake.get("certificate_error", "no certificate was computed")
        return f"{'certified':<11}  no: {why}", {"path": None, "reason": why}, None
    try:
        write_certificate(cert, path, force=True)  # --force was decided before the solve
    except InputError as err:
        why = f"--certificate {err}"
        return f"{'certified':<11}  no: {why}", {"path": None, "reason": why}, InputError(why)
    kind = (
        f"PARTIAL: the bound also rests on a core search of {cert.core_pairs:,} pairs"
        if cert.core_pairs is not None
        else "a certificate of the bound (linear score, the kept words)"
    )
    line = f"{'certified':<11}  {path} ({kind}; check it with --verify-certificate)"
    return line, {"path": path, **cert.to_dict()}, None
