"""The shortest superstring's spec: the exact method and the greedy baseline, its Python API.

Instance tables (keys): ``lexicon`` (``enable1``, ``dict:fr``, ``wordfreq:en:10000``, a path,
... as :func:`cpwords.core.sources.lexicon_words` reads them) or ``file`` (a word list; a path
may use ``${VAR}`` and ``~``: a suite names a list the user keeps outside the repository, and
the table is skipped, with the reason, when it is absent), optionally ``n`` and ``seed`` for a
seeded sample of ``n`` of the lexicon's words; or ``kmers`` (``k``, ``genome`` length, ``seed``:
every ``k``-mer of a seeded random genome over ``acgt``, see :func:`random_kmers`); or ``fasta``
(``path``, resolved as ``file``'s, ``k``, optionally ``seed`` and ``records``: the distinct
forward-strand ``k``-mers of a real genome, shuffled, see
:func:`cpwords.superstring.genomes.genome_kmers`).

>>> from cpwords.superstring.spec import solve_superstring
>>> res = solve_superstring(["cat", "atom", "a"])
>>> res.status.value, res.objective, res.solution.text, res.verified
('OPTIMAL', 5.0, 'catom', True)
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.core.errors import CheckError, InputError, excerpt
from cpwords.core.lexicon import read_word_list
from cpwords.core.result import SolveResult, Status
from cpwords.core.result import gap_to_optimum as relative_gap
from cpwords.core.rows import result_row
from cpwords.core.sources import lexicon_words, resolve_path, sample_words
from cpwords.core.spec import MethodInfo, PuzzleSpec, call_method, solve
from cpwords.superstring.genomes import genome_kmers
from cpwords.superstring.heuristics import greedy_order
from cpwords.superstring.models.exact import snake_instance, solve_exact
from cpwords.superstring.models.reduce import reduce_words
from cpwords.superstring.rules import (
    Superstring,
    SuperstringInstance,
    substring_free_problem,
    superstring_instance,
    superstring_problems,
)
from cpwords.wordsnake.certificate import (
    Certificate,
    CertificateCheck,
    certificate_cap,
    read_certificate,
)
from cpwords.wordsnake.certificate import verify_certificate as verify_snake_certificate
from cpwords.wordsnake.relaxation.string_hub import DeadlineReached

#: The registry (``cpwords superstring --method``, suites, ``SolveResult.method``).
METHODS = {
    "exact": MethodInfo(
        "exact", description="the linear Wordsnake of the kept words, proven by a certificate"
    ),
    "greedy": MethodInfo("heuristic", description="greedy merging: the largest overlap first"),
}


def load_superstring_instance(
    path: str, *, lang: str | None = None, fold: bool = False, skip_invalid: bool = False
) -> SuperstringInstance:
    """Read a word list (one word a line, ``-``: stdin) as every cpwords puzzle reads one.

    Parameters
    ----------
    path : str
        The list's file, or ``-`` for standard input.
    lang : str, optional
        Language code for the case rules.
    fold : bool
        Fold accents.
    skip_invalid : bool
        Leave out the lines that are not words, with a warning, instead of refusing the list.

    Returns
    -------
    SuperstringInstance

    Raises
    ------
    InputError
        A bad file (see :func:`cpwords.core.lexicon.read_word_list`).
    """
    words = read_word_list(path, lang=lang, fold=fold, skip_invalid=skip_invalid)
    return superstring_instance(words, "<stdin>" if path == "-" else str(path))


def random_kmers(k: int, genome: int, seed: int) -> list[str]:
    """Every distinct ``k``-mer of a seeded random genome of ``genome`` bases over ``acgt``.

    Parameters
    ----------
    k : int
        The k-mers' length (at least 1).
    genome : int
        The genome's length (at least ``k``).
    seed : int

    Returns
    -------
    list of str
        In the order of their first occurrence (the genome itself is a superstring of them).

    Raises
    ------
    InputError
        Bad sizes.

    Examples
    --------
    >>> random_kmers(3, 7, 1)
    ['cag', 'aga', 'gat', 'att', 'ttt']
    """
    import random

    if k < 1 or genome < k:
        raise InputError(f"bad k-mer sizes: k={k}, genome={genome}")
    rng = random.Random(seed)
    text = "".join(rng.choice("acgt") for _ in range(genome))
    return list(dict.fromkeys(text[i : i + k] for i in range(genome - k + 1)))


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> SuperstringInstance:
    """The instance of one suite table (see the module notes)."""
    sources = [k for k in ("lexicon", "file", "kmers", "fasta") if k in spec]
    if len(sources) != 1:
        raise InputError(
            "a superstring instance needs exactly one of 'lexicon', 'file', 'kmers', 'fasta'"
        )
    if "kmers" in spec:
        km = spec["kmers"]
        if not isinstance(km, Mapping):
            raise InputError("'kmers' is a table: {k = 31, genome = 1000000, seed = 1}")
        k, genome, seed = (int(km.get(x, d)) for x, d in (("k", 31), ("genome", 0), ("seed", 0)))
        return superstring_instance(random_kmers(k, genome, seed), f"{k}-mers of {genome:,} bases")
    if "fasta" in spec:
        return fasta_instance(spec["fasta"], base_dir)
    if "file" in spec:
        raw = str(spec["file"])
        return superstring_instance(read_word_list(_suite_path(raw, base_dir, "list")), raw)
    name = str(spec["lexicon"])
    if "n" in spec:
        words: Iterable[str] = sample_words(
            name, int(spec["n"]), int(spec.get("seed", 0)), base_dir
        )
    else:
        words = lexicon_words(name, str(base_dir))
    return superstring_instance(words, name)


def _suite_path(raw: str, base_dir: Path, what: str) -> Path:
    """A file a suite table names: ``${VAR}`` and ``~`` expanded, then resolved as every suite
    path (:func:`cpwords.core.sources.resolve_path`: ``shared:``, or relative to the suite).

    Raises
    ------
    InputError
        An unset variable, or the file is absent (the harness then skips the table, saying so).
    """
    path = os.path.expanduser(os.path.expandvars(raw))
    if "$" in path:
        raise InputError(f"the file {raw!r} names an unset variable: set it to the {what}'s path")
    resolved = resolve_path(path, base_dir)
    if not Path(resolved).exists():
        raise InputError(f"the {what} {raw} ({resolved}) is absent")
    return resolved


#: The keys of a ``fasta`` table.
FASTA_KEYS = ("path", "k", "seed", "records")


def fasta_instance(table: Any, base_dir: Path) -> SuperstringInstance:
    """The instance of a ``fasta`` table: the k-mers of a real genome (:func:`genome_kmers`).

    Parameters
    ----------
    table : mapping
        ``path`` (resolved by :func:`_suite_path`), ``k`` (default 31), ``seed`` (default: none,
        the k-mers in the order of their first occurrence), ``records`` (a name or a list of
        names; default: every record).
    base_dir : Path
        The suite's folder.

    Returns
    -------
    SuperstringInstance

    Raises
    ------
    InputError
        A bad table, or what :func:`genome_kmers` refuses (an absent file: the harness skips
        the table with the reason).
    """
    example = '{path = "genome.fa.gz", k = 31, seed = 1}'
    if not isinstance(table, Mapping) or "path" not in table:
        raise InputError(f"'fasta' is a table with a path: {example}")
    unknown = sorted(set(table) - set(FASTA_KEYS))
    if unknown:
        takes = ", ".join(FASTA_KEYS)
        raise InputError(f"unknown keys in 'fasta': {', '.join(unknown)} (it takes {takes})")
    k, seed, records = table.get("k", 31), table.get("seed"), table.get("records")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError(f"the fasta seed must be a whole number, not {excerpt(repr(seed))}")
    if isinstance(records, str):
        records = [records]
    if records is not None and not (
        isinstance(records, list) and all(isinstance(r, str) for r in records)
    ):
        raise InputError(f"the fasta records are names (strings), not {excerpt(repr(records))}")
    path = _suite_path(str(table["path"]), base_dir, "FASTA file")
    found = genome_kmers(path, k, seed, records=records)
    return superstring_instance(found.kmers, found.source)


def _run_greedy(instance: SuperstringInstance, *, time_limit: float | None = None) -> SolveResult:
    """The greedy superstring (FEASIBLE, no bound)."""
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    try:
        red = reduce_words(instance.words, deadline)
    except DeadlineReached:
        return SolveResult(
            Status.UNKNOWN,
            None,
            None,
            time.perf_counter() - t0,
            None,
            "greedy",
            sense="min",
            solver_info={"stopped": "time"},
        )
    found = red.place(greedy_order(red.kept, deadline))
    info = {"kept": len(red.kept), "contained": red.contained, "kept_letters": red.kept_letters}
    return SolveResult(
        Status.FEASIBLE,
        float(len(found.text)),
        None,
        time.perf_counter() - t0,
        found,
        "greedy",
        sense="min",
        solver_info=info,
    )


def run(
    instance: SuperstringInstance,
    method: str,
    *,
    seed: int,
    time_limit: float | None,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``SPEC.methods``): the only dispatch on superstring methods.

    ``exact`` takes ``start``, ``progress`` and ``certificate`` (see :func:`solve_superstring`).
    """
    fn = solve_exact if method == "exact" else _run_greedy
    return call_method(
        fn, instance, params=params, seed=seed, time_limit=time_limit, workers=workers
    )


def problems(instance: SuperstringInstance, result: SolveResult) -> list[str]:
    """The puzzle's independent checker (:func:`cpwords.superstring.rules.superstring_problems`)."""
    return superstring_problems(instance.words, result.solution)


def objective(instance: SuperstringInstance, solution: Any) -> float:
    """The superstring's length, recounted."""
    text = solution.text if isinstance(solution, Superstring) else str(solution)
    return float(len(text))


#: Superstrings longer than this are stored as a summary in study rows.
ROW_MAX_LETTERS = 2_000


def solution_json(solution: Any) -> Any:
    """A study row's superstring: itself when short, else its length, start and SHA-256."""
    text = solution.text if isinstance(solution, Superstring) else str(solution)
    if len(text) <= ROW_MAX_LETTERS:
        return text
    import hashlib

    return {
        "letters": len(text),
        "first": text[:200],
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }


def measures(instance: SuperstringInstance, result: SolveResult) -> dict[str, float]:
    """A study row's parts: the list's letters, the kept words and what dropped out."""
    info = result.solver_info
    out = {"letters": float(instance.letters)}
    for key in ("kept", "contained", "kept_letters"):
        if key in info:
            out[key] = float(info[key])
    return out


def certify(instance: SuperstringInstance, result: SolveResult) -> dict[str, Any] | None:
    """Check the certificate a result carries (``solver_info["certificate"]``) for a study row:
    the Wordsnake checker's verdict on the kept words (see :func:`verify_superstring_certificate`).
    """
    info = result.solver_info
    if "certificate" not in info:
        return None
    cert = info["certificate"]
    if cert is None:
        return {
            "status": "not written",
            "reason": info.get("wordsnake", {}).get("certificate_error"),
        }
    found = verify_superstring_certificate(instance.words, cert)
    return {
        "status": found.status,
        "bound": found.bound,
        "check_time": found.check_time,
        "message": found.message,
    }


SPEC = PuzzleSpec(
    puzzle="superstring",
    sense="min",
    default_method="exact",
    problems=problems,
    objective=objective,
    methods=METHODS,
    make_instance=make_instance,
    run=run,
    size=lambda inst: len(inst.words),
    size_label="words",
    spec_keys=frozenset({"lexicon", "file", "kmers", "fasta", "n", "seed"}),
    solution_json=solution_json,
    measures=measures,
    certify=certify,
    objective_label="letters in the superstring",
    aliases={"auto": "exact"},
)


def solve_superstring(
    instance: SuperstringInstance | Iterable[str],
    method: str = "exact",
    *,
    time_limit: float | None = 600.0,
    workers: int = 2,
    seed: int = 0,
    start: float | None = None,
    progress: Callable[..., None] | None = None,
    certificate: bool = False,
) -> SolveResult:
    """The shortest superstring of a word list, proven (``exact``) or greedy, verified.

    This is :func:`cpwords.core.spec.solve` for ``"superstring"``: the words contained in
    others drop out, the kept words are ordered (the exact method: the Wordsnake's default
    method with the linear score; ``greedy``: greedy merging) and merged, and the independent
    checker finds every word in the result.

    Parameters
    ----------
    instance : SuperstringInstance or iterable of str
        An instance, or the words (normalised as on the command line: NFC, lower case).
    method : {"exact", "greedy"}
    time_limit : float or None
        Seconds for the whole call, counted from ``start``.
    workers : int
        Solver threads (``exact``).
    seed : int
    start : float, optional
        ``time.perf_counter()`` at which the limit started (``exact``; default: now).
    progress : callable, optional
        ``progress(elapsed, length, bound_length[, stage])`` (``exact``).
    certificate : bool
        ``exact`` only: also return the certificate of the bound in
        ``solver_info["certificate"]`` (a Wordsnake certificate of the kept words, linear
        score; check it with :func:`verify_superstring_certificate`).

    Returns
    -------
    SolveResult
        ``sense="min"``: ``objective`` is the superstring's length, ``bound`` the proven
        lower bound; ``solution`` a :class:`~cpwords.superstring.rules.Superstring` (its
        ``text``, the kept words' ``order``, every word's ``starts``); ``solver_info``:
        ``kept``, ``contained`` (how many words dropped out), ``kept_letters``, ``proof``.

    Raises
    ------
    InputError
        A bad list, method, option or limit; ``certificate`` with ``greedy``.
    CheckError
        The superstring misses a word (a bug).

    Examples
    --------
    >>> r = solve_superstring(["alpha", "phase", "sea", "seal"])
    >>> r.solution.text, r.objective, r.bound, r.solver_info["contained"]
    ('sealphase', 9.0, 9.0, 1)
    """
    if not isinstance(instance, SuperstringInstance):
        instance = superstring_instance(instance)
    name = SPEC.method_name(method)
    params: dict[str, Any] = {}
    if name == "exact":
        params = {"start": start, "progress": progress, "certificate": certificate}
    elif certificate:
        raise InputError(f"certificates come from the exact method: drop --method {method}")
    return solve(SPEC, instance, name, time_limit=time_limit, workers=workers, seed=seed, **params)


#: The share of a comparison's time limit the exact method may take.
COMPARE_EXACT_SHARE = 0.5


def compare_superstring(
    instance: SuperstringInstance | Iterable[str],
    *,
    time_limit: float | None = 600.0,
    start: float | None = None,
    **kwargs: Any,
) -> list[SolveResult]:
    """The proven superstring and the greedy one side by side, within one time limit.

    The exact method runs first with :data:`COMPARE_EXACT_SHARE` of ``time_limit`` (counted
    from ``start``), the greedy merging with what is left (as ``cpwords snake --compare``).

    Parameters
    ----------
    instance : SuperstringInstance or iterable of str
    time_limit : float or None
        Seconds for the whole comparison.
    start : float, optional
        ``time.perf_counter()`` at which the limit started (default: now).
    **kwargs
        Passed to the exact method (:func:`solve_superstring`: ``workers``, ``seed``,
        ``progress``, ``certificate``).

    Returns
    -------
    list of SolveResult
        ``[exact, greedy]``; ``[exact]`` alone when Ctrl-C stopped the exact method.

    Raises
    ------
    CheckError
        The greedy superstring is shorter than a proven optimum (a bug in the exact method).

    Examples
    --------
    >>> [(r.method, r.objective) for r in compare_superstring(["cat", "atom", "a"])]
    [('exact', 5.0), ('greedy', 5.0)]
    """
    if not isinstance(instance, SuperstringInstance):
        instance = superstring_instance(instance)
    t0 = time.perf_counter() if start is None else start
    share = None if time_limit is None else COMPARE_EXACT_SHARE * time_limit
    exact = solve_superstring(instance, "exact", time_limit=share, start=t0, **kwargs)
    if exact.solver_info.get("interrupted"):
        return [exact]
    left = None if time_limit is None else max(0.05, time_limit - (time.perf_counter() - t0))
    greedy = solve_superstring(instance, "greedy", time_limit=left)
    proven = exact.objective if exact.is_optimal else None
    if proven is not None and greedy.objective is not None and greedy.objective < proven:
        raise CheckError(
            f"greedy found {greedy.objective:g} letters, below the proven optimum {proven:g}"
        )
    return [exact, greedy]


def superstring_query(
    instance: SuperstringInstance,
    *,
    method: str = "exact",
    compare: bool = False,
    time_limit: float | None = 600.0,
    start: float | None = None,
    workers: int = 2,
    seed: int = 0,
    certificate: bool = False,
    progress: Callable[..., None] | None = None,
) -> tuple[SolveResult, list[SolveResult]]:
    """``cpwords superstring``'s solve: one method, or the exact and greedy ones compared.

    Parameters
    ----------
    instance : SuperstringInstance
    method : {"exact", "greedy"}
        The method (not with ``compare``).
    compare : bool
        Run both (:func:`compare_superstring`).
    time_limit : float or None
        Seconds for the whole call, counted from ``start``.
    start : float, optional
        ``time.perf_counter()`` at which the limit started (default: now).
    workers, seed, certificate, progress
        The exact method's (:func:`solve_superstring`); greedy merging takes none.

    Returns
    -------
    (SolveResult, list of SolveResult)
        The main result (the exact one with ``compare``) and the others compared with it
        (``[greedy]`` with ``compare`` unless Ctrl-C stopped the exact method; else none).

    Raises
    ------
    InputError, CheckError
        As :func:`solve_superstring` and :func:`compare_superstring`.

    Examples
    --------
    >>> inst = superstring_instance(["cat", "atom", "a"])
    >>> res, others = superstring_query(inst, compare=True)
    >>> res.solution.text, [r.method for r in others]
    ('catom', ['greedy'])
    """
    exact: dict[str, Any] = {"workers": workers, "seed": seed, "certificate": certificate}
    exact["progress"] = progress
    if compare:
        results = compare_superstring(instance, time_limit=time_limit, start=start, **exact)
        return results[0], results[1:]
    if method == "greedy":
        return solve_superstring(instance, "greedy", time_limit=time_limit), []
    return solve_superstring(instance, method, time_limit=time_limit, start=start, **exact), []


def superstring_row(
    result: SolveResult, instance: SuperstringInstance, *, interrupted: bool | None = None
) -> dict[str, Any]:
    """The JSON object of a ``cpwords superstring --json`` solve (before its comparison,
    certificate and ``out``).

    Parameters
    ----------
    result : SolveResult
        A :func:`solve_superstring` answer.
    instance : SuperstringInstance
        Its list.
    interrupted : bool, optional
        Whether Ctrl-C stopped the command (default: whether it stopped ``result``).

    Returns
    -------
    dict
        The :data:`~cpwords.core.rows.RESULT_KEYS` first (``counts``: ``letters``, ``words``;
        ``solver_info`` without the certificate), then ``superstring``, ``length``, ``list``,
        ``list_size``, ``repeated``, ``contained``, ``kept``, ``letters``, ``kept_letters``,
        ``overlap``, ``order`` and ``proof``.

    Examples
    --------
    >>> inst = superstring_instance(["alpha", "phase", "sea", "seal"])
    >>> row = superstring_row(solve_superstring(inst), inst)
    >>> row["superstring"], row["length"], row["overlap"], row["order"]
    ('sealphase', 9, 5, ['seal', 'alpha', 'phase'])
    """
    found = result.solution if isinstance(result.solution, Superstring) else None
    info = dict(result.solver_info)
    info.pop("certificate", None)
    if interrupted is None:
        interrupted = bool(info.get("interrupted"))
    length = None if found is None else len(found.text)
    kept_letters = info.get("kept_letters")
    row = result_row(
        result.to_dict(solution=None if found is None else found.text) | {"solver_info": info},
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


def comparison_rows(result: SolveResult, others: Sequence[SolveResult]) -> list[dict[str, Any]]:
    """The ``comparison`` of ``cpwords superstring --compare --json``: one row per method.

    Parameters
    ----------
    result : SolveResult
        The exact method's answer (its objective is the optimum when OPTIMAL).
    others : sequence of SolveResult
        The methods compared with it.

    Returns
    -------
    list of dict
        Per method: ``method``, ``status``, ``objective``, ``bound``, ``gap_to_optimum``
        (:func:`gap_to_optimum`), ``wall_time``, ``verified``, ``proof``.
    """
    optimum = result.objective if result.is_optimal else None
    return [
        {
            "method": r.method,
            "status": r.status.value,
            "objective": r.objective,
            "bound": r.bound,
            "gap_to_optimum": gap_to_optimum(r, optimum),
            "wall_time": r.wall_time,
            "verified": r.verified,
            "proof": r.solver_info.get("proof"),
        }
        for r in (result, *others)
    ]


def gap_to_optimum(result: SolveResult, optimum: float | None) -> float | None:
    """How much longer than the proven optimum a result is, relative to it.

    Parameters
    ----------
    result : SolveResult
    optimum : float or None
        The proven optimum (None: none).

    Returns
    -------
    float or None
        ``(objective - optimum) / max(1, optimum)``; None without an optimum or an objective.

    Examples
    --------
    >>> r = solve_superstring(["cat", "atom", "a"], "greedy")
    >>> gap_to_optimum(r, 4.0), gap_to_optimum(r, None)
    (0.25, None)
    """
    return relative_gap(result.objective, optimum, "min")


@dataclass(frozen=True)
class SuperstringCheck:
    """What :func:`verify_superstring_certificate` found.

    Attributes
    ----------
    status : {"VALID", "PARTIAL", "INVALID"}
        The Wordsnake checker's verdict on the kept words (INVALID too when the kept words are
        not substring-free).
    bound : int or None
        The proven lower bound on a superstring's length (None when INVALID).
    length : int or None
        The length of the superstring the certificate's ordering gives.
    optimal : bool
        VALID and that superstring meets the bound.
    message : str
        One line.
    kept, contained : int
        The words kept and those dropped out (contained in others).
    check_time : float
        Seconds.
    """

    status: str
    bound: int | None
    length: int | None
    optimal: bool
    message: str
    kept: int
    contained: int
    check_time: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary."""
        return dict(self.__dict__)


def verify_superstring_certificate(
    words: Sequence[str],
    cert: Certificate | str | os.PathLike[str],
    *,
    time_limit: float | None = None,
) -> SuperstringCheck:
    """Check a superstring certificate: a lower bound on the length of every superstring.

    The words contained in others drop out (the reduction of the solver, re-checked here: the
    kept words must be substring-free, by :func:`~cpwords.superstring.rules.
    substring_free_problem`); the certificate is then a Wordsnake certificate of the kept words
    with the linear score, checked by the Wordsnake's independent checker
    (:func:`cpwords.wordsnake.certificate.verify_certificate`): if it proves that no ordering
    of them overlaps by more than ``B`` letters, every superstring of the list has at least
    ``kept letters - B`` letters (card ``models/superstring.md``).

    Parameters
    ----------
    words : sequence of str
        The list's words (normalised; repeats count once).
    cert : Certificate or path
        The certificate, or its file.
    time_limit : float, optional
        Seconds for the check (``TimeoutError`` past it).

    Returns
    -------
    SuperstringCheck

    Raises
    ------
    CertificateError
        The file cannot be read, or it is for another list, variant or score (one line).
    TimeoutError
        ``time_limit`` passed.

    Examples
    --------
    >>> r = solve_superstring(["cat", "atom", "a"], certificate=True)
    >>> found = verify_superstring_certificate(["cat", "atom", "a"], r.solver_info["certificate"])
    >>> found.status, found.bound, found.length, found.optimal
    ('VALID', 5, 5, True)
    """
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + time_limit
    inst = superstring_instance(words)
    red = reduce_words(inst.words)
    if not isinstance(cert, Certificate):
        cert = read_certificate(cert, certificate_cap(len(red.kept)))
    problem = substring_free_problem(red.kept, deadline)
    kept, dropped = len(red.kept), red.contained
    if problem is not None:
        return SuperstringCheck(
            "INVALID",
            None,
            None,
            False,
            f"INVALID: {problem}",
            kept,
            dropped,
            time.perf_counter() - t0,
        )
    left = None if deadline is None else max(0.01, deadline - time.perf_counter())
    snake = snake_instance(red, inst.source)
    found = verify_snake_certificate(
        snake.words, cert, cyclic=False, proper=False, score="linear", time_limit=left
    )
    total = red.kept_letters
    bound = None if found.bound is None else total - found.bound
    length = None if found.objective is None else total - found.objective
    msg = _check_message(found, bound, length, len(inst.words))
    return SuperstringCheck(
        found.status, bound, length, found.optimal, msg, kept, dropped, time.perf_counter() - t0
    )


def _check_message(
    found: CertificateCheck, bound: int | None, length: int | None, n_words: int
) -> str:
    """The one line of :func:`verify_superstring_certificate`: the Wordsnake checker's own when
    the certificate is invalid, else the superstring ``bound`` and ``length`` it proves for a
    list of ``n_words``."""
    if found.status == "INVALID":
        return found.message
    tail = "optimal" if found.optimal else f"gap {length - bound:,}" if length and bound else ""
    return (
        f"{found.status}: every superstring of these {n_words:,} words has at least "
        f"{bound:,} letters; the certificate's has {length:,} ({tail})"
    )
