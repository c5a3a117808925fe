"""The certificate's file format: its types, JSON reading and writing, and the size caps.

The format and the argument: :mod:`cpwords.wordsnake.certificate`. The format as a JSON Schema
(draft 2020-12): ``schema.json`` beside this module, which the writer's files and the reader's
refusals are tested against (``tests/wordsnake/test_certificate_schema.py``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cpwords.core.errors import InputError, excerpt
from cpwords.core.files import read_cap, read_json_document, write_json_document
from cpwords.wordsnake.certificate.columns import IntColumn, each_once, int_list

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
#: The models a version 2 proof tree's leaves are checked in (``tree_model``; absent:
#: ``"joints"``): every joint of the core one by one, or (``"root"``) the joints of positive
#: overlap one by one and every zero-overlap joint through the overlap graph's root, by the
#: two smallest ``u`` and ``v - L`` of the leaf (``models/wordsnake.md``, version 2, item 6).
TREE_MODELS = ("joints", "root")
#: The most joints a version 2 check examines for its leaves (those of the words whose values a
#: leaf changes; the core itself is never listed unless the certificate lists it): past it the
#: certificate is refused as more than this checker takes.
CORE_CHECK_MAX = 4_000_000


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
        The values of the distinct words, in code-point order of the words (the solver's
        certificates hold them as :class:`IntColumn`, which reads as that tuple).
    depot : tuple of (int, int) or None
        ``(u(d), v(d))`` for a linear snake, None for a cyclic one.
    cuts : tuple of (tuple of int, int)
        ``(word ids, lambda)`` for every cut set.
    order : tuple of int, length ``items``
        The ordering, as ids of distinct words (an :class:`IntColumn` in the solver's).
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
    tree_model : {"joints", "root"}
        Version 2: how the leaves treat the zero-overlap joints (:data:`TREE_MODELS`): as core
        joints, or all at once through the root (the core then holds no zero-overlap joint
        of two different words).
    """

    fingerprint: str
    items: int
    cyclic: bool
    proper: bool
    scale: int
    u: Sequence[int]
    v: Sequence[int]
    depot: tuple[int, int] | None
    cuts: tuple[tuple[tuple[int, ...], int], ...]
    order: Sequence[int]
    bound: int
    objective: int
    core_pairs: int | None = None
    producer: dict[str, Any] = field(default_factory=dict)
    target: int | None = None
    core: CoreSet | None = None
    tree: tuple[TreeNode, ...] = ()
    score: str = "squared"
    tree_model: str = "joints"

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
        if len(mult) != len(self.u) or len(self.u) != len(self.v):
            raise ValueError("mult, u and v must have one entry a distinct word")
        # map and sum run in C over Python's exact integers (a generator took 0.2 s on ENABLE);
        # the words listed once (usually all) are summed without a product each.
        once = each_once(mult)
        if once and isinstance(self.u, IntColumn) and isinstance(self.v, IntColumn):
            total = self.u.exact_sum() + self.v.exact_sum()  # the solver's: summed as arrays
        else:
            u, v = int_list(self.u), int_list(self.v)  # the solver's arrays read in C
            total = sum(u) + sum(v)
        if not once:
            more = map(operator.sub, mult, itertools.repeat(1))
            total += sum(map(operator.mul, more, map(operator.add, u, v)))
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
    return sorted_fingerprint(sorted(words))


def sorted_fingerprint(ordered: Sequence[str], joined: str | None = None) -> str:
    """:func:`word_fingerprint` of items already sorted (``sorted(items)``); ``joined``:
    ``"\\n".join(ordered)``, when the caller has it.

    Examples
    --------
    >>> sorted_fingerprint(["a", "b"]) == word_fingerprint(["b", "a"])
    True
    """
    text = "\n".join(ordered) if joined is None else joined
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
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
        "u": int_list(cert.u),
        "v": int_list(cert.v),
        "depot": None if cert.depot is None else list(cert.depot),
        "cuts": [{"words": list(ids), "lambda": lam} for ids, lam in cert.cuts],
        "order": int_list(cert.order),
        "bound": cert.bound,
        "objective": cert.objective,
        "core_pairs": cert.core_pairs,
        "producer": cert.producer,
    }
    if cert.tree:
        core = cert.core
        out["target"] = cert.target
        if cert.tree_model != "joints":
            out["tree_model"] = cert.tree_model
        out["core"] = (
            None
            if core is None
            else {
                "pairs": [list(p) for p in core.pairs],
                "starts": list(core.starts),
                "ends": list(core.ends),
            }
        )
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
    # Exactly int (not bool, not a subclass), then the range by min and max: C-level passes
    # (a test per value took 1.7 s on a certificate of 1.9 million values).
    if not set(map(type, obj)) <= {int}:
        raise CertificateError(f"certificate: {key} must be a list of integers")
    if obj and not (min(obj) >= -INT_LIMIT and max(obj) < INT_LIMIT):
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
    model = obj.get("tree_model", "joints")
    if model not in TREE_MODELS:
        raise CertificateError(
            f"certificate: tree_model must be one of {', '.join(TREE_MODELS)}, not "
            f"{excerpt(json.dumps(model))}"
        )
    return {
        "target": _int(obj["target"], "target"),
        "core": core,
        "tree": tuple(nodes),
        "tree_model": model,
    }


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
