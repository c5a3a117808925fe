"""The modes of ``cpwords snake`` as library functions: what the command prints, built once.

The command line parses its options, calls these and shows the result; the Wordsnake page's
solves build their row with :func:`wordsnake_row` too (issue 47, item 2):

* a solve (:func:`~cpwords.wordsnake.spec.solve_wordsnake`, or
  :func:`~cpwords.wordsnake.spec.compare_wordsnake` for ``--compare``): :func:`wordsnake_row`,
  its ``--json`` object, with ``--compare``'s rows (:func:`wordsnake_comparison_rows`) and
  ``--certificate``'s entry (:func:`save_certificate`);
* ``--check``: :func:`check_wordsnake` and :func:`wordsnake_check_row`;
* ``--verify-certificate``: :func:`verify_wordsnake` and :func:`wordsnake_verify_row`.

>>> from cpwords.wordsnake.rules import WordsnakeInstance
>>> inst = WordsnakeInstance(("seasick", "run", "nausea"))
>>> check = check_wordsnake(inst, ["run", "nausea", "seasick"])
>>> check.valid, check.score
(True, 10)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.result import SolveResult
from cpwords.core.rows import check_row, result_row
from cpwords.wordsnake.certificate import (
    Certificate,
    CertificateCheck,
    certificate_cap,
    read_certificate,
    verify_certificate,
    write_certificate,
)
from cpwords.wordsnake.rules import WordsnakeInstance, snake_lengths, snake_score
from cpwords.wordsnake.spec import Comparison, solution_json


def repeated_words(instance: WordsnakeInstance) -> dict[str, int]:
    """The words listed more than once, with their counts, in alphabetical order.

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    dict of str to int
        Empty when every word is listed once (each repeat counts as a separate item).

    Examples
    --------
    >>> repeated_words(WordsnakeInstance(("run", "nab", "run")))
    {'run': 2}
    """
    # A set first: a Counter of the French list's 304,595 words took 0.1 s, with none repeated.
    if len(set(instance.words)) == instance.n:
        return {}
    return dict(sorted(instance.duplicates().items()))


def wordsnake_row(
    result: SolveResult,
    instance: WordsnakeInstance,
    *,
    duplicates: Mapping[str, int] | None = None,
    certificate: Mapping[str, Any] | None = None,
    comparison: Comparison | None = None,
) -> dict[str, Any]:
    """The JSON object of ``cpwords snake --json`` (a solve).

    Parameters
    ----------
    result : SolveResult
        A :func:`~cpwords.wordsnake.spec.solve_wordsnake` answer on ``instance`` (with
        ``--compare``: the first of ``comparison``'s results).
    instance : WordsnakeInstance
    duplicates : mapping of str to int, optional
        The repeated words, when already counted (default: :func:`repeated_words`).
    certificate : mapping, optional
        ``--certificate``'s entry (:meth:`SavedCertificate.to_dict`), under ``certificate``.
    comparison : Comparison, optional
        ``--compare``'s results: one row per method under ``comparison``
        (:func:`wordsnake_comparison_rows`) and the proven ``optimum``.

    Returns
    -------
    dict
        The :data:`~cpwords.core.rows.RESULT_KEYS` first (``interrupted``: the solve or the
        comparison was stopped), then the result's own keys, ``n``, ``cyclic``, ``proper``,
        ``score``, ``duplicates``, ``total_chars`` and ``snake_chars`` (letters of the words
        and of the snake; None without an ordering), ``instance`` (the list's name),
        ``reason`` (why there is no ordering, when the method says), ``proof``, then
        ``certificate``, ``comparison`` and ``optimum`` when given.

    Examples
    --------
    >>> from cpwords.wordsnake.spec import solve_wordsnake
    >>> inst = WordsnakeInstance(("seasick", "run", "nausea"))
    >>> row = wordsnake_row(solve_wordsnake(inst), inst)
    >>> row["status"], row["solution"], row["total_chars"], row["snake_chars"]
    ('OPTIMAL', ['run', 'nausea', 'seasick'], 16, 12)
    """
    found = result.solution is not None
    cyclic, proper = instance.cyclic, instance.proper
    total, merged = snake_lengths(result.solution, cyclic, proper) if found else (None, None)
    interrupted = bool(result.solver_info.get("interrupted"))
    interrupted = interrupted or bool(comparison is not None and comparison.interrupted)
    dups = repeated_words(instance) if duplicates is None else dict(sorted(duplicates.items()))
    row = result_row(
        result.to_dict(),
        counts=None,
        interrupted=interrupted,
        n=instance.n,
        cyclic=cyclic,
        proper=proper,
        score=instance.score,
        duplicates=dups,
        total_chars=total,
        snake_chars=merged,
        instance=instance.name,
    )
    if not found and "reason" in result.solver_info:
        row["reason"] = result.solver_info["reason"]
    row["proof"] = result.solver_info.get("proof")
    if certificate is not None:
        row["certificate"] = dict(certificate)
    if comparison is not None:
        row["comparison"] = wordsnake_comparison_rows(comparison)
        row["optimum"] = comparison.optimum
    return row


def wordsnake_comparison_rows(comparison: Comparison) -> list[dict[str, Any]]:
    """``--compare``'s rows: one per method, in the order they ran.

    Parameters
    ----------
    comparison : Comparison
        A :func:`~cpwords.wordsnake.spec.compare_wordsnake` answer.

    Returns
    -------
    list of dict
        ``method``, ``status``, ``objective``, ``bound``, ``wall_time``, ``verified``,
        ``proof``, ``gap_to_optimum`` (against a proven optimum, else None) and
        ``gap_to_bound`` (against the best bound any method proved).

    Examples
    --------
    >>> from cpwords.wordsnake.spec import compare_wordsnake
    >>> comp = compare_wordsnake(WordsnakeInstance(("seasick", "run", "nausea")), ["exact"])
    >>> rows = wordsnake_comparison_rows(comp)
    >>> [(r["method"], r["objective"], r["gap_to_optimum"]) for r in rows]
    [('auto', 10.0, 0.0)]
    """
    return [
        {
            "method": r.method,
            "status": r.status.value,
            "objective": r.objective,
            "bound": r.bound,
            "wall_time": r.wall_time,
            "verified": r.verified,
            "proof": r.solver_info.get("proof"),
            "gap_to_optimum": comparison.gap_to_optimum(r),
            "gap_to_bound": comparison.gap_to_bound(r),
        }
        for r in comparison.results
    ]


@dataclass(frozen=True)
class SavedCertificate:
    """What became of a solve's certificate (``cpwords snake --certificate CERT``).

    Attributes
    ----------
    path : str or None
        Where it was written; None when it was not.
    certificate : Certificate or None
        The certificate the solve returned (None: it computed none).
    reason : str or None
        Why it was not written.
    failed : bool
        The write failed (a full disk, a directory): an error, where a solve that computed no
        certificate is not one.
    """

    path: str | None
    certificate: Certificate | None
    reason: str | None = None
    failed: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The ``certificate`` entry of the solve's row: ``path`` and the certificate's
        summary, or ``path`` None and the ``reason``."""
        if self.path is None or self.certificate is None:
            return {"path": None, "reason": self.reason}
        return {"path": self.path, **self.certificate.to_dict()}


def save_certificate(result: SolveResult, path: str | os.PathLike[str]) -> SavedCertificate:
    """Write the certificate a solve returned (``solver_info["certificate"]``).

    Parameters
    ----------
    result : SolveResult
        A :func:`~cpwords.wordsnake.spec.solve_wordsnake` answer asked with
        ``certificate=True``.
    path : str or path
        The file (gzip when it ends in ``.gz``), replaced if it exists (whether it may be
        was the caller's to decide before the solve).

    Returns
    -------
    SavedCertificate
        Never raises on a failed write: the answer is still worth printing, and its
        ``reason`` starts with ``--certificate``.
    """
    info = result.solver_info
    cert = info.get("certificate")
    if cert is None:
        return SavedCertificate(
            None, None, info.get("certificate_error", "no certificate was computed")
        )
    try:
        write_certificate(cert, path, force=True)
    except InputError as err:
        return SavedCertificate(None, cert, f"--certificate {err}", failed=True)
    return SavedCertificate(os.fspath(path), cert)


@dataclass(frozen=True)
class SnakeCheck:
    """An ordering of one's own, scored by the rules (``cpwords snake --check``).

    Attributes
    ----------
    order : tuple of str
        The ordering as read.
    score : int
        Its score under the instance's variant (cyclic, proper, squared or linear).
    missing : tuple of str
        Words of the list it leaves out (a word listed twice and given once: once), sorted.
    extra : tuple of str
        Its words beyond the list's, sorted.
    """

    order: tuple[str, ...]
    score: int
    missing: tuple[str, ...]
    extra: tuple[str, ...]

    @property
    def valid(self) -> bool:
        """Every word of the list, each as many times as listed, and no other."""
        return not self.missing and not self.extra

    @property
    def problems(self) -> list[str]:
        """The missing and extra words in one line each (the first five of each)."""
        return [
            f"{len(ws):,} {what}: {', '.join(ws[:5])}{' ...' if len(ws) > 5 else ''}"
            for ws, what in (
                (self.missing, "list words missing"),
                (self.extra, "words not in the list"),
            )
            if ws
        ]


def check_wordsnake(instance: WordsnakeInstance, order: Sequence[str]) -> SnakeCheck:
    """Score a proposed ordering with the independent checker.

    Parameters
    ----------
    instance : WordsnakeInstance
        The list and its variant.
    order : sequence of str
        The words in order, normalised as the list's were read.

    Returns
    -------
    SnakeCheck

    Examples
    --------
    >>> inst = WordsnakeInstance(("seasick", "run", "nausea"))
    >>> check = check_wordsnake(inst, ["nausea", "seasick", "sickle"])
    >>> check.valid, check.score, check.problems
    (False, 25, ['1 list words missing: run', '1 words not in the list: sickle'])
    """
    listed, given = Counter(instance.words), Counter(order)
    return SnakeCheck(
        tuple(order),
        snake_score(order, instance.cyclic, instance.proper, instance.score),
        tuple(sorted((listed - given).elements())),
        tuple(sorted((given - listed).elements())),
    )


def wordsnake_check_row(check: SnakeCheck) -> dict[str, Any]:
    """The JSON object of ``cpwords snake --check --json``.

    Parameters
    ----------
    check : SnakeCheck
        :func:`check_wordsnake`'s answer.

    Returns
    -------
    dict
        ``valid``, ``problems``, the ordering (``solution``), its score (``objective``), then
        ``missing`` and ``extra``.

    Examples
    --------
    >>> inst = WordsnakeInstance(("seasick", "run", "nausea"))
    >>> wordsnake_check_row(check_wordsnake(inst, ["run", "nausea", "seasick"]))["objective"]
    10
    """
    return check_row(
        check.valid,
        check.problems,
        list(check.order),
        check.score,
        missing=list(check.missing),
        extra=list(check.extra),
    )


def verify_wordsnake(
    instance: WordsnakeInstance,
    certificate: str | os.PathLike[str] | Certificate,
    time_limit: float | None = None,
) -> tuple[Certificate, CertificateCheck]:
    """Check a certificate against the list and its variant (``--verify-certificate``).

    Parameters
    ----------
    instance : WordsnakeInstance
        The list, variant and score the certificate must be about.
    certificate : str, path or Certificate
        A certificate file (gzip when it ends in ``.gz``; ``-``: stdin), read within the cap
        for ``instance``'s size, or one already read.
    time_limit : float, optional
        Seconds the check may take.

    Returns
    -------
    (Certificate, CertificateCheck)
        The certificate and the independent checker's verdict
        (:func:`~cpwords.wordsnake.certificate.verify_certificate`).

    Raises
    ------
    InputError
        An unreadable certificate, or one of another list, variant or score.
    TimeoutError
        The check reached ``time_limit``.
    """
    cert = (
        certificate
        if isinstance(certificate, Certificate)
        else read_certificate(certificate, certificate_cap(instance.n))
    )
    found = verify_certificate(
        instance.words,
        cert,
        cyclic=instance.cyclic,
        proper=instance.proper,
        time_limit=time_limit,
        score=instance.score,
    )
    return cert, found


def wordsnake_verify_row(
    instance: WordsnakeInstance, cert: Certificate, found: CertificateCheck
) -> dict[str, Any]:
    """The JSON object of ``cpwords snake --verify-certificate --json``.

    Parameters
    ----------
    instance : WordsnakeInstance
    cert : Certificate
    found : CertificateCheck
        :func:`verify_wordsnake`'s verdict on ``cert``.

    Returns
    -------
    dict
        The checking modes' keys first (``valid``: VALID; ``problems``: the verdict when not;
        ``solution``: the certificate's ordering; ``objective``: its score, recounted), then
        ``n``, ``cyclic``, ``proper``, ``score`` and the check's own keys.
    """
    distinct = sorted(set(instance.words))
    order = None
    if found.objective is not None:
        order = solution_json([distinct[i] for i in cert.order])
    valid = found.status == "VALID"
    row = check_row(valid, [] if valid else [found.message], order, found.objective)
    row.update(n=instance.n, cyclic=instance.cyclic, proper=instance.proper, score=instance.score)
    row.update((k, v) for k, v in found.to_dict().items() if k not in row)
    return row
