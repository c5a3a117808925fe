"""Certificates of the longest word chain's bound, and their independent checker.

A certificate is a dual solution of the linear relaxation of the trail program of
``models/chain.md`` (flow conservation, one start, one end, the connectivity cuts the solver
added), in integers scaled by ``scale``. Weak duality with the variables' bounds turns any such
values into an upper bound on every chain, whatever the solver did; this module recomputes that
bound from the word list and the values alone, in exact integer arithmetic, and checks the
chain the certificate carries. It imports no solver and shares no code with the model or the
rules (lint-imports checks it): the graph, the groups and the chain's rules are recomputed
here from the strings.

The inequality (card: "Certificate"): for every chain, with ``y_g`` its words per group
``g = (tail, head, weight)`` (``u_g`` words in the group), ``s_v``/``t_v`` its first and last
node,

    scale * value  <=  a + b + sum_g u_g max(0, r_g) + sum_v (max(0, r_s(v)) + max(0, r_t(v)))

(a fixed start or end node: ``r`` itself, not its positive part), where ``r_g = scale * c_g -
p(head) + p(tail) - (the cuts' terms)``, ``r_s(v) = -p(v) - a + ...`` and ``r_t(v) = p(v) - b +
...``; so ``value <= floor(...) / scale + (the fixed words' value)``.

The inequality holds for a chain only when the chain is a point of the relaxation; when no chain
is, any values "prove" any bound. So the checker accepts a case only where it knows that every
chain is one (``σ = start[-k:]``, ``τ = end[:k]``; the fixed words are not arcs):

- no fixed end: a chain's words are the ``y``, ``s`` at its first word's first ``k`` letters,
  ``t`` at its last word's last ``k``;
- ``start`` only: the start word, then a trail from ``σ`` (``s_σ = 1``); the start word alone
  is the empty trail, ``s_σ = t_σ = 1``; ``end`` only: the same backwards, to ``τ``;
- ``start != end``: the start word, a trail from ``σ`` to ``τ``, the end word; the two words
  alone are the empty trail, which is a chain only when ``σ = τ``, and then a point too;
- ``start == end``: the only chain is that word, which is *not* a point (a trail from ``σ`` to
  ``τ`` of the graph without the word: none at all when ``σ != τ``). Refused: the answer
  needs no proof and cpwords writes no certificate for it;
- one word, no arc, no chain at all: the certificate must carry a chain of the list (the rules
  recounted here), so a VALID certificate's relaxation always holds that chain.

As a last guard, values proving less than the chain they carry are refused (they would mean
a case above is wrong).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import read_cap, read_json_document, write_json_document

#: The ``format`` key of a chain certificate file.
FORMAT = "cpwords-chain-certificate"
#: The version this module reads and writes.
VERSION = 1
#: The largest magnitude of a number in a certificate (values are scaled duals: far below it).
INT_LIMIT = 1 << 126
#: The checker visits, per distinct cut set and side, every group at the set's nodes (those
#: entering or leaving it): a few node names can ask for many visits. It refuses a certificate
#: asking for more than this many visits per group of the list and per node its cuts name, plus
#: :data:`CUT_VISITS_FLOOR`, so that its time stays linear in the list and the certificate.
#: The solver's own certificates ask for under 0.1 % of it (ENABLE, ``k = 3``: 2,417 visits).
CUT_VISITS_PER_ITEM = 16
#: See :data:`CUT_VISITS_PER_ITEM`.
CUT_VISITS_FLOOR = 1_000_000


class ChainCertificateError(InputError):
    """A chain certificate that cannot be read, or that belongs to another list or variant."""


@dataclass(frozen=True)
class ChainCut:
    """One connectivity cut: ``y_g <= u_g (y(into C) + s(C))`` (``side="in"``) or ``y_g <= u_g
    (y(out of C) + t(C))`` (``"out"``), with its multiplier.

    Attributes
    ----------
    nodes : tuple of str
        The node set ``C`` (``k``-letter strings).
    group : tuple of (str, str, int)
        The group ``g``: tail, head (both in ``C``) and the weight of each of its words.
    side : {"in", "out"}
    mu : int
        The multiplier (``>= 0``), scaled like every value.
    """

    nodes: tuple[str, ...]
    group: tuple[str, str, int]
    side: str
    mu: int


@dataclass(frozen=True)
class ChainCertificate:
    """The scaled dual values of the trail program's relaxation, and the chain they bound.

    Attributes
    ----------
    fingerprint : str
        :func:`list_fingerprint` of the list's distinct words.
    overlap : int
    maximise : {"words", "letters"}
    start, end : str or None
        The fixed ends.
    scale : int
        Every value below is the dual value times ``scale`` (``>= 1``).
    potentials : tuple of (str, int)
        ``p(v)`` of flow conservation at a node (absent: 0).
    one_start, one_end : int
        The values of ``sum_v s_v = 1`` and ``sum_v t_v = 1``.
    cuts : tuple of ChainCut
    chain : tuple of str
        The chain whose optimality the bound proves when they meet.
    bound : int
        The bound the producer claims (the checker recomputes it).
    producer : dict
        Free-form (not checked).
    """

    fingerprint: str
    overlap: int
    maximise: str
    start: str | None
    end: str | None
    scale: int
    potentials: tuple[tuple[str, int], ...]
    one_start: int
    one_end: int
    cuts: tuple[ChainCut, ...]
    chain: tuple[str, ...]
    bound: int
    producer: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A summary for JSON rows (the values themselves are in the file)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "fingerprint": self.fingerprint,
            "scale": self.scale,
            "potentials": len(self.potentials),
            "cuts": len(self.cuts),
            "bound": self.bound,
            "chain_words": len(self.chain),
        }


@dataclass(frozen=True)
class ChainCertificateCheck:
    """What :func:`verify_chain_certificate` found.

    Attributes
    ----------
    status : {"VALID", "INVALID"}
        VALID: the values are well formed and ``bound`` is what they prove (whatever the
        certificate claims); INVALID: they are not, or the chain breaks a rule.
    bound : int or None
        The bound the values prove (None when INVALID).
    objective : int or None
        The chain's value, recounted (None when it is not a chain of the list).
    claimed_bound : int
    optimal : bool
        VALID and the chain's value equals the proven bound: a checked proof of optimality.
    message : str
        One line.
    check_time : float
        Seconds.
    """

    status: str
    bound: int | None
    objective: int | None
    claimed_bound: int
    optimal: bool
    message: str
    check_time: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON of a checking mode: ``valid``, ``problems``, ``solution``, ``objective``
        first, then ``status``, ``bound``, ``claimed_bound``, ``optimal``, ``message``,
        ``check_time``."""
        return {
            "valid": self.status == "VALID",
            "problems": [] if self.status == "VALID" else [self.message],
            "solution": None,
            "objective": self.objective,
            "status": self.status,
            "bound": self.bound,
            "claimed_bound": self.claimed_bound,
            "optimal": self.optimal,
            "message": self.message,
            "check_time": self.check_time,
        }


def list_fingerprint(words: Iterable[str]) -> str:
    """SHA-256 of the distinct words, sorted by code point, joined by newlines.

    Parameters
    ----------
    words : iterable of str
        Normalised words (repetitions do not matter).

    Returns
    -------
    str
        ``"sha256:"`` and 64 hex digits.

    Examples
    --------
    >>> list_fingerprint(["b", "a", "a"]) == list_fingerprint(["a", "b"])
    True
    """
    text = "\n".join(sorted(set(words)))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------------------------
# The file.


def chain_certificate_to_json(cert: ChainCertificate) -> dict[str, Any]:
    """The JSON object of a certificate file.

    Keys: ``format``, ``version``, ``fingerprint``, ``overlap``, ``maximise``, ``start``,
    ``end``, ``scale``, ``potentials`` (``[[node, value], ...]``), ``one_start``, ``one_end``,
    ``cuts`` (``{"nodes": [...], "group": [tail, head, weight], "side": "in" | "out", "mu":
    int}``), ``chain``, ``bound``, ``producer``.

    Parameters
    ----------
    cert : ChainCertificate

    Returns
    -------
    dict
    """
    return {
        "format": FORMAT,
        "version": VERSION,
        "fingerprint": cert.fingerprint,
        "overlap": cert.overlap,
        "maximise": cert.maximise,
        "start": cert.start,
        "end": cert.end,
        "scale": cert.scale,
        "potentials": [[v, p] for v, p in cert.potentials],
        "one_start": cert.one_start,
        "one_end": cert.one_end,
        "cuts": [
            {"nodes": list(c.nodes), "group": list(c.group), "side": c.side, "mu": c.mu}
            for c in cert.cuts
        ],
        "chain": list(cert.chain),
        "bound": cert.bound,
        "producer": cert.producer,
    }


def write_chain_certificate(
    cert: ChainCertificate, path: str | os.PathLike[str], force: bool = False
) -> None:
    """Write a certificate file (gzip when the name ends in ``.gz``), atomically.

    Parameters
    ----------
    cert : ChainCertificate
    path : str or path-like
    force : bool
        Replace an existing file (otherwise refused).

    Raises
    ------
    InputError
        The file exists and ``force`` is False, or it cannot be written.
    """
    write_json_document(chain_certificate_to_json(cert), path, force)


def read_chain_certificate(
    path: str | os.PathLike[str], max_bytes: int | None = None
) -> ChainCertificate:
    """Read a certificate file (plain or gzip-compressed JSON; a ``.gz`` is decompressed as a
    stream and refused past ``max_bytes``).

    Parameters
    ----------
    path : str or path-like
    max_bytes : int, optional
        The most JSON read (default :func:`cpwords.core.files.read_cap`).

    Returns
    -------
    ChainCertificate

    Raises
    ------
    ChainCertificateError
        Missing, too large, truncated, not JSON, or not a chain certificate (one line).
    """
    cap = read_cap() if max_bytes is None else max_bytes
    try:
        obj = read_json_document(path, "certificate", cap)
    except InputError as err:
        raise ChainCertificateError(str(err)) from None
    return chain_certificate_from_json(obj)


def chain_certificate_from_json(obj: Any) -> ChainCertificate:
    """Parse a certificate's JSON object, checking every type (one line on failure).

    Parameters
    ----------
    obj : object
        What ``json.loads`` gave.

    Returns
    -------
    ChainCertificate

    Raises
    ------
    ChainCertificateError
        Not an object of this format and version, or a key missing or of the wrong type.
    """
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise ChainCertificateError(f"not a chain certificate (format must be {FORMAT!r})")
    version = obj.get("version")
    if type(version) is not int or version != VERSION:
        raise ChainCertificateError(
            f"chain certificate version {excerpt(repr(version), 20)} is not supported (this "
            f"checker reads version {VERSION})"
        )
    try:
        maximise = obj["maximise"]
        if maximise not in ("words", "letters"):
            raise ChainCertificateError("certificate: maximise must be 'words' or 'letters'")
        return ChainCertificate(
            fingerprint=_str(obj["fingerprint"], "fingerprint"),
            overlap=_int(obj["overlap"], "overlap", 1),
            maximise=maximise,
            start=_opt_str(obj["start"], "start"),
            end=_opt_str(obj["end"], "end"),
            scale=_int(obj["scale"], "scale", 1),
            potentials=tuple(
                (_str(p[0], "potentials"), _int(p[1], "potentials"))
                for p in _pairs(obj["potentials"], "potentials")
            ),
            one_start=_int(obj["one_start"], "one_start"),
            one_end=_int(obj["one_end"], "one_end"),
            cuts=tuple(_cut(c, k) for k, c in enumerate(_list(obj["cuts"], "cuts"))),
            chain=tuple(_str(w, "chain") for w in _list(obj["chain"], "chain")),
            bound=_int(obj["bound"], "bound"),
            producer=_producer(obj.get("producer")),
        )
    except KeyError as err:
        raise ChainCertificateError(f"certificate: the key {err.args[0]!r} is missing") from None


def _producer(x: Any) -> dict[str, Any]:
    return dict(x) if isinstance(x, dict) else {}


def _int(x: Any, key: str, low: int | None = None) -> int:
    if type(x) is not int:
        raise ChainCertificateError(f"certificate: {key} must be an integer")
    if not -INT_LIMIT < x < INT_LIMIT:
        raise ChainCertificateError(f"certificate: {key} is beyond 2^126")
    if low is not None and x < low:
        raise ChainCertificateError(f"certificate: {key} must be >= {low}")
    return x


def _str(x: Any, key: str) -> str:
    if not isinstance(x, str):
        raise ChainCertificateError(f"certificate: {key} must hold strings")
    return x


def _opt_str(x: Any, key: str) -> str | None:
    return None if x is None else _str(x, key)


def _list(x: Any, key: str) -> list[Any]:
    if not isinstance(x, list):
        raise ChainCertificateError(f"certificate: {key} must be a list")
    return x


def _pairs(x: Any, key: str) -> list[list[Any]]:
    items = _list(x, key)
    if any(not isinstance(p, list) or len(p) != 2 for p in items):
        raise ChainCertificateError(f"certificate: {key} must be a list of pairs")
    return items


def _cut(c: Any, k: int) -> ChainCut:
    key = f"cuts[{k}]"
    if not isinstance(c, dict):
        raise ChainCertificateError(f"certificate: {key} must be an object")
    group = _list(c["group"], f"{key}.group")
    if len(group) != 3:
        raise ChainCertificateError(f"certificate: {key}.group must be [tail, head, weight]")
    if c["side"] not in ("in", "out"):
        raise ChainCertificateError(f"certificate: {key}.side must be 'in' or 'out'")
    return ChainCut(
        tuple(_str(v, f"{key}.nodes") for v in _list(c["nodes"], f"{key}.nodes")),
        (_str(group[0], key), _str(group[1], key), _int(group[2], f"{key}.group", 1)),
        c["side"],
        _int(c["mu"], f"{key}.mu", 0),
    )


# ---------------------------------------------------------------------------------------------
# The checker: the strings and the values, nothing else.

Group = tuple[str, str, int]


def verify_chain_certificate(
    words: Sequence[str],
    cert: ChainCertificate | str | os.PathLike[str],
    *,
    overlap: int,
    maximise: str = "words",
    start: str | None = None,
    end: str | None = None,
) -> ChainCertificateCheck:
    """Check a chain certificate against a word list, independently of the solver.

    Parameters
    ----------
    words : sequence of str
        The list (normalised; repetitions count once).
    cert : ChainCertificate or path
    overlap : int
        ``k``.
    maximise : {"words", "letters"}
    start, end : str, optional
        The fixed ends the certificate must be for.

    Returns
    -------
    ChainCertificateCheck
        VALID with the bound the values prove (``optimal`` when the chain meets it), or
        INVALID naming the first thing that fails (always INVALID with one word as both ends:
        see the module's cases).

    Raises
    ------
    ChainCertificateError
        The file cannot be read, it is for another list, overlap, objective or fixed ends, or
        its cuts ask for more work than the cap (see Notes).

    Notes
    -----
    Time: linear in the list's letters and the certificate's size. The cuts cost, per
    distinct cut set and side, the groups at the set's nodes; a certificate asking for more
    than :data:`CUT_VISITS_PER_ITEM` visits per group and per node its cuts name (plus
    :data:`CUT_VISITS_FLOOR`) is refused before they are made.
    Card: ``models/chain.md``, "Certificate".

    Examples
    --------
    >>> from cpwords.chain.spec import solve_chain
    >>> words = ["seasick", "kiln", "nausea", "apple", "egg"]
    >>> cert = solve_chain(words).solver_info["certificate"]
    >>> check = verify_chain_certificate(words, cert, overlap=1)
    >>> check.status, check.bound, check.optimal
    ('VALID', 5, True)
    """
    t0 = time.perf_counter()
    if not isinstance(cert, ChainCertificate):
        cert = read_chain_certificate(cert)
    distinct = set(words)
    _same_puzzle(cert, distinct, overlap, maximise, start, end)
    objective, problem = _chain_value(cert, distinct)
    bound = None
    if problem is None and cert.start is not None and cert.start == cert.end:
        problem = (
            "one word as both ends: its only chain is that word, which needs no certificate "
            "(the relaxation does not hold it, so values for it prove nothing)"
        )
    if problem is None:
        bound, problem = _proven_bound(cert, distinct)
    if problem is None and bound is not None and objective is not None and bound < objective:
        problem = (
            f"the values prove {bound}, less than the chain they carry ({objective}): a "
            "relaxation without that chain proves nothing"
        )
    return _verdict(cert, objective, bound, problem, t0)


def _verdict(
    cert: ChainCertificate,
    objective: int | None,
    bound: int | None,
    problem: str | None,
    t0: float,
) -> ChainCertificateCheck:
    """The check's verdict: INVALID with the ``problem`` found, else VALID with the proven
    ``bound`` and the chain's ``objective`` (``t0``: when the check started)."""
    if problem is not None:
        return ChainCertificateCheck(
            "INVALID",
            None,
            objective,
            cert.bound,
            False,
            f"INVALID: {problem}",
            time.perf_counter() - t0,
        )
    assert bound is not None and objective is not None
    optimal = objective == bound
    message = (
        f"VALID: the chain of {objective} is optimal (bound {bound})"
        if optimal
        else f"VALID: bound {bound}, the chain has {objective}"
    )
    if cert.bound != bound:
        message += f" (the certificate claims {cert.bound})"
    return ChainCertificateCheck(
        "VALID", bound, objective, cert.bound, optimal, message, time.perf_counter() - t0
    )


def _same_puzzle(
    cert: ChainCertificate,
    distinct: set[str],
    overlap: int,
    maximise: str,
    start: str | None,
    end: str | None,
) -> None:
    """Refuse, in one line, a certificate of another list or variant."""
    if cert.fingerprint != list_fingerprint(distinct):
        raise ChainCertificateError("the certificate is for another word list")
    mine = (overlap, maximise, start, end)
    theirs = (cert.overlap, cert.maximise, cert.start, cert.end)
    if mine != theirs:
        raise ChainCertificateError(
            f"the certificate is for overlap {cert.overlap}, maximising {cert.maximise}, start "
            f"{cert.start!r}, end {cert.end!r}; this check is for overlap {overlap}, "
            f"maximising {maximise}, start {start!r}, end {end!r}"
        )


def _chain_value(cert: ChainCertificate, distinct: set[str]) -> tuple[int | None, str | None]:
    """The chain's value, or why it is not a chain of the list (the rules, recounted here)."""
    k, chain = cert.overlap, cert.chain
    if not chain:
        return None, "the certificate's chain is empty"
    if len(set(chain)) != len(chain):
        return None, "the chain repeats a word"
    for w in chain:
        if w not in distinct or len(w) < k:
            return (
                None,
                f"the chain's word {excerpt(w, 30)} is not a word of the list of {k}+ letters",
            )
    for a, b in itertools.pairwise(chain):
        if a[len(a) - k :] != b[:k]:
            return None, f"{excerpt(a, 30)} -> {excerpt(b, 30)} does not share {k} letters"
    if (cert.start is not None and chain[0] != cert.start) or (
        cert.end is not None and chain[-1] != cert.end
    ):
        return None, "the chain does not have the fixed first and last words"
    letters = cert.maximise == "letters"
    return sum(len(w) if letters else 1 for w in chain), None


def _proven_bound(cert: ChainCertificate, distinct: set[str]) -> tuple[int | None, str | None]:
    """``floor(total / scale)`` plus the fixed words' value, or why the values are malformed."""
    k, letters = cert.overlap, cert.maximise == "letters"
    fixed = {w for w in (cert.start, cert.end) if w is not None}
    caps: dict[Group, int] = {}
    for w in distinct:
        if len(w) >= k and w not in fixed:
            g = (w[:k], w[len(w) - k :], len(w) if letters else 1)
            caps[g] = caps.get(g, 0) + 1
    nodes = {g[0] for g in caps} | {g[1] for g in caps}
    source = None if cert.start is None else cert.start[len(cert.start) - k :]
    sink = None if cert.end is None else cert.end[:k]
    nodes |= {source, sink} - {None}  # type: ignore[arg-type]
    pot = dict(cert.potentials)
    if len(pot) != len(cert.potentials) or not pot.keys() <= nodes:
        return None, "a potential names an unknown node, or one node twice"
    extra, s_extra, t_extra, problem = _cut_terms(cert, caps, nodes)
    if problem is not None:
        return None, problem
    D = cert.scale
    total = cert.one_start + cert.one_end
    for g, u in caps.items():
        r = D * g[2] - pot.get(g[1], 0) + pot.get(g[0], 0) + extra.get(g, 0)
        total += u * max(0, r)
    for v in nodes:
        rs = -pot.get(v, 0) - cert.one_start + s_extra.get(v, 0)
        rt = pot.get(v, 0) - cert.one_end + t_extra.get(v, 0)
        total += rs if v == source else max(0, rs)
        total += rt if v == sink else max(0, rt)
    constant = sum(len(w) if letters else 1 for w in fixed)
    return total // D + constant, None


def _cut_terms(
    cert: ChainCertificate, caps: dict[Group, int], nodes: set[str]
) -> tuple[dict[Group, int], dict[str, int], dict[str, int], str | None]:
    """What the cuts add to the reduced costs: per group (its own cuts' ``-mu``, and ``u mu``
    for each cut it crosses into or out of), and per node (``s`` of the in-cuts' sets, ``t`` of
    the out-cuts'). Cuts sharing a node set and side are summed first, so each set's crossing
    groups are listed once; more visits than the cap allows are refused before any is made.

    Raises
    ------
    ChainCertificateError
        The visits exceed :data:`CUT_VISITS_PER_ITEM` per group and per named node (plus
        :data:`CUT_VISITS_FLOOR`).
    """
    extra: dict[Group, int] = {}
    by_set: dict[tuple[frozenset[str], str], int] = {}
    named = 0
    for k, cut in enumerate(cert.cuts):
        named += len(cut.nodes)
        inside = frozenset(cut.nodes)
        if not inside or len(inside) != len(cut.nodes) or not inside <= nodes:
            return {}, {}, {}, f"cut {k} has an empty or repeated node set, or unknown nodes"
        g = cut.group
        if g not in caps or g[0] not in inside or g[1] not in inside:
            return {}, {}, {}, f"cut {k} names a group not of the list, or not inside its set"
        extra[g] = extra.get(g, 0) - cut.mu
        key = (inside, cut.side)
        by_set[key] = by_set.get(key, 0) + caps[g] * cut.mu
    by_head: dict[str, list[Group]] = {}
    by_tail: dict[str, list[Group]] = {}
    if by_set:
        for g in caps:
            by_head.setdefault(g[1], []).append(g)
            by_tail.setdefault(g[0], []).append(g)
    visits = sum(
        len((by_head if side == "in" else by_tail).get(v, ())) + 1
        for inside, side in by_set
        for v in inside
    )
    cap = CUT_VISITS_PER_ITEM * (len(caps) + named) + CUT_VISITS_FLOOR
    if visits > cap:
        raise ChainCertificateError(
            f"the certificate's {len(cert.cuts):,} cuts ask the checker for {visits:,} visits "
            f"of a group, more than the {cap:,} it makes ({CUT_VISITS_PER_ITEM} per group of "
            f"the list and per node the cuts name, plus {CUT_VISITS_FLOOR:,})"
        )
    s_extra: dict[str, int] = {}
    t_extra: dict[str, int] = {}
    for (inside, side), weight in by_set.items():
        # Into C: the groups whose head is inside and tail outside; out of C, the reverse.
        near, far = (by_head, 0) if side == "in" else (by_tail, 1)
        for v in inside:
            for g in near.get(v, ()):
                if g[far] not in inside:
                    extra[g] = extra.get(g, 0) + weight
        ends = s_extra if side == "in" else t_extra
        for v in inside:
            ends[v] = ends.get(v, 0) + weight
    return extra, s_extra, t_extra, None
