"""Wordsnake optimality certificates: the file format and an independent checker.

A certificate proves an upper bound on the Wordsnake score of a word list with a dual solution
of the *assignment relaxation* strengthened by *connectivity cuts*. Whatever produced the
numbers, any values that satisfy every inequality below prove the bound; this module checks
them from the strings alone and shares no code with the models (nor with the overlap graph).

**Items and pairs.** Every listed word is an item (a word listed ``m`` times is ``m`` items,
its *copies*). A linear snake also has the *depot* ``d`` (its start and end). A solution is a
cycle through all items (and ``d``): ``a -> b`` scores ``ov(a, b)^2``, ``ov`` being the longest
suffix of ``a`` that is a prefix of ``b`` (``--proper``: shorter than both words); arcs into and
out of ``d`` score 0. A certificate of the *linear* score (``variant.score``: ``"linear"``, the
shortest superstring's) reads ``ov(a, b)`` for ``ov(a, b)^2`` everywhere below.

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

import bisect
import hashlib
import itertools
import json
import os
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import read_cap, read_json_document, write_json_document

#: The ``format`` value of a certificate file.
FORMAT = "cpwords-wordsnake-certificate"
#: The newest version of the format this module reads and writes: 2 holds a proof tree
#: (written only when there is one; a certificate without a tree is written as version 1).
VERSION = 2
#: The versions read.
VERSIONS = (1, 2)
#: The scores a certificate may bound (``variant.score``; absent: ``"squared"``): a joint of
#: overlap ``k`` scores ``k ** 2`` or ``k``.
SCORES = ("squared", "linear")
#: The most joints a version 2 check examines for its leaves (those of the words whose values a
#: leaf changes; the core itself is never listed unless the certificate lists it): past it the
#: certificate is refused as more than this checker takes.
CORE_CHECK_MAX = 4_000_000

#: A leaf whose changed words (heads and tails counted apart) outnumber this share of the
#: words is checked by one search over every word on its own values, not from the root's.
WHOLE_LEAF_SHARE = 0.5

#: Bytes a certificate may take, per word and in all, beyond :func:`certificate_cap`'s per-word
#: allowance for its core and proof tree (version 2).
TREE_BYTES_PER_ITEM = 16 << 10
TREE_BYTES = 64 << 20
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
class TreeNode:
    """One node of a version 2 proof tree (see :func:`verify_certificate`).

    Attributes
    ----------
    joint : tuple of (int, int) or None
        An internal node's joint ``(a, b)`` (distinct-word ids): the child ``used`` covers the
        snakes with an arc from a copy of ``a`` to a copy of ``b``, ``unused`` the others.
        None for a leaf.
    used, unused : int
        The children's indices (internal nodes; -1 for a leaf).
    u, v : tuple of (int, int)
        A leaf's values that differ from the root's: ``(word id, value)``; from the base's
        when node 0 is an internal node that lists values (the tree's *base*: ``u``, ``v``,
        ``depot``, ``copies`` and ``cuts`` against the root, checked once like a leaf's).
    depot : tuple of (int, int) or None
        A leaf's ``(u(d), v(d))`` when they differ from the root's.
    bound : int
        A leaf's claimed bound on the snakes it covers (at most ``target - 1``).
    copies : tuple of (int, int)
        ``(word id, gamma)``: the leaf's inequality of a copy followed by another copy of that
        word (listed at least twice) may fall short by ``gamma >= 0``, paid ``(m - 1) gamma``.
    cuts : tuple of (tuple of int, int)
        A leaf's own cut sets ``(word ids, lambda)``, added to the root's; ``lambda < 0`` only
        on a set the root cuts, whose multipliers then total ``>= 0`` (a root cut lowered).
    """

    joint: tuple[int, int] | None = None
    used: int = -1
    unused: int = -1
    u: tuple[tuple[int, int], ...] = ()
    v: tuple[tuple[int, int], ...] = ()
    depot: tuple[int, int] | None = None
    bound: int = 0
    copies: tuple[tuple[int, int], ...] = ()
    cuts: tuple[tuple[tuple[int, ...], int], ...] = ()


@dataclass(frozen=True)
class CoreSet:
    """The joints the root values do not exclude at ``target`` (version 2).

    Attributes
    ----------
    pairs : tuple of (int, int)
        Word pairs ``(a, b)`` (``a == b``: a copy followed by another copy).
    starts, ends : tuple of int
        Words a linear snake may start and end with.
    """

    pairs: tuple[tuple[int, int], ...]
    starts: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()


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
    target : int or None
        Version 2: the score the proof tree rules out (the ordering's score + 1).
    core : CoreSet or None
        Version 2, optional: every joint whose root slack is at most the budget at ``target``
        (a listed core is computed and compared, and refused when it differs; without one the
        checker looks only at the core joints of the words a leaf changes).
    tree : tuple of TreeNode
        Version 2: the proof tree, its root first (empty: no tree, version 1).
    score : {"squared", "linear"}
        What a joint of overlap ``k`` scores: ``k ** 2`` (Shasha's Wordsnake) or ``k`` (the
        sum of overlaps, the shortest superstring's); the file's ``variant.score``.
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
    target: int | None = None
    core: CoreSet | None = None
    tree: tuple[TreeNode, ...] = ()
    score: str = "squared"

    def to_dict(self) -> dict[str, Any]:
        """A short summary for result rows (``--json``); the file holds
        :func:`certificate_to_json`."""
        return {
            "fingerprint": self.fingerprint,
            "scale": self.scale,
            "score": self.score,
            "cuts": len(self.cuts),
            "bound": self.bound,
            "core_pairs": self.core_pairs,
            "tree_nodes": len(self.tree),
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
    ``items``, ``variant`` (``{"cyclic": bool, "proper": bool, "score": "squared" or
    "linear"}``; a file without ``score`` is ``"squared"``), ``scale``, ``u`` and ``v``
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
    out = {
        "format": FORMAT,
        "version": 2 if cert.tree else 1,
        "fingerprint": cert.fingerprint,
        "items": cert.items,
        "variant": {"cyclic": cert.cyclic, "proper": cert.proper, "score": cert.score},
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
    if cert.tree:
        core = cert.core
        out["target"] = cert.target
        out["core"] = None if core is None else {
            "pairs": [list(p) for p in core.pairs],
            "starts": list(core.starts),
            "ends": list(core.ends),
        }  # fmt: skip
        root: dict[frozenset[int], int] = {}
        for k, (ids, _) in enumerate(cert.cuts):
            root.setdefault(frozenset(ids), k)
        out["tree"] = [_node_json(node, root) for node in cert.tree]
    return out


def _node_json(node: TreeNode, root: dict[frozenset[int], int]) -> dict[str, Any]:
    """A proof tree node as JSON: ``{"joint": [a, b], "used": i, "unused": j}`` or
    ``{"u": [[id, value]...], "v": [...], "depot": [u, v] or null, "bound": int, "copies":
    [...], "cuts": [...]}``; a leaf's cut on a set the root cuts names it by its index in the
    root's ``cuts`` (``{"root": k, "lambda": int}``), any other lists its words."""
    if node.joint is not None:
        out: dict[str, Any] = {"joint": list(node.joint), "used": node.used, "unused": node.unused}
        if carries_values(node):  # the tree's base
            values = _node_json(replace(node, joint=None), root)
            out.update((k, values[k]) for k in ("u", "v", "depot", "copies", "cuts"))
        return out
    cuts: list[dict[str, Any]] = []
    for ids, lam in node.cuts:
        k = root.get(frozenset(ids))
        named: dict[str, Any] = {"words": list(ids)} if k is None else {"root": k}
        cuts.append({**named, "lambda": lam})
    return {
        "u": [list(c) for c in node.u],
        "v": [list(c) for c in node.v],
        "depot": None if node.depot is None else list(node.depot),
        "bound": node.bound,
        "copies": [list(c) for c in node.copies],
        "cuts": cuts,
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
    write_json_document(certificate_to_json(cert), path, force)


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
    if isinstance(version, bool) or not isinstance(version, int) or version not in VERSIONS:
        raise CertificateError(
            f"certificate version {excerpt(json.dumps(version))} is not supported "
            f"(this checker reads versions 1 and {VERSION})"
        )
    try:
        variant = obj["variant"]
        if not isinstance(variant, dict):
            raise CertificateError("certificate: variant must be an object")
        cyclic, proper = variant["cyclic"], variant["proper"]
        if not isinstance(cyclic, bool) or not isinstance(proper, bool):
            raise CertificateError("certificate: variant.cyclic and .proper must be true/false")
        score = variant.get("score", "squared")
        if score not in SCORES:
            raise CertificateError(
                f"certificate: variant.score must be one of {', '.join(SCORES)}, not "
                f"{excerpt(json.dumps(score))}"
            )
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
        cuts = _cuts(obj["cuts"], "cuts")
        core = obj.get("core_pairs")
        producer = obj.get("producer") or {}
        tree = _tree_from_json(obj, cuts) if version == 2 else {}
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
            score=score,
            **tree,
        )
    except KeyError as err:
        raise CertificateError(f"certificate: missing key {err.args[0]!r}") from None


def _pairs(obj: Any, key: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(obj, list):
        raise CertificateError(f"certificate: {key} must be a list of pairs")
    out = []
    for k, p in enumerate(obj):
        a, b = _ints(p, f"{key}[{k}]", 2)
        out.append((a, b))
    return tuple(out)


def _cuts(
    obj: Any,
    key: str,
    low: int | None = 0,
    root: Sequence[tuple[tuple[int, ...], int]] | None = None,
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """A list of cuts; with ``root`` (a leaf's), an entry may name the root's cut ``k`` by
    ``{"root": k}`` instead of listing its words."""
    if not isinstance(obj, list):
        raise CertificateError(f"certificate: {key} must be a list")
    cuts = []
    for i, c in enumerate(obj):
        if not isinstance(c, dict):
            raise CertificateError(f"certificate: {key}[{i}] must be an object")
        if root is not None and "root" in c:
            k = _int(c["root"], f"{key}[{i}].root", 0)
            if k >= len(root):
                raise CertificateError(
                    f"certificate: {key}[{i}].root names cut {k}, the root has {len(root)}"
                )
            ids = root[k][0]
        else:
            ids = _ints(c["words"], f"{key}[{i}].words")
        cuts.append((ids, _int(c["lambda"], f"{key}[{i}].lambda", low)))
    return tuple(cuts)


def _tree_from_json(
    obj: dict[str, Any], root: Sequence[tuple[tuple[int, ...], int]]
) -> dict[str, Any]:
    """The version 2 keys ``target``, ``core`` and ``tree`` (raises :class:`CertificateError`,
    or KeyError for a missing key); ``root``: the root's cuts, which a leaf's may name."""
    core_raw, tree_raw = obj.get("core"), obj["tree"]
    if not (core_raw is None or isinstance(core_raw, dict)) or not isinstance(tree_raw, list):
        raise CertificateError("certificate: core must be an object or null, tree a list")
    if not tree_raw:
        raise CertificateError("certificate: a version 2 tree needs a node")
    core = None
    if core_raw is not None:
        core = CoreSet(
            _pairs(core_raw["pairs"], "core.pairs"),
            _ints(core_raw["starts"], "core.starts"),
            _ints(core_raw["ends"], "core.ends"),
        )
    nodes = []
    for k, n in enumerate(tree_raw):
        if not isinstance(n, dict):
            raise CertificateError(f"certificate: tree[{k}] must be an object")
        joint = None
        if "joint" in n:  # an internal node (node 0 may carry the tree's base too)
            a, b = _ints(n["joint"], f"tree[{k}].joint", 2)
            joint = (a, b)
        else:  # a leaf lists its values and depot, empty or null when unchanged
            missing = [key for key in ("u", "v", "depot") if key not in n]
            if missing:
                raise KeyError(missing[0])
        raw = n.get("depot")
        depot = None if raw is None else _ints(raw, f"tree[{k}].depot", 2)
        nodes.append(
            TreeNode(
                joint=joint,
                used=-1 if joint is None else _int(n["used"], f"tree[{k}].used"),
                unused=-1 if joint is None else _int(n["unused"], f"tree[{k}].unused"),
                u=_pairs(n.get("u", []), f"tree[{k}].u"),
                v=_pairs(n.get("v", []), f"tree[{k}].v"),
                depot=None if depot is None else (depot[0], depot[1]),
                bound=0 if joint is not None else _int(n["bound"], f"tree[{k}].bound"),
                copies=_pairs(n.get("copies", []), f"tree[{k}].copies"),
                cuts=_cuts(n.get("cuts", []), f"tree[{k}].cuts", None, root),
            )
        )
    return {"target": _int(obj["target"], "target"), "core": core, "tree": tuple(nodes)}


def certificate_cap(items: int) -> int:
    """The largest certificate (uncompressed bytes) read for a list of ``items`` words.

    A certificate holds three numbers a word (``u``, ``v`` and the ordering) and its cut sets;
    the cap allows :data:`CAP_NUMBERS_PER_ITEM` numbers a word of the longest notation (64-bit
    integers, :data:`NUMBER_BYTES` with their separators), 1 MiB more for the rest and
    :data:`TREE_BYTES_PER_ITEM` a word (at most :data:`TREE_BYTES`) for a version 2 core and
    proof tree: 190 MB for ENABLE's 172,823 words, whose certificate takes 2.7 MB.

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
    1134016
    """
    tree = min(TREE_BYTES, TREE_BYTES_PER_ITEM * items)
    return (1 << 20) + tree + NUMBER_BYTES * CAP_NUMBERS_PER_ITEM * items


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
    try:
        obj = read_json_document(path, "certificate", cap)
    except InputError as err:
        raise CertificateError(str(err)) from None
    return certificate_from_json(obj)


# ---------------------------------------------------------------------------------------------
# The checker: the strings and the values, nothing else.


def _overlap(a: str, b: str, proper: bool) -> int:
    """Longest suffix of ``a`` that is a prefix of ``b`` (shorter than both when proper)."""
    top = min(len(a), len(b)) - (1 if proper else 0)
    if top <= 0:
        return 0
    # Only the places of b's first letter among a's last ``top`` letters can start an overlap
    # (the longest first): a few tests a pair instead of ``top``.
    la, first = len(a), b[0]
    i = a.find(first, la - top)
    while i >= 0:
        if a.endswith(b[: la - i]):
            return la - i
        i = a.find(first, i + 1)
    return 0


def _gain(k: int, score: str) -> int:
    """What a joint of overlap ``k`` scores: ``k ** 2``, or ``k`` for the linear score."""
    return k if score == "linear" else k * k


def _score(seq: Sequence[str], cyclic: bool, proper: bool, score: str = "squared") -> int:
    total = sum(_gain(_overlap(a, b, proper), score) for a, b in itertools.pairwise(seq))
    if cyclic and len(seq) > 1:
        total += _gain(_overlap(seq[-1], seq[0], proper), score)
    return total


@dataclass
class _Violation(Exception):
    a: str
    b: str
    lhs: int
    rhs: int


def _two_smallest(
    values: Sequence[int],
    words: Sequence[str],
    ids: Iterable[int],
    proper: bool,
    deadline: float | None = None,
) -> dict[str, list[int]]:
    """``[v1, i1, v2, i2]`` for every prefix ``s`` of the words ``ids``: the two smallest values
    of distinct words that start with ``s`` (and are longer than ``s`` when ``proper``), with
    their ids; ``i2 = -1`` when there is one. O(their letters) dictionary updates (measured
    faster in CPython than one pass over the sorted words with a stack of open prefixes).
    ``TimeoutError`` once ``deadline`` has passed."""
    table: dict[str, list[int]] = {}
    get = table.get
    for n, i in enumerate(ids):
        if deadline is not None and n % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
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
    table = _two_smallest(terms.v_all, words, range(W), proper, deadline)
    _query_table(table, outside, [0] * len(outside), words, mult, cert, terms, deadline)
    if inside:
        table = _two_smallest(terms.v_out, words, outside, proper, deadline)
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
    squared = cert.score != "linear"
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
                if ua + best < scale * (k * k if squared else k):
                    b = words[j]
                    shared = set(member[i]) if j != i else set(member[j])
                    rhs = _pair_rhs(a, b, member[j], shared, lams, scale, proper, cert.score)
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
        table = _two_smallest(terms.v_all, words, ids, proper, deadline)
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
    score: str = "squared",
) -> int:
    """The right-hand side of the joint ``a -> b``: ``scale * ov(a, b)^2`` (``ov`` for the
    linear score) plus the multipliers of the cuts ``b`` lies in and ``a`` does not (those the
    joint enters)."""
    ov = _overlap(a, b, proper)
    return scale * _gain(ov, score) + sum(lams[c] for c in cuts_of_b if c not in shared)


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


# ---------------------------------------------------------------------------------------------
# Version 2: reduced-cost fixing and the proof tree, checked.


#: The longest range :class:`_MinTree` scans instead of walking (measured on 8,192 values: a
#: scan of 64 took 2.6-2.8 us, a walk 1.5 us finding none and 8.8 us finding 6 of them).
_SCAN = 64


class _MinTree:
    """A segment tree of the minimum over ``values``: the indices of a range whose value is at
    most a threshold, in O((found + 1) log n)."""

    def __init__(self, values: Sequence[int]) -> None:
        n = 1
        while n < max(1, len(values)):
            n *= 2
        big = INT_LIMIT * 4
        tree = [big] * (2 * n)
        tree[n : n + len(values)] = list(values)
        for k in range(n - 1, 0, -1):
            tree[k] = min(tree[2 * k], tree[2 * k + 1])
        self.n, self.tree = n, tree

    def at_most(self, lo: int, hi: int, limit: int) -> list[int]:
        """Indices ``i`` in ``[lo, hi)`` with ``values[i] <= limit`` (a short range scanned)."""
        if hi - lo <= _SCAN:
            leaves, n = self.tree, self.n
            return [i for i in range(lo, hi) if leaves[n + i] <= limit]
        out: list[int] = []
        stack = [(1, 0, self.n)]
        tree = self.tree
        while stack:
            k, a, b = stack.pop()
            if b <= lo or hi <= a or tree[k] > limit:
                continue
            if b - a == 1:
                out.append(a)
                continue
            mid = (a + b) // 2
            stack.append((2 * k + 1, mid, b))
            stack.append((2 * k, a, mid))
        return out


@dataclass(frozen=True)
class RootCore:
    """The joints the root values leave within the budget at a target (version 2).

    Attributes
    ----------
    budget : int
        ``B - scale * target`` (units): a snake using a joint of larger slack scores less than
        ``target``.
    pairs : dict
        ``(a, b) -> slack`` for every word pair whose root slack is at most the budget.
    starts, ends : dict
        ``word -> slack`` of the depot's joints (a linear snake) within the budget.
    """

    budget: int
    pairs: dict[tuple[int, int], int]
    starts: dict[int, int]
    ends: dict[int, int]


class RootCoreTooLarge(Exception):
    """:func:`root_core` found more joints than its caller's cap."""


class _Group:
    """Some words (ids in code-point order) with values: the range of every prefix among them
    and its smallest value, and a segment tree that lists the words of a range under a limit."""

    def __init__(
        self, ids: Sequence[int], words: Sequence[str], values: Sequence[int], proper: bool
    ) -> None:
        self.ids = list(ids)
        self.values = [values[i] for i in self.ids]
        ranges: dict[str, list[int]] = {}
        get = ranges.get
        for p, i in enumerate(self.ids):
            w, val = words[i], values[i]
            for k in range(len(w) if proper else len(w) + 1):
                e = get(w[:k])
                if e is None:
                    ranges[w[:k]] = [p, p + 1, val]
                else:
                    e[1] = p + 1
                    if val < e[2]:
                        e[2] = val
        self.ranges = ranges
        self.tree: _MinTree | None = None

    def below(self, prefix: str, limit: int) -> list[int]:
        """The ids of the words that start with ``prefix`` (and are longer, when proper) whose
        value is at most ``limit``."""
        e = self.ranges.get(prefix)
        if e is None or e[2] > limit:
            return []
        if self.tree is None:
            self.tree = _MinTree(self.values)
        return [self.ids[p] for p in self.tree.at_most(e[0], e[1], limit)]


def root_core(
    words: Sequence[str],
    mult: Sequence[int],
    cert: Certificate,
    target: int,
    deadline: float | None = None,
    max_pairs: int | None = None,
) -> RootCore:
    """Every joint whose slack under the root values is at most the budget at ``target``.

    The slack of ``a -> b`` is ``u(a) + v(b) - scale ov(a, b)^2 - (the multipliers of the cuts
    it enters)``; a snake using it scores at most ``floor((B - slack) / scale)``, so with
    ``budget = B - scale * target`` every joint of larger slack is excluded at ``target``. As in
    the check of the values, the cut terms are exact per group: for ``a`` outside ``C`` (the
    words of cuts of two words or more) the right side is ``scale ov^2 + L(b)``; for ``a`` in
    ``C``, ``scale ov^2 + L(b)`` for ``b`` outside ``C`` and ``scale ov^2 + L(b) - M(a, P)`` for
    ``b`` in the signature class ``P``. So ``u(a) (+ M) + (v - L)(b) - scale |s|^2`` is at least
    the slack for every common string ``s`` and equal to it at the longest one: every word
    under the limit in the range of a suffix of ``a`` is in the core, and every core joint is
    found at its overlap. Time O(total letters (x classes, for ``C``) + core x log W).

    Parameters
    ----------
    words : sequence of str
        The distinct words in code-point order.
    mult : sequence of int
        Their multiplicities.
    cert : Certificate
        Values already checked valid (the root).
    target : int
    deadline : float, optional
        ``time.perf_counter()`` value after which it stops (``TimeoutError``).
    max_pairs : int, optional
        Stop (:class:`RootCoreTooLarge`) past this many word pairs.

    Returns
    -------
    RootCore

    Raises
    ------
    RootCoreTooLarge
        More than ``max_pairs`` joints.
    TimeoutError
        The deadline passed.
    """
    D, proper, W, score = cert.scale, cert.proper, len(words), cert.score
    terms = _cut_terms(cert, W)
    budget = cert.dual_value(mult) - D * target
    lookups = _core_lookups(words, cert, terms)
    pairs: dict[tuple[int, int], int] = {}
    u, v = cert.u, cert.v
    for i, a in enumerate(words):
        if deadline is not None and i % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        la, ua = len(a), u[i]
        mine = set(terms.member[i])
        for group, bonus in lookups(i):
            for k in range(la if proper else la + 1):
                for j in group.below(a[la - k :], budget + D * _gain(k, score) - ua - bonus):
                    if j == i or (i, j) in pairs:
                        continue
                    rhs = _pair_rhs(
                        a, words[j], terms.member[j], mine, terms.lams, D, proper, score
                    )
                    if ua + v[j] - rhs <= budget:  # always, by the argument above
                        pairs[(i, j)] = ua + v[j] - rhs
        if mult[i] > 1:  # a copy followed by another: they share every cut
            gain = _gain(_overlap(a, a, proper), score)
            if ua + v[i] - D * gain <= budget:
                pairs[(i, i)] = ua + v[i] - D * gain
        if max_pairs is not None and len(pairs) > max_pairs:
            raise RootCoreTooLarge
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    if cert.depot is not None:
        ud, vd = cert.depot
        starts = {j: ud + terms.v_all[j] for j in range(W) if ud + terms.v_all[j] <= budget}
        ends = {i: u[i] + vd for i in range(W) if u[i] + vd <= budget}
    return RootCore(budget, pairs, starts, ends)


def _core_lookups(words: Sequence[str], cert: Certificate, terms: _CutTerms) -> Any:
    """``lookups(i)``: the groups of words to search for the joints out of word ``i``, each with
    the multipliers ``i`` shares with all of its words (see :func:`root_core`)."""
    W, proper, cuts = len(words), cert.proper, cert.cuts
    everyone = _Group(range(W), words, terms.v_all, proper)
    inside = [i for i in range(W) if terms.in_cut[i]]
    if not inside:
        return lambda i: [(everyone, 0)]
    outside = _Group([i for i in range(W) if not terms.in_cut[i]], words, terms.v_all, proper)
    sig = {i: frozenset(k for k in terms.member[i] if len(cuts[k][0]) > 1) for i in inside}
    members: dict[frozenset[int], list[int]] = {}
    for i in inside:
        members.setdefault(sig[i], []).append(i)
    classes = [(held, _Group(ids, words, terms.v_all, proper)) for held, ids in members.items()]
    lams = terms.lams

    def lookups(i: int) -> list[tuple[_Group, int]]:
        if not terms.in_cut[i]:
            return [(everyone, 0)]
        return [(outside, 0)] + [(g, sum(lams[k] for k in sig[i] & held)) for held, g in classes]

    return lookups


def _core_problem(cert: Certificate, core: RootCore, words: Sequence[str]) -> str | None:
    """Why the certificate's core is not exactly the root's at its target, or None."""
    listed = cert.core or CoreSet(())
    if set(listed.pairs) != set(core.pairs) or len(listed.pairs) != len(core.pairs):
        missing = sorted(set(core.pairs) - set(listed.pairs))
        if missing:
            a, b = missing[0]
            return (
                f"INVALID: the core misses the joint {excerpt(words[a], 30)} -> "
                f"{excerpt(words[b], 30)}, whose root slack {core.pairs[(a, b)]} is within the "
                f"budget {core.budget} at {cert.target}"
            )
        return "INVALID: the core lists joints the root values already exclude (or twice)"
    if set(listed.starts) != set(core.starts) or set(listed.ends) != set(core.ends):
        return "INVALID: the core's starts and ends are not those the root values leave"
    if len(listed.starts) != len(core.starts) or len(listed.ends) != len(core.ends):
        return "INVALID: the core lists a start or an end twice"
    return None


def _by_set(
    cuts: Iterable[tuple[Sequence[int], int]], start: dict[frozenset[int], int] | None = None
) -> dict[frozenset[int], int]:
    """Cut multipliers summed by set, added to a copy of ``start`` when given."""
    out = dict(start or {})
    for ids, lam in cuts:
        key = frozenset(ids)
        out[key] = out.get(key, 0) + lam
    return out


def carries_values(node: TreeNode) -> bool:
    """Whether a proof tree node lists values.

    Parameters
    ----------
    node : TreeNode

    Returns
    -------
    bool
        True for a leaf with values, or for the tree's root node carrying the tree's base
        (``models/wordsnake.md``, "Certificates", version 2, item 5); False for a plain
        internal node and for a leaf that needs none (it covers no snake, or exactly one set
        of arcs).
    """
    return bool(node.u or node.v or node.depot is not None or node.copies or node.cuts)


def _shift(base: _LeafChange) -> int:
    """At least the most any joint's slack under the base's values exceeds its root slack:
    the largest rise of a ``u``, plus the largest rise of a ``v`` with the falls of the
    multipliers of the cuts holding its word (a joint enters at most those less)."""
    fall: dict[int, int] = {}
    for cut, change in base.sets.items():
        if change < 0:
            for i in cut:
                fall[i] = fall.get(i, 0) - change
    rise_u = max([0, *base.du.values()])
    rise_v = max([0, *(max(0, base.dv.get(i, 0)) + fall.get(i, 0) for i in {*base.dv, *fall})])
    return rise_u + rise_v


def _based(cert: Certificate, base: TreeNode) -> Certificate:
    """The root's values with the base's changes: the values the leaves are stated against
    (the base's copies are the leaves' business, :class:`_LeafChange`)."""
    u, v = list(cert.u), list(cert.v)
    for i, val in base.u:
        u[i] = val
    for i, val in base.v:
        v[i] = val
    sets = _by_set(base.cuts, _by_set(cert.cuts))
    cuts = tuple((tuple(sorted(c)), lam) for c, lam in sets.items() if lam)
    depot = base.depot if base.depot is not None else cert.depot
    return replace(cert, u=tuple(u), v=tuple(v), depot=depot, cuts=cuts)


def _tree_problem(cert: Certificate, W: int) -> str | None:
    """Why the tree is not a tree over joints of known words, or None."""
    nodes = cert.tree
    parents = [0] * len(nodes)
    below: dict[frozenset[int], int] | None = None  # the multipliers a leaf's cuts change
    for k, node in enumerate(nodes):
        if node.joint is not None and carries_values(node) and k > 0:
            return f"INVALID: node {k} lists values: only a leaf or the tree's root node may"
        if node.joint is None or (k == 0 and carries_values(node)):
            if below is None:
                below = _by_set(cert.cuts)
            problem = _values_problem(k, node, cert, W, below)
            if problem is not None:
                return problem
            if node.joint is not None:  # the base: the leaves' cuts change its multipliers
                below = _by_set(node.cuts, below)
        if node.joint is None:
            continue
        if any(not 0 <= i < W for i in node.joint):
            return f"INVALID: node {k} branches on an unknown word"
        for child in (node.used, node.unused):
            if not k < child < len(nodes):
                return f"INVALID: node {k} has a missing child ({child})"
            parents[child] += 1
    for k in range(1, len(nodes)):
        if parents[k] != 1:
            return f"INVALID: node {k} is not the child of exactly one node"
    return None


def _values_problem(
    k: int, node: TreeNode, cert: Certificate, W: int, below: dict[frozenset[int], int]
) -> str | None:
    """Why the values node ``k`` lists name unknown words or bad cut sets, or lower a cut's
    multiplier (``below``: the multipliers by set that its cuts change) below 0; or None."""
    if any(not 0 <= i < W for i, _ in (*node.u, *node.v, *node.copies)):
        return f"INVALID: node {k} changes the value of an unknown word"
    changes: dict[frozenset[int], int] = {}
    for ids, lam in node.cuts:
        if not ids or any(not 0 <= i < W for i in ids) or len(set(ids)) != len(ids):
            return f"INVALID: node {k} has a cut set empty, repeated or of unknown words"
        if cert.cyclic and len(ids) == W:
            return f"INVALID: node {k} has a cut set of a cyclic snake holding every word"
        changes[frozenset(ids)] = changes.get(frozenset(ids), 0) + lam
    for cut, change in changes.items():
        if change < 0 and below.get(cut, 0) + change < 0:
            return (
                f"INVALID: node {k} lowers a cut's multiplier below 0 (a leaf may "
                "lower only the root's cut of the same set, to 0 at least)"
            )
    return None


def no_snake(
    used: frozenset[tuple[int, int]], mult: Sequence[int], items: int, cyclic: bool
) -> bool:
    """Whether no snake uses every joint of ``used`` (each at least once).

    True when a joint ``w -> w`` names a word listed once; when a word has more distinct forced
    successors (or predecessors) than copies; or when a connected set ``S`` of words of the
    forced joints holds at least as many forced joints as items: every item of ``S`` then has
    its successor in ``S`` (an item has one), so the snake never leaves ``S``, which misses an
    item (the depot of a linear snake, or a word of a cyclic one).

    Parameters
    ----------
    used : frozenset of (int, int)
        Forced joints (distinct-word ids).
    mult : sequence of int
        The words' multiplicities.
    items : int
    cyclic : bool

    Returns
    -------
    bool
    """
    outs: Counter[int] = Counter()
    ins: Counter[int] = Counter()
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in used:
        if a == b and mult[a] < 2:
            return True
        outs[a] += 1
        ins[b] += 1
        parent[root(a)] = root(b)
    if any(outs[w] > mult[w] for w in outs) or any(ins[w] > mult[w] for w in ins):
        return True
    joints: Counter[int] = Counter(root(a) for a, _ in used)
    size: Counter[int] = Counter()
    for w in parent:
        size[root(w)] += mult[w]
    return any(joints[r] >= size[r] and (not cyclic or size[r] < items) for r in joints)


_no_snake = no_snake


def _check_tree(
    words: Sequence[str], mult: Sequence[int], cert: Certificate, deadline: float | None
) -> tuple[int | None, str | None]:
    """The largest leaf bound of a version 2 certificate, or the line naming its first failing
    node (see :func:`verify_certificate`)."""
    if cert.target is None:
        return None, "INVALID: a proof tree needs a target"
    problem = _tree_problem(cert, len(words))
    if problem is not None:
        return None, problem
    if cert.core is not None:  # a listed core must be exactly the root's
        cap = len(cert.core.pairs)
        try:
            core = root_core(words, mult, cert, cert.target, deadline, max_pairs=cap)
        except RootCoreTooLarge:
            return None, (
                f"INVALID: the root values leave more than the {cap:,} joints the core lists "
                "within the budget at the target"
            )
        problem = _core_problem(cert, core, words)
        if problem is not None:
            return None, problem
    leaves, problem = _leaves(words, cert, deadline)
    if problem is not None:
        return None, problem
    joints = _RootJoints(words, mult, cert, deadline)
    node0 = cert.tree[0]
    base = node0 if node0.joint is not None and carries_values(node0) else None
    if base is not None:  # checked once as a leaf of no path, then the leaves against it
        first = _LeafChange(cert, base)
        joints.prepare([first])
        _, problem = _leaf_bound(joints, first, (frozenset(), frozenset()))
        if problem is not None:
            return None, f"INVALID: node 0 (the tree's base): {problem}"
        based = _based(cert, base)
        joints = _RootJoints(words, mult, based, deadline, core=joints, shift=_shift(first))
    inherited = {} if base is None else dict(base.copies)
    worth = sum((mult[a] - 1) * g for a, g in inherited.items())
    changes = [_LeafChange(joints.cert, node, inherited, worth) for _, node, _ in leaves]
    joints.prepare(changes)
    top = None
    arcs = cert.items if cert.cyclic else cert.items - 1
    for (k, node, (used, unused)), change in zip(leaves, changes, strict=True):
        found: int | None
        if _no_snake(used, mult, cert.items, cert.cyclic) or len(used) > arcs:
            found, problem = node.bound, None  # the leaf covers no snake
        elif len(used) == arcs:  # its snakes use exactly the forced joints, once each
            found, problem = sum(_gain(_overlap(words[a], words[b], cert.proper), cert.score)
                                 for a, b in used), None  # fmt: skip
        else:
            found, problem = _leaf_bound(joints, change, (used, unused))
        if problem is not None:
            return None, f"INVALID: node {k} (leaf): {problem}"
        assert found is not None
        if node.bound < found:
            return None, f"INVALID: node {k} (leaf) claims {node.bound}, its values prove {found}"
        if node.bound >= cert.target:
            return None, f"INVALID: node {k} (leaf) proves {node.bound}, not below {cert.target}"
        top = node.bound if top is None else max(top, node.bound)
    return top, None


#: A leaf's path: its forced joints and its forbidden ones.
_Path = tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]


def _leaves(
    words: Sequence[str], cert: Certificate, deadline: float | None
) -> tuple[list[tuple[int, TreeNode, _Path]], str | None]:
    """Every leaf with its path, depth first (the used side first), or the line naming the
    first leaf whose path both forces and forbids a joint."""
    out: list[tuple[int, TreeNode, _Path]] = []
    stack: list[tuple[int, frozenset[tuple[int, int]], frozenset[tuple[int, int]]]]
    stack = [(0, frozenset(), frozenset())]
    while stack:
        k, used, unused = stack.pop()
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeoutError
        node = cert.tree[k]
        if node.joint is not None:
            j = node.joint
            stack.append((node.unused, used, unused | {j}))
            stack.append((node.used, used | {j}, unused))
            continue
        if used & unused:
            a, b = sorted(used & unused)[0]
            return out, (
                f"INVALID: node {k}: the joint {excerpt(words[a], 30)} -> {excerpt(words[b], 30)} "
                "is both used and not used on its path"
            )
        out.append((k, node, (used, unused)))
    return out, None


#: Above every code point: ``s + _TOP`` bounds the strings that start with ``s``.
_TOP = "\U0010ffff"


#: The most strings whose prefix minima a range search keeps (:class:`_Sorted`): the table holds
#: a value per distinct prefix, up to the strings' letters (ENABLE's 172,823 words: 387,881
#: prefixes).
PREFIX_MINIMA_MAX = 300_000


def _prefix_minima(keys: list[str], values: list[int]) -> tuple[dict[str, int], dict[str, int]]:
    """The least value of the strings strictly longer than each prefix of ``keys`` (distinct),
    and of all the strings that start with it: O(letters). A string's prefixes are visited
    longest first, up to one whose value is already at most its own (the shorter ones' are
    at most that one's)."""
    longer: dict[str, int] = {}
    get = longer.get
    for key, val in zip(keys, values, strict=True):
        for k in range(len(key) - 1, -1, -1):
            p = key[:k]
            e = get(p)
            if e is not None and e <= val:
                break
            longer[p] = val
    least = dict(longer)
    for key, val in zip(keys, values, strict=True):
        e = least.get(key)
        if e is None or val < e:
            least[key] = val
    return longer, least


class _Sorted:
    """Strings in code-point order, each with an id and a value: the ids of the strings that
    start with a prefix (longer than it, when asked) whose value is at most a limit, by
    bisection and a segment tree of the minima."""

    def __init__(
        self,
        keys: list[str],
        ids: list[int],
        values: list[int],
        queries: int = 0,
        second: list[int] | None = None,
    ) -> None:
        self.keys, self.ids, self.values = keys, ids, values
        self.tree: _MinTree | None = None  # built at the first range search
        # After as many queries as strings (at once when the caller expects ``queries`` at least
        # that many), the least value of every prefix (O(letters) once): a query whose prefix's
        # least value is above the limit then costs one look-up.
        self.calls = 0
        self.least: dict[str, int] | None = None
        #: The least value of the strings strictly longer than each prefix, and each string's id.
        self.longer: dict[str, int] = {}
        self.owner = dict(zip(keys, ids, strict=True))
        #: A second value of each string (by id) that :meth:`search` may bound too, and its
        #: prefix minima (strictly longer strings, then all), built after as many searches
        #: as strings that the first minima did not end.
        self.second_values = second
        self.second = {} if second is None else dict(zip(ids, second, strict=True))
        self.second_minima: tuple[dict[str, int], dict[str, int]] | None = None
        self.passed = 0
        if len(keys) <= min(queries, PREFIX_MINIMA_MAX):
            self._prefix_minima()

    def _prefix_minima(self) -> None:
        self.longer, self.least = _prefix_minima(self.keys, self.values)

    def search(
        self,
        string: str,
        count: int,
        gains: Sequence[int],
        shift: int,
        longer: bool,
        other_than: int,
        bound_shift: int | None = None,
    ) -> tuple[list[int], int]:
        """The distinct ids (``other_than`` left out) of :meth:`below` for the suffixes ``s`` of
        ``string`` of lengths ``k < count`` as prefixes, each at the limit ``gains[k] - shift``,
        in the order first found, and the number of range searches made (a prefix whose strings,
        ``other_than`` left out, all have values above its limit costs one or two look-ups and no
        search). With ``bound_shift``, an id found for the ``k``-th prefix is kept only if its
        second value is at most ``gains[k] + bound_shift`` too (else it may be found again for a
        later prefix), and a prefix whose strings' second values all exceed that is skipped."""
        found: list[int] = []
        seen = {other_than}
        searches = 0
        second = self.second
        least, strict, owner = self.least, self.longer.get, self.owner.get
        n = len(string)
        for k in range(count):
            prefix, limit = string[n - k :], gains[k] - shift
            if least is None:  # (the prefix minima may come with a search below)
                least, strict = self.least, self.longer.get
            if least is not None:  # most prefixes end here, after one or two look-ups
                low = strict(prefix) if longer else least.get(prefix)
                if low is not None and low <= limit and not longer and owner(prefix) == other_than:
                    low = strict(prefix)
                if low is None or low > limit:
                    continue
                if bound_shift is not None and self.second_minima is None and self.second_values:
                    self.passed += 1
                    if self.passed > len(self.keys):
                        self.second_minima = _prefix_minima(self.keys, self.second_values)
                if bound_shift is not None and self.second_minima is not None:
                    strict2, least2 = self.second_minima
                    if longer or owner(prefix) == other_than:
                        low = strict2.get(prefix)
                    else:
                        low = least2.get(prefix)
                    if low is None or low > gains[k] + bound_shift:
                        continue
            searches += 1
            for i in self.below(prefix, limit, longer):
                if i not in seen and (bound_shift is None or second[i] <= gains[k] + bound_shift):
                    seen.add(i)
                    found.append(i)
        return found, searches

    def below(self, prefix: str, limit: int, longer: bool) -> list[int]:
        if self.least is None:
            self.calls += 1
            if self.calls > len(self.keys) and len(self.keys) <= PREFIX_MINIMA_MAX:
                self._prefix_minima()
        if self.least is not None:
            least = (self.longer if longer else self.least).get(prefix)
            if least is None or least > limit:
                return []
        keys = self.keys
        lo = bisect.bisect_left(keys, prefix)
        hi = bisect.bisect_left(keys, prefix + _TOP, lo)
        if longer and lo < hi and keys[lo] == prefix:
            lo += 1
        if lo >= hi:
            return []
        if self.tree is None:
            self.tree = _MinTree(self.values)
        return [self.ids[p] for p in self.tree.at_most(lo, hi, limit)]


class _TooMuch(Exception):
    """The leaves need more joints checked than :data:`CORE_CHECK_MAX`."""


class _RootJoints:
    """The root's slacks, and the joints of a word whose root slack is below a threshold,
    found without listing the core.

    ``u(a) + (v - L)(b) - scale |s|^2`` is at most the root slack of ``a -> b`` at every string
    ``s`` that ends ``a`` and starts ``b`` (the multipliers of the cuts holding both are >= 0),
    and at the longest such string it is that slack less those multipliers. So the words of the
    prefix range of each suffix of ``a`` whose ``v - L`` is under the threshold plus
    ``scale |s|^2 - u(a)`` hold every joint out of ``a`` below the threshold (likewise the words
    of the suffix range of each prefix of ``b``, by ``u``, for the joints into ``b``); each found
    is computed exactly. Each word is searched once, at the largest threshold a leaf needs
    (:meth:`prepare`): O(its letters x log W + joints found).
    """

    def __init__(
        self,
        words: Sequence[str],
        mult: Sequence[int],
        cert: Certificate,
        deadline: float | None,
        core: _RootJoints | None = None,
        shift: int = 0,
    ) -> None:
        self.words, self.mult, self.cert, self.deadline = words, mult, cert, deadline
        #: The root's joints when these values are the tree's base (``cert``: the root with
        #: the base's changes): a joint is in the core by its root slack, not its base slack;
        #: ``shift`` bounds how much larger a joint's base slack is than its root slack.
        self.core, self.shift = core, shift
        self.terms = _cut_terms(cert, len(words))
        self.value = cert.dual_value(mult)
        self.budget = self.value - cert.scale * (cert.target or 0)
        self.member: dict[int, set[int]] = {}  # the cuts holding a word, as a set, when asked
        #: ``scale |s|^2 - 1`` by the length of ``s`` (``scale |s| - 1`` for the linear score).
        top = max(map(len, words), default=0)
        self.gains = [cert.scale * _gain(k, cert.score) - 1 for k in range(top + 1)]
        self._fwd: _Sorted | None = None
        self._rev: _Sorted | None = None
        self.out_need: dict[int, int] = {}
        self.in_need: dict[int, int] = {}
        self.outs: dict[int, list[tuple[int, int]]] = {}
        self.ins: dict[int, list[tuple[int, int]]] = {}
        self.by_v: list[int] | None = None
        self.by_u: list[int] | None = None
        self.work = 0

    def in_core(self, a: int, b: int, slack: int) -> bool:
        """Whether ``a -> b``, whose slack under these values is ``slack``, is in the core
        (its root slack at most the budget)."""
        if self.core is None:
            return slack <= self.budget
        return self.core.slack(a, b) <= self.core.budget

    def start_in_core(self, b: int, slack: int) -> bool:
        """Whether the start ``-> b`` (slack ``slack`` under these values) is in the core."""
        if self.core is None:
            return slack <= self.budget
        root = self.core
        assert root.cert.depot is not None
        return root.cert.depot[0] + root.terms.v_all[b] <= root.budget

    def end_in_core(self, a: int, slack: int) -> bool:
        """Whether the end ``a ->`` (slack ``slack`` under these values) is in the core."""
        if self.core is None:
            return slack <= self.budget
        root = self.core
        assert root.cert.depot is not None
        return root.cert.u[a] + root.cert.depot[1] <= root.budget

    def slack(self, a: int, b: int) -> int:
        """The root slack of ``a -> b`` (``a == b``: a copy followed by another copy)."""
        cert, words = self.cert, self.words
        if a == b:
            ov = _overlap(words[a], words[a], cert.proper)
            return cert.u[a] + cert.v[a] - cert.scale * _gain(ov, cert.score)
        held = self.member.get(a)
        if held is None:
            held = self.member[a] = set(self.terms.member[a])
        rhs = _pair_rhs(words[a], words[b], self.terms.member[b], held,
                        self.terms.lams, cert.scale, cert.proper, cert.score)  # fmt: skip
        return cert.u[a] + cert.v[b] - rhs

    def prepare(self, changes: list[_LeafChange]) -> None:
        """The largest threshold each changed word's joints are searched to, over the leaves
        (at most ``budget + 1``: a joint of larger root slack is outside the core; on a
        base's values, ``budget + shift + 1`` of the root's budget)."""
        if self.core is None:
            top = max(self.budget + 1, 0)
        else:
            top = max(self.core.budget + self.shift + 1, 0)
        for ch in changes:
            for a, d in ch.du.items():
                if d < 0:
                    self.out_need[a] = min(max(self.out_need.get(a, 0), -d), top)
            for b in ch.dv_star:
                need = ch.load.get(b, 0) - ch.dv.get(b, 0)
                if need > 0:
                    self.in_need[b] = min(max(self.in_need.get(b, 0), need), top)

    def count(self, n: int) -> None:
        """Count ``n`` joints examined (:class:`_TooMuch` past :data:`CORE_CHECK_MAX`)."""
        self.work += n
        if self.work > CORE_CHECK_MAX:
            raise _TooMuch
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeoutError

    def out_joints(self, a: int) -> list[tuple[int, int]]:
        """``(root slack, b)`` in ascending order for the joints ``a -> b``, ``b != a``, whose
        root slack is below ``out_need[a]``."""
        got = self.outs.get(a)
        if got is not None:
            return got
        if self._fwd is None:
            self._fwd = _Sorted(list(self.words), list(range(len(self.words))), self.terms.v_all)
        need, w = self.out_need.get(a, 0), self.words[a]
        fresh = self._below_need(self._fwd, w, self.cert.u[a], need, a)
        got = sorted((s, b) for s, b in ((self.slack(a, b), b) for b in fresh) if s < need)
        self.outs[a] = got
        return got

    def in_joints(self, b: int) -> list[tuple[int, int]]:
        """``(root slack, a)`` in ascending order for the joints ``a -> b``, ``a != b``, whose
        root slack is below ``in_need[b]``."""
        got = self.ins.get(b)
        if got is not None:
            return got
        if self._rev is None:
            words, u = self.words, self.cert.u
            order = sorted(range(len(words)), key=lambda i: words[i][::-1])
            self._rev = _Sorted([words[i][::-1] for i in order], order, [u[i] for i in order])
        need, w = self.in_need.get(b, 0), self.words[b]
        fresh = self._below_need(self._rev, w[::-1], self.terms.v_all[b], need, b)
        got = sorted((s, a) for s, a in ((self.slack(a, b), a) for a in fresh) if s < need)
        self.ins[b] = got
        return got

    def _below_need(self, table: _Sorted, string: str, own: int, need: int, word: int) -> list[int]:
        """The words of ``table`` (``word`` left out) that start with a suffix ``s`` of ``string``
        (proper when the snake is) and whose value is below ``need + scale |s|^2 - own``: every
        joint of ``word`` (out of it, or into it, ``string`` reversed) whose root slack is below
        ``need``, and others."""
        count = len(string) if self.cert.proper else len(string) + 1
        fresh, searches = table.search(string, count, self.gains, own - need, self.cert.proper,
                                       word)  # fmt: skip
        self.count(len(fresh) + searches + 1)
        return fresh

    def ascending_starts(self) -> list[int]:
        """The words by their root start slack ``u(d) + v(b) - L(b)``, ascending."""
        if self.by_v is None:
            v_all = self.terms.v_all
            self.by_v = sorted(range(len(self.words)), key=lambda i: v_all[i])
        return self.by_v

    def ascending_ends(self) -> list[int]:
        """The words by their root end slack ``u(a) + v(d)``, ascending."""
        if self.by_u is None:
            u = self.cert.u
            self.by_u = sorted(range(len(self.words)), key=lambda i: u[i])
        return self.by_u


class _LeafChange:
    """A leaf's changes against the root: values, depot, copies and cut multipliers by set
    (``load``: the change of ``L(b)``, what a joint into ``b`` from a word in none of the
    changed sets enters more than at the root; ``dv_star``: the words whose ``v`` or ``L``
    changed; ``tails``: the words whose ``u`` changed or that lie in a changed set;
    ``holding``: the changed sets holding each word, with their changes)."""

    def __init__(
        self,
        cert: Certificate,
        node: TreeNode,
        inherited: dict[int, int] | None = None,
        inherited_value: int = 0,
    ) -> None:
        self.node = node
        # The copies in force: the leaf's, and those it inherits (the base's, checked with the
        # base, adding ``inherited_value`` to the leaf's value) of the words it does not list;
        # a word whose gamma differs from the inherited one has its copy joint checked again.
        self.inherited = inherited or {}
        self.inherited_value = inherited_value
        self.copy_words = {a for a, g in node.copies if g != self.inherited.get(a, 0)}
        self.du = {i: val - cert.u[i] for i, val in node.u if val != cert.u[i]}
        self.dv = {i: val - cert.v[i] for i, val in node.v if val != cert.v[i]}
        root_depot = cert.depot or (0, 0)
        self.dd = (0, 0) if node.depot is None else (node.depot[0] - root_depot[0],
                                                     node.depot[1] - root_depot[1])  # fmt: skip
        self.total = sum(lam for _, lam in node.cuts)
        self.sets = {s: lam for s, lam in _by_set(node.cuts).items() if lam}
        self.load: dict[int, int] = {}
        self.holding: dict[int, list[tuple[frozenset[int], int]]] = {}
        for s, lam in self.sets.items():
            for b in s:
                self.load[b] = self.load.get(b, 0) + lam
                self.holding.setdefault(b, []).append((s, lam))
        self.dv_star = set(self.dv) | set(self.load)
        self.tails = set(self.du) | set(self.load)

    def slack(self, a: int, b: int, root: int) -> int:
        """The leaf's slack of ``a -> b`` (``a != b``) from its slack under the values it is
        stated against (``root``: the root's, or the base's)."""
        s = root + self.du.get(a, 0) + self.dv.get(b, 0)
        if b in self.holding:
            s -= sum(lam for c, lam in self.holding[b] if a not in c)
        return s


def _joint_name(words: Sequence[str]) -> Any:
    """``name(a, b)``: the joint ``a -> b`` for messages."""
    return lambda a, b: f"{excerpt(words[a], 30)} -> {excerpt(words[b], 30)}"


def _leaf_bound(joints: _RootJoints, ch: _LeafChange, path: _Path) -> tuple[int | None, str | None]:
    """The bound a leaf's values prove on the snakes of its path that use core joints only, or
    the first inequality that fails. Only the joints of changed words (and the forced ones)
    differ from the root's, whose values are valid; a joint whose root slack exceeds the budget
    is outside the core and needs nothing (its snakes score below the target)."""
    cert, words, mult = joints.cert, joints.words, joints.mult
    if ch.dd != (0, 0) and cert.depot is None:
        return None, "a cyclic snake has no depot"
    short, gain, problem = _copies_in_force(words, mult, cert, ch)
    if problem is not None:
        return None, problem
    value = joints.value + ch.dd[0] + ch.dd[1] - ch.total + gain
    value += sum(mult[i] * d for i, d in ch.du.items()) + sum(mult[i] * d for i, d in ch.dv.items())
    used, unused = path
    try:
        bad = _short_joint(joints, ch, short, used | unused)
    except _TooMuch:
        return None, (
            f"its changed words need more than {CORE_CHECK_MAX:,} joints checked (more than this "
            "checker takes)"
        )
    if bad is not None:
        return None, bad
    name = _joint_name(words)
    for a, b in used:
        root = joints.slack(a, b)
        if not joints.in_core(a, b, root):
            return None, f"the forced joint {name(a, b)} is not in the core"
        if a == b:
            slack = root + ch.du.get(a, 0) + ch.dv.get(a, 0) + short.get(a, 0)
        else:
            slack = ch.slack(a, b, root)
        cap = mult[a] - 1 if a == b else min(mult[a], mult[b])
        value += -slack if slack >= 0 else -slack * cap
    if cert.depot is not None:
        bad = _short_depot(joints, ch)
        if bad is not None:
            return None, bad
    return value // cert.scale, None


def _copies_in_force(
    words: Sequence[str], mult: Sequence[int], cert: Certificate, ch: _LeafChange
) -> tuple[dict[int, int], int, str | None]:
    """The shortfall ``gamma`` of each word's copies in force at a leaf (its own, over those it
    inherits), what they add to its value (``(mult - 1) gamma`` each; the inherited ones' sum
    is ``ch.inherited_value``), and the line naming a leaf's own copy that cannot fall short
    by its ``gamma``, or None."""
    short = dict(ch.inherited)
    gain = ch.inherited_value
    seen: set[int] = set()
    for a, gamma in ch.node.copies:
        if gamma < 0 or mult[a] < 2 or a in seen or (cert.cyclic and len(words) == 1):
            return (
                short,
                gain,
                f"the copies of {excerpt(words[a], 30)} cannot fall short by {gamma}",
            )
        seen.add(a)
        gain += (mult[a] - 1) * (gamma - short.get(a, 0))
        short[a] = gamma
    return short, gain, None


def _short_joint(
    joints: _RootJoints, ch: _LeafChange, short: dict[int, int], skip: frozenset[tuple[int, int]]
) -> str | None:
    """The first core joint (not in ``skip``) whose leaf slack is negative, named, or None:
    out of the words whose ``u`` fell to words whose ``v`` and ``L`` did not change (the slack
    changes by ``du``), into the words whose ``v`` or ``L`` changed from words in none of the
    changed sets whose ``u`` did not (by ``dv - load``), between the two kinds, and a changed
    word's copy joint."""
    name = _joint_name(joints.words)
    W = len(joints.words)
    if len(ch.dv_star) + len(ch.tails) > WHOLE_LEAF_SHARE * W:
        everyone = range(W)  # most values changed: the leaf's own search over every word
        bad = _short_between(joints, ch, skip, heads=everyone, tails=everyone)
        return bad if bad is not None else _short_copy(joints, ch, short, skip)
    for a, d in ch.du.items():
        if d >= 0:
            continue
        for root, b in joints.out_joints(a):
            if root >= -d:
                break
            if b not in ch.dv_star and (a, b) not in skip and joints.in_core(a, b, root):
                return f"the joint {name(a, b)} is short by {-(root + d)}"
    for b in ch.dv_star:
        need = ch.load.get(b, 0) - ch.dv.get(b, 0)
        if need <= 0:
            continue
        for root, a in joints.in_joints(b):
            if root >= need:
                break
            if a not in ch.tails and (a, b) not in skip and joints.in_core(a, b, root):
                return f"the joint {name(a, b)} is short by {need - root}"
    bad = _short_between(joints, ch, skip) if ch.tails and ch.dv_star else None
    return bad if bad is not None else _short_copy(joints, ch, short, skip)


def _short_copy(
    joints: _RootJoints, ch: _LeafChange, short: dict[int, int], skip: frozenset[tuple[int, int]]
) -> str | None:
    """The first changed word whose copy joint (a copy followed by another) is short, or None."""
    name = _joint_name(joints.words)
    for w in sorted(set(ch.du) | set(ch.dv) | ch.copy_words):
        if joints.mult[w] > 1 and (w, w) not in skip:
            root = joints.slack(w, w)
            slack = root + ch.du.get(w, 0) + ch.dv.get(w, 0) + short.get(w, 0)
            if slack < 0 and joints.in_core(w, w, root):
                return f"the joint {name(w, w)} is short by {-slack}"
    return None


def _short_between(
    joints: _RootJoints,
    ch: _LeafChange,
    skip: frozenset[tuple[int, int]],
    heads: Iterable[int] | None = None,
    tails: Iterable[int] | None = None,
) -> str | None:
    """The joints from a word whose ``u`` changed or that lies in a changed set (or of
    ``tails``) to a word whose ``v`` or ``L`` changed (or of ``heads``): the root's search on
    the leaf's own values of those words (``u'(a) + v'(b) - L'(b) - scale |s|^2`` is at most
    the leaf's slack)."""
    words, cert, terms = joints.words, joints.cert, joints.terms
    proper = cert.proper
    ends = sorted(ch.dv_star if heads is None else heads, key=words.__getitem__)
    values = [terms.v_all[b] + ch.dv.get(b, 0) - ch.load.get(b, 0) for b in ends]
    starts = sorted(ch.tails if tails is None else tails)
    queries = sum(len(words[a]) + 1 for a in starts)
    # A joint in the core has its root slack within the root's budget, and that slack is at
    # least the root's u(a) + (v - L)(b) - scale |s|^2 at the longest such string s: a word
    # found at a shorter s (a smaller square) is kept only once that bound is met.
    at_root = joints if joints.core is None else joints.core
    root_u, root_v, budget = at_root.cert.u, at_root.terms.v_all, at_root.budget
    table = _Sorted([words[b] for b in ends], ends, values, queries, [root_v[b] for b in ends])
    name = _joint_name(words)
    gains, du, u = joints.gains, ch.du, cert.u
    for a in starts:
        w, ua = words[a], u[a] + du.get(a, 0)
        m = len(w) if proper else len(w) + 1
        fresh, searches = table.search(w, m, gains, ua, proper, a, budget + 1 - root_u[a])
        joints.count(len(fresh) + searches + 1)
        for b in fresh:
            root = joints.slack(a, b)
            slack = ch.slack(a, b, root)
            if slack < 0 and (a, b) not in skip and joints.in_core(a, b, root):
                return f"the joint {name(a, b)} is short by {-slack}"
    return None


def _short_depot(joints: _RootJoints, ch: _LeafChange) -> str | None:
    """The first start or end in the core whose leaf slack is negative, named, or None."""
    cert, words = joints.cert, joints.words
    assert cert.depot is not None
    ud, vd = cert.depot
    v_all, u = joints.terms.v_all, cert.u
    d0, d1 = ch.dd
    starts = sorted(ch.dv_star)
    if d0 < 0:  # every start may fall short: the words by their root start slack
        for b in joints.ascending_starts():
            if ud + v_all[b] >= -d0:
                break
            starts.append(b)
    for b in starts:
        root = ud + v_all[b]
        if root + d0 + ch.dv.get(b, 0) - ch.load.get(b, 0) < 0 and joints.start_in_core(b, root):
            return f"the start -> {excerpt(words[b], 30)} is short"
    ends = sorted(ch.du)
    if d1 < 0:
        for a in joints.ascending_ends():
            if u[a] + vd >= -d1:
                break
            ends.append(a)
    for a in ends:
        root = u[a] + vd
        if root + d1 + ch.du.get(a, 0) < 0 and joints.end_in_core(a, root):
            return f"{excerpt(words[a], 30)} -> the end is short"
    return None


def verify_certificate(
    words: Sequence[str],
    cert: Certificate | str | os.PathLike[str],
    *,
    cyclic: bool | None = None,
    proper: bool | None = None,
    time_limit: float | None = None,
    score: str | None = None,
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
    score : {"squared", "linear"}, optional
        The score the caller means; a certificate of the other score is refused. None accepts
        the certificate's.

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
    _check_list_and_variant(items, cert, cyclic, proper, score)
    counts = Counter(items)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    _check_format(cert, len(distinct))
    deadline = None if time_limit is None else t0 + time_limit
    claimed = cert.bound
    if not _is_snake_of(cert.order, mult):
        msg = "INVALID: the ordering is not a snake of this list"
        return _verdict(t0, claimed, "INVALID", None, None, msg)
    objective = _score([distinct[i] for i in cert.order], cert.cyclic, cert.proper, cert.score)
    bad = _dual_violation(distinct, mult, cert, deadline)
    if bad is not None:
        msg = _violation_message(bad, cert.scale, cert.score)
        return _verdict(t0, claimed, "INVALID", None, objective, msg, (bad.a, bad.b))
    n = len(items)
    bound = _proven_bound(cert, mult, n)
    if cert.tree and n > 1:
        top, problem = _check_tree(distinct, mult, cert, deadline)
        if problem is not None:
            return _verdict(t0, claimed, "INVALID", None, objective, problem)
        assert cert.target is not None and top is not None
        bound = min(bound, max(cert.target - 1, top))
    elif cert.core_pairs is not None:
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
    items: Sequence[str],
    cert: Certificate,
    cyclic: bool | None,
    proper: bool | None,
    score: str | None = None,
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
    if score is not None and score != cert.score:
        raise CertificateError(
            f"the certificate bounds the {cert.score} score and the one asked for is the "
            f"{score} score (a joint of overlap k scores {'k' if cert.score == 'linear' else 'k^2'}"
            f" there, {'k' if score == 'linear' else 'k^2'} here)"
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


def _violation_message(bad: _Violation, scale: int, score: str = "squared") -> str:
    """The INVALID line naming the first violated inequality."""
    name_a = bad.a if bad.a else "the start"
    name_b = bad.b if bad.b else "the end"
    what = "overlap" if score == "linear" else "overlap squared"
    return (
        f"INVALID: u({excerpt(name_a, 30)}) + v({excerpt(name_b, 30)}) = {bad.lhs} "
        f"< {bad.rhs} ({what} times {scale}, plus the cuts entered)"
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
    objective = _score([distinct[i] for i in cert.order], cert.cyclic, cert.proper, cert.score)

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
            if cert.u[i] + cert.v[j] < cert.scale * _gain(ov, cert.score) + entered(i, j):
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
    if cert.tree and len(items) > 1:  # the tree's own check (its leaves are few joints each)
        top, problem = _check_tree(distinct, mult, cert, None)
        if problem is not None:
            return fail("", "")
        assert cert.target is not None and top is not None
        bound, status = min(bound, max(cert.target - 1, top)), "VALID"
    return CertificateCheck(
        status, bound, objective, cert.bound, status == "VALID" and objective == bound,
        status, None, time.perf_counter() - t0,
    )  # fmt: skip
