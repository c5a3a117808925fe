"""``cpwords chain``: the longest word chain (shiritori) of a list, proven."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from cpwords.chain.draw import chain_svg
from cpwords.chain.rules import ChainInstance
from cpwords.cli._common import (
    EPILOG,
    PROOF_LINES,
    Deadline,
    answer,
    echo_json,
    exit_status,
    force_option,
    one_stdin,
    progress,
    reject_unused,
    shared_options,
    skip_invalid_option,
    stop_line,
    stop_reason,
    time_guard,
    word_list_lang_options,
)
from cpwords.cli._svg import check_svg_target, png_option, svg_option, write_svg
from cpwords.core.errors import InputError
from cpwords.core.files import check_output
from cpwords.core.result import SolveResult, counted, format_gap, format_value

#: Chains longer than this are not listed word by word in the text output (use --json).
LISTING_MAX_WORDS = 300


@click.command("chain", epilog=EPILOG)
@click.argument("file", metavar="FILE")
@click.option(
    "--overlap",
    "overlap",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    metavar="K",
    help="Each word begins with the last K letters of the one before (words shorter than K "
    "take no part).",
)
@click.option(
    "--maximise",
    type=click.Choice(["words", "letters"]),
    default="words",
    show_default=True,
    help="Maximise the number of words or of letters in the chain.",
)
@click.option("--start", metavar="WORD", default=None, help="The chain's first word.")
@click.option("--end", metavar="WORD", default=None, help="The chain's last word.")
@click.option(
    "--method",
    type=click.Choice(["trail-mip", "exact", "random-dfs"]),
    default="exact",
    show_default=True,
    help="Exact longest-trail MIP (exact = trail-mip) or the randomised depth-first search.",
)
@word_list_lang_options()
@click.option(
    "--compare",
    is_flag=True,
    help="Also run the randomised depth-first search (as a player would try) and print both "
    "against the proven chain: the exact method has half of --time-limit, the search as long as "
    "the exact method took (at least 0.5 s).",
)
@click.option(
    "--certificate",
    "certificate_path",
    metavar="CERT",
    default=None,
    help="Also write a certificate of the bound (JSON; gzip when CERT ends in .gz) that anyone "
    "can check with --verify-certificate (the exact method).",
)
@click.option(
    "--verify-certificate",
    "verify_path",
    metavar="CERT",
    default=None,
    help="Check a certificate against FILE (and --overlap, --maximise, --start, --end) instead "
    "of solving: prints VALID with the proven bound, or what fails (exit 1).",
)
@svg_option("the chain as a staircase, each link's shared letters marked")
@png_option("the chain")
@force_option()
@skip_invalid_option()
@shared_options(check=True, time_limit=600.0, workers=1, seed=True)
def chain(**options: Any) -> None:
    """Find the longest word chain of a list and prove it.

    FILE holds one word a line ('-': stdin); repeated words count once.

    A chain is a sequence of distinct words of the list in which each word begins with the
    last K letters of the one before (K = 1: shiritori, "last letter - first letter"). The
    exact method solves it as the longest trail of the multigraph whose nodes are K-letter
    strings and whose arcs are the words (a MIP in HiGHS, connectivity cuts added lazily):
    OPTIMAL is a proof; a stopped solve prints its best chain with the bound. Every chain is
    re-checked word by word by an independent checker.

    --check FILE or --check-text TEXT checks a chain of one's own instead (words separated by
    spaces, commas, '->' or new lines): every word of the list, each once, each link sharing K
    letters, the fixed ends; exit 0 valid, 1 not.

    The exact method's OPTIMAL rests on a certificate (the relaxation's duals with the solve's
    cuts, in integers) that the independent checker finds VALID ("proof: certificate"), or on
    HiGHS's branch-and-cut when the relaxation is not tight ("proof: highs");
    --certificate CERT writes it and --verify-certificate CERT checks one.

    JSON, beyond the conventions below: chain, words, letters, overlap, maximise, start, end,
    list, list_size (distinct words) and usable (words of at least K letters).
    """
    a = _Args(**options)
    one_stdin({"FILE": a.file, "--check": a.check_file, "--verify-certificate": a.verify_path})
    checking = a.check_file is not None or a.check_text is not None
    _refuse_workers(a.method, checking, a.verify_path)
    check_svg_target(a.svg_path, a.force, a.png_path)
    _check_certificate_options(
        a.certificate_path, a.verify_path, a.method, a.compare, a.check_file, a.check_text, a.force
    )
    deadline = Deadline(a.time_limit)
    with time_guard(deadline):
        instance = _load(a)
    if a.verify_path is not None:
        raise SystemExit(_verify(instance, a.verify_path, a.as_json))
    proposed = answer(a.check_file, a.check_text, "chain")
    if proposed is not None:
        raise SystemExit(_check(instance, proposed[0], a.as_json, a.lang, a.fold_accents))
    if a.compare:
        raise SystemExit(_compare(instance, deadline, a.seed, a.as_json, a.workers))
    res = _solve(instance, a, deadline)
    found = tuple(res.solution) if res.solution is not None else ()
    interrupted = bool(res.solver_info.get("interrupted"))
    cert_line, cert_json, cert_error = _write_certificate(res, a.certificate_path)
    if a.as_json:
        from cpwords.chain.spec import chain_row

        row = chain_row(res, instance)
        if a.certificate_path is not None:
            row["certificate"] = cert_json
        echo_json(row)
    else:
        _text(res, instance, found, sum(map(len, found)), a.time_limit, interrupted)
        if cert_line:
            click.echo(cert_line)
    if (a.svg_path or a.png_path) is not None and found:
        write_svg(a.svg_path, chain_svg(found, a.overlap, note=res.status.value), a.png_path)
    if cert_error is not None:
        raise cert_error
    code = exit_status(res.status.value, interrupted)
    if code:
        raise SystemExit(code)


@dataclass(frozen=True)
class _Args:
    """The command's arguments, as click parses them (see the options of :func:`chain`)."""

    file: str
    overlap: int
    maximise: str
    start: str | None
    end: str | None
    method: str
    lang: str | None
    fold_accents: bool
    compare: bool
    skip_invalid: bool
    check_file: str | None
    check_text: str | None
    certificate_path: str | None
    verify_path: str | None
    svg_path: str | None
    png_path: str | None
    force: bool
    time_limit: float
    workers: int
    seed: int
    as_json: bool


def _load(a: _Args) -> ChainInstance:
    """The list FILE as a chain instance with the options (:func:`load_chain_instance`)."""
    from cpwords.chain.spec import load_chain_instance

    return load_chain_instance(
        a.file,
        a.overlap,
        a.maximise,
        a.start,
        a.end,
        lang=a.lang,
        fold=a.fold_accents,
        skip_invalid=a.skip_invalid,
    )


def _solve(instance: ChainInstance, a: _Args, deadline: Deadline) -> SolveResult:
    """The chain of --method (:func:`cpwords.chain.spec.solve_chain`), its progress shown."""
    from cpwords.chain.spec import solve_chain

    label = f"solving a chain of {len(instance.words):,} words ({a.method})"
    with progress(label, sense="max", enabled=not a.as_json, spinner=False) as tick:

        def advanced(incumbent: float | None, bound: float | None, stage: str) -> None:
            tick.update(incumbent, bound, stage)

        return solve_chain(
            instance,
            a.method,
            time_limit=deadline.remaining(),
            seed=a.seed,
            workers=a.workers,
            progress=advanced,
        )


def _refuse_workers(method: str, checking: bool, verify_path: str | None) -> None:
    """``--workers`` sets HiGHS's threads: refused where HiGHS does not run (exit 2)."""
    ctx = click.get_current_context()
    if method == "random-dfs":
        reject_unused(
            ctx, "with --method random-dfs (the exact method's)", {"workers": "--workers"}
        )
    if checking or verify_path is not None:
        reject_unused(ctx, "with --check or --verify-certificate", {"workers": "--workers"})


def _compare(
    instance: ChainInstance, deadline: Deadline, seed: int, as_json: bool, workers: int = 1
) -> int:
    """``--compare``: the proven chain and the randomised search, a row each; the exit status
    of the exact method's result."""
    from cpwords.chain.spec import chain_comparison_row, compare_chain

    label = f"comparing on a chain of {len(instance.words):,} words"
    with progress(label, sense="max", enabled=not as_json):
        results = compare_chain(
            instance, time_limit=deadline.remaining(), seed=seed, workers=workers
        )
    interrupted = any(bool(r.solver_info.get("interrupted")) for r in results)
    if as_json:
        echo_json(chain_comparison_row(instance, results))
    else:
        _comparison_table(instance, results)
    return exit_status(results[0].status.value, interrupted)


def _comparison_table(instance: ChainInstance, results: list[SolveResult]) -> None:
    """``--compare``'s table: each method's chain, bound and gap to the proven optimum."""
    from rich.console import Console
    from rich.table import Table

    from cpwords.chain.spec import chain_gap_to_optimum, chain_optimum

    optimum = chain_optimum(results)
    title = "no proven optimum" if optimum is None else f"the proven optimum {optimum:g}"
    table = Table(title=f"Chains compared, against {title} ({instance.objective})")
    for col in ("method", "status", "chain", "bound", "gap to optimum", "time (s)"):
        table.add_column(col, justify="left" if col in ("method", "status") else "right")
    for r in results:
        table.add_row(
            r.method,
            r.status.value,
            format_value(r.objective),
            format_value(r.bound),
            format_gap(chain_gap_to_optimum(r, optimum)),
            f"{r.wall_time:.3f}",
        )
    Console(width=100).print(table)


def _check(instance: ChainInstance, text: str, as_json: bool, lang: str | None, fold: bool) -> int:
    """Check a chain of one's own against the list's rules; print the verdict; its status."""
    from cpwords.chain.spec import chain_check_row, check_chain

    check = check_chain(instance, text, lang, fold)
    words = check.words
    if as_json:
        echo_json(chain_check_row(instance, check))
    elif check.problems:
        click.echo(f"invalid: {' -> '.join(words)}")
        for p in check.problems:
            click.echo(f"  - {p}")
    else:
        letters = sum(map(len, words))
        size = f"{counted(len(words), 'word', grouped=False)}, {counted(letters, 'letter')}"
        click.echo(f"valid: {' -> '.join(words)} ({size})")
    return 0 if check.valid else 1


def _text(
    res: SolveResult,
    instance: ChainInstance,
    found: tuple[str, ...],
    letters: int,
    time_limit: float,
    interrupted: bool,
) -> None:
    """The chain (or why there is none), its size, the result's summary and why it stopped."""
    if not found:
        click.echo(
            "no chain joins the fixed words"
            if res.status.value == "INFEASIBLE"
            else "stopped before any chain was found"
        )
    elif len(found) <= LISTING_MAX_WORDS:
        click.echo(" -> ".join(found))
    else:
        click.echo(f"(chain of {len(found):,} words not listed: use --json)")
    click.echo()
    usable, k = len(instance.usable()), instance.overlap
    click.echo(
        f"{'list':<10}  {instance.source} ({counted(len(instance.words), 'word')}, "
        f"{usable:,} of at least {counted(k, 'letter')})"
    )
    click.echo(
        f"{'chain':<10}  {counted(len(found), 'word')}, {counted(letters, 'letter')} "
        f"(maximising {instance.objective})"
    )
    click.echo(res.summary(width=10))
    proof = res.solver_info.get("proof")
    if proof is not None:
        click.echo(f"{'proof':<10}  {PROOF_LINES.get(proof, proof)}")
    line = stop_line(
        stop_reason(res.to_dict() | {"interrupted": interrupted}),
        time_limit,
        click.get_current_context().get_parameter_source("time_limit")
        is not click.core.ParameterSource.COMMANDLINE,
        "best chain so far",
    )
    if line:
        click.echo(line)


def _check_certificate_options(
    certificate_path: str | None,
    verify_path: str | None,
    method: str,
    compare: bool,
    check_file: str | None,
    check_text: str | None,
    force: bool,
) -> None:
    """Refuse, before anything is read or solved, a certificate option that cannot apply, and
    an unwritable --certificate."""
    if verify_path is not None and (certificate_path or compare or check_file or check_text):
        raise InputError("--verify-certificate checks instead of solving: drop the other modes")
    if certificate_path is None:
        return
    if compare or check_file is not None or check_text is not None:
        raise InputError("--certificate comes with a solve: drop --compare and --check")
    if method == "random-dfs":
        raise InputError("certificates come from the exact method: drop --method random-dfs")
    check_output(certificate_path, "--certificate", force)


def _write_certificate(
    res: SolveResult, path: str | None
) -> tuple[str | None, dict[str, Any] | None, InputError | None]:
    """Write the solve's certificate: the text line, the JSON entry, and the error of a write
    that failed (raised once the answer is printed)."""
    from cpwords.chain.certificate import write_chain_certificate

    if path is None:
        return None, None, None
    cert = res.solver_info.get("certificate")
    if cert is None:
        why = "no certificate was computed (a stopped solve, or one word as both ends)"
        return f"{'certified':<10}  no: {why}", {"path": None, "reason": why}, None
    try:
        write_chain_certificate(cert, path, force=True)  # --force was decided before the solve
    except InputError as err:
        why = f"--certificate {err}"
        return f"{'certified':<10}  no: {why}", {"path": None, "reason": why}, InputError(why)
    line = f"{'certified':<10}  {path} (check it with --verify-certificate)"
    return line, {"path": path, **cert.to_dict()}, None


def _verify(instance: ChainInstance, path: str, as_json: bool) -> int:
    """Check a certificate against the list and options; print the verdict; exit 1 when
    INVALID (a certificate of another list or variant: one line, exit 2)."""
    from cpwords.chain.spec import chain_verify_row, verify_chain

    cert, found = verify_chain(instance, path)
    if as_json:
        echo_json(chain_verify_row(instance, cert, found))
    else:
        click.echo(found.message)
    return 0 if found.status == "VALID" else 1
