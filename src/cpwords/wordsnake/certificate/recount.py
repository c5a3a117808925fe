"""The ordering's score recounted from the values once they are checked dual feasible: each
joint's overlap is at most the longest whose right-hand side its two values cover, and is that
one exactly when one comparison of letters says so.

The format and the argument: :mod:`cpwords.wordsnake.certificate`.

**Why one comparison a joint.** Values that satisfy every inequality give, for the joint
``a -> b`` of the ordering (two different items), ``u(a) + v(b) >= scale * g(ov(a, b)) +
(the cuts entered) >= scale * g(ov(a, b))`` (``g(k) = k^2``, or ``k`` for the linear score; the
multipliers are ``>= 0``), so ``ov(a, b) <= K``, the largest ``k`` with ``scale * g(k) <= u(a)
+ v(b)`` (and at most the shorter word's length, less one when proper). When ``a``'s suffix of
``K`` letters is ``b``'s prefix, ``ov(a, b) = K``; otherwise (a joint that is not tight: few in
an optimal ordering) the joint is counted letter by letter by core's
:func:`~cpwords.core.codepoints.joint_overlaps`. An optimal dual makes the ordering's joints
tight, so one comparison of ``K`` letters counts nearly every joint, instead of a look at every
letter of every word (ENABLE: 0.003 s instead of 0.017).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from cpwords.core.codepoints import (
    Letters,
    equal_letters,
    joint_overlaps,
    remember_ordering_overlaps,
)
from cpwords.wordsnake.certificate.columns import IntColumn
from cpwords.wordsnake.certificate.format import Certificate

#: The largest magnitude of a value the recount reads as int64 (two of them summed stay far
#: below ``2 ** 63``); larger values: None, the letters count every joint.
VALUE_LIMIT = 1 << 60


def tight_overlaps(
    letters: Letters, ids: np.ndarray, u: np.ndarray, v: np.ndarray, cert: Certificate
) -> np.ndarray:
    """The overlap of each joint of the ordering ``ids`` (word ids of ``letters.words``), as
    :func:`~cpwords.core.codepoints.ordering_overlaps` counts them, from values ``u`` and ``v``
    (int64, indexed by word id) *already checked* to satisfy every inequality of ``cert``
    (whose multipliers are ``>= 0``): exact, whatever the values (see the module docstring).

    Parameters
    ----------
    letters : Letters
        The distinct words, sorted.
    ids : numpy.ndarray of int64, shape ``(n,)``
        The ordering.
    u, v : numpy.ndarray of int64, shape ``(words,)``
        The certificate's values, each of magnitude below :data:`VALUE_LIMIT`.
    cert : Certificate
        Its variant, score and scale.

    Returns
    -------
    numpy.ndarray of int64, shape ``(n - 1,)`` (``(n,)`` when cyclic and ``n >= 2``)

    Examples
    --------
    >>> from cpwords.wordsnake.certificate import Certificate
    >>> letters = Letters(["ab", "bc", "cd"])
    >>> cert = Certificate("", 3, False, False, 1, u=(1, 1, 0), v=(0, 0, 0), depot=(0, 0),
    ...                    cuts=(), order=(0, 1, 2), bound=2, objective=2)
    >>> u, v = np.array([1, 1, 0]), np.array([0, 0, 0])
    >>> tight_overlaps(letters, np.array([0, 1, 2]), u, v, cert).tolist()
    [1, 1]
    """
    n = ids.size
    if n < 2:
        return np.zeros(0, dtype=np.int64)
    joints = np.arange(n if cert.cyclic else n - 1)
    if n == letters.lens.size:
        place = np.full(n, -1, dtype=np.int64)
        place[ids] = np.arange(n)
        if bool((place >= 0).all()):
            # Each word once: the joints by first word, so that the first words' values and
            # letters are read in order (half the reads at random; ENABLE: 0.011 s to 0.007).
            joints = place if cert.cyclic else place[place < n - 1]
    # (numpy.take throughout: gathers a third faster than indexing)
    a = np.take(ids, joints)
    after = joints + 1  # the next place (the first after the last: cyclic)
    after[after == n] = 0
    b = np.take(ids, after)
    del after
    lens = letters.lens
    top = np.minimum(np.take(lens, a), np.take(lens, b))
    if cert.proper:
        top -= 1
    np.maximum(top, 0, out=top)
    room = np.take(u, a)
    room += np.take(v, b)
    room //= cert.scale  # scale * g(k) <= room exactly when g(k) <= room // scale (g integer)
    if cert.score == "linear":
        k = np.clip(room, 0, top)
    else:  # the integer square root of min(room, top^2), the float's corrected by one
        np.maximum(room, 0, out=room)  # (numpy.clip with an array of bounds: twice the time)
        np.minimum(room, top * top, out=room)
        k = np.sqrt(room.astype(np.float64)).astype(np.int64)
        k -= k * k > room
        k += (k + 1) * (k + 1) <= room
    found = np.zeros(a.size, dtype=np.int64)
    some = np.flatnonzero(k > 0)
    size = k[some]
    same = equal_letters(letters, letters.start[a[some] + 1] - size, letters.start[b[some]], size)
    found[some[same]] = size[same]
    loose = some[~same]
    if loose.size:  # ov < K: counted letter by letter
        found[loose] = joint_overlaps(letters, a[loose], b[loose], cert.proper)
    out = np.empty(a.size, dtype=np.int64)
    out[joints] = found
    return out


def value_array(values: Sequence[int]) -> np.ndarray | None:
    """``values`` as int64 when every one is below :data:`VALUE_LIMIT` in magnitude, else None."""
    try:
        if isinstance(values, IntColumn):  # the solver's: its array, copied in C
            out = np.asarray(values, dtype=np.int64)
        else:
            out = np.fromiter(values, dtype=np.int64, count=len(values))
    except OverflowError:
        return None
    if out.size and max(int(out.max()), -int(out.min())) >= VALUE_LIMIT:
        return None
    return out


def recount(letters: Letters, ids: np.ndarray, cert: Certificate) -> np.ndarray | None:
    """The overlaps of the ordering's joints by :func:`tight_overlaps`, remembered for the next
    caller of :func:`~cpwords.core.codepoints.ordering_overlaps` about the same ordering (the
    rules' scorer of the solved snake); None when the values are too large for int64, a
    multiplier is negative or the scale below 1 (the caller counts the joints letter by
    letter).

    Call it only once ``cert``'s values are checked dual feasible.
    """
    if cert.scale < 1 or any(lam < 0 for _, lam in cert.cuts):
        return None
    u, v = value_array(cert.u), value_array(cert.v)
    if u is None or v is None:
        return None
    k = tight_overlaps(letters, ids, u, v, cert)
    return remember_ordering_overlaps(letters, ids, cert.cyclic, cert.proper, k)
