"""Word chains' spec: the exact trail MIP and the randomised depth-first search.

Instance tables (keys): ``lexicon`` (``enable1``, ``wordfreq:N``, a path, ... as
:func:`cpwords.core.sources.lexicon_words` reads them), optionally ``n`` and ``seed`` for a
seeded sample of ``n`` of its words; ``overlap`` (default 1), ``objective`` (``words`` or
``letters``), ``start`` and ``end``.

Below the spec, the Python API behind ``cpwords chain`` (the command parses, calls these and
prints; the chain page calls :func:`solve_chain` too): :func:`solve_chain` and
:func:`chain_row` (a solve), :func:`compare_chain` and :func:`chain_comparison_row`
(``--compare``), :func:`check_chain` and :func:`chain_check_row` (``--check``),
:func:`verify_chain` and :func:`chain_verify_row` (``--verify-certificate``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cpwords.chain.certificate import (
    ChainCertificate,
    ChainCertificateCheck,
    read_chain_certificate,
    verify_chain_certificate,
)
from cpwords.chain.heuristics import random_dfs
from cpwords.chain.models.trail import chain_trail_mip
from cpwords.chain.rules import OBJECTIVES, ChainInstance, chain_value, instance_problems
from cpwords.core.alphabet import normalize_word
from cpwords.core.errors import InputError
from cpwords.core.lexicon import read_word_list
from cpwords.core.result import SolveResult, Status
from cpwords.core.result import gap_to_optimum as relative_gap
from cpwords.core.rows import check_row, result_row, sequence_json
from cpwords.core.sources import lexicon_words, sample_words
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, solve


def chain_instance(
    words: Iterable[str],
    overlap: int = 1,
    objective: str = "words",
    start: str | None = None,
    end: str | None = None,
    source: str = "<words>",
) -> ChainInstance:
    """A checked :class:`~cpwords.chain.rules.ChainInstance` (repeated words kept once).

    Parameters
    ----------
    words : iterable of str
        Normalised words (NFC, lower case), as :func:`cpwords.core.lexicon.read_word_list`
        returns them.
    overlap : int
        ``k`` (at least 1).
    objective : {"words", "letters"}
    start, end : str, optional
        Fixed first and last words (normalised).
    source : str
        Where the words came from.

    Returns
    -------
    ChainInstance

    Raises
    ------
    InputError
        An empty list, ``overlap < 1``, an unknown objective, no word of at least ``overlap``
        letters, or a fixed word that is not in the list or is too short to link.

    Examples
    --------
    >>> chain_instance(["kiln", "kiln", "nausea"], start="kiln").words
    ('kiln', 'nausea')
    """
    distinct = tuple(dict.fromkeys(words))
    if not distinct:
        raise InputError(f"the word list {source} is empty")
    if overlap < 1:
        raise InputError(f"the overlap must be at least 1 letter, got {overlap}")
    if objective not in OBJECTIVES:
        raise InputError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if not any(len(w) >= overlap for w in distinct):
        raise InputError(f"no word of {source} has at least {overlap} letters (the overlap)")
    present = set(distinct)
    for option, w in (("--start", start), ("--end", end)):
        if w is not None and w not in present:
            raise InputError(f"{option} {w!r} is not in the word list {source}")
        if w is not None and len(w) < overlap:
            raise InputError(f"{option} {w!r} is shorter than the overlap ({overlap} letters)")
    return ChainInstance(distinct, overlap, objective, start, end, source)


def load_chain_instance(
    path: str,
    overlap: int = 1,
    objective: str = "words",
    start: str | None = None,
    end: str | None = None,
    *,
    lang: str | None = None,
    fold: bool = False,
    skip_invalid: bool = False,
) -> ChainInstance:
    """Read a word list (one word a line, ``-``: stdin) as the Wordsnake's reader does.

    ``start`` and ``end`` are normalised like the words (``lang``'s case rules, ``fold``).

    Parameters
    ----------
    path : str
        The list's file, or ``-`` for standard input.
    overlap : int
        ``k``, the letters each link shares.
    objective : {"words", "letters"}
        What the chain maximises.
    start, end : str, optional
        Words the chain must begin or end with.
    lang : str, optional
        Language code for the case rules (default: locale-independent Unicode).
    fold : bool
        Fold accents.
    skip_invalid : bool
        Leave out the lines that are not words, with a warning, instead of refusing the list.

    Returns
    -------
    ChainInstance

    Raises
    ------
    InputError
        A bad file (see :func:`cpwords.core.lexicon.read_word_list`) or a bad instance (see
        :func:`chain_instance`).
    """
    words = read_word_list(path, lang=lang, fold=fold, skip_invalid=skip_invalid)
    fix = [None if w is None else normalize_word(w.strip(), lang, fold) for w in (start, end)]
    source = "<stdin>" if path == "-" else str(path)
    return chain_instance(words, overlap, objective, fix[0], fix[1], source)


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> ChainInstance:
    """The instance of one suite table (see the module notes)."""
    if "lexicon" not in spec:
        raise InputError("a chain instance needs a 'lexicon'")
    name = str(spec["lexicon"])
    if "n" in spec:
        words: Iterable[str] = sample_words(
            name, int(spec["n"]), int(spec.get("seed", 0)), base_dir
        )
    else:
        words = lexicon_words(name, str(base_dir))
    return chain_instance(
        words,
        int(spec.get("overlap", 1)),
        str(spec.get("objective", "words")),
        spec.get("start"),
        spec.get("end"),
        name,
    )


def run(
    instance: ChainInstance,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on chain methods.

    ``trail-mip`` takes ``hint``; ``random-dfs`` takes ``steps`` and ``restart_steps``.
    """
    fn = chain_trail_mip if method == "trail-mip" else random_dfs
    result = call_method(
        fn, instance, params=params, seed=seed, time_limit=time_limit, workers=workers
    )
    return checked_proof(instance, result)


def checked_proof(instance: ChainInstance, result: SolveResult) -> SolveResult:
    """The result with its certificate checked by the independent checker and
    ``solver_info["proof"]`` saying what its OPTIMAL rests on.

    ``proof`` is ``"certificate"`` when the certificate (the relaxation's duals with the cuts
    of the solve) checks VALID and proves the chain optimal, ``"highs"`` when the result is
    OPTIMAL on HiGHS's word alone (its MIP solved to a zero gap, the relaxation's bound not
    tight), None when it is not OPTIMAL. ``certificate_check`` is the checker's status (None:
    no certificate: a heuristic, a stopped solve, or one fixed word as both ends).

    Parameters
    ----------
    instance : ChainInstance
    result : SolveResult

    Returns
    -------
    SolveResult
    """
    info = dict(result.solver_info)
    cert = info.get("certificate")
    found = None
    if cert is not None:
        found = _check_certificate(instance, cert)
        info["certificate_check"] = found.status
        info["certificate_check_time"] = found.check_time
        info["certificate_bound"] = found.bound
    else:
        info["certificate_check"] = None
    if not result.is_optimal:
        info["proof"] = None
    elif found is not None and found.optimal and found.objective == result.objective:
        info["proof"] = "certificate"
    else:
        info["proof"] = "highs" if result.method == "trail-mip" else None
    return replace(result, solver_info=info)


def problems(instance: ChainInstance, result: SolveResult) -> list[str]:
    """The puzzle's independent checker (:func:`cpwords.chain.rules.instance_problems`)."""
    return instance_problems(instance, list(result.solution))


def objective(instance: ChainInstance, solution: Any) -> float:
    """Words or letters of the chain, recomputed by the rules."""
    return float(chain_value(list(solution), instance.objective))


def solve_chain(
    instance: ChainInstance | Iterable[str],
    method: str = "trail-mip",
    *,
    overlap: int = 1,
    objective: str = "words",
    start: str | None = None,
    end: str | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[float | None, float | None, str], None] | None = None,
) -> SolveResult:
    """The longest word chain, proven (``trail-mip``) or searched (``random-dfs``), verified.

    This is :func:`cpwords.core.spec.solve` for ``"chain"``; ``verified`` is True once the
    independent checker of :mod:`cpwords.chain.rules` accepted the chain and its value.

    Parameters
    ----------
    instance : ChainInstance or iterable of str
        An instance, or words (then ``overlap``, ``objective``, ``start`` and ``end`` apply;
        they are ignored for an instance).
    method : {"trail-mip", "random-dfs"}
    overlap, objective, start, end
        See :class:`~cpwords.chain.rules.ChainInstance`.
    time_limit : float, optional
        Seconds.
    seed : int
    workers : int
        HiGHS's threads for ``trail-mip`` (the search has none).
    progress : callable ``(incumbent, bound, stage)``, optional
        ``trail-mip``'s progress as it solves (see
        :func:`~cpwords.chain.models.trail.chain_trail_mip`); the search reports none.

    Returns
    -------
    SolveResult
        ``solution``: the chain as a tuple of words.

    Raises
    ------
    InputError
        A bad instance or option.

    Examples
    --------
    >>> r = solve_chain(["seasick", "kiln", "nausea", "dog", "apple"], overlap=1)
    >>> r.status.value, r.objective, r.solution, r.verified
    ('OPTIMAL', 4.0, ('seasick', 'kiln', 'nausea', 'apple'), True)
    """
    if not isinstance(instance, ChainInstance):
        instance = chain_instance(instance, overlap, objective, start, end)
    exact = SPEC.method_name(method) == "trail-mip"
    params: dict[str, Any] = {"progress": progress} if progress is not None and exact else {}
    return solve(
        SPEC, instance, method, time_limit=time_limit, seed=seed, workers=workers, **params
    )


#: With a time limit, the share of it the exact method may take in :func:`compare_chain`.
COMPARE_EXACT_SHARE = 0.5


def compare_chain(
    instance: ChainInstance, *, time_limit: float | None = None, seed: int = 0, workers: int = 1
) -> list[SolveResult]:
    """The proven chain and the randomised DFS side by side, within one time limit.

    The exact method (``trail-mip``) runs first with :data:`COMPARE_EXACT_SHARE` of
    ``time_limit``; the randomised depth-first search (``random-dfs``, the way a player would
    try) then has as long as the exact method took (at least 0.5 s), within what is left.

    Parameters
    ----------
    instance : ChainInstance
    time_limit : float, optional
        Seconds for the whole comparison (None: the exact method unlimited).
    seed : int
        The search's random seed.
    workers : int
        HiGHS's threads for the exact method.

    Returns
    -------
    list of SolveResult
        ``[exact, heuristic]``, each verified by the independent checker; ``[exact]`` alone
        when Ctrl-C stopped the exact method.

    Raises
    ------
    InputError
        A bad time limit.

    Examples
    --------
    >>> inst = chain_instance(["seasick", "kiln", "nausea", "apple", "egg"], 1)
    >>> [(r.method, r.objective) for r in compare_chain(inst, time_limit=10)]
    [('trail-mip', 5.0), ('random-dfs', 5.0)]
    """
    t0 = time.perf_counter()
    share = None if time_limit is None else COMPARE_EXACT_SHARE * time_limit
    exact = solve_chain(instance, "trail-mip", time_limit=share, seed=seed, workers=workers)
    if exact.solver_info.get("interrupted"):  # Ctrl-C: the exact answer so far, nothing more
        return [exact]
    budget = max(0.5, exact.wall_time)
    if time_limit is not None:
        budget = max(0.05, min(budget, time_limit - (time.perf_counter() - t0)))
    heuristic = solve_chain(instance, "random-dfs", time_limit=budget, seed=seed)
    return [exact, heuristic]


# ---- The Python API of ``cpwords chain``: each mode's answer and its ``--json`` row ----------


def chain_row(result: SolveResult, instance: ChainInstance) -> dict[str, Any]:
    """The JSON object of ``cpwords chain --json`` (a solve).

    Parameters
    ----------
    result : SolveResult
        A :func:`solve_chain` answer on ``instance``.
    instance : ChainInstance

    Returns
    -------
    dict
        The :data:`~cpwords.core.rows.RESULT_KEYS` first (``counts``: ``words``, ``letters``),
        then ``chain``, ``words``, ``letters``, ``overlap``, ``maximise``, ``start``, ``end``,
        ``list``, ``list_size`` (distinct words), ``usable`` (words of at least ``overlap``
        letters) and ``proof``.

    Examples
    --------
    >>> inst = chain_instance(["seasick", "kiln", "nausea", "dog"], 1)
    >>> row = chain_row(solve_chain(inst), inst)
    >>> row["chain"], row["words"], row["letters"], row["usable"]
    (['seasick', 'kiln', 'nausea'], 3, 17, 4)
    """
    found = tuple(result.solution) if result.solution is not None else ()
    letters = sum(len(w) for w in found)
    row = result_row(
        result.to_dict(solution=list(found) if found else None),
        counts={"words": len(found), "letters": letters},
        interrupted=bool(result.solver_info.get("interrupted")),
    )
    row.update(chain=list(found), words=len(found), letters=letters, overlap=instance.overlap)
    row.update(maximise=instance.objective, start=instance.start, end=instance.end)
    row.update(list=instance.source, list_size=len(instance.words))
    row.update(usable=len(instance.usable()), proof=result.solver_info.get("proof"))
    return row


def chain_gap_to_optimum(result: SolveResult, optimum: float | None) -> float | None:
    """How far ``result`` falls short of the proven ``optimum``, as a share of it (None: no
    optimum, or no chain).

    Examples
    --------
    >>> r = SolveResult(Status.FEASIBLE, 3.0, None, 0.1, ("a",), "random-dfs")
    >>> chain_gap_to_optimum(r, 4.0), chain_gap_to_optimum(r, None)
    (0.25, None)
    """
    return relative_gap(result.objective, optimum, "max")


def chain_optimum(results: Sequence[SolveResult]) -> float | None:
    """The proven optimum of a :func:`compare_chain` answer: the exact method's value when it
    is OPTIMAL, else None."""
    exact = results[0]
    return exact.objective if exact.status is Status.OPTIMAL else None


def chain_comparison_row(instance: ChainInstance, results: Sequence[SolveResult]) -> dict:
    """The JSON object of ``cpwords chain --compare --json``.

    Parameters
    ----------
    instance : ChainInstance
    results : sequence of SolveResult
        :func:`compare_chain`'s answer (the exact method first).

    Returns
    -------
    dict
        The exact method's result row (``interrupted`` when any method was), then
        ``comparison`` (one object a method: method, status, objective, bound,
        gap_to_optimum, wall_time, verified), ``list``, ``overlap`` and ``maximise``.
    """
    exact, optimum = results[0], chain_optimum(results)
    rows: list[dict[str, Any]] = [
        {
            "method": r.method,
            "status": r.status.value,
            "objective": r.objective,
            "bound": r.bound,
            "gap_to_optimum": chain_gap_to_optimum(r, optimum),
            "wall_time": r.wall_time,
            "verified": r.verified,
        }
        for r in results
    ]
    found = list(exact.solution) if exact.solution is not None else None
    return result_row(
        exact.to_dict(solution=found),
        interrupted=any(bool(r.solver_info.get("interrupted")) for r in results),
        comparison=rows,
        list=instance.source,
        overlap=instance.overlap,
        maximise=instance.objective,
    )


@dataclass(frozen=True)
class ChainCheck:
    """A chain of one's own checked against a list (``cpwords chain --check``).

    Attributes
    ----------
    words : tuple of str
        The chain as read (normalised as the list's words are).
    problems : tuple of str
        What breaks the rules (empty: a valid chain).
    value : int, optional
        Its words or letters (what the instance maximises), when valid.
    """

    words: tuple[str, ...]
    problems: tuple[str, ...]
    value: int | None

    @property
    def valid(self) -> bool:
        """No problem found."""
        return not self.problems


def check_chain(
    instance: ChainInstance,
    chain: str | Iterable[str],
    lang: str | None = None,
    fold: bool = False,
) -> ChainCheck:
    """Check a chain of one's own: every word of the list, each once, each link sharing
    ``overlap`` letters, the fixed ends.

    Parameters
    ----------
    instance : ChainInstance
    chain : str or iterable of str
        The words, or a text of them separated by spaces, commas, ``->`` or new lines.
    lang : str, optional
        ISO 639-1 code: how the words are normalised (as the list's were read).
    fold : bool
        Fold accents.

    Returns
    -------
    ChainCheck

    Examples
    --------
    >>> inst = chain_instance(["seasick", "kiln", "nausea"], 1)
    >>> check_chain(inst, "seasick -> kiln -> nausea").value
    3
    >>> check_chain(inst, "kiln, seasick").valid
    False
    """
    texts = re.split(r"[\s,]+|->", chain) if isinstance(chain, str) else list(chain)
    words = [normalize_word(w, lang, fold) for w in texts if w.strip()]
    words = [w for w in words if w]
    problems = instance_problems(instance, words)
    value = chain_value(words, instance.objective) if words and not problems else None
    return ChainCheck(tuple(words), tuple(problems), value)


def chain_check_row(instance: ChainInstance, check: ChainCheck) -> dict[str, Any]:
    """The JSON object of ``cpwords chain --check --json``: valid, problems, the chain, its
    value (:func:`~cpwords.core.rows.check_row`), ``overlap``, ``maximise`` and ``list``."""
    return check_row(
        check.valid,
        list(check.problems),
        list(check.words),
        check.value,
        overlap=instance.overlap,
        maximise=instance.objective,
        list=instance.source,
    )


def verify_chain(
    instance: ChainInstance, certificate: str | ChainCertificate
) -> tuple[ChainCertificate, ChainCertificateCheck]:
    """Check a certificate against the list and its options (``--verify-certificate``).

    Parameters
    ----------
    instance : ChainInstance
        The list, overlap, objective and fixed ends the certificate must be about.
    certificate : str or ChainCertificate
        A certificate file (gzip when it ends in ``.gz``; ``-``: stdin) or one already read.

    Returns
    -------
    (ChainCertificate, ChainCertificateCheck)
        The certificate and the independent checker's verdict
        (:func:`~cpwords.chain.certificate.verify_chain_certificate`).

    Raises
    ------
    InputError
        An unreadable certificate, or one of another list or variant.
    """
    cert = (
        certificate
        if isinstance(certificate, ChainCertificate)
        else read_chain_certificate(certificate)
    )
    return cert, _check_certificate(instance, cert)


def _check_certificate(instance: ChainInstance, cert: ChainCertificate) -> ChainCertificateCheck:
    """The independent checker's verdict on ``cert`` for ``instance``'s list and variant."""
    return verify_chain_certificate(
        instance.words,
        cert,
        overlap=instance.overlap,
        maximise=instance.objective,
        start=instance.start,
        end=instance.end,
    )


def chain_verify_row(
    instance: ChainInstance, cert: ChainCertificate, found: ChainCertificateCheck
) -> dict[str, Any]:
    """The JSON object of ``cpwords chain --verify-certificate --json``: the check row of the
    certificate's chain (valid, problems, chain, objective, overlap, maximise, list), then the
    checker's own keys."""
    chain = list(cert.chain) if found.objective is not None else None
    row = check_row(
        found.status == "VALID",
        found.to_dict()["problems"],
        chain,
        found.objective,
        overlap=instance.overlap,
        maximise=instance.objective,
        list=instance.source,
    )
    row.update((k, v) for k, v in found.to_dict().items() if k not in row)
    return row


def _size(instance: ChainInstance) -> int:
    return len(instance.words)


SPEC = PuzzleSpec(
    puzzle="chain",
    sense="max",
    default_method="trail-mip",
    problems=problems,
    objective=objective,
    methods={
        "trail-mip": MethodInfo("exact", description="longest trail, HiGHS MIP + lazy cuts"),
        "random-dfs": MethodInfo(
            "heuristic", seeded=True, description="randomised depth-first search, restarts"
        ),
    },
    make_instance=make_instance,
    run=run,
    size=_size,
    size_label="words in the list",
    spec_keys=frozenset({"lexicon", "n", "seed", "overlap", "objective", "start", "end"}),
    solution_json=sequence_json,
    objective_label="words (or letters) in the chain",
    aliases={"exact": "trail-mip"},
)
