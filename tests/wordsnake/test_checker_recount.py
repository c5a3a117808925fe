"""The certificate checker's recount of the ordering from its checked values
(:mod:`cpwords.wordsnake.certificate.recount`) against the letter-by-letter overlaps."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.core import codepoints
from cpwords.core.codepoints import Letters
from cpwords.wordsnake.certificate import Certificate, IntColumn, duals, recount

#: Letters of several scripts, a combining acute accent and a letter outside the BMP.
LETTERS = ["a", "b", "é", "\u0301", "字", "\U00010400"]

words_st = st.lists(
    st.sampled_from([["a", "b"], LETTERS]).flatmap(
        lambda alphabet: st.text(alphabet=alphabet, min_size=0, max_size=12)
    ),
    min_size=1,
    max_size=9,
    unique=True,
)


def _certificate(W: int, cyclic: bool, proper: bool, scale: int, score: str) -> Certificate:
    """A certificate of the variant (its values are the test's own arrays)."""
    return Certificate(
        "",
        W,
        cyclic,
        proper,
        scale,
        u=(0,) * W,
        v=(0,) * W,
        depot=None if cyclic else (0, 0),
        cuts=(),
        order=tuple(range(W)),
        bound=0,
        objective=0,
        score=score,
    )


@settings(max_examples=300, deadline=None)
@given(
    words=words_st,
    data=st.data(),
    cyclic=st.booleans(),
    proper=st.booleans(),
    scale=st.sampled_from([1, 3, 1 << 20]),
    score=st.sampled_from(["squared", "linear"]),
)
def test_the_overlaps_from_values_that_hold_are_the_letters_overlaps(
    words: list[str], data: st.DataObject, cyclic: bool, proper: bool, scale: int, score: str
) -> None:
    """Whatever values satisfy the joints' inequalities (tight or not, each word in several
    joints when the ordering repeats it), the recount is the letter-by-letter overlap of every
    joint of the ordering."""
    distinct = sorted(words)
    W = len(distinct)
    if data.draw(st.booleans()):  # each word once (read by first word), or any ordering
        order = data.draw(st.permutations(range(W)))
    else:
        n = data.draw(st.integers(1, 2 * W))
        order = data.draw(st.lists(st.integers(0, W - 1), min_size=n, max_size=n))
    n = len(order)
    pairs = list(zip(order, order[1:] + order[:1], strict=True))
    if not cyclic:
        pairs = pairs[:-1]
    elif n == 1:
        pairs = []
    ov = [codepoints.overlap_of(distinct[a], distinct[b], proper) for a, b in pairs]
    v = data.draw(st.lists(st.integers(-50, 50), min_size=W, max_size=W))
    slack = data.draw(st.lists(st.sampled_from([0, 0, 1, 5, scale, 40 * scale]), min_size=W))
    u = [0] * W
    for a in range(W):  # the least u(a) its joints allow, plus some slack
        needs = [
            scale * duals.joint_gain(k, score) - v[b]
            for (x, b), k in zip(pairs, ov, strict=True)
            if x == a
        ]
        u[a] = max(needs, default=-50) + (slack[a] if a < len(slack) else 0)
    cert = _certificate(W, cyclic, proper, scale, score)
    letters = Letters(distinct)
    got = recount.tight_overlaps(
        letters, np.array(order, dtype=np.int64), np.array(u), np.array(v), cert
    )
    assert got.tolist() == ov


def test_the_recount_is_remembered_for_the_rules_scorer() -> None:
    """The recount answers the next ordering_overlaps about the same words in order."""
    letters = Letters(["nausea", "run", "seasick"])
    cert = _certificate(3, False, False, 1, "squared")
    cert = replace(cert, u=(9, 1, 0), v=(0, 0, 0))
    kept = recount.recount(letters, np.array([1, 0, 2]), cert)
    assert kept is not None and kept.tolist() == [1, 3]
    assert codepoints.ordering_overlaps(("run", "nausea", "seasick"), False, False) is kept


def test_values_past_int64_or_a_negative_multiplier_leave_the_count_to_the_letters() -> None:
    letters = Letters(["ab", "bc"])
    cert = _certificate(2, False, False, 1, "squared")
    big = replace(cert, u=(1 << 62, 0))
    assert recount.recount(letters, np.array([0, 1]), big) is None
    cut = replace(cert, cuts=(((0,), -1),))
    assert recount.recount(letters, np.array([0, 1]), cut) is None


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-1000, 1000)), max_size=40
    )
)
def test_a_columns_exact_sum_is_the_sum_of_its_integers(values: list[int]) -> None:
    """In int64 when it cannot overflow, over Python's integers otherwise: always the sum."""
    assert IntColumn(np.array(values, dtype=np.int64)).exact_sum() == sum(values)


@settings(max_examples=100, deadline=None)
@given(
    u=st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=20),
    data=st.data(),
)
def test_the_dual_value_of_the_solvers_columns_is_that_of_the_tuples(
    u: list[int], data: st.DataObject
) -> None:
    W = len(u)
    v = data.draw(st.lists(st.integers(-(2**62), 2**62), min_size=W, max_size=W))
    mult = data.draw(st.lists(st.integers(1, 3), min_size=W, max_size=W))
    cert = replace(_certificate(W, False, False, 1, "squared"), u=tuple(u), v=tuple(v))
    columns = replace(cert, u=IntColumn(np.array(u)), v=IntColumn(np.array(v)))
    assert columns.dual_value(mult) == cert.dual_value(mult)
