"""The certificate's JSON Schema (``certificate/schema.json``, issue 46) is the file format: it
accepts every certificate the writer produces, refuses the malformed files the reader refuses,
and accepts a well-formed file whose numbers prove nothing (that is the checker's to refuse)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from cpwords.core.errors import InputError
from cpwords.superstring.spec import solve_superstring
from cpwords.wordsnake.certificate import (
    FORMAT,
    INT_LIMIT,
    Certificate,
    CertificateError,
    CoreSet,
    certificate_from_json,
    certificate_to_json,
    read_certificate,
    root_core,
    verify_certificate,
    write_certificate,
)
from cpwords.wordsnake.rules import WordsnakeInstance
from cpwords.wordsnake.spec import solve_wordsnake

SCHEMA = json.loads(
    files("cpwords.wordsnake.certificate").joinpath("schema.json").read_text("utf-8")
)
VALIDATOR = Draft202012Validator(SCHEMA)

Written = dict[str, tuple[tuple[str, ...], Certificate, dict[str, Any]]]


def solved(words: tuple[str, ...], cyclic: bool, proper: bool, score: str) -> Certificate:
    inst = WordsnakeInstance(words, cyclic, proper, score=score)
    res = solve_wordsnake(inst, time_limit=30, workers=1, certificate=True)
    cert: Certificate = res.solver_info["certificate"]
    return cert


def with_listed_core(words: tuple[str, ...], cert: Certificate) -> Certificate:
    """The certificate with its core listed (the producer leaves it to the checker)."""
    assert cert.target is not None
    counts = Counter(words)
    distinct = sorted(counts)
    core = root_core(
        distinct,
        [counts[w] for w in distinct],
        cert,
        cert.target,
        through_root=cert.tree_model == "root",
    )
    listed = CoreSet(
        tuple(sorted(core.pairs)), tuple(sorted(core.starts)), tuple(sorted(core.ends))
    )
    return replace(cert, core=listed)


def rooted_tree(words: tuple[str, ...]) -> Certificate:
    """The tree certificate in the tree model "root" on the flow's values of a linear snake."""
    from cpwords.wordsnake.closure.proof_tree import tree_certificate

    res = solve_wordsnake(WordsnakeInstance(words), time_limit=30, workers=1, certificate=True)
    cert: Certificate = res.solver_info["certificate"]
    root = replace(cert, tree=(), target=None, core=None, tree_model="joints", bound=cert.bound)
    tree = tree_certificate(WordsnakeInstance(words), root, through_root=True)
    assert tree is not None and tree.tree and tree.tree_model == "root"
    return tree


@pytest.fixture(scope="module")
def written() -> Written:
    """Certificates the writer produced, by name: the list, the certificate and its JSON."""
    from cpwords.wordsnake.closure import proof_tree

    cases: dict[str, tuple[tuple[str, ...], Certificate]] = {}
    five = ("alpha", "phase", "sea", "ease", "seal")
    cases["squared"] = (five, solved(five, False, False, "squared"))
    cases["linear cyclic"] = (five, solved(five, True, False, "linear"))
    kept = ("alpha", "phase", "seal")  # "sea" lies in "seal": the superstring drops it
    res = solve_superstring(["alpha", "phase", "sea", "seal"], certificate=True)
    cases["superstring"] = (kept, res.solver_info["certificate"])
    # Version 2: leaves that lower a root cut (naming it by index), a linear snake and a cyclic one.
    repeated = ("a", "aaaa", "aaaa", "a", "aaa")
    cases["tree"] = (repeated, solved(repeated, False, True, "squared"))
    cyclic = ("aaa", "a", "a", "aa", "aaaa", "a")
    cases["cyclic tree"] = (cyclic, solved(cyclic, True, True, "squared"))
    # A tree whose node 0 carries the tree's base, with its core listed.
    four = ("a", "aa", "aabb", "bbaa")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(proof_tree, "BASE_SHARE", 10**9)
        cases["base and core"] = (
            four,
            with_listed_core(four, solved(four, False, True, "squared")),
        )
    # A tree in the tree model "root" (its zero-overlap joints through the root), core listed.
    chains = ("bc", "ddd", "d", "dd", "bc")
    cases["root model"] = (chains, with_listed_core(chains, rooted_tree(chains)))
    return {
        name: (words, cert, json.loads(json.dumps(certificate_to_json(cert))))
        for name, (words, cert) in cases.items()
    }


def nodes(data: dict[str, Any]) -> list[dict[str, Any]]:
    return list(data.get("tree", []))


def test_the_schema_is_a_draft_2020_12_schema_in_the_package() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"]["const"] == FORMAT
    int64 = SCHEMA["$defs"]["int64"]
    assert (int64["minimum"], int64["maximum"]) == (-INT_LIMIT, INT_LIMIT - 1)


def test_every_certificate_the_writer_produces_validates(written: Written, tmp_path: Path) -> None:
    for name, (words, cert, data) in written.items():
        errors = [e.message for e in VALIDATOR.iter_errors(data)]
        assert not errors, (name, errors)
        assert certificate_from_json(data) == cert  # and the reader reads it back
        path = tmp_path / f"{name}.json"
        write_certificate(cert, path)
        VALIDATOR.validate(json.loads(path.read_text("utf-8")))
        assert read_certificate(path) == cert
        assert verify_certificate(words, cert, score=cert.score).status == "VALID", name
    # What the corpus holds, so every part of the schema is met by a written file.
    every = [data for _, _, data in written.values()]
    tree = [n for data in every for n in nodes(data)]
    cuts = [c for n in tree for c in n.get("cuts", [])]
    assert {d["version"] for d in every} == {1, 2}
    assert {d["variant"]["score"] for d in every} == {"squared", "linear"}
    assert {d["depot"] is None for d in every} == {True, False}
    assert {d.get("core") is None for d in every if d["version"] == 2} == {True, False}
    assert any("joint" in n and "u" in n for n in tree)  # a tree's base
    assert any("joint" not in n and n["u"] for n in tree)  # a leaf with values
    assert any("root" in c for c in cuts) and any(c["lambda"] < 0 for c in cuts)
    assert any(d["cuts"] for d in every)
    assert {d.get("tree_model", "joints") for d in every if d["version"] == 2} == {"joints", "root"}


def drop(*path: str | int) -> Callable[[Any], None]:
    def apply(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]

    return apply


def put(value: Any, *path: str | int) -> Callable[[Any], None]:
    def apply(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return apply


def first_leaf(data: dict[str, Any]) -> int:
    return next(k for k, n in enumerate(data["tree"]) if "joint" not in n and n["u"])


def free_leaf_value(data: dict[str, Any]) -> tuple[int, int]:
    """A leaf and the position in its ``v`` of a word a core joint allowed on its path enters
    and no forced one does (another's v is free there: nothing it bounds can happen)."""
    pairs = [tuple(p) for p in data["core"]["pairs"]]
    stack: list[tuple[int, set[int], set[tuple[int, int]]]] = [(0, set(), set())]
    while stack:
        k, entered, forbidden = stack.pop()
        node = data["tree"][k]
        if "joint" in node:
            joint = tuple(node["joint"])
            stack.append((node["used"], entered | {joint[1]}, forbidden))
            stack.append((node["unused"], entered, forbidden | {joint}))
            continue
        for i, (w, _) in enumerate(node.get("v", [])):
            if w not in entered and any(p[1] == w and p not in forbidden for p in pairs):
                return k, i
    raise AssertionError("no leaf lists such a value")


def leaf_cut_naming_the_root(data: dict[str, Any]) -> tuple[int, int]:
    return next(
        (k, i)
        for k, n in enumerate(data["tree"])
        for i, c in enumerate(n.get("cuts", []))
        if "root" in c
    )


def inner(data: dict[str, Any]) -> int:
    return next(k for k, n in enumerate(data["tree"]) if "joint" in n)


# Malformed files: (the certificate, what is wrong, the change); the reader refuses every one.
MALFORMED: list[tuple[str, str, Callable[[dict[str, Any]], None]]] = [
    ("squared", "no format", drop("format")),
    ("squared", "another format", put("cpwords-chain-certificate", "format")),
    ("squared", "version 3", put(3, "version")),
    ("squared", "version as a string", put("1", "version")),
    ("squared", "version true", put(True, "version")),
    ("squared", "no u", drop("u")),
    ("squared", "no variant.cyclic", drop("variant", "cyclic")),
    ("squared", "variant.proper a number", put(0, "variant", "proper")),
    ("squared", "an unknown score", put("cubed", "variant", "score")),
    ("squared", "fingerprint a number", put(123, "fingerprint")),
    ("squared", "items a string", put("5", "items")),
    ("squared", "no items", put(0, "items")),
    ("squared", "scale true", put(True, "scale")),
    ("squared", "scale a fraction", put(1.5, "scale")),
    ("squared", "u beyond 64 bits", put(INT_LIMIT, "u", 0)),
    ("squared", "v below 64 bits", put(-INT_LIMIT - 1, "v", 0)),
    ("squared", "bound beyond 64 bits", put(INT_LIMIT, "bound")),
    ("squared", "objective null", put(None, "objective")),
    ("squared", "a depot of one value", put([0], "depot")),
    ("squared", "a depot of three values", put([0, 0, 0], "depot")),
    ("squared", "order a string", put("0 1 2", "order")),
    ("squared", "core_pairs negative", put(-1, "core_pairs")),
    ("squared", "a root cut below 0", put([{"words": [0], "lambda": -1}], "cuts")),
    ("squared", "a root cut without words", put([{"lambda": 1}], "cuts")),
    ("squared", "a root cut naming the root", put([{"root": 0, "lambda": 1}], "cuts")),
    ("squared", "a cut not an object", put([[0]], "cuts")),
    ("tree", "no tree", drop("tree")),
    ("tree", "an empty tree", put([], "tree")),
    ("tree", "the tree an object", put({}, "tree")),
    ("tree", "no target", drop("target")),
    ("tree", "target a string", put("14", "target")),
    ("tree", "a node not an object", put([0, 1], "tree", 0)),
    ("tree", "a leaf without u", drop("tree", 0, "u")),
    ("tree", "a leaf without depot", drop("tree", 0, "depot")),
    ("tree", "a leaf without bound", drop("tree", 0, "bound")),
    ("tree", "a leaf value of one number", put([[0]], "tree", 0, "v")),
    ("tree", "a leaf copies null", put(None, "tree", 0, "copies")),
    ("tree", "a leaf cut naming root -1", put([{"root": -1, "lambda": 0}], "tree", 0, "cuts")),
    ("tree", "a leaf cut without lambda", put([{"root": 0}], "tree", 0, "cuts")),
    ("tree", "a leaf cut without words", put([{"lambda": 0}], "tree", 0, "cuts")),
    ("base and core", "an inner node without used", lambda d: drop("tree", inner(d), "used")(d)),
    ("base and core", "a joint of one word", lambda d: put([0], "tree", inner(d), "joint")(d)),
    ("base and core", "a joint null", lambda d: put(None, "tree", inner(d), "joint")(d)),
    ("base and core", "a base without joint", drop("tree", 0, "joint")),
    ("base and core", "the base's cuts null", put(None, "tree", 0, "cuts")),
    ("base and core", "a core without ends", drop("core", "ends")),
    ("base and core", "a core a list", put([], "core")),
    ("base and core", "a core pair of three", put([[0, 1, 2]], "core", "pairs")),
    ("root model", "an unknown tree model", put("hub", "tree_model")),
    ("root model", "a tree model null", put(None, "tree_model")),
]


@pytest.mark.parametrize(("name", "what", "change"), MALFORMED, ids=[m[1] for m in MALFORMED])
def test_the_schema_refuses_what_the_reader_refuses(
    name: str, what: str, change: Callable[[dict[str, Any]], None], written: Written
) -> None:
    data = copy.deepcopy(written[name][2])
    change(data)
    assert not VALIDATOR.is_valid(data), what
    with pytest.raises(CertificateError):
        certificate_from_json(data)


def test_a_well_formed_certificate_that_proves_nothing_validates_and_checks_invalid(
    written: Written,
) -> None:
    """The schema is the format, not the proof: a value lowered, a leaf's value lowered or a
    leaf's claim lowered is a well-formed file the checker refuses."""
    words, _, good = written["squared"]
    data = copy.deepcopy(good)
    data["u"][0] -= 10**6  # every joint out of word 0 falls short
    VALIDATOR.validate(data)
    found = verify_certificate(words, certificate_from_json(data))
    assert found.status == "INVALID" and found.bound is None
    words, _, good = written["base and core"]
    for field in ("v", "bound"):
        data = copy.deepcopy(good)
        if field == "v":
            # a word a forced joint enters has a free v at that leaf (the joint's slack, paid
            # once, takes back what v loses), and so has one no allowed joint enters
            k, i = free_leaf_value(data)
            data["tree"][k]["v"][i][1] -= 10**6
        else:
            data["tree"][first_leaf(data)]["bound"] -= 10**6
        VALIDATOR.validate(data)
        found = verify_certificate(words, certificate_from_json(data))
        assert found.status == "INVALID" and "node " in found.message, field


def test_what_the_schema_cannot_say_and_what_the_reader_lets_through(written: Written) -> None:
    """The known differences, kept as they are. The schema accepts and the reader refuses: an
    integer written as 1.0 (a JSON Schema integer), ``v`` of another length than ``u``, and a
    leaf's cut naming a root cut the root does not have (JSON Schema has no constraint across
    keys).
    The reader accepts and the schema refuses: a ``producer`` that is not an object (the
    reader drops it: ``{}``)."""
    good = written["tree"][2]
    k, i = leaf_cut_naming_the_root(good)
    past = len(good["cuts"])
    for change in (
        put(1.0, "version"),
        put(64.0, "scale"),
        put([*good["v"], 0], "v"),
        put(past, "tree", k, "cuts", i, "root"),
    ):
        data = copy.deepcopy(good)
        change(data)
        assert VALIDATOR.is_valid(data)
        with pytest.raises(CertificateError):
            certificate_from_json(data)
    for producer in (None, "cpwords", 3, ["exact"]):
        data = {**good, "producer": producer}
        assert not VALIDATOR.is_valid(data)
        assert certificate_from_json(data).producer == {}


def paths(obj: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every key and list entry of a JSON value, outermost first."""
    items: list[tuple[str | int, Any]] = []
    if isinstance(obj, dict):
        items = list(obj.items())
    elif isinstance(obj, list):
        items = list(enumerate(obj))
    for key, value in items:
        yield (*prefix, key)
        yield from paths(value, (*prefix, key))


DROPPED = object()
REPLACEMENTS: list[Any] = ["x", None, True, 0, -1, 1.5, {}, INT_LIMIT, -INT_LIMIT - 1, 10**30]


def one_field_changed(good: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    """Change ``path`` of a copy of ``good`` to ``value`` (:data:`DROPPED`: delete the key) and
    assert that the schema and the reader agree on the result (see the test below)."""
    changed = copy.deepcopy(good)
    parent: Any = changed
    for key in path[:-1]:
        parent = parent[key]
    if value is DROPPED:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    valid = VALIDATOR.is_valid(changed)
    try:
        certificate_from_json(changed)
        read = True
    except CertificateError as err:
        assert isinstance(err, InputError)
        read = False
    if path == ("producer",) and value is not DROPPED and not isinstance(value, dict):
        assert read and not valid  # the reader drops it
    else:
        assert valid == read, (path, value, valid, read)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_one_field_changed_the_schema_and_the_reader_agree(
    written: Written, data: st.DataObject
) -> None:
    """One key dropped, or one value (an object's or a list entry's) replaced by a string,
    null, true, 0, -1, 1.5, an empty object or an integer beyond 64 bits, anywhere in a
    written certificate: the schema accepts the file exactly when :func:`certificate_from_json`
    does (both directions), but for a ``producer`` that is not an object, which the reader
    drops and the schema refuses. The reader refuses only with :class:`CertificateError` (an
    :class:`InputError`)."""
    name = data.draw(st.sampled_from(sorted(written)), label="certificate")
    good = written[name][2]
    path = data.draw(st.sampled_from(list(paths(good))), label="path")
    parent: Any = good
    for key in path[:-1]:
        parent = parent[key]
    values = [DROPPED, *REPLACEMENTS] if isinstance(parent, dict) else REPLACEMENTS
    one_field_changed(good, path, data.draw(st.sampled_from(values), label="value"))


@pytest.mark.slow
def test_every_field_changed_every_way_the_schema_and_the_reader_agree(written: Written) -> None:
    """The test above on every field of every written certificate and every change (about
    5,800 files, some 10 s)."""
    for good in (data for _, _, data in written.values()):
        for path in paths(good):
            parent: Any = good
            for key in path[:-1]:
                parent = parent[key]
            for value in [DROPPED, *REPLACEMENTS] if isinstance(parent, dict) else REPLACEMENTS:
                one_field_changed(good, path, value)
