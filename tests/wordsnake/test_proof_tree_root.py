"""Proof trees in the tree model ``"root"`` (``tree_model``): the zero-overlap joints of two
different words go through the overlap graph's root, and a leaf's check of them is the rule
``u'(a) + v'(b) - L'(b) >= 0`` for ``a != b`` (``models/wordsnake.md``, version 2, item 6)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.certificate import (
    Certificate,
    CertificateError,
    TreeNode,
    certificate_from_json,
    certificate_to_json,
    root_core,
    verify_certificate,
)
from cpwords.wordsnake.closure.proof_tree import tree_certificate
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.dual_certificate import flow_certificate
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, pair_overlap, snake_score

# Four letters and short words: few overlaps, so the optimum has many chains.
word = st.text(alphabet="abcd", min_size=1, max_size=3)
lists = st.lists(word, min_size=3, max_size=7).filter(lambda ws: len(set(ws)) > 1)


def rooted(
    ws: list[str], cyclic: bool, proper: bool, iterations: int, through_root: bool | None = True
) -> tuple[WordsnakeInstance, int, Certificate, Certificate | None]:
    """The list, its brute-force optimum, the flow's root certificate and the tree certificate
    in the model asked (None when the producer gave up)."""
    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    top = max(itertools.permutations(inst.words), key=lambda p: snake_score(p, cyclic, proper))
    optimum = snake_score(top, cyclic, proper)
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=iterations)
    assert out.dual is not None
    root = flow_certificate(net, out.dual, list(top), optimum, optimum)
    return inst, optimum, root, tree_certificate(inst, root, through_root=through_root)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans(), st.sampled_from([0, 3]))
def test_a_root_model_tree_proves_the_brute_force_optimum_and_reads_back(
    ws: list[str], cyclic: bool, proper: bool, iterations: int
) -> None:
    inst, optimum, _, cert = rooted(ws, cyclic, proper, iterations)
    assume(cert is not None)
    assert cert is not None
    check = verify_certificate(inst.words, cert)
    assert check.status == "VALID", check.message
    assert check.optimal and check.bound == optimum
    if cert.tree:
        assert cert.tree_model == "root"
        data = json.loads(json.dumps(certificate_to_json(cert)))
        assert data["tree_model"] == "root"
        again = certificate_from_json(data)
        assert again == cert
        assert verify_certificate(inst.words, again).bound == optimum


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans(), st.data())
def test_the_root_core_is_the_joints_core_less_its_zero_overlap_joints(
    ws: list[str], cyclic: bool, proper: bool, data: st.DataObject
) -> None:
    inst, optimum, root, _ = rooted(ws, cyclic, proper, 0, through_root=False)
    counts = Counter(inst.words)
    words = sorted(counts)
    mult = [counts[w] for w in words]
    target = optimum + data.draw(st.integers(0, 3))
    full = root_core(words, mult, root, target)
    mine = root_core(words, mult, root, target, through_root=True)
    kept = {
        (a, b): s
        for (a, b), s in full.pairs.items()
        if a == b or pair_overlap(words[a], words[b], proper) > 0
    }
    assert mine.pairs == kept
    assert (mine.budget, mine.starts, mine.ends) == (full.budget, full.starts, full.ends)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(lists, st.booleans(), st.booleans(), st.data())
def test_tampered_leaf_values_never_prove_less_than_the_optimum(
    ws: list[str], cyclic: bool, proper: bool, data: st.DataObject
) -> None:
    """Any change to a leaf's values (the root's joints through the root among what it may
    break): the check refuses the tree or still proves at least the brute-force optimum."""
    inst, optimum, root, cert = rooted(ws, cyclic, proper, 0)
    assume(cert is not None)
    assert cert is not None
    if not cert.tree:  # the root values prove it: a tree of one leaf, the root's values
        leaf = TreeNode(u=(), v=(), depot=None, bound=optimum)
        cert = replace(root, target=optimum + 1, tree=(leaf,), tree_model="root")
        # (the root rule may fail on the root's values: two words in one cut)
        assume(verify_certificate(inst.words, cert).optimal)
    k = data.draw(st.sampled_from([i for i, n in enumerate(cert.tree) if n.joint is None]))
    node = cert.tree[k]
    W = len(root.u)
    word_id = data.draw(st.integers(0, W - 1))
    delta = data.draw(st.integers(-3 * root.scale, 3 * root.scale))
    side = data.draw(st.sampled_from(["u", "v"]))
    values = dict(getattr(node, side))
    values[word_id] = values.get(word_id, getattr(root, side)[word_id]) + delta
    claim = data.draw(st.integers(0, optimum))
    listed = tuple(sorted(values.items()))
    if side == "u":
        changed = replace(node, u=listed, bound=claim)
    else:
        changed = replace(node, v=listed, bound=claim)
    bad = replace(cert, tree=(*cert.tree[:k], changed, *cert.tree[k + 1 :]))
    check = verify_certificate(inst.words, bad)
    if check.status == "VALID":
        assert check.bound is not None and check.bound >= optimum


def no_overlap_tree(u0: int) -> tuple[tuple[str, ...], Certificate]:
    """Three words no two of which overlap (every joint goes through the root), their flow
    certificate, and a one-leaf root-model tree whose leaf sets ``u`` of the first to ``u0``."""
    inst, optimum, root, _ = rooted(["ab", "cd", "ef"], True, False, 0, through_root=False)
    assert optimum == 0
    leaf = TreeNode(u=((0, u0),), v=(), depot=None, bound=0)
    return inst.words, replace(root, target=1, tree=(leaf,), tree_model="root", bound=0)


def test_the_root_rule_names_the_pair_whose_sum_through_the_root_is_negative() -> None:
    words, cert = no_overlap_tree(0)
    assert verify_certificate(words, replace(cert, tree=(replace(cert.tree[0], u=()),))).optimal
    low = min(cert.v[1], cert.v[2])  # no cuts: L = 0
    words, good = no_overlap_tree(-low)
    assert verify_certificate(words, good).status == "VALID"
    words, bad = no_overlap_tree(-low - 1)
    check = verify_certificate(words, bad)
    assert check.status == "INVALID" and "through the root" in check.message, check.message


def test_the_tree_model_is_read_written_and_refused_when_unknown() -> None:
    _, cert = no_overlap_tree(0)
    data = json.loads(json.dumps(certificate_to_json(cert)))
    assert data["tree_model"] == "root"
    joints = certificate_to_json(replace(cert, tree_model="joints"))
    assert "tree_model" not in joints  # older files have none: the joints model
    assert certificate_from_json(joints).tree_model == "joints"
    data["tree_model"] = "hub"
    with pytest.raises(CertificateError, match="tree_model"):
        certificate_from_json(data)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lists, st.booleans(), st.booleans())
def test_both_tree_models_prove_the_same_optimum(ws: list[str], cyclic: bool, proper: bool) -> None:
    inst, optimum, root, joints = rooted(ws, cyclic, proper, 0, through_root=False)
    rooted_cert = tree_certificate(inst, root, through_root=True)
    for cert in (joints, rooted_cert):
        if cert is not None:
            check = verify_certificate(inst.words, cert)
            assert check.status == "VALID" and check.bound == optimum, check.message


def test_a_root_model_tree_may_not_branch_on_a_zero_overlap_joint() -> None:
    """Such a joint is not in the root model's core: the leaf forcing it is refused."""
    words, cert = no_overlap_tree(0)
    leaf = replace(cert.tree[0], u=())
    branched = replace(cert, tree=(TreeNode(joint=(0, 1), used=1, unused=2), leaf, leaf))
    check = verify_certificate(words, branched)
    assert check.status == "INVALID" and "not in the core" in check.message, check.message
