"""The score of an ordering, for the certificate checker: as whole arrays from the words'
letters (:func:`order_score`), from its joints' overlaps (:func:`overlaps_score`), or pair by
pair from the strings (:func:`ordering_score`, the reference).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from cpwords.core.codepoints import Letters, ordering_overlaps
from cpwords.wordsnake.certificate.duals import joint_gain, suffix_prefix_overlap


def order_score(
    letters: Letters,
    order: Sequence[int] | np.ndarray,
    cyclic: bool,
    proper: bool,
    score: str = "squared",
) -> int:
    """The score of an ordering of word ids (of ``letters.words``), its joints' overlaps
    counted as whole arrays by :func:`~cpwords.core.codepoints.ordering_overlaps` (in core:
    the rules' scorer asks it for the same ordering when it checks the solved snake, and is
    answered from memory)."""
    ids = np.asarray(order, dtype=np.int64)
    # By ids: the words in order are not built here (a tuple of them reads every word's string,
    # scattered in memory after a solve: ENABLE 0.025 s); the rules' scorer, asking about the
    # same words in order, compares its tuple with them.
    return overlaps_score(ordering_overlaps(None, cyclic, proper, letters, ids), score)


def overlaps_score(k: np.ndarray, score: str = "squared") -> int:
    """The score of joints of overlaps ``k`` (int64): their sum, or their squares' sum."""
    if k.size and int(k.max()) >= 1 << 20:  # past what int64 sums safely: Python's integers
        return sum(joint_gain(x, score) for x in k.tolist())
    return int(k.sum() if score == "linear" else np.dot(k, k))


def ordering_score(seq: Sequence[str], cyclic: bool, proper: bool, score: str = "squared") -> int:
    """The score of an ordering given as its words, one joint at a time from the strings (the
    reference :func:`order_score` is tested against).

    Parameters
    ----------
    seq : sequence of str
        The words in order.
    cyclic, proper : bool
        Whether the last word joins the first; whether an overlap must be shorter than both
        words.
    score : {"squared", "linear"}
        What a joint of overlap ``k`` scores: ``k ** 2`` or ``k``.

    Returns
    -------
    int

    Examples
    --------
    >>> ordering_score(["tomato", "atom", "tomb"], cyclic=False, proper=True)
    18
    """
    total = sum(
        joint_gain(suffix_prefix_overlap(a, b, proper), score) for a, b in itertools.pairwise(seq)
    )
    if cyclic and len(seq) > 1:
        total += joint_gain(suffix_prefix_overlap(seq[-1], seq[0], proper), score)
    return total
