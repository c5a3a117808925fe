"""``cpwords snake``: arrange a word list into the best Wordsnake and prove it optimal."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import re
import sys
import time
from typing import Any

import click

from cpwords.cli._common import (
    EPILOG,
    PROOF_LINES,
    SECONDS,
    TimeLimitReached,
    echo_json,
    exit_status,
    force_option,
    one_stdin,
    progress,
    read_text,
    reject_unused,
    require_file,
    shared_options,
    skip_invalid_option,
    started,
    stop_line,
    stop_reason,
    word_list_lang_options,
)
from cpwords.cli._snake_interop import available_peers, export_files, read_ordering
from cpwords.cli._svg import check_svg_target, png_option, svg_option, write_svg
from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import check_output
from cpwords.core.interrupts import interrupt_name, signals_blocked, stop_scope
from cpwords.core.lexicon import parse_word_lines
from cpwords.core.result import SolveResult, counted, format_gap
from cpwords.core.result import format_value as _fmt
from cpwords.core.sources import is_lexicon_name, read_dictionary
from cpwords.wordsnake.draw import LEGEND, snake_svg, snake_table, table_lines
from cpwords.wordsnake.modes import (
    SavedCertificate,
    check_wordsnake,
    repeated_words,
    save_certificate,
    verify_wordsnake,
    wordsnake_check_row,
    wordsnake_row,
    wordsnake_verify_row,
)
from cpwords.wordsnake.rules import WordsnakeInstance, snake_lengths
from cpwords.wordsnake.spec import (
    DEFAULT_EXACT,
    EXACT_METHODS,
    HEURISTIC_METHODS,
    METHOD_NAMES,
    PEER_METHODS,
    SPEC,
    builtin_instance,
    compare_wordsnake,
    load_instance,
    solve_wordsnake,
)


def _instance(
    file: str | None,
    cyclic: bool,
    proper: bool,
    lang: str | None = None,
    fold: bool = False,
    skip_invalid: bool = False,
    score: str = "squared",
) -> WordsnakeInstance:
    if file is None:
        return dataclasses.replace(builtin_instance(cyclic, proper), score=score)
    if file == "-":  # as a file would be read: a byte-order mark dropped, non-UTF-8 refused
        text, _ = read_text("-", "word list")
        words = parse_word_lines(text, "<stdin>", lang=lang, fold=fold, skip_invalid=skip_invalid)
        return WordsnakeInstance(tuple(words), cyclic, proper, "<stdin>", score=score)
    if not os.path.exists(file) and is_lexicon_name(file):  # a file of that name wins
        lex = read_dictionary(file, lang=lang or "en", fold=fold)  # enable1, web2, wfrench...
        return WordsnakeInstance(lex.words, cyclic, proper, file, score=score)
    inst = load_instance(file, cyclic, proper, lang=lang, fold=fold, skip_invalid=skip_invalid)
    return dataclasses.replace(inst, score=score)


@click.command("snake", epilog=EPILOG)
@click.argument("file", required=False, metavar="[FILE]")
@click.option("--cyclic", is_flag=True, help="Score the pair last -> first too (Burkardt).")
@click.option("--proper", is_flag=True, help="Overlaps must be shorter than both words.")
@click.option(
    "--score",
    type=click.Choice(["squared", "linear"]),
    default="squared",
    show_default=True,
    help="What a joint of overlap k scores: k^2 (Shasha's Wordsnake) or k (the sum of overlaps; "
    "'cpwords superstring' drops the words inside others and prints the shortest superstring).",
)
@word_list_lang_options()
@click.option(
    "--method",
    type=click.Choice(METHOD_NAMES),
    default="exact",
    show_default=True,
    help=f"Exact model ({', '.join(EXACT_METHODS)}; exact = {DEFAULT_EXACT}) or heuristic "
    f"({', '.join(HEURISTIC_METHODS)}) or outside solver ({', '.join(PEER_METHODS)}).",
)
@click.option(
    "--compare",
    is_flag=True,
    help="Also run every heuristic; show gaps to the optimum. --time-limit covers them all: "
    "the main method has half of it, each other method an equal part of what is left.",
)
@click.option(
    "--peers",
    is_flag=True,
    help="With --compare, also run the outside solvers (OR-Tools routing; LKH-3 if elkai is "
    "installed), each for --peer-time-limit seconds.",
)
@click.option(
    "--peer-time-limit", type=SECONDS, default=10.0, show_default=True, help="Seconds per peer."
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1),
    metavar="N",
    default=100,
    show_default=True,
    help="Layered-greedy iterations.",
)
@click.option(
    "--export-tsplib",
    metavar="OUT.atsp",
    default=None,
    help="Write the list as a TSPLIB ATSP file (costs M - overlap^2, a dummy node for a linear "
    "snake) instead of solving.",
)
@click.option(
    "--export-model",
    metavar="PATH",
    default=None,
    help="Write the exact model instead of solving: .mps/.lp (letter-hub MIP) or .pb/.pbtxt "
    "(CP-SAT).",
)
@click.option(
    "--export-connectivity",
    type=click.Choice(["flow", "none"]),
    default="flow",
    show_default=True,
    help="MPS/LP connectivity: exact single-commodity flow, or none (the relaxation).",
)
@click.option(
    "--certificate",
    "certificate_path",
    metavar="CERT",
    default=None,
    help="Also write a certificate of the bound (JSON; gzip when CERT ends in .gz) that "
    "anyone can check with --verify-certificate (default method only).",
)
@click.option(
    "--verify-certificate",
    "verify_path",
    metavar="CERT",
    default=None,
    help="Check a certificate against FILE (and --cyclic/--proper) instead of solving: prints "
    "VALID with the proven bound, PARTIAL, or the first violated inequality (exit 1); "
    "--time-limit bounds the check.",
)
@svg_option("the snake, each overlap highlighted (the first 400 words)")
@png_option("the snake")
@force_option()
@skip_invalid_option()
@shared_options(check=True, time_limit=600.0, workers=2, seed=True)
def snake(**options: Any) -> None:
    """Find the best Wordsnake of a word list and prove it.

    FILE holds one word a line ('-': stdin; without FILE, a built-in 50-word list; where no
    file has that name, a lexicon name that cpwords lexicons lists: enable1, web2). The score
    of an order is the sum over consecutive words of the squared length of the longest suffix
    of one that is a prefix of the next (Shasha, Dr Dobb's Journal, 2000).

    Modes: solve (default; exact methods prove the optimum, status OPTIMAL, and one stopped by
    the time limit answers FEASIBLE with the dual bound and the gap); --compare adds the
    heuristics; --check FILE or --check-text scores a proposed ordering (FILE: a word list or
    a TSPLIB tour of the file --export-tsplib wrote for the same list and variant; inline:
    words separated by spaces or commas); --export-tsplib and --export-model write files
    instead of solving; --certificate CERT writes a certificate of the bound and
    --verify-certificate CERT checks one (independently of the solver: see the formulation
    card, section "Certificates").

    --score linear scores a joint of overlap k by k instead of k^2 (the certificate says which
    score it bounds; the checker refuses the other in one line).

    JSON, beyond the conventions below: n, cyclic, proper, score, duplicates, total_chars,
    snake_chars, solver_info, and with --compare comparison (one row per method with
    gap_to_optimum and gap_to_bound); --check adds missing and extra.
    """
    a = _Args(**options)
    _check_options(a)
    check_svg_target(a.svg_path, a.force, a.png_path)
    # The time limit covers the whole command, start-up and reading included.
    start = time.perf_counter() - (time.monotonic() - started())
    with progress(f"reading {a.file or 'the built-in list'}", enabled=not a.as_json):
        instance = _instance(
            a.file, a.cyclic, a.proper, a.lang, a.fold_accents, a.skip_invalid, a.score
        )
    if a.export_tsplib is not None or a.export_model is not None:
        if instance.score != "squared":
            raise InputError("--export-* writes the squared score only: drop --score linear")
        export_files(
            instance, a.export_tsplib, a.export_model, a.export_connectivity, a.force, a.as_json
        )
        return
    if a.check_file is not None or a.check_text is not None:
        order = _ordering(instance, a.check_file, a.check_text, a.lang, a.fold_accents)
        _check(instance, order, a.as_json)
        return
    if a.verify_path is not None:
        _verify(instance, a.verify_path, a.as_json, a.time_limit - (time.perf_counter() - start))
        return
    solver: dict[str, Any] = {
        "time_limit": a.time_limit,
        "workers": a.workers,
        "seed": a.seed,
        "iterations": a.iterations,
        "start": start,
    }
    if a.certificate_path is not None:
        solver["certificate"] = True
    request = _Request(
        a.method, a.compare, a.peers, a.peer_time_limit, a.certificate_path, a.as_json, solver
    )
    _solve_and_report(instance, request, (a.svg_path, a.png_path))


@dataclasses.dataclass(frozen=True)
class _Args:
    """The command's arguments, as click parses them (see the options of :func:`snake`)."""

    file: str | None
    cyclic: bool
    proper: bool
    score: str
    lang: str | None
    fold_accents: bool
    method: str
    compare: bool
    time_limit: float
    workers: int
    seed: int
    iterations: int
    check_file: str | None
    check_text: str | None
    export_tsplib: str | None
    export_model: str | None
    export_connectivity: str
    force: bool
    svg_path: str | None
    certificate_path: str | None
    verify_path: str | None
    peers: bool
    peer_time_limit: float
    as_json: bool
    png_path: str | None = None
    skip_invalid: bool = False


@dataclasses.dataclass(frozen=True)
class _Request:
    """The solve mode's options: the method, --compare (--peers, --peer-time-limit), the
    --certificate path, --json, and ``solver``, the solver's keyword arguments
    (``time_limit``, ``start``, ``workers``, ``seed``, ``iterations``, ``certificate``)."""

    method: str
    compare: bool
    peers: bool
    peer_time_limit: float
    certificate_path: str | None
    as_json: bool
    solver: dict[str, Any]


def _solve_and_report(
    instance: WordsnakeInstance, request: _Request, pictures: tuple[str | None, str | None]
) -> None:
    """The solve mode: the answer (with --compare's rows), the certificate file, the pictures
    (``pictures``: the --svg and --png paths) and the exit status.

    Ctrl-C, SIGTERM and SIGHUP during a method's solve set the solve's stop (its best answer so
    far is printed, exit 130); between the methods and once the answer is in they are held
    until it is printed (a Ctrl-C in the middle of the JSON row cut it short:
    :func:`~cpwords.core.interrupts.signals_blocked`)."""
    dups = repeated_words(instance)
    if dups:
        click.echo(f"cpwords: warning: {_repeats(dups)}", err=True)
    time_limit, start = request.solver["time_limit"], request.solver["start"]
    _short_limit_note(instance, time.perf_counter() - start, time_limit, request.compare)
    with stop_scope() as stop, stop.held():
        main_res, comp = _solve(instance, request)
        with signals_blocked():  # a signal in a write to a pipe lost the row's end
            code = _print_answer(instance, request, pictures, main_res, comp, dups)
            with contextlib.suppress(OSError):  # a reader that closed the pipe (``| head``)
                sys.stdout.flush()  # the row's last part too, within the block
    if code:
        raise SystemExit(code)


def _print_answer(
    instance: WordsnakeInstance,
    request: _Request,
    pictures: tuple[str | None, str | None],
    main_res: SolveResult,
    comp: Any,
    dups: dict[str, int],
) -> int:
    """Print the answer, write the certificate and the pictures; the exit status."""
    # Written before the answer is printed, so the answer names it; a write that fails (a full
    # disk) still prints the answer, then the error (exit 2).
    saved = None
    if request.certificate_path is not None:
        saved = save_certificate(main_res, request.certificate_path)
    main_stopped = bool(main_res.solver_info.get("interrupted"))
    interrupted = main_stopped or bool(comp and comp.interrupted)
    if request.as_json:
        entry = saved.to_dict() if saved is not None else None
        echo_json(
            wordsnake_row(main_res, instance, duplicates=dups, certificate=entry, comparison=comp)
        )
    else:
        _solve_text(main_res, instance, request.solver["time_limit"])
        if saved is not None:
            click.echo(_certificate_line(saved))
        _comparison_text(comp, main_stopped)
    _write_pictures(main_res, instance, *pictures)
    if saved is not None and saved.failed:
        raise InputError(str(saved.reason))
    return exit_status(main_res.status.value, interrupted)


def _check_options(a: _Args) -> None:
    """Refuse, before reading anything, options that clash or do nothing (exit 2)."""
    one_stdin({"FILE": a.file, "--check": a.check_file})
    if a.check_file is not None and a.check_text is not None:
        raise InputError("give --check FILE or --check-text TEXT, not both")
    pictures = a.svg_path or a.png_path
    _refuse_unused(
        a.method,
        a.compare,
        a.peers,
        a.export_tsplib,
        a.export_model,
        a.check_file,
        a.check_text,
        writes=pictures is not None or a.certificate_path is not None,
        verifying=a.verify_path is not None,
    )
    if a.check_file is not None:
        require_file(a.check_file, "--check")
    if pictures is not None and (a.check_file or a.check_text or a.export_tsplib or a.export_model):
        raise InputError("--svg and --png draw a solve's snake: drop --check and --export-*")
    for path, option in ((a.export_tsplib, "--export-tsplib"), (a.export_model, "--export-model")):
        if path is not None:
            check_output(path, option, a.force)
    _check_certificate_options(
        a.certificate_path,
        a.verify_path,
        a.method,
        a.compare,
        a.force,
        bool(a.check_file or a.check_text or a.export_tsplib or a.export_model or pictures),
    )


def _report(
    ticker: Any,
    elapsed: float,
    incumbent: float | None,
    bound: float | None,
    stage: str | None = None,
) -> None:
    """A solve's progress callback: the incumbent, the bound and the stage, shown live."""
    ticker.update(incumbent=incumbent, bound=bound, stage=stage)


def _solve(instance: WordsnakeInstance, request: _Request) -> tuple[SolveResult, Any]:
    """Solve by the request's method (and, with --compare, every heuristic and peer): the main
    result and the comparison (None without --compare)."""
    method = request.method
    label = f"solving {instance.n:,} words ({method})"
    with progress(label, sense="max", enabled=not request.as_json) as status:
        kwargs = {**request.solver, "progress": functools.partial(_report, status)}
        if not request.compare:
            return solve_wordsnake(instance, method, **kwargs), None
        others = [m for m in HEURISTIC_METHODS if m != method]
        if request.peers:
            others += [m for m in available_peers(request.as_json) if m != method]
        over: dict[str, dict[str, Any]] = {
            m: {"time_limit": request.peer_time_limit} for m in PEER_METHODS if m != method
        }
        if request.certificate_path is not None:  # the certificate is the main method's
            for m in others:
                over.setdefault(m, {})["certificate"] = False
        comp = compare_wordsnake(instance, [method, *others], over, **kwargs)
        return comp.results[0], comp


def _proof_line(res: SolveResult) -> str | None:
    """The text line saying what the answer's OPTIMAL rests on (or why a bound is unchecked)."""
    info = res.solver_info
    proof = info.get("proof")
    if proof is not None:
        return f"{'proof':<10}  {PROOF_LINES.get(proof, proof)}"
    if "bound_checked" in info and res.bound is not None:
        if info.get("bound_checked") is False:
            return f"{'proof':<10}  none: the bound is the solver's, not checked"
        claimed = info.get("solver_bound")
        if claimed is not None and claimed < res.bound:
            return (
                f"{'proof':<10}  none: the checked certificate proves {_fmt(res.bound)}; the "
                f"solver's {_fmt(claimed)} rests on a search it does not cover"
            )
    return None


def _solve_text(main_res: SolveResult, instance: WordsnakeInstance, time_limit: float) -> None:
    """The snake (or why there is none), its size, the result's summary and why it stopped."""
    cyclic, proper = instance.cyclic, instance.proper
    if main_res.solution is None:
        why = main_res.solver_info.get("reason", "stopped before any ordering was found")
        click.echo(f"no ordering: {why}")
    elif instance.n > LISTING_MAX_WORDS:
        click.echo(f"(ordering of {instance.n:,} words not listed: use --json)")
    elif (letters := sum(len(w) for w in instance.words)) > LISTING_MAX_LETTERS:
        words = counted(instance.n, "word")
        click.echo(f"(ordering of {words}, {letters:,} letters, not listed: use --json)")
    else:
        _echo_table(main_res.solution, cyclic, proper, instance.score)
    click.echo()
    kind = ("cyclic" if cyclic else "linear") + (", proper overlaps" if proper else "")
    kind += ", overlaps not squared (--score linear)" if instance.score == "linear" else ""
    click.echo(f"{'words':<10}  {instance.n:,} ({kind})")
    if main_res.solution is not None:
        total, merged = snake_lengths(main_res.solution, cyclic, proper)
        click.echo(f"{'characters':<10}  {total:,} in the words, {merged:,} in the snake")
    click.echo(main_res.summary(width=10))
    proof = _proof_line(main_res)
    if proof:
        click.echo(proof)
    solve_time = main_res.solver_info.get("solve_time")
    if solve_time is not None:
        click.echo(f"{'solve time':<10}  {solve_time:.3f} s (wall time includes start-up)")
    main_stopped = bool(main_res.solver_info.get("interrupted"))
    line = stop_line(
        stop_reason(main_res.to_dict() | {"interrupted": main_stopped}),
        time_limit,
        click.get_current_context().get_parameter_source("time_limit")
        is not click.core.ParameterSource.COMMANDLINE,
        "best ordering so far",
    )
    if line:
        click.echo(line)


def _comparison_text(comp: Any, main_stopped: bool) -> None:
    """With --compare: the table of methods (and a word when Ctrl-C cut the comparison)."""
    if comp is None:
        return
    if comp.interrupted and not main_stopped:
        click.echo(
            f"{'stopped':<10}  the comparison, by {interrupt_name()}: the methods not listed "
            "below did not run"
        )
    _print_comparison(
        comp.results, comp.gap_to_optimum, comp.optimum, comp.gap_to_bound, comp.best_bound
    )


#: Options that only tune a solve (refused with --check and --export-*).
_SOLVING = {
    "method": "--method",
    "compare": "--compare",
    "peers": "--peers",
    "peer_time_limit": "--peer-time-limit",
    "time_limit": "--time-limit",
    "workers": "--workers",
    "seed": "--seed",
    "iterations": "--iterations",
}
_CONNECTIVITY = "--export-connectivity"


def _refuse_unused(
    method: str,
    compare: bool,
    peers: bool,
    export_tsplib: str | None,
    export_model: str | None,
    check_file: str | None,
    check_text: str | None,
    writes: bool = False,
    verifying: bool = False,
) -> None:
    """Refuse options that do nothing in the chosen mode (one line, exit 2); ``writes``: an
    output file (--svg, --certificate) that --force may replace."""
    ctx = click.get_current_context()
    exporting = export_tsplib is not None or export_model is not None
    checking = check_file is not None or check_text is not None
    if exporting and checking:
        raise InputError("give --export-* or --check, not both")
    if exporting:
        reject_unused(ctx, "with --export-*", _SOLVING)
        if export_model is None:
            reject_unused(ctx, "with --export-tsplib alone", {"export_connectivity": _CONNECTIVITY})
        elif export_model.lower().endswith((".pb", ".pbtxt")):
            # A CP-SAT model (.pb, .pbtxt) is always exact: it has no relaxation to choose.
            reject_unused(
                ctx, "with a CP-SAT model (MPS/LP only)", {"export_connectivity": _CONNECTIVITY}
            )
        return
    unused = {"export_connectivity": _CONNECTIVITY}
    if not writes:
        unused["force"] = "--force"
    reject_unused(ctx, "without --export-*, --svg or --certificate", unused)
    if checking:
        reject_unused(ctx, "with --check", _SOLVING)
        return
    if verifying:  # --time-limit bounds the check
        rest = {k: v for k, v in _SOLVING.items() if k != "time_limit"}
        reject_unused(ctx, "with --verify-certificate", rest)
        return
    if not compare:
        reject_unused(ctx, "without --compare", {"peers": "--peers"})
    if not peers:
        reject_unused(ctx, "without --peers", {"peer_time_limit": "--peer-time-limit"})
    if method != "layered" and not compare:
        reject_unused(ctx, f"with --method {method} (layered only)", {"iterations": "--iterations"})
    if method in HEURISTIC_METHODS + PEER_METHODS:
        reject_unused(ctx, f"with --method {method} (exact methods only)", {"workers": "--workers"})


def _ordering(
    instance: WordsnakeInstance,
    file: str | None,
    text: str | None,
    lang: str | None = None,
    fold: bool = False,
) -> list[str]:
    """The ordering to check: a file (word list or TSPLIB tour), or words given inline."""
    if file is not None:
        return read_ordering(instance, file, lang=lang, fold=fold)
    assert text is not None
    joined = "\n".join(re.split(r"[\s,]+", text))
    return parse_word_lines(joined, "--check-text", lang=lang, fold=fold)


#: Longer lists are summarised instead of listed word by word (their JSON has every word).
LISTING_MAX_WORDS = 5_000
#: So are lists of more letters (a table of one word of 200 million letters took minutes).
LISTING_MAX_LETTERS = 200_000


def _repeats(dups: dict[str, int]) -> str:
    """One short line about repeated words: how many, and the first few."""
    shown = ", ".join(f"{w} x{c}" for w, c in sorted(dups.items())[:5])
    more = f" and {len(dups) - 5:,} more" if len(dups) > 5 else ""
    count = "counts" if len(dups) == 1 else "count"
    return f"{counted(len(dups), 'repeated word')} {count} as separate items: {shown}{more}"


def _check(instance: WordsnakeInstance, order: list[str], as_json: bool) -> None:
    """Score a proposed ordering with the independent checker (exit 1 when it is not valid)."""
    check = check_wordsnake(instance, order)
    if as_json:
        echo_json(wordsnake_check_row(check))
    else:
        _echo_table(order, instance.cyclic, instance.proper, instance.score)
        click.echo(f"{'score':<11}  {check.score}")
        click.echo(f"{'valid':<11}  {'yes' if check.valid else 'NO'}")
        if check.missing:
            click.echo(f"{'missing':<11}  {' '.join(check.missing)}")
        if check.extra:
            click.echo(f"{'not in list':<11}  {' '.join(check.extra)}")
    if not check.valid:
        raise SystemExit(1)


def _check_certificate_options(
    certificate_path: str | None,
    verify_path: str | None,
    method: str,
    compare: bool,
    force: bool,
    other_mode: bool,
) -> None:
    """Refuse, before reading anything, what the certificate options cannot do."""
    if certificate_path is not None and verify_path is not None:
        raise InputError("give --certificate (write one) or --verify-certificate (check one)")
    if verify_path is not None:
        if verify_path != "-" and not os.path.exists(verify_path):  # a file, never inline
            raise InputError(f"certificate not found: {excerpt(verify_path)}")
        if other_mode or compare:
            raise InputError("--verify-certificate is a mode of its own: drop the other modes")
    if certificate_path is None:
        return
    if other_mode:
        raise InputError("--certificate comes with a solve: drop --check, --export-* and --svg")
    if SPEC.method_name(method) != "auto":
        raise InputError(f"certificates come from the default exact method: drop --method {method}")
    check_output(certificate_path, "--certificate", force)


def _short_limit_note(
    instance: WordsnakeInstance, elapsed: float, time_limit: float, compare: bool
) -> None:
    """Say so (stderr) when the limit leaves the search no time at all: reading the list and
    checking its answer alone take longer (issue 34, item 18: the French wordfreq list,
    2.3 million letters, with --time-limit 1)."""
    from cpwords.wordsnake.spec import check_reserve

    check = check_reserve(instance)
    if compare or elapsed + check <= time_limit:
        return
    click.echo(
        f"cpwords: note: --time-limit {time_limit:g} s is less than reading this list "
        f"({elapsed:.1f} s) and checking its answer (about {check:.1f} s) take; the answer is "
        "the first ordering the search finds, and the command ends after the check",
        err=True,
    )


def _certificate_line(saved: SavedCertificate) -> str:
    """The text line of --certificate: the file written and what it proves, or why none."""
    cert = saved.certificate
    if saved.path is None or cert is None:
        return f"{'certified':<10}  no: {saved.reason}"
    kind = (
        f"PARTIAL: the bound also rests on a core search of {cert.core_pairs:,} pairs"
        if cert.core_pairs is not None
        else f"a certificate of the bound, with a proof tree of {len(cert.tree):,} nodes"
        if cert.tree
        else "a certificate of the bound"
    )
    return f"{'certified':<10}  {saved.path} ({kind}; check it with --verify-certificate)"


def _verify(instance: WordsnakeInstance, path: str, as_json: bool, seconds: float) -> None:
    """Check a certificate within ``seconds`` (what --time-limit leaves; exit 1 when INVALID)."""
    with progress(f"checking {path}", enabled=not as_json):
        try:
            cert, found = verify_wordsnake(instance, path, time_limit=max(seconds, 0.05))
        except TimeoutError:
            raise TimeLimitReached("the certificate check reached --time-limit") from None
    if as_json:
        echo_json(wordsnake_verify_row(instance, cert, found))
    else:
        click.echo(found.message)
    if found.status == "INVALID":
        raise SystemExit(1)


def _print_comparison(
    results: Any,
    gap_fn: Any,
    optimum: float | None,
    bound_gap_fn: Any = None,
    best_bound: float | None = None,
) -> None:
    from rich.console import Console
    from rich.table import Table

    against_bound = optimum is None and best_bound is not None and bound_gap_fn is not None
    if optimum is not None:
        title = f"against the proven optimum {_fmt(optimum)}"
    elif against_bound:
        title = (
            f"no proven optimum: gaps to the best bound {_fmt(best_bound)} (each at least the "
            "gap to the optimum)"
        )
    else:
        title = "no proven optimum (gaps not computed)"
    gap_col = "gap to bound" if against_bound else "gap to optimum"
    table = Table(title=f"Methods compared, {title}")
    for col in ("method", "status", "score", "bound", gap_col, "time (s)"):
        table.add_column(col, justify="left" if col in ("method", "status") else "right")
    for r in results:
        gap = bound_gap_fn(r) if against_bound else gap_fn(r)
        table.add_row(
            r.method,
            r.status.value,
            _fmt(r.objective),
            _fmt(r.bound),
            format_gap(gap),
            f"{r.wall_time:.3f}",
        )
    Console(width=100).print(table)
    for r in results:  # why a method gave no answer (too large for memory, a peer stopped...)
        fallback = r.objective is None or r.solver_info.get("answer") == "the input order"
        reason = r.solver_info.get("reason") if fallback else None
        if reason:
            click.echo(f"{r.method}: {reason}")


def _echo_table(order: list[str], cyclic: bool, proper: bool, score: str = "squared") -> None:
    """The snake's table and its legend: shared letters highlighted on a colour terminal
    (``rich``; not with ``NO_COLOR`` or ``TERM=dumb``), in brackets otherwise."""
    import os
    import sys

    env = os.environ
    colour = sys.stdout.isatty() and not env.get("NO_COLOR") and env.get("TERM") != "dumb"
    if not colour:
        click.echo(snake_table(order, cyclic, proper, score))
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(file=sys.stdout, force_terminal=True, highlight=False, soft_wrap=True)
    for line in table_lines(order, cyclic, proper, brackets=False, score=score):
        text = Text()
        for part, shared in line:
            text.append(part, style="bold reverse" if shared else None)
        text.rstrip()
        console.print(text)
    console.print(LEGEND["colour"])


def _write_pictures(
    res: SolveResult, instance: WordsnakeInstance, svg_path: str | None, png_path: str | None
) -> None:
    """``--svg``, ``--png``: the snake drawn, its status in the caption (nothing without one)."""
    if (svg_path or png_path) is not None and res.solution is not None:
        picture = snake_svg(
            res.solution,
            instance.cyclic,
            instance.proper,
            note=res.status.value,
            score=instance.score,
        )
        write_svg(svg_path, picture, png_path)
