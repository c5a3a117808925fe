"""Wordsnake optimality certificates: the file format and an independent checker.

A certificate proves an upper bound on the Wordsnake score of a word list with a dual solution
of the *assignment relaxation* strengthened by *connectivity cuts*. Whatever produced the
numbers, any values that satisfy every inequality below prove the bound; this module checks
them from the strings alone and shares no code with the models (nor with the overlap graph).

**Items and pairs.** Every listed word is an item (a word listed ``m`` times is ``m`` items,
its *copies*). A linear snake also has the *depot* ``d`` (its start and end). A solution is a
cycle through all items (and ``d``): ``a -> b`` scores ``ov(a, b)^2``, ``ov`` being the longest
suffix of ``a`` that is a prefix of ``b`` (``--proper``: shorter than both words); arcs into and
out of ``d`` score 0.

**Values.** Integers in units of ``1 / scale``: ``u(w)`` and ``v(w)`` for every distinct word
``w`` (shared by its copies), ``u(d)`` and ``v(d)`` for a linear snake, and cut sets ``S_k``
(sets of distinct words, standing for all their copies; never the depot; for a cyclic snake,
never every word) with multipliers ``lambda_k >= 0``.

**Valid** when, for every ordered pair of different items ``a -> b`` (two copies of a word are
different items)::

    u(a) + v(b) >= scale * ov(a, b)^2 + sum of lambda_k over the k with b in S_k, a not in S_k

and, for a linear snake, ``u(d) + v(b) >= sum of lambda_k over the k with b in S_k`` for every
``b`` and ``u(a) + v(d) >= 0`` for every ``a``.

**Bound.** Then every snake scores at most ``floor(B / scale)`` with ``B = sum over items of
(u + v) + u(d) + v(d) - sum of lambda_k``: each item has one successor and one predecessor,
so a snake's score is at most the sum of its arcs' right-hand sides less the cut terms, and it
enters every ``S_k`` at least once (the depot, or for a cyclic snake a word, lies outside).
A cyclic snake of one item has no joint and no inequality: its bound is 0 whatever the values.

**Checking every pair without enumerating pairs.** Let ``C`` be the words in some cut and
``L(b)`` the sum of the multipliers of the cuts holding ``b``. For ``a`` outside ``C`` the
right-hand side is ``scale * ov^2 + L(b)``, so ``v'(b) = v(b) - L(b)`` turns it into a plain
overlap inequality; for ``a`` in ``C`` and ``b`` outside it, there is no cut term. The checker
keeps, for every prefix ``s`` of a word, the two smallest ``v'`` (and, when ``C`` is not empty,
the two smallest ``v`` of words outside ``C``) over the distinct words that start with ``s`` and,
for every word ``a`` and every suffix ``s`` of ``a``, checks ``u(a)`` against the smallest value
of a word other than ``a`` (or of a copy of ``a``). The ``|s|^2`` of a shorter common string is
at most ``ov^2``, so checking every common string is exactly checking the longest. For pairs
inside ``C``, the words of ``C`` are grouped by the cuts of two words or more that hold them (their
*signature*): ``a`` shares the same multipliers ``M`` with every word of a class, so the right-hand
side is ``scale * ov^2 + L(b) - M`` and the class's own table of the two smallest ``v'``, queried
with ``u(a) + M``, checks them all. Time ``O(total letters + letters of C * classes)``: linear
for one cut or a few, whatever their size, and never more than checking the pairs of ``C`` one by
one; memory O(total letters).

**The file** is one JSON object, gzip-compressed when its name ends in ``.gz``; see
:func:`certificate_to_json` for its keys and ``models/wordsnake.md`` (section "Certificates")
for the exact meaning, enough to write another checker from the text alone.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import check_output, read_cap, read_input, write_output

#: The ``format`` value of a certificate file.
FORMAT = "cpwords-wordsnake-certificate"
#: The version of the format this module reads and writes.
VERSION = 1
#: Every integer of a certificate is a 64-bit signed integer (what the producer writes): larger
#: ones are refused, so no sum or product the checker forms grows without bound.
INT_LIMIT = 1 << 63
#: Bytes of the longest integer (``-9223372036854775808``) with a separator and a space.
NUMBER_BYTES = 22
#: Numbers a word the size cap allows: ``u``, ``v`` and the ordering, and 29 for the cut sets.
CAP_NUMBERS_PER_ITEM = 32


class CertificateError(InputError):
    """A certificate file that cannot be read, or that belongs to another list or variant."""


@dataclass(frozen=True)
class Certificate:
    """A Wordsnake bound certificate (see the module docstring for the meaning).

    Attributes
    ----------
    fingerprint : str
        ``sha256:`` and the hex SHA-256 of the items sorted by code point, joined by newlines
        (UTF-8): see :func:`word_fingerprint`.
    items : int
        Number of items (words with repetition).
    cyclic, proper : bool
        The variant.
    scale : int
        Units: every value is an integer number of ``1 / scale`` score points (``scale >= 1``).
    u, v : tuple of int, length W
        The values of the distinct words, in code-point order of the words.
    depot : tuple of (int, int) or None
        ``(u(d), v(d))`` for a linear snake, None for a cyclic one.
    cuts : tuple of (tuple of int, int)
        ``(word ids, lambda)`` for every cut set.
    order : tuple of int, length ``items``
        The ordering, as ids of distinct words.
    bound : int
        The bound claimed by the producer (the solver's; it may be stronger than what the
        values prove when ``core_pairs`` is set).
    objective : int
        The ordering's score as the producer counted it.
    core_pairs : int or None
        When set, the producer's bound also rests on a search of a core of this many word
        pairs that this certificate does not cover: it is at best PARTIAL.
    producer : dict
        Free-form information (method, version, times); not checked.
    """

    fingerprint: str
    items: int
    cyclic: bool
    proper: bool
    scale: int
    u: tuple[int, ...]
    v: tuple[int, ...]
    depot: tuple[int, int] | None
    cuts: tuple[tuple[tuple[int, ...], int], ...]
    order: tuple[int, ...]
    bound: int
    objective: int
    core_pairs: int | None = None
    producer: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A short summary for result rows (``--json``); the file holds
        :func:`certificate_to_json`."""
        return {
            "fingerprint": self.fingerprint,
            "scale": self.scale,
            "cuts": len(self.cuts),
            "bound": self.bound,
            "core_pairs": self.core_pairs,
        }

    def dual_value(self, mult: Sequence[int]) -> int:
        """``B``: the values' sum over items and the depot, less the multipliers (units).

        Parameters
        ----------
        mult : sequence of int, length W
            The multiplicity of each distinct word.

        Returns
        -------
        int
            In ``1 / scale`` units; the certified bound is ``B // scale``.
        """
        total = sum(m * (a + b) for m, a, b in zip(mult, self.u, self.v, strict=True))
        if self.depot is not None:
            total += self.depot[0] + self.depot[1]
        return total - sum(lam for _, lam in self.cuts)


@dataclass(frozen=True)
class CertificateCheck:
    """What :func:`verify_certificate` found.

    Attributes
    ----------
    status : {"VALID", "PARTIAL", "INVALID"}
        VALID: every inequality holds and ``bound`` is proven. PARTIAL: the values are valid but
        the producer's bound also rests on a core search the certificate does not cover.
        INVALID: an inequality fails or the ordering is not a snake of the list.
    bound : int or None
        The bound the values prove (``floor(B / scale)``), None when INVALID.
    objective : int or None
        The ordering's score, recounted here; None when the ordering is not one of the list.
    claimed_bound : int
        The bound written in the certificate.
    optimal : bool
        VALID and the ordering scores the proven bound: a checked proof of optimality.
    message : str
        One line: the verdict and, for INVALID, the first violated inequality.
    pair : tuple of (str, str) or None
        The two words of the violated inequality (``""`` stands for the depot).
    check_time : float
        Seconds spent checking.
    """

    status: str
    bound: int | None
    objective: int | None
    claimed_bound: int
    optimal: bool
    message: str
    pair: tuple[str, str] | None = None
    check_time: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dictionary of the check."""
        return {
            "status": self.status,
            "bound": self.bound,
            "objective": self.objective,
            "claimed_bound": self.claimed_bound,
            "optimal": self.optimal,
            "message": self.message,
            "pair": None if self.pair is None else list(self.pair),
            "check_time": self.check_time,
        }


def word_fingerprint(words: Sequence[str]) -> str:
    """Fingerprint of a word multiset: SHA-256 of the sorted items joined by newlines.

    Parameters
    ----------
    words : sequence of str
        The items (already normalised; order does not matter, repetitions do).

    Returns
    -------
    str
        ``"sha256:"`` followed by 64 hex digits.

    Examples
    --------
    >>> word_fingerprint(["b", "a"]) == word_fingerprint(["a", "b"])
    True
    >>> word_fingerprint(["a"]) == word_fingerprint(["a", "a"])
    False
    """
    digest = hashlib.sha256("\n".join(sorted(words)).encode("utf-8")).hexdigest()
    return f"sha256:{digest}"


def certificate_to_json(cert: Certificate) -> dict[str, Any]:
    """The JSON object written to a certificate file.

    Keys: ``format`` (:data:`FORMAT`), ``version`` (:data:`VERSION`), ``fingerprint``,
    ``items``, ``variant`` (``{"cyclic": bool, "proper": bool}``), ``scale``, ``u`` and ``v``
    (lists of W integers), ``depot`` (``[u, v]`` or null), ``cuts`` (a list of
    ``{"words": [ids], "lambda": int}``), ``order`` (a list of ``items`` word ids), ``bound``,
    ``objective``, ``core_pairs`` (int or null) and ``producer`` (an object, not checked).
    Word ids index the distinct words in code-point order.

    Parameters
    ----------
    cert : Certificate

    Returns
    -------
    dict
    """
    return {
        "format": FORMAT,
        "version": VERSION,
        "fingerprint": cert.fingerprint,
        "items": cert.items,
        "variant": {"cyclic": cert.cyclic, "proper": cert.proper},
        "scale": cert.scale,
        "u": list(cert.u),
        "v": list(cert.v),
        "depot": None if cert.depot is None else list(cert.depot),
        "cuts": [{"words": list(ids), "lambda": lam} for ids, lam in cert.cuts],
        "order": list(cert.order),
        "bound": cert.bound,
        "objective": cert.objective,
        "core_pairs": cert.core_pairs,
        "producer": cert.producer,
    }


def write_certificate(cert: Certificate, path: str | os.PathLike[str], force: bool = False) -> None:
    """Write a certificate file (gzip when the name ends in ``.gz``).

    Parameters
    ----------
    cert : Certificate
    path : str or path-like
        A file (written to a temporary file beside it, then renamed over it), or a device or
        pipe (written through; never replaced): see :func:`cpwords.core.files.open_output`.
    force : bool
        Replace an existing file (otherwise refused).

    Raises
    ------
    InputError
        The file exists and ``force`` is False, or it cannot be written (an existing file is
        then left as it was).
    """
    check_output(path, None, force)
    data = json.dumps(certificate_to_json(cert), separators=(",", ":")).encode("utf-8")
    if str(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=6, mtime=0)
    write_output(path, data)


def _int(obj: Any, key: str, low: int | None = None) -> int:
    if isinstance(obj, bool) or not isinstance(obj, int):
        raise CertificateError(f"certificate: {key} must be an integer")
    if not -INT_LIMIT <= obj < INT_LIMIT:
        raise CertificateError(f"certificate: {key} is beyond a 64-bit integer")
    if low is not None and obj < low:
        raise CertificateError(f"certificate: {key} must be >= {low}")
    return obj


def _ints(obj: Any, key: str, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(obj, list):
        raise CertificateError(f"certificate: {key} must be a list of integers")
    if length is not None and len(obj) != length:
        raise CertificateError(f"certificate: {key} has {len(obj)} entries, expected {length}")
    if any(isinstance(x, bool) or not isinstance(x, int) for x in obj):
        raise CertificateError(f"certificate: {key} must be a list of integers")
    if any(not -INT_LIMIT <= x < INT_LIMIT for x in obj):
        raise CertificateError(f"certificate: {key} holds an integer beyond 64 bits")
    return tuple(obj)


def certificate_from_json(obj: Any) -> Certificate:
    """Read the JSON object of a certificate (see :func:`certificate_to_json`).

    Parameters
    ----------
    obj : object
        Parsed JSON.

    Returns
    -------
    Certificate

    Raises
    ------
    CertificateError
        A missing key, a value of the wrong type, another format or version.
    """
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise CertificateError(f'not a Wordsnake certificate (no "format": "{FORMAT}")')
    version = obj.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise CertificateError(
            f"certificate version {excerpt(json.dumps(version))} is not supported "
            f"(this checker reads version {VERSION})"
        )
    try:
        variant = obj["variant"]
        if not isinstance(variant, dict):
            raise CertificateError("certificate: variant must be an object")
        cyclic, proper = variant["cyclic"], variant["proper"]
        if not isinstance(cyclic, bool) or not isinstance(proper, bool):
            raise CertificateError("certificate: variant.cyclic and .proper must be true/false")
        fingerprint = obj["fingerprint"]
        if not isinstance(fingerprint, str):
            raise CertificateError("certificate: fingerprint must be a string")
        u = _ints(obj["u"], "u")
        v = _ints(obj["v"], "v", len(u))
        depot_raw = obj["depot"]
        depot = None
        if depot_raw is not None:
            d = _ints(depot_raw, "depot", 2)
            depot = (d[0], d[1])
        cuts_raw = obj["cuts"]
        if not isinstance(cuts_raw, list):
            raise CertificateError("certificate: cuts must be a list")
        cuts = []
        for i, c in enumerate(cuts_raw):
            if not isinstance(c, dict):
                raise CertificateError(f"certificate: cuts[{i}] must be an object")
            ids = _ints(c["words"], f"cuts[{i}].words")
            cuts.append((ids, _int(c["lambda"], f"cuts[{i}].lambda", 0)))
        core = obj.get("core_pairs")
        producer = obj.get("producer") or {}
        return Certificate(
            fingerprint=fingerprint,
            items=_int(obj["items"], "items", 1),
            cyclic=cyclic,
            proper=proper,
            scale=_int(obj["scale"], "scale", 1),
            u=u,
            v=v,
            depot=depot,
            cuts=tuple(cuts),
            order=_ints(obj["order"], "order"),
            bound=_int(obj["bound"], "bound"),
            objective=_int(obj["objective"], "objective"),
            core_pairs=None if core is None else _int(core, "core_pairs", 0),
            producer=producer if isinstance(producer, dict) else {},
        )
    except KeyError as err:
        raise CertificateError(f"certificate: missing key {err.args[0]!r}") from None


def certificate_cap(items: int) -> int:
    """The largest certificate (uncompressed bytes) read for a list of ``items`` words.

    A certificate holds three numbers a word (``u``, ``v`` and the ordering) and its cut sets;
    the cap allows :data:`CAP_NUMBERS_PER_ITEM` numbers a word of the longest notation (64-bit
    integers, :data:`NUMBER_BYTES` with their separators), 1 MiB more for the rest: 123 MB for
    ENABLE's 172,823 words, whose certificate takes 2.7 MB.

    Parameters
    ----------
    items : int
        The words of the list (with repetition).

    Returns
    -------
    int
        Bytes.

    Examples
    --------
    >>> certificate_cap(5)
    1052096
    """
    return (1 << 20) + NUMBER_BYTES * CAP_NUMBERS_PER_ITEM * items


def read_certificate(path: str | os.PathLike[str], max_bytes: int | None = None) -> Certificate:
    """Read a certificate file (plain or gzip-compressed JSON).

    Parameters
    ----------
    path : str or path-like
    max_bytes : int, optional
        The most JSON read (a ``.gz`` is decompressed as a stream and refused past it):
        :func:`verify_certificate` passes :func:`certificate_cap` of the list; default
        :func:`cpwords.core.files.read_cap`.

    Returns
    -------
    Certificate

    Raises
    ------
    CertificateError
        The file is missing, larger than ``max_bytes`` (compressed or not), truncated, not JSON,
        nested too deep, or not a certificate (one line).
    """
    cap = read_cap() if max_bytes is None else max_bytes
    name = excerpt(str(path))
    try:
        raw = read_input(path, "certificate", cap, text=False)
    except InputError as err:
        raise CertificateError(str(err)) from None
    try:
        if raw[:2] == b"\x1f\x8b":
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as gz:
                raw = gz.read(cap + 1)  # streamed: never more than the cap in memory
        if len(raw) <= cap:
            obj = json.loads(raw.decode("utf-8-sig"))
    except RecursionError:
        raise CertificateError(f"{name} is not a certificate (JSON nested too deep)") from None
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError, ValueError):
        raise CertificateError(
            f"{name} is not a readable certificate (truncated or not JSON)"
        ) from None
    if len(raw) > cap:
        raise CertificateError(
            f"{name} decompresses to more than {cap:,} bytes, more than a certificate of this "
            "list can hold"
        )
    return certificate_from_json(obj)


# ---------------------------------------------------------------------------------------------
# The checker: the strings and the values, nothing else.


def _overlap(a: str, b: str, proper: bool) -> int:
    """Longest suffix of ``a`` that is a prefix of ``b`` (shorter than both when proper)."""
    top = min(len(a), len(b)) - (1 if proper else 0)
    for k in range(top, 0, -1):
        if a.endswith(b[:k]):
            return k
    return 0


def _score(seq: Sequence[str], cyclic: bool, proper: bool) -> int:
    total = sum(_overlap(a, b, proper) ** 2 for a, b in itertools.pairwise(seq))
    if cyclic and len(seq) > 1:
        total += _overlap(seq[-1], seq[0], proper) ** 2
    return total


@dataclass
class _Violation(Exception):
    a: str
    b: str
    lhs: int
    rhs: int


def _two_smallest(
    values: Sequence[int], words: Sequence[str], ids: Iterable[int], proper: bool
) -> dict[str, list[int]]:
    """``[v1, i1, v2, i2]`` for every prefix ``s`` of the words ``ids``: the two smallest values
    of distinct words that start with ``s`` (and are longer than ``s`` when ``proper``), with
    their ids; ``i2 = -1`` when there is one. O(their letters) dictionary updates (measured
    faster in CPython than one pass over the sorted words with a stack of open prefixes)."""
    table: dict[str, list[int]] = {}
    get = table.get
    for i in ids:
        w = words[i]
        val = values[i]
        for k in range(len(w) if proper else len(w) + 1):
            s = w[:k]
            e = get(s)
            if e is None:
                table[s] = [val, i, 0, -1]
            elif val < e[0]:
                e[2], e[3] = e[0], e[1]
                e[0], e[1] = val, i
            elif e[3] < 0 or val < e[2]:
                e[2], e[3] = val, i
    return table


def _dual_violation(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    deadline: float | None,
) -> _Violation | None:
    """The first violated inequality of the values, or None (see the module docstring)."""
    try:
        _check_values(words, mult, cert, deadline)
    except _Violation as bad:
        return bad
    return None


@dataclass(frozen=True)
class _CutTerms:
    """What the cuts add to the inequalities, per distinct word (see the module docstring).

    ``member[i]``: the cuts holding word ``i``; ``lams``: the multipliers; ``load[i]``: their sum
    over the cuts holding ``i`` (``L(b)``); ``in_cut[i]``: ``i`` is in ``C`` (a cut of two words
    or more); ``v_all = v - L``; ``v_out``: ``v`` less the one-word cuts only.
    """

    member: list[list[int]]
    lams: list[int]
    load: list[int]
    in_cut: list[bool]
    v_all: list[int]
    v_out: list[int]


def _cut_terms(cert: Certificate, W: int) -> _CutTerms:
    """The cut terms of the certificate's ``W`` distinct words."""
    v = cert.v
    member: list[list[int]] = [[] for _ in range(W)]
    for k, (ids, _lam) in enumerate(cert.cuts):
        for i in ids:
            member[i].append(k)
    lams = [lam for _, lam in cert.cuts]
    load = [sum(lams[k] for k in member[i]) for i in range(W)]
    # A cut of one word (the copy-to-copy cut of a repeated word) never holds both ends of a
    # pair of different words, so it is folded into v' like any cut seen from outside; only the
    # words of larger cuts (C) need their pairs checked with the multipliers they share.
    single = [0] * W
    in_cut = [False] * W
    for ids, lam in cert.cuts:
        if len(ids) == 1:
            single[ids[0]] += lam
        else:
            for i in ids:
                in_cut[i] = True
    v_all = [v[i] - load[i] for i in range(W)]
    v_out = [v[i] - single[i] for i in range(W)]
    return _CutTerms(member, lams, load, in_cut, v_all, v_out)


def _check_values(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    deadline: float | None,
) -> None:
    """Raise :class:`_Violation` at the first violated inequality."""
    terms = _cut_terms(cert, len(words))
    _check_overlap_pairs(words, mult, cert, terms, deadline)
    _check_pairs_in_cuts(words, mult, cert, terms, deadline)
    if cert.depot is not None:
        _check_depot(words, cert, cert.depot, terms)


def _check_overlap_pairs(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    terms: _CutTerms,
    deadline: float | None,
) -> None:
    """Every pair but those inside ``C``, through the two smallest values of each prefix."""
    W = len(words)
    proper = cert.proper
    outside = [i for i in range(W) if not terms.in_cut[i]]
    inside = [i for i in range(W) if terms.in_cut[i]]
    table = _two_smallest(terms.v_all, words, range(W), proper)
    _query_table(table, outside, [0] * len(outside), words, mult, cert, terms, deadline)
    if inside:
        table = _two_smallest(terms.v_out, words, outside, proper)
        _query_table(table, inside, [0] * len(inside), words, mult, cert, terms, deadline)


def _query_table(
    table: dict[str, list[int]],
    ids: Sequence[int],
    bonus: Sequence[int],
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    terms: _CutTerms,
    deadline: float | None,
) -> None:
    """Check ``u(a) + bonus`` of every word ``a`` of ``ids`` against the table, suffix by suffix
    (``bonus``: the multipliers of the cuts ``a`` shares with every word of the table)."""
    proper, scale = cert.proper, cert.scale
    u, v = cert.u, cert.v
    member, lams, load = terms.member, terms.lams, terms.load
    get = table.get
    for n, (i, extra) in enumerate(zip(ids, bonus, strict=True)):
        if deadline is not None and n % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        a = words[i]
        ua = u[i] + extra
        la = len(a)
        for k in range(la if proper else la + 1):
            e = get(a[la - k :])
            if e is None:
                continue
            j = e[1]
            if j == i:
                # A copy of a (shares every cut with it: no cut term, no bonus) if a has
                # copies, and the best other word.
                pairs = [] if e[3] < 0 else [(e[2], e[3])]
                if mult[i] > 1:
                    pairs.append((e[0] + load[i] - extra, i))
            else:
                pairs = [(e[0], j)]
            for best, j in pairs:
                if ua + best < scale * k * k:
                    b = words[j]
                    shared = set(member[i]) if j != i else set(member[j])
                    rhs = _pair_rhs(a, b, member[j], shared, lams, scale, proper)
                    raise _Violation(a, b, u[i] + v[j], rhs)


def _check_pairs_in_cuts(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    terms: _CutTerms,
    deadline: float | None,
) -> None:
    """The pairs of words of ``C`` (both in cuts of two words or more), by *signature*.

    The words of ``C`` held by the same cuts of two words or more form one class; every word
    ``a`` of ``C`` shares the same multipliers with all the words of a class, so one table of
    the two smallest ``v'`` per class, queried with those multipliers added to ``u(a)``, checks
    every pair exactly. Time O(letters of ``C`` times the number of classes): linear for one cut
    or a few, whatever their size; never more than the pair-by-pair check.
    """
    proper, cuts = cert.proper, cert.cuts
    inside = [i for i in range(len(words)) if terms.in_cut[i]]
    sig = {i: frozenset(k for k in terms.member[i] if len(cuts[k][0]) > 1) for i in inside}
    classes: dict[frozenset[int], list[int]] = {}
    for i in inside:
        classes.setdefault(sig[i], []).append(i)
    lams = terms.lams
    for held, ids in classes.items():
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeoutError
        table = _two_smallest(terms.v_all, words, ids, proper)
        bonus = [sum(lams[k] for k in sig[i] & held) for i in inside]
        _query_table(table, inside, bonus, words, mult, cert, terms, deadline)


def _pair_rhs(
    a: str,
    b: str,
    cuts_of_b: Sequence[int],
    shared: set[int],
    lams: Sequence[int],
    scale: int,
    proper: bool,
) -> int:
    """The right-hand side of the joint ``a -> b``: ``scale * ov(a, b)^2`` plus the multipliers
    of the cuts ``b`` lies in and ``a`` does not (those the joint enters)."""
    ov = _overlap(a, b, proper)
    return scale * ov * ov + sum(lams[c] for c in cuts_of_b if c not in shared)


def _check_depot(
    words: Sequence[str], cert: Certificate, depot: tuple[int, int], terms: _CutTerms
) -> None:
    """A linear snake's depot inequalities: ``u(d) + v(b) >= L(b)`` and ``u(a) + v(d) >= 0``."""
    ud, vd = depot
    u, v = cert.u, cert.v
    for i in range(len(words)):
        if ud + terms.v_all[i] < 0:
            raise _Violation("", words[i], ud + v[i], terms.load[i])
        if u[i] + vd < 0:
            raise _Violation(words[i], "", u[i] + vd, 0)


def verify_certificate(
    words: Sequence[str],
    cert: Certificate | str | os.PathLike[str],
    *,
    cyclic: bool | None = None,
    proper: bool | None = None,
    time_limit: float | None = None,
) -> CertificateCheck:
    """Check a Wordsnake certificate against a word list, from the strings alone.

    Parameters
    ----------
    words : sequence of str
        The items, normalised as the solver read them (``WordsnakeInstance.words``).
    cert : Certificate or path
        The certificate, or the path of its file.
    cyclic, proper : bool, optional
        The variant the caller means; a certificate for another variant is refused. None
        accepts the certificate's.
    time_limit : float, optional
        Seconds after which the check stops (``TimeoutError``).

    Returns
    -------
    CertificateCheck
        VALID, PARTIAL or INVALID with the proven bound and the recounted ordering.

    Raises
    ------
    CertificateError
        The file cannot be read, or the certificate belongs to another list or variant, or its
        ids are out of range (one line each).
    TimeoutError
        ``time_limit`` passed.

    Notes
    -----
    Time ``O(total letters + letters of C * signatures)`` for ``C`` the words in cut sets of two
    words or more and *signatures* the distinct sets of such cuts that hold a word (one for a
    single cut, whatever its size); memory O(total letters). See the module docstring for the
    inequalities and why they prove the bound (weak duality of the assignment relaxation with
    connectivity cuts: Dantzig, Fulkerson and Johnson, *Operations Research* 2 (1954); Balas and
    Toth, in Lawler et al., *The Traveling Salesman Problem*, 1985, ch. 10).

    Examples
    --------
    >>> from cpwords.wordsnake.certificate import Certificate, verify_certificate
    >>> c = Certificate(word_fingerprint(["ab", "bc"]), 2, False, False, 1, u=(1, 0),
    ...                 v=(0, 0), depot=(0, 0), cuts=(), order=(0, 1), bound=1, objective=1)
    >>> verify_certificate(["ab", "bc"], c).message
    'VALID: every snake of these 2 words scores at most 1; the ordering scores 1 (optimal)'
    """
    t0 = time.perf_counter()
    items = list(words)
    if not isinstance(cert, Certificate):
        cert = read_certificate(cert, certificate_cap(len(items)))
    _check_list_and_variant(items, cert, cyclic, proper)
    counts = Counter(items)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    _check_format(cert, len(distinct))
    deadline = None if time_limit is None else t0 + time_limit
    claimed = cert.bound
    if not _is_snake_of(cert.order, mult):
        msg = "INVALID: the ordering is not a snake of this list"
        return _verdict(t0, claimed, "INVALID", None, None, msg)
    objective = _score([distinct[i] for i in cert.order], cert.cyclic, cert.proper)
    bad = _dual_violation(distinct, mult, cert, deadline)
    if bad is not None:
        msg = _violation_message(bad, cert.scale)
        return _verdict(t0, claimed, "INVALID", None, objective, msg, (bad.a, bad.b))
    n = len(items)
    bound = _proven_bound(cert, mult, n)
    if cert.core_pairs is not None:
        msg = (
            f"PARTIAL: the values prove at most {bound:,}; the claimed {claimed:,} also rests on a "
            f"search of a core of {cert.core_pairs:,} pairs that this certificate does not cover"
        )
        return _verdict(t0, claimed, "PARTIAL", bound, objective, msg)
    tail = "(optimal)" if objective == bound else f"(gap {bound - objective:,})"
    msg = (
        f"VALID: every snake of these {n:,} words scores at most {bound:,}; "
        f"the ordering scores {objective:,} {tail}"
    )
    return _verdict(t0, claimed, "VALID", bound, objective, msg)


def _check_list_and_variant(
    items: Sequence[str], cert: Certificate, cyclic: bool | None, proper: bool | None
) -> None:
    """Raise :class:`CertificateError` when the certificate is for another list or variant."""
    if word_fingerprint(items) != cert.fingerprint or len(items) != cert.items:
        raise CertificateError(
            "the certificate is for another word list (its fingerprint differs from this list's)"
        )
    for name, want, have in (("cyclic", cyclic, cert.cyclic), ("proper", proper, cert.proper)):
        if want is not None and want != have:
            on, off = ("is", "is not") if have else ("is not", "is")
            raise CertificateError(
                f"the certificate's snake {on} {name} and the one asked for {off}: "
                f"{'drop' if not have else 'add'} --{name}"
            )


def _check_format(cert: Certificate, W: int) -> None:
    """Raise :class:`CertificateError` when the values, cuts or depot do not fit ``W`` words."""
    if len(cert.u) != W:
        raise CertificateError(f"certificate: u has {len(cert.u)} entries, the list {W} words")
    for ids, _ in cert.cuts:
        if not ids or any(i < 0 or i >= W for i in ids) or len(set(ids)) != len(ids):
            raise CertificateError("certificate: a cut set is empty, repeats or has an unknown id")
        if cert.cyclic and len(ids) == W:
            raise CertificateError("certificate: a cut set of a cyclic snake holds every word")
    if (cert.depot is None) != cert.cyclic:
        raise CertificateError("certificate: a linear snake needs a depot, a cyclic one none")


def _is_snake_of(order: Sequence[int], mult: Sequence[int]) -> bool:
    """Whether the ordering (ids of distinct words) lists every word as often as the list does."""
    W = len(mult)
    return not (
        any(i < 0 or i >= W for i in order) or Counter(order) != Counter(dict(enumerate(mult)))
    )


def _violation_message(bad: _Violation, scale: int) -> str:
    """The INVALID line naming the first violated inequality."""
    name_a = bad.a if bad.a else "the start"
    name_b = bad.b if bad.b else "the end"
    return (
        f"INVALID: u({excerpt(name_a, 30)}) + v({excerpt(name_b, 30)}) = {bad.lhs} "
        f"< {bad.rhs} (overlap squared times {scale}, plus the cuts entered)"
    )


def _proven_bound(cert: Certificate, mult: Sequence[int], n: int) -> int:
    """``floor(B / scale)``, the bound the (valid) values prove for ``n`` items."""
    bound = cert.dual_value(mult) // cert.scale
    if cert.cyclic and n == 1:
        bound = 0  # one item has no joint (and no inequality): every snake scores 0
    return bound


def _verdict(
    t0: float,
    claimed: int,
    status: str,
    bound: int | None,
    objective: int | None,
    message: str,
    pair: tuple[str, str] | None = None,
) -> CertificateCheck:
    """The check's answer, timed from ``t0`` (optimal: VALID, and the ordering scores the bound)."""
    optimal = status == "VALID" and bound is not None and objective == bound
    return CertificateCheck(
        status, bound, objective, claimed, optimal, message, pair, time.perf_counter() - t0
    )


def verify_pairwise(words: Sequence[str], cert: Certificate) -> CertificateCheck:
    """The same check by enumerating every ordered pair of items: O(n^2), for tests.

    Parameters
    ----------
    words : sequence of str
    cert : Certificate

    Returns
    -------
    CertificateCheck
        Status and bound as :func:`verify_certificate` (messages are shorter).
    """
    t0 = time.perf_counter()
    counts = Counter(words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    items = [i for i, m in enumerate(mult) for _ in range(m)]
    sets = [set(ids) for ids, _ in cert.cuts]
    lams = [lam for _, lam in cert.cuts]
    objective = _score([distinct[i] for i in cert.order], cert.cyclic, cert.proper)

    def entered(a: int | None, b: int | None) -> int:
        return sum(
            lam for s, lam in zip(sets, lams, strict=True) if b in s and (a is None or a not in s)
        )

    def fail(a: str, b: str) -> CertificateCheck:
        return CertificateCheck(
            "INVALID", None, objective, cert.bound, False, "INVALID", (a, b),
            time.perf_counter() - t0,
        )  # fmt: skip

    for x, i in enumerate(items):
        for y, j in enumerate(items):
            if x == y:
                continue
            ov = _overlap(distinct[i], distinct[j], cert.proper)
            if cert.u[i] + cert.v[j] < cert.scale * ov * ov + entered(i, j):
                return fail(distinct[i], distinct[j])
    if cert.depot is not None:
        for i in range(len(distinct)):
            if cert.depot[0] + cert.v[i] < entered(None, i):
                return fail("", distinct[i])
            if cert.u[i] + cert.depot[1] < 0:
                return fail(distinct[i], "")
    bound = cert.dual_value(mult) // cert.scale
    if cert.cyclic and len(items) == 1:
        bound = 0
    status = "PARTIAL" if cert.core_pairs is not None else "VALID"
    return CertificateCheck(
        status, bound, objective, cert.bound, status == "VALID" and objective == bound,
        status, None, time.perf_counter() - t0,
    )  # fmt: skip
