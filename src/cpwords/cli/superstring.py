"""``cpwords superstring``: the shortest string that contains every word of a list, proven."""

from __future__ import annotations

import functools
import os
import re
import time
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
    result_row,
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

#: Superstrings longer than this are not printed in the text output (use --json).
LISTING_MAX_LETTERS = 2_000

#: What an OPTIMAL superstring rests on, by ``proof``.
PROOF_LINE = "certificate, checked VALID by the independent checker (kept words substring-free)"


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
def superstring(
    file: str,
    method: str,
    lang: str | None,
    fold_accents: bool,
    compare: bool,
    certificate_path: str | None,
    verify_path: str | None,
    out_path: str | None,
    cyclic: bool,
    proper: bool,
    svg_path: str | None,
    png_path: str | None,
    force: bool,
    skip_invalid: bool,
    check_file: str | None,
    check_text: str | None,
    time_limit: float,
    workers: int,
    seed: int,
    as_json: bool,
) -> None:
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
    _refuse_options(
        cyclic,
        proper,
        method,
        compare,
        certificate_path,
        verify_path,
        force,
        check_file,
        check_text,
        svg_path or png_path,
    )
    one_stdin({"FILE": file, "--check": check_file, "--verify-certificate": verify_path})
    check_svg_target(svg_path, force, png_path)
    if certificate_path is not None:
        check_output(certificate_path, "--certificate", force)
    if out_path is not None:
        _check_out(out_path, check_file is not None or check_text is not None or bool(verify_path))
    # The time limit covers the whole command, start-up and reading included.
    start = time.perf_counter() - (time.monotonic() - started())
    instance = _load(file, lang, fold_accents, skip_invalid)
    proposed = answer(check_file, check_text, "superstring")
    if proposed is not None:
        raise SystemExit(_check(instance, proposed[0], lang, fold_accents, as_json))
    if verify_path is not None:
        left = time_limit - (time.perf_counter() - start)
        raise SystemExit(_verify(instance, verify_path, as_json, left))
    kwargs: dict[str, Any] = {"workers": workers, "seed": seed}
    if certificate_path is not None:
        kwargs["certificate"] = True
    res, others = _solve(instance, method, compare, time_limit, start, kwargs, as_json)
    cert_line, cert_json, cert_error = _write_certificate(res, certificate_path)
    interrupted = any(bool(r.solver_info.get("interrupted")) for r in (res, *others))
    written = _write_out(res, out_path)
    if as_json:
        row = _row(res, instance, interrupted)
        if out_path is not None:
            row["out"] = written
        if others:
            row["comparison"] = _comparison_rows(res, others)
        if certificate_path is not None:
            row["certificate"] = cert_json
        echo_json(row)
    else:
        _text(res, instance, time_limit)
        if written is not None:
            found = res.solution
            assert isinstance(found, Superstring)
            click.echo(f"{'written':<11}  {written} ({counted(len(found.text), 'letter')})")
        if cert_line:
            click.echo(cert_line)
        if others:
            _comparison_text(res, others)
    if (svg_path or png_path) is not None and isinstance(res.solution, Superstring):
        picture = superstring_svg(
            instance.words,
            res.solution,
            note=res.status.value,
            contained=res.solver_info.get("contained"),
        )
        write_svg(svg_path, picture, png_path)
    if cert_error is not None:
        raise cert_error
    code = exit_status(res.status.value, interrupted)
    if code:
        raise SystemExit(code)


def _refuse_options(
    cyclic: bool,
    proper: bool,
    method: str,
    compare: bool,
    certificate_path: str | None,
    verify_path: str | None,
    force: bool,
    check_file: str | None,
    check_text: str | None,
    picture: str | None,
) -> None:
    """Refuse, before reading anything, options that clash or do nothing (one line, exit 2)."""
    if cyclic:
        raise InputError(
            "superstring: --cyclic is not supported: a circular superstring lets words wrap "
            "around its end, which no ordering of the words models"
        )
    if proper:
        raise InputError(
            "superstring: --proper changes nothing: once the words contained in others drop "
            "out, every overlap is already shorter than both words"
        )
    ctx = click.get_current_context()
    checking = check_file is not None or check_text is not None
    asked = (("--check", checking), ("--verify-certificate", verify_path), ("--compare", compare))
    modes = [m for m, on in asked if on]
    if len(modes) > 1:
        raise InputError(f"give one of {', '.join(modes)}")
    if certificate_path is not None and (checking or verify_path is not None):
        raise InputError("--certificate comes with a solve: drop --check/--verify-certificate")
    if certificate_path is not None and method != "exact":
        raise InputError(f"certificates come from the exact method: drop --method {method}")
    if verify_path is not None and verify_path != "-" and not os.path.exists(verify_path):
        raise InputError(f"certificate not found: {excerpt(verify_path)}")
    solving = {"method": "--method", "workers": "--workers", "seed": "--seed"}
    if checking:
        reject_unused(ctx, "with --check", {**solving, "time_limit": "--time-limit"})
    elif verify_path is not None:
        reject_unused(ctx, "with --verify-certificate", solving)
    elif method == "greedy" and not compare:
        reject_unused(ctx, "with --method greedy", {"workers": "--workers", "seed": "--seed"})
    if compare:
        reject_unused(ctx, "with --compare (it runs both methods)", {"method": "--method"})
    if (checking or verify_path is not None) and picture is not None:
        raise InputError("--svg and --png draw a solve's superstring: drop the checking mode")
    writes = certificate_path is not None or picture is not None
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
    instance: SuperstringInstance,
    method: str,
    compare: bool,
    time_limit: float,
    start: float,
    kwargs: dict[str, Any],
    as_json: bool,
) -> tuple[SolveResult, list[SolveResult]]:
    """The main result and, with --compare, the others (greedy merging)."""
    from cpwords.superstring.spec import compare_superstring, solve_superstring

    label = f"superstring of {len(instance.words):,} words ({'compare' if compare else method})"
    with progress(label, sense="min", enabled=not as_json) as status:
        if method == "exact" or compare:
            kwargs["progress"] = functools.partial(_report, status)
        if compare:
            results = compare_superstring(instance, time_limit=time_limit, start=start, **kwargs)
            return results[0], results[1:]
        if method == "greedy":
            return solve_superstring(instance, "greedy", time_limit=time_limit), []
        res = solve_superstring(instance, method, time_limit=time_limit, start=start, **kwargs)
        return res, []


def _row(res: SolveResult, instance: SuperstringInstance, interrupted: bool) -> dict[str, Any]:
    """The JSON row of a solve (before its comparison and certificate)."""
    found = res.solution if isinstance(res.solution, Superstring) else None
    info = dict(res.solver_info)
    info.pop("certificate", None)
    length = None if found is None else len(found.text)
    kept_letters = info.get("kept_letters")
    row = result_row(
        res.to_dict(solution=None if found is None else found.text) | {"solver_info": info},
        counts=None if found is None else {"letters": length, "words": len(instance.words)},
        interrupted=interrupted,
    )
    row.update(superstring=None if found is None else found.text, length=length)
    row.update(list=instance.source, list_size=len(instance.words), repeated=instance.repeated)
    row.update(contained=info.get("contained"), kept=info.get("kept"), letters=instance.letters)
    row.update(kept_letters=kept_letters)
    row["overlap"] = None if length is None or kept_letters is None else kept_letters - length
    row["order"] = None if found is None else list(found.order)
    row["proof"] = info.get("proof")
    return row


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


def _comparison_rows(res: SolveResult, others: list[SolveResult]) -> list[dict[str, Any]]:
    """With --compare: one row per method, its gap to the proven optimum."""
    optimum = res.objective if res.is_optimal else None
    return [
        {
            "method": r.method,
            "status": r.status.value,
            "objective": r.objective,
            "bound": r.bound,
            "gap_to_optimum": _gap(r, optimum),
            "wall_time": r.wall_time,
            "verified": r.verified,
            "proof": r.solver_info.get("proof"),
        }
        for r in (res, *others)
    ]


def _gap(r: SolveResult, optimum: float | None) -> float | None:
    """How much longer than the proven optimum (relative), None without one."""
    if optimum is None or r.objective is None:
        return None
    return (r.objective - optimum) / max(1.0, optimum)


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
            format_gap(_gap(r, optimum)),
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
