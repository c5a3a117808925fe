"""Proof trees on the path cover (issue 31), and the checker's leaf check that finds a leaf's
core joints from its changed words instead of listing the core: both against brute force."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import partial

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from cpwords.wordsnake.bounds.path_cover import PathCoverBound, path_cover_bound
from cpwords.wordsnake.certificate import (
    Certificate,
    CertificateError,
    TreeNode,
    certificate_from_json,
    certificate_to_json,
    no_snake,
    verify_certificate,
)
from cpwords.wordsnake.closure.cover_tree import cover_tree_certificate
from cpwords.wordsnake.closure.proof_tree import tree_certificate
from cpwords.wordsnake.exact.policy import solve_string_flow
from cpwords.wordsnake.relaxation.dual_certificate import flow_certificate
from cpwords.wordsnake.relaxation.string_hub import build_string_network
from cpwords.wordsnake.rules import WordsnakeInstance, pair_overlap

from .test_proof_tree import best, leaf_paths

# ---------------------------------------------------------------------------------------------
# A reference leaf check: every ordered pair of items, from the card's definitions alone.


def reference(words: tuple[str, ...], cert: Certificate) -> tuple[bool, int | None]:
    """Whether every leaf of ``cert``'s tree is valid (card, version 2) and below its target, by
    listing every joint, and the largest leaf bound."""
    counts = Counter(words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    W, D = len(distinct), cert.scale
    assert cert.target is not None
    budget = cert.dual_value(mult) - D * cert.target
    root_slack = partial(_root_slack, distinct, cert)
    pairs = [(a, b) for a in range(W) for b in range(W) if a != b or mult[a] > 1]
    top = None
    arcs = cert.items if cert.cyclic else cert.items - 1
    for k, (used_l, unused_l) in leaf_paths(cert).items():
        node = cert.tree[k]
        used, unused = frozenset(used_l), frozenset(unused_l)
        if used & unused:
            return False, None
        if no_snake(used, mult, cert.items, cert.cyclic) or len(used) > arcs:
            found = node.bound
        elif len(used) == arcs:
            found = sum(pair_overlap(distinct[a], distinct[b], cert.proper) ** 2 for a, b in used)
        else:
            ok, found = _leaf(node, used, unused, pairs, root_slack, mult, cert, budget)
            if not ok:
                return False, None
        if found > node.bound or node.bound >= cert.target:
            return False, None
        top = node.bound if top is None else max(top, node.bound)
    return True, top


def _root_slack(distinct: list[str], cert: Certificate, a: int | None, b: int | None) -> int:
    """The root slack of ``a -> b`` (None: the depot)."""
    sets = [(set(ids), lam) for ids, lam in cert.cuts]
    if a is None:
        assert cert.depot is not None and b is not None
        return cert.depot[0] + cert.v[b] - sum(lam for s, lam in sets if b in s)
    if b is None:
        assert cert.depot is not None
        return cert.u[a] + cert.depot[1]
    ov = pair_overlap(distinct[a], distinct[b], cert.proper)
    entered = sum(lam for s, lam in sets if b in s and a not in s)
    return cert.u[a] + cert.v[b] - cert.scale * ov * ov - entered


def _leaf(node, used, unused, pairs, root_slack, mult, cert, budget):  # type: ignore[no-untyped-def]
    """A leaf's validity and bound, joint by joint."""
    du = {i: x - cert.u[i] for i, x in node.u}
    dv = {i: x - cert.v[i] for i, x in node.v}
    root_depot = cert.depot or (0, 0)
    dd = (
        (0, 0)
        if node.depot is None
        else (node.depot[0] - root_depot[0], node.depot[1] - root_depot[1])
    )
    gamma = dict(node.copies)
    if any(g < 0 or mult[a] < 2 for a, g in gamma.items()) or len(gamma) != len(node.copies):
        return False, 0
    leaf_sets = [(set(ids), lam) for ids, lam in node.cuts]
    # A multiplier may fall only on a set the root cuts, its total staying at 0 or above.
    total: dict[frozenset[int], int] = {}
    for ids, lam in cert.cuts:
        total[frozenset(ids)] = total.get(frozenset(ids), 0) + lam
    lowered = {frozenset(ids) for ids, lam in node.cuts if lam < 0}
    for ids, lam in node.cuts:
        total[frozenset(ids)] = total.get(frozenset(ids), 0) + lam
    if any(total[c] < 0 for c in lowered):
        return False, 0

    def slack(a: int, b: int) -> int:
        s = root_slack(a, b) + du.get(a, 0) + dv.get(b, 0)
        if a == b:
            return s + gamma.get(a, 0)
        return s - sum(lam for c, lam in leaf_sets if b in c and a not in c)

    for a, b in pairs:
        outside = (a, b) in used or (a, b) in unused or root_slack(a, b) > budget
        if not outside and slack(a, b) < 0:
            return False, 0
    if cert.depot is not None:
        for b in range(len(mult)):
            s = root_slack(None, b) + dd[0] + dv.get(b, 0)
            s -= sum(lam for c, lam in leaf_sets if b in c)
            if s < 0 and root_slack(None, b) <= budget:
                return False, 0
            if root_slack(b, None) + du.get(b, 0) + dd[1] < 0 and root_slack(b, None) <= budget:
                return False, 0
    value = cert.dual_value(mult) + dd[0] + dd[1] - sum(lam for _, lam in node.cuts)
    value += sum(mult[i] * d for i, d in (*du.items(), *dv.items()))
    value += sum((mult[a] - 1) * g for a, g in gamma.items())
    for a, b in used:
        if root_slack(a, b) > budget:
            return False, 0
        s = slack(a, b)
        cap = mult[a] - 1 if a == b else min(mult[a], mult[b])
        value += -s if s >= 0 else -s * cap
    return True, value // cert.scale


# ---------------------------------------------------------------------------------------------
# The checker's leaf check against the reference, on trees made wrong in every way it looks.

word = st.text(alphabet="ab", min_size=1, max_size=5)
lists = st.lists(word, min_size=3, max_size=7).filter(lambda ws: len(set(ws)) > 1)


def perturbed(words: tuple[str, ...], cert: Certificate, data: st.DataObject) -> Certificate:
    """``cert`` with one leaf's values, cuts or depot changed, and its claim set to what its
    values prove when they are valid (so that only the inequalities decide)."""
    leaves = [k for k, n in enumerate(cert.tree) if n.joint is None]
    k = data.draw(st.sampled_from(leaves))
    node = cert.tree[k]
    W = len(cert.u)
    step = data.draw(st.integers(1, 3 * cert.scale))
    w = data.draw(st.integers(0, W - 1))
    u, v = dict(node.u), dict(node.v)
    how = data.draw(st.sampled_from(["u", "v", "up", "cut", "depot", "root cut"]))
    cuts = list(node.cuts)
    depot = node.depot
    if how == "u":
        u[w] = u.get(w, cert.u[w]) - step
    elif how == "v":
        v[w] = v.get(w, cert.v[w]) - step
    elif how == "up":  # a raise lowers the bound and breaks nothing
        u[w] = u.get(w, cert.u[w]) + step
    elif how == "cut":
        drawn = data.draw(st.sets(st.integers(0, W - 1), min_size=1, max_size=max(1, W - 1)))
        cuts.append((tuple(sorted(drawn)), step))
    elif how == "depot" and cert.depot is not None:
        base = depot or cert.depot
        depot = (base[0] - step, base[1]) if data.draw(st.booleans()) else (base[0], base[1] - step)
    elif how == "root cut" and cert.cuts:
        ids, lam = data.draw(st.sampled_from(list(cert.cuts)))
        cuts.append((ids, -min(lam, step)))
    tree = [*cert.tree]
    tree[k] = replace(
        node, u=tuple(sorted(u.items())), v=tuple(sorted(v.items())), cuts=tuple(cuts), depot=depot
    )
    out = replace(cert, tree=tuple(tree))
    value = leaf_value(words, out, k)
    if value is not None and cert.target is not None:
        tree[k] = replace(tree[k], bound=min(value, cert.target - 1))
        out = replace(cert, tree=tuple(tree))
    return out


def leaf_value(words: tuple[str, ...], cert: Certificate, k: int) -> int | None:
    """Leaf ``k``'s proven bound by the reference (None when its values are not valid or it
    needs none)."""
    counts = Counter(words)
    distinct = sorted(counts)
    mult = [counts[w] for w in distinct]
    assert cert.target is not None
    budget = cert.dual_value(mult) - cert.scale * cert.target
    used, unused = (frozenset(p) for p in leaf_paths(cert)[k])
    pairs = [
        (a, b) for a in range(len(distinct)) for b in range(len(distinct)) if a != b or mult[a] > 1
    ]
    arcs = cert.items if cert.cyclic else cert.items - 1
    if used & unused or no_snake(used, mult, cert.items, cert.cyclic) or len(used) >= arcs:
        return None
    slack = partial(_root_slack, distinct, cert)
    ok, value = _leaf(cert.tree[k], used, unused, pairs, slack, mult, cert, budget)
    return value if ok else None


def tree_of(ws: list[str], cyclic: bool, proper: bool) -> tuple[WordsnakeInstance, Certificate]:
    """A version 2 certificate of the flow's values on a small list (the core's tree)."""
    inst = WordsnakeInstance(tuple(ws), cyclic, proper)
    optimum, order = best(inst.words, cyclic, proper)
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=3)
    assert out.dual is not None
    root = flow_certificate(net, out.dual, order, optimum, optimum)
    cert = tree_certificate(inst, root)
    assume(cert is not None and len(cert.tree) > 1)
    assert cert is not None
    return inst, cert


@pytest.mark.slow
# 25 examples: most draws are thrown away (a tree of more than one node is rare), and 60 took
# 190 s of the slow suite's ten minutes.
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(lists, st.booleans(), st.booleans(), st.data())
def test_the_leaf_check_agrees_with_checking_every_joint(
    ws: list[str], cyclic: bool, proper: bool, data: st.DataObject
) -> None:
    inst, cert = tree_of(ws, cyclic, proper)
    for candidate in (cert, perturbed(inst.words, cert, data), perturbed(inst.words, cert, data)):
        found = verify_certificate(inst.words, candidate)
        ok, top = reference(inst.words, candidate)
        event("VALID" if ok else "refused")
        assert (found.status == "VALID") == ok, found.message
        if ok:
            assert candidate.target is not None and top is not None
            assert found.bound == min(
                candidate.dual_value([Counter(inst.words)[w] for w in sorted(set(inst.words))])
                // candidate.scale,
                max(candidate.target - 1, top),
            )
            optimum, _ = best(inst.words, cyclic, proper)
            assert found.bound >= optimum
        else:
            assert "node " in found.message


# ---------------------------------------------------------------------------------------------
# The producer: lists of periodic words, whose path covers are fractional (about 1 random tiny
# list in 70 is, so they were found once by a seeded search, random.Random(31), rather than
# drawn: Hypothesis gave up on less than 1% of its draws satisfying the assumption). Their covers
# cost 1 to 5 points more than their relaxations and meet the optimum but for one (the fourth).

CORPUS: list[tuple[tuple[str, ...], bool, bool]] = [
    (("aaba", "aabaaba", "aba", "abaaba", "abaabaa", "acbb", "baabaa"), False, False),
    (("aab", "aabaaba", "abaa", "abaab", "abaabaa", "cab"), False, False),
    (("aa", "aabaab", "aabaaba", "baaba", "baabaa", "bac", "cca"), False, False),
    (("aabaaba", "baaba", "baabaab", "cc"), False, True),
    (("aabaaba", "abaa", "acaa", "ba", "baabaa", "c"), True, True),
    (("aba", "ababa", "ba", "bababab", "bc", "bca", "cccc"), False, False),
    (("aabaa", "abaabaa", "baa", "baabaa", "baabaab", "bc", "bcc"), False, False),
    (("ab", "abab", "ababa", "abababa", "acb", "babab", "c"), True, False),
    (("ab", "ababa", "abababa", "ba", "bab", "babab", "c"), True, False),
    (("ab", "abbab", "bab", "babbabb", "bb", "bbabb", "bbabbab"), False, False),
    (("abb", "abbabba", "bab", "babb", "babbab", "bba", "bbabb"), False, False),
    (("abc", "abcab", "cab", "cabcabc", "cb"), False, True),
    (("abab", "abababa", "bab", "bababab", "cbab"), False, False),
    (("ab", "abab", "abababa", "ba", "bab", "babab", "bcbb"), True, False),
    (("aa", "abab", "ababa", "ababab", "b", "ba", "baba"), False, False),
    (("ababa", "aca", "baba", "babab", "bb", "c", "cb"), False, True),
    (("aba", "abab", "ababab", "abb", "abba", "bab", "bababa"), False, False),
    (("aac", "acaac", "acaacaa", "caaca", "caacaac"), False, True),
    (("abb", "abbabba", "babbabb", "ccca"), True, False),
    (("bc", "bcbcb", "cb", "cbcbc", "cc"), True, False),
    (("abbabba", "babba", "babbabb", "bbab", "cb"), False, True),
    (("ab", "abbab", "abbabba", "bba", "bbabbab"), False, True),
    (("ab", "abb", "abbab", "bab", "babbabb", "bbabbab", "bcaa"), True, False),
    (("abba", "abbabb", "abbabba", "babb", "babbabb", "c"), False, True),
    (("ca", "caccacc", "cca", "ccacc", "ccaccac"), False, True),
    (("aba", "ababa", "baba", "bababab", "baca", "bbca", "cbcb"), False, True),
    (("ab", "abab", "ababa", "ba", "babab", "bababab", "cbc"), True, False),
    (("aacc", "abbabb", "babb", "babbab"), False, True),
    (("aabaa", "aba", "abaab", "abaabaa", "baabaab", "c"), True, True),
    (("ab", "abbabba", "b", "bba", "bbabb", "bcbb", "bcc"), True, True),
    (("aa", "ac", "acacac", "cac", "cacac", "cacaca", "cc"), True, False),
    (("aa", "aabaa", "aabaaba", "abaabaa", "baaba", "bb"), True, True),
    (("aaa", "aabaab", "abaabaa", "abb", "b"), True, False),
    (("ac", "aca", "acacaca", "caca", "cacac", "cacacac", "cb"), True, False),
]


def cover_of(
    words: list[str], cyclic: bool, proper: bool
) -> tuple[WordsnakeInstance, int, Certificate, PathCoverBound]:
    """The list, its optimum, the flow's certificate and the path cover of every word (one
    left out of a cyclic snake's: a path needs a start outside)."""
    inst = WordsnakeInstance(tuple(words), cyclic, proper)
    optimum, order = best(inst.words, cyclic, proper)
    net = build_string_network(inst)
    out = solve_string_flow(net, lagrangian_iterations=0)
    assert out.dual is not None
    root = flow_certificate(net, out.dual, order, optimum, optimum)
    distinct = sorted(set(inst.words))
    seeds = list(range(len(distinct) - (1 if cyclic else 0)))
    pc = path_cover_bound(root, distinct, [1] * len(distinct), seeds, grow=0)
    return inst, optimum, root, pc


def cover_tree_of(
    inst: WordsnakeInstance, root: Certificate, pc: PathCoverBound, claim: int
) -> Certificate | None:
    """The cover's tree for the claim ``claim`` (the certificate's objective)."""
    assert pc.data is not None
    distinct = sorted(set(inst.words))
    cert = replace(pc.certificate, order=root.order, objective=claim, bound=claim, core_pairs=None)
    return cover_tree_certificate(cert, pc.data, distinct, [1] * len(distinct))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORPUS), st.integers(-2, 1))
def test_every_valid_cover_tree_bounds_the_brute_force_optimum(
    case: tuple[tuple[str, ...], bool, bool], shift: int
) -> None:
    words, cyclic, proper = case
    inst, optimum, root, pc = cover_of(list(words), cyclic, proper)
    assert pc.data is not None and pc.bound < pc.lp_bound
    # The cover's integer bound is a true bound, and the tree proves it; any claim below the
    # optimum (a lie) gets no tree, or one the checker refuses.
    cert = cover_tree_of(inst, root, pc, pc.bound)
    assert cert is not None
    claim = optimum + shift
    lie = cover_tree_of(inst, root, pc, claim) if claim < pc.lp_bound else None
    for tree in (cert, lie):
        if tree is None:
            continue
        found = verify_certificate(inst.words, tree)
        event(f"claim {tree.objective - optimum:+d} against the optimum: {found.status}")
        if found.status == "VALID":
            assert found.bound is not None and found.bound >= optimum
            assert found.bound == tree.objective
        top = max(n.bound for n in tree.tree if n.joint is None)
        assert reference(inst.words, tree) == (
            (True, top) if found.status == "VALID" else (False, None)
        )
    assert verify_certificate(inst.words, cert).status == "VALID"
    assert lie is None or claim >= optimum


# Lists found by the search above (periodic words): a cover whose relaxation is 3 points short of
# its integer cover, which meets the optimum.
FRACTIONAL = ["abababa", "bababab", "ab", "ababa", "ba"]


def test_a_cover_tree_proves_the_optimum_the_values_leave_open() -> None:
    inst, optimum, root, pc = cover_of(FRACTIONAL, False, False)
    assert pc.data is not None and pc.lp_bound > pc.bound == optimum
    cert = cover_tree_of(inst, root, pc, optimum)
    assert cert is not None and cert.tree
    assert verify_certificate(inst.words, pc.certificate).bound == pc.lp_bound > optimum
    found = verify_certificate(inst.words, cert)
    assert found.status == "VALID" and found.optimal and found.bound == optimum
    again = certificate_from_json(json.loads(json.dumps(certificate_to_json(cert))))
    assert certificate_to_json(cert)["version"] == 2
    assert verify_certificate(inst.words, again).optimal
    with pytest.raises(CertificateError, match="another word list"):
        verify_certificate(inst.words[1:], cert)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORPUS), st.data())
def test_a_tampered_cover_tree_is_refused_naming_the_node(
    case: tuple[tuple[str, ...], bool, bool], data: st.DataObject
) -> None:
    words, cyclic, proper = case
    inst, optimum, root, pc = cover_of(list(words), cyclic, proper)
    cert = cover_tree_of(inst, root, pc, pc.bound)
    assert cert is not None
    nodes = list(cert.tree)
    leaves = leaf_paths(cert)

    def refused(tree: list[TreeNode]) -> str:
        found = verify_certificate(inst.words, replace(cert, tree=tuple(tree)))
        return found.message if found.status == "INVALID" else ""

    # A leaf removed: the tree no longer covers every snake.
    k = data.draw(st.sampled_from(sorted(leaves)))
    gone = [
        replace(n, used=n.used - (n.used > k), unused=n.unused - (n.unused > k))
        if n.joint is not None
        else n
        for i, n in enumerate(nodes)
        if i != k
    ]
    assert "node " in refused(gone)
    # A leaf's claim lowered below what its values prove.
    with_values = [k for k in leaves if nodes[k].u or nodes[k].v]
    k = data.draw(st.sampled_from(with_values))
    low = [*nodes]
    low[k] = replace(nodes[k], bound=nodes[k].bound - 1)
    assert f"node {k} (leaf) claims" in refused(low)
    # A value of a leaf lowered: refused, naming the leaf, exactly when a joint of the core
    # falls short (the reference, every joint listed, decides).
    node = nodes[k]
    word = data.draw(st.sampled_from([w for w, _ in (*node.u, *node.v)]))
    step = data.draw(st.integers(1, 4 * cert.scale))
    u = tuple((w, x - step if w == word else x) for w, x in node.u)
    low[k] = replace(
        node,
        u=u if any(w == word for w, _ in node.u) else node.u,
        v=tuple((w, x - step if w == word else x) for w, x in node.v) if u == node.u else node.v,
    )
    low_cert = replace(cert, tree=tuple(low))
    ok, _ = reference(inst.words, low_cert)
    assert (refused(low) == "") == ok
    if not ok:
        assert f"node {k} (leaf)" in refused(low)
    # Forcing a joint a leaf forbids: its path then uses and excludes it.
    forbidding = [k for k, (_, unused) in leaves.items() if unused]
    k = data.draw(st.sampled_from(forbidding))
    joint = leaves[k][1][0]
    forced = [*nodes, nodes[k], nodes[k]]
    forced[k] = TreeNode(joint, len(nodes), len(nodes) + 1)
    assert f"node {len(nodes)}" in refused(forced)
    # Swapping a branch's sides: refused naming a node, or still a sound bound.
    inner = [k for k, n in enumerate(nodes) if n.joint is not None]
    k = data.draw(st.sampled_from(inner))
    swapped = [*nodes]
    swapped[k] = replace(nodes[k], used=nodes[k].unused, unused=nodes[k].used)
    found = verify_certificate(inst.words, replace(cert, tree=tuple(swapped)))
    if found.status == "INVALID":
        assert "node " in found.message
    else:
        assert found.bound is not None and found.bound >= optimum


def test_a_lie_in_the_claim_makes_no_tree() -> None:
    inst, optimum, root, pc = cover_of(FRACTIONAL, False, False)
    assert cover_tree_of(inst, root, pc, optimum - 1) is None


def test_a_cover_tree_proves_the_covers_bound_for_an_ordering_short_of_it() -> None:
    """A FEASIBLE answer's tree: target above the ordering's score + 1 (the cover's integer
    bound + 1) proves that bound, VALID with the gap open; a target at the optimum (a lie)
    gets no tree."""
    inst, optimum, root, pc = cover_of(FRACTIONAL, False, False)
    assert pc.data is not None and pc.lp_bound > pc.bound == optimum
    distinct = sorted(set(inst.words))
    order = tuple(range(len(distinct)))  # code-point order: not the best snake
    weak = verify_certificate(inst.words, replace(root, order=order)).objective
    assert weak is not None and weak < optimum
    cert = replace(pc.certificate, order=order, objective=weak, bound=weak, core_pairs=None)
    ones = [1] * len(distinct)
    tree = cover_tree_certificate(cert, pc.data, distinct, ones, target=pc.bound + 1)
    assert tree is not None and tree.tree and tree.bound == optimum
    found = verify_certificate(inst.words, tree)
    assert found.status == "VALID" and not found.optimal
    assert (found.bound, found.objective) == (optimum, weak)
    assert cover_tree_certificate(cert, pc.data, distinct, ones, target=optimum) is None


def test_the_certificate_stage_certifies_the_covers_bound_of_an_open_answer() -> None:
    """Stage "certificate" on an answer left open (FEASIBLE) whose bound is the cover's integer
    bound: the cover's tree at that bound; not without the time for it and its check."""
    import time
    from types import SimpleNamespace

    from cpwords.wordsnake.exact.stages.certificate import _with_cover_bound_tree

    inst, optimum, root, pc = cover_of(FRACTIONAL, False, False)
    assert pc.data is not None
    order = tuple(range(len(set(inst.words))))
    weak = verify_certificate(inst.words, replace(root, order=order)).objective
    assert weak is not None and weak < optimum
    cert = replace(
        pc.certificate,
        order=order,
        objective=weak,
        bound=pc.bound,
        core_pairs=3,
        producer={"additive_bound": pc.lp_bound},
    )
    now = time.perf_counter()

    def state(end: float | None) -> SimpleNamespace:
        add = SimpleNamespace(cover=pc)
        return SimpleNamespace(
            options={},
            interrupted=False,
            additive=add,
            instance=inst,
            net=None,  # no network: the distinct words are counted from the instance
            start=now,
            end=end,
            info={},
            proven=False,
        )

    open_answer = state(None)
    tree = _with_cover_bound_tree(open_answer, cert)  # type: ignore[arg-type]
    assert tree.tree and open_answer.info["proof_tree_nodes"] == len(tree.tree)
    found = verify_certificate(inst.words, tree)
    assert (found.status, found.bound, found.objective) == ("VALID", pc.bound, weak)
    assert pc.bound == optimum < pc.lp_bound
    # No time for the tree and twice the check's reserve: the certificate as it was.
    late = state(time.perf_counter() + 1e-3)
    assert _with_cover_bound_tree(late, cert) is cert  # type: ignore[arg-type]
    # Another certificate than the cover's (a flow iterate's): untouched.
    other = replace(cert, producer={})
    assert _with_cover_bound_tree(state(None), other) is other  # type: ignore[arg-type]
