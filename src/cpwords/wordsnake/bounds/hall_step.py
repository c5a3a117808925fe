"""Hungarian dual steps on a version 1 certificate: lowering its bound with a Hall set.

A version 1 certificate (:mod:`cpwords.wordsnake.certificate`) gives every joint ``a -> b`` a
*slack* ``u(a) + v(b) - scale * gain(ov(a, b)) - (the multipliers of the cuts holding b and not
a)`` (the depot's joints likewise), and the ordering's slacks sum to ``B - scale * objective``
when it enters every cut once. When the bound ``floor(B / scale)`` exceeds the ordering, this
module looks at the bipartite graph of the *zero-slack* joints (the successor side: every word
and the depot's start; the predecessor side: every word and the depot's end). The ordering's
zero-slack joints are a matching; augmenting paths (an alternating search from each free
successor-side node) either complete it or end in a *Hall set*: successor-side nodes ``R``
whose zero-slack joints reach only ``N``, ``|N| = |R| - 1``, all matched. Then the Hungarian
dual step, ``u -= delta`` on ``R`` and ``v += delta`` on ``N`` with ``delta`` the smallest
slack of a joint from ``R`` to a node outside ``N``, keeps every inequality (a joint from ``R``
into ``N`` keeps its slack, one from outside ``R`` into ``N`` gains ``delta``) and lowers ``B``
by ``delta`` (the cut terms of a joint depend only on its two ends). Steps repeat while the
bound exceeds the ordering and time allows (the deadline is checked between the searches and
every 256 nodes of a search: it may be passed by a few passes over the words).

When the zero-slack joints match perfectly, a tight cut set (multiplier > 0, at most
:data:`GROUP_MAX` words, holding an end of a joint of positive slack) is taken as one node,
entered at the first words and left from the last words of its zero-slack paths through all its
words (entered by a zero-slack joint from outside, left by one to outside): a snake scoring the
bound enters it once. The node's way out lowered is ``u -= delta`` on those last words,
``v += delta`` on those first words and the cut's multiplier raised by ``delta``; its way in
raised is the multiplier lowered by ``delta``. Whatever the sets, ``delta`` is the largest that
keeps every inequality, computed exactly (a joint whose slack moves by ``c * delta``, ``c < 0``,
bounds it by ``slack // -c``), and the step is made only when it lowers ``B``. This is the step
found by hand on the Chinese wordfreq list
(``benchmarks/results/wordsnake-languages-more/zh-last-point.md``).

A word listed ``m`` times is one node of capacity ``m`` on each side (its copies share their
values): the ordering's zero-slack joints are then a b-matching, a Hall set's successor side
holds more copies than the predecessor nodes it reaches, ``B`` falls by ``delta`` times the
difference, and a joint between two copies of a word is a joint like any other (a tight cut set
is taken as one node only when its words are distinct). Linear snakes only (the step refuses
cyclic and ``--proper`` snakes, and version 2 certificates). Soundness does not rest on this
module: the independent checker verifies the certificate it returns like any other. Card:
``models/wordsnake.md``, "Certificates: a bound anyone can check".
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import replace

from cpwords.wordsnake.certificate import Certificate
from cpwords.wordsnake.rules import pair_overlap

#: The most dual steps one call makes (each lowers ``B`` by at least one unit).
MAX_STEPS = 10_000

#: The largest cut set taken as one node (its zero-slack paths are enumerated).
GROUP_MAX = 6

_INF = 1 << 62


class _Deadline(Exception):
    """The deadline passed during a search."""


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise _Deadline


class _MinTree:
    """A segment tree of minima over word ids, with deletion and reports below a limit."""

    def __init__(self, values: Sequence[int]) -> None:
        size = 1
        while size < max(1, len(values)):
            size *= 2
        tree = [_INF] * (2 * size)
        tree[size : size + len(values)] = list(values)
        for i in range(size - 1, 0, -1):
            tree[i] = min(tree[2 * i], tree[2 * i + 1])
        self.size = size
        self.tree = tree

    def delete(self, i: int) -> None:
        tree = self.tree
        i += self.size
        tree[i] = _INF
        i //= 2
        while i:
            m = min(tree[2 * i], tree[2 * i + 1])
            if tree[i] == m:
                break
            tree[i] = m
            i //= 2

    def at_most(self, lo: int, hi: int, limit: int) -> list[int]:
        """The ids in ``[lo, hi)`` whose value is at most ``limit``."""
        tree, out = self.tree, []
        stack = [(1, 0, self.size)]
        while stack:
            node, left, right = stack.pop()
            if right <= lo or hi <= left or tree[node] > limit:
                continue
            if right - left == 1:
                out.append(left)
                continue
            mid = (left + right) // 2
            stack.append((2 * node, left, mid))
            stack.append((2 * node + 1, mid, right))
        return out

    def minimum(self, lo: int, hi: int) -> int:
        """The smallest value in ``[lo, hi)`` (``_INF`` when empty)."""
        tree, res = self.tree, _INF
        lo += self.size
        hi += self.size
        while lo < hi:
            if lo & 1:
                res = min(res, tree[lo])
                lo += 1
            if hi & 1:
                hi -= 1
                res = min(res, tree[hi])
            lo //= 2
            hi //= 2
        return res


class _Duals:
    """The values of one certificate and the exact slack of every joint."""

    def __init__(self, cert: Certificate, words: Sequence[str], mult: Sequence[int]) -> None:
        assert cert.depot is not None
        W = len(words)
        self.words = words
        self.W = W
        self.mult = list(mult)
        self.scale = cert.scale
        self.squared = cert.score == "squared"
        self.u = list(cert.u)
        self.v = list(cert.v)
        self.ud, self.vd = cert.depot
        self.sets = [frozenset(s) for s, _ in cert.cuts]
        self.lam = [lam for _, lam in cert.cuts]
        self.incut: list[list[int]] = [[] for _ in range(W)]
        for k, s in enumerate(self.sets):
            for b in s:
                self.incut[b].append(k)
        self._reversed: tuple[list[str], list[int], dict[int, int]] | None = None

    def gain(self, k: int) -> int:
        return self.scale * (k * k if self.squared else k)

    def vp(self, b: int) -> int:
        """``v(b)`` less the multipliers of the cuts holding ``b``."""
        return self.v[b] - sum(self.lam[k] for k in self.incut[b])

    def slack(self, a: int, b: int) -> int:
        """The slack of ``a -> b`` (``a == W``: the start; ``b == W``: the end)."""
        W = self.W
        if a == W:
            return self.ud + self.vp(b)
        if b == W:
            return self.u[a] + self.vd
        s = self.u[a] + self.v[b] - self.gain(pair_overlap(self.words[a], self.words[b]))
        for k in self.incut[b]:
            if a not in self.sets[k]:
                s -= self.lam[k]
        return s

    def mates(self, a: int) -> set[int]:
        """The words sharing a cut with ``a`` (their slack is not the string bound's)."""
        found: set[int] = set()
        if a < self.W:
            for k in self.incut[a]:
                found |= self.sets[k]
        return found

    def value(self) -> int:
        total = sum(m * (a + b) for m, a, b in zip(self.mult, self.u, self.v, strict=True))
        return total + self.ud + self.vd - sum(self.lam)

    def weight(self, x: int) -> int:
        """The items a node stands for: a word's copies; the depot (and a group) one."""
        return self.mult[x] if x < self.W else 1

    def joint(self, a: int, b: int) -> bool:
        """Whether ``a -> b`` is a joint of two items (a word to itself: two of its copies)."""
        return a != b or (a < self.W and self.mult[a] >= 2)

    def by_suffix(self) -> tuple[list[str], list[int], dict[int, int]]:
        """The reversed words, sorted, their ids (words ending with ``s``: a range) and each
        id's place among them."""
        if self._reversed is None:
            ids = sorted(range(self.W), key=lambda i: self.words[i][::-1])
            pos = {i: p for p, i in enumerate(ids)}
            self._reversed = ([self.words[i][::-1] for i in ids], ids, pos)
        return self._reversed


class _Group:
    """A cut set taken as one node: entered at ``entries`` and left from ``exits`` (the ends
    of its zero-slack paths through all its words)."""

    def __init__(self, k: int, words: frozenset[int], entries: set[int], exits: set[int]):
        self.k, self.words, self.entries, self.exits = k, words, entries, exits


def hall_step(
    cert: Certificate,
    words: Sequence[str],
    deadline: float | None = None,
    max_steps: int = MAX_STEPS,
) -> Certificate | None:
    """Lower a version 1 certificate's bound by Hungarian dual steps on Hall sets.

    Parameters
    ----------
    cert : Certificate
        A version 1 certificate of a linear snake (its ordering the incumbent).
    words : sequence of str
        The distinct words in code-point order (the ids of ``cert``).
    deadline : float or None
        ``time.perf_counter()`` value after which no new step starts (a search under way
        gives up, keeping the steps made).
    max_steps : int
        The most steps.

    Returns
    -------
    Certificate or None
        The certificate after the steps made (its values bound lower, ``bound`` the new values'
        bound when it is at most the claimed one, ``core_pairs`` then dropped,
        ``producer["hall_steps"]`` their number), or None when no step was made: the bound
        already meets the ordering, no Hall set is found, time ran out, or the certificate is
        one this step does not handle (cyclic, ``proper``, a proof tree, an ordering with a
        joint of negative slack).

    Notes
    -----
    Soundness does not rest on this function: the independent checker verifies the result
    like any certificate. Card: ``models/wordsnake.md``, stage 12; measured on the Chinese
    wordfreq list in ``benchmarks/results/wordsnake-languages-more/zh-last-point.md``.

    References
    ----------
    H. W. Kuhn, "The Hungarian method for the assignment problem", Naval Research Logistics
    Quarterly 2 (1955) 83-97 (the dual step on a set of rows whose tight columns are fewer);
    P. Hall, "On representatives of subsets", J. London Math. Soc. 10 (1935) 26-30.
    """
    W = len(words)
    if not _handled(cert, W):
        return None
    counts = Counter(cert.order)
    duals = _Duals(cert, words, [counts[i] for i in range(W)])
    D = cert.scale
    steps = 0
    while steps < max_steps and duals.value() // D > cert.objective:
        try:
            _check(deadline)
            made = _one_step(duals, cert.order, deadline)
        except _Deadline:
            break
        if not made:
            break
        steps += 1
    if steps == 0:
        return None
    values_bound = duals.value() // D
    bound, core_pairs = cert.bound, cert.core_pairs
    if values_bound <= cert.bound:
        bound, core_pairs = max(values_bound, cert.objective), None
    producer = dict(cert.producer)
    producer["hall_steps"] = steps
    return replace(
        cert,
        u=tuple(duals.u),
        v=tuple(duals.v),
        depot=(duals.ud, duals.vd),
        cuts=tuple((ids, lam) for (ids, _), lam in zip(cert.cuts, duals.lam, strict=True)),
        bound=bound,
        core_pairs=core_pairs,
        producer=producer,
    )


def _handled(cert: Certificate, W: int) -> bool:
    """Whether the step handles ``cert`` on ``W`` distinct words: a linear snake's certificate
    without a proof tree or a core, its ordering of every word, squared or linear scores."""
    return not (
        cert.cyclic
        or cert.proper
        or cert.depot is None
        or cert.tree
        or cert.core is not None
        or W < 2
        or len(cert.u) != W
        or len(cert.order) != cert.items
        or set(cert.order) != set(range(W))
        or cert.score not in ("squared", "linear")
    )


def _one_step(duals: _Duals, order: Sequence[int], deadline: float | None) -> bool:
    """One dual step on a Hall set (first without a group, then with each tight cut set at an
    end of a joint of positive slack taken as one node); False when none lowers ``B``."""
    W = duals.W
    for group in [None, *_groups(duals, order, deadline)]:
        _check(deadline)
        found = _hall_set(duals, order, deadline, group)
        if found is None:
            continue
        reached, matched = found
        lowered = [a for a in reached if a <= W]
        raised = [b for b in matched if b <= W]
        change = 0  # of the group's multiplier, in units of delta
        if group is not None:
            if W + 1 in reached:  # its way out lowered: the cut rises, its entries with it
                lowered += sorted(group.exits)
                raised += sorted(group.entries)
                change += 1
            if W + 1 in matched:  # its way in raised: the cut falls
                change -= 1
        weight = duals.weight
        if sum(map(weight, lowered)) + change - sum(map(weight, raised)) <= 0:
            continue
        _check(deadline)
        delta = _step_size(duals, set(lowered), set(raised), group, change)
        if delta <= 0 or delta >= _INF:
            continue
        for a in lowered:
            if a == W:
                duals.ud -= delta
            else:
                duals.u[a] -= delta
        for b in raised:
            if b == W:
                duals.vd += delta
            else:
                duals.v[b] += delta
        if group is not None:
            duals.lam[group.k] += change * delta
        return True
    return False


def _groups(duals: _Duals, order: Sequence[int], deadline: float | None) -> list[_Group]:
    """The cut sets of positive multiplier and at most :data:`GROUP_MAX` words holding an end
    of a joint of positive slack, with a zero-slack path through all their words (each takes
    passes over every word: the deadline is checked between them)."""
    W = duals.W
    joints = [(W, order[0]), *itertools.pairwise(order), (order[-1], W)]
    ends = {x for a, b in joints if duals.slack(a, b) > 0 for x in (a, b) if x < W}
    found = []
    for k in sorted({k for x in ends for k in duals.incut[x]}):
        _check(deadline)
        group = duals.sets[k]
        if duals.lam[k] <= 0 or not 2 <= len(group) <= GROUP_MAX:
            continue
        if any(duals.mult[x] > 1 for x in group):
            continue  # its paths through all its words are those of distinct words
        # Entered from a zero-slack joint from outside, left by one to outside (or the depot).
        tree = _MinTree([_INF if b in group else duals.vp(b) for b in range(W)])
        first = {e for e in group if duals.slack(W, e) == 0 or _in_min(duals, e, group) == 0}
        last = {x for x in group if duals.slack(x, W) == 0 or _out_min(duals, tree, x, group) == 0}
        entries, exits = set(), set()
        for path in itertools.permutations(sorted(group)):
            if path[0] not in first or path[-1] not in last:
                continue
            if all(duals.slack(a, b) == 0 for a, b in itertools.pairwise(path)):
                entries.add(path[0])
                exits.add(path[-1])
        if entries:
            found.append(_Group(k, group, entries, exits))
    return found


def _prefix_range(keys: Sequence[str], s: str) -> tuple[int, int]:
    """The ids of the sorted keys starting with ``s``."""
    if not s:
        return 0, len(keys)
    lo = bisect.bisect_left(keys, s)
    hi = bisect.bisect_left(keys, s[:-1] + chr(ord(s[-1]) + 1), lo)
    return lo, hi


def _hall_set(
    duals: _Duals, order: Sequence[int], deadline: float | None, group: _Group | None
) -> tuple[list[int], list[int]] | None:
    """A Hall set of the zero-slack joints (``group``, when given, one node ``W + 1`` on both
    sides): its successor-side nodes and the predecessor-side nodes they reach (fewer items,
    all matched), or None when the ordering's zero-slack joints extend to a perfect
    matching. A word listed ``m`` times is one node of capacity ``m`` on each side (its
    copies), so the matching is a b-matching and its augmenting paths pass a node as long as
    it has a copy free."""
    W = duals.W
    inside = frozenset() if group is None else group.words
    out: dict[int, Counter[int]] = {}  # successor side: the matched joints, with multiplicity
    into: dict[int, Counter[int]] = {}  # predecessor side: likewise
    joints = [(W, order[0]), *itertools.pairwise(order), (order[-1], W)]
    for a, b in joints:
        s = duals.slack(a, b)
        if s < 0:
            return None  # not a valid certificate: the checker says so
        if s == 0 and a not in inside and b not in inside:
            out.setdefault(a, Counter())[b] += 1
            into.setdefault(b, Counter())[a] += 1
    left = [a for a in range(W + 1) if a not in inside]
    if group is not None:
        left.append(W + 1)

    def spare(x: int, side: dict[int, Counter[int]]) -> int:
        return duals.weight(x) - sum(side.get(x, Counter()).values())

    base = [_INF if b in inside else duals.vp(b) for b in range(W)]
    pops = 0
    for root in left:
        while spare(root, out) > 0:
            _check(deadline)
            tree = _MinTree(base)
            parent: dict[int, int] = {}  # predecessor-side node -> the node that reached it
            via: dict[int, int] = {}  # successor-side node -> its matched joint's other end
            reached, seen = [root], {root}
            queue = deque([root])
            end = None
            while queue and end is None:
                pops += 1
                if deadline is not None and pops % 256 == 0 and time.perf_counter() > deadline:
                    raise _Deadline
                a = queue.popleft()
                for b in _zero_slack(duals, tree, a, parent, group):
                    if b in parent:
                        continue
                    parent[b] = a
                    if b < W:
                        tree.delete(b)
                    if spare(b, into) > 0:
                        end = b
                        break
                    for nxt in into[b]:
                        if nxt not in seen:
                            seen.add(nxt)
                            via[nxt] = b
                            reached.append(nxt)
                            queue.append(nxt)
            if end is None:
                return reached, sorted(parent)
            b = end
            while True:  # augment along the alternating path
                a = parent[b]
                out.setdefault(a, Counter())[b] += 1
                into.setdefault(b, Counter())[a] += 1
                if a == root:
                    break
                prev = via[a]
                out[a][prev] -= 1
                into[prev][a] -= 1
                if not out[a][prev]:
                    del out[a][prev], into[prev][a]
                b = prev
    return None


def _zero_slack(
    duals: _Duals, tree: _MinTree, a: int, seen: dict[int, int], group: _Group | None
) -> list[int]:
    """The predecessor-side nodes not yet reached (not in ``seen``, not deleted from ``tree``)
    that ``a`` reaches by a zero-slack joint (the group: from an exit, into an entry)."""
    W, out = duals.W, []
    sources = sorted(group.exits) if group is not None and a == W + 1 else [a]
    for x in sources:
        if x == W:
            cands = tree.at_most(0, W, -duals.ud)
        else:
            word, ux = duals.words[x], duals.u[x]
            cands = []
            for k in range(len(word), -1, -1):
                lo, hi = _prefix_range(duals.words, word[len(word) - k :])
                if lo < hi:
                    cands.extend(tree.at_most(lo, hi, duals.gain(k) - ux))
            if W not in seen and ux + duals.vd == 0:
                out.append(W)
        for b in dict.fromkeys(cands):
            if duals.joint(x, b) and b not in seen and duals.slack(x, b) == 0:
                out.append(b)
    if (
        group is not None
        and a != W + 1
        and W + 1 not in seen
        and any(duals.slack(a, e) == 0 for e in group.entries)
    ):
        out.append(W + 1)
    return out


def _step_size(
    duals: _Duals, lowered: set[int], raised: set[int], group: _Group | None, change: int
) -> int:
    """The largest ``delta`` keeping every inequality when ``u`` falls by ``delta`` on
    ``lowered``, ``v`` rises by it on ``raised`` and the group's multiplier moves by
    ``change * delta``: a joint ``a -> b`` whose slack moves by ``c * delta``, ``c < 0``, needs
    ``delta <= slack // -c``."""
    W = duals.W
    inside = frozenset() if group is None else group.words
    best = _INF
    # (1) From a lowered node to a node outside the group: c = -1 unless b is raised.
    tree = _MinTree([_INF if b in raised or b in inside else duals.vp(b) for b in range(W)])
    for a in lowered:
        if a == W:
            best = min(best, duals.ud + tree.minimum(0, W))
            continue
        if W not in raised:
            best = min(best, duals.slack(a, W))
        best = min(best, _out_min(duals, tree, a, raised | inside))
    if group is None:
        return best
    # (2) Into the group's words: c = -[a lowered] + [b raised] - change * [a outside].
    k_cut = group.k
    if change < 0:
        best = min(best, duals.lam[k_cut])
    others = [a for a in lowered if a not in inside]
    for b in group.words:
        up = int(b in raised)
        for a in [*group.words, *others]:
            if a == b:
                continue
            c = -int(a in lowered) + up - (change if a not in inside else 0)
            if c < 0:
                best = min(best, duals.slack(a, b) // -c)
        c = up - change  # from the words outside the group and not lowered, and the start
        if c < 0:
            if W not in lowered:
                best = min(best, duals.slack(W, b) // -c)
            best = min(best, _in_min(duals, b, lowered | inside) // -c)
    return best


def _out_min(duals: _Duals, tree: _MinTree, a: int, leave: set[int] | frozenset[int]) -> int:
    """The smallest slack of a joint ``a -> b`` over the words ``b`` not in ``leave`` (``tree``:
    ``v'`` with ``leave`` deleted)."""
    word, ua = duals.words[a], duals.u[a]
    skip = sorted({a} | duals.mates(a))  # their exact slack here
    best = min(
        (duals.slack(a, b) for b in skip if duals.joint(a, b) and b not in leave), default=_INF
    )
    for k in range(len(word), -1, -1):
        lo, hi = _prefix_range(duals.words, word[len(word) - k :])
        if lo < hi:
            m = _range_min(tree, lo, hi, skip)
            if m < _INF:
                best = min(best, ua + m - duals.gain(k))
    return best


def _range_min(tree: _MinTree, lo: int, hi: int, skip: Sequence[int]) -> int:
    """The smallest value in ``[lo, hi)`` leaving out the ids in ``skip`` (sorted)."""
    m, start = _INF, lo
    for p in skip[bisect.bisect_left(skip, lo) : bisect.bisect_left(skip, hi)]:
        m = min(m, tree.minimum(start, p))
        start = p + 1
    return min(m, tree.minimum(start, hi))


def _in_min(duals: _Duals, b: int, leave: set[int] | frozenset[int]) -> int:
    """The smallest slack of a joint ``a -> b`` over the words ``a`` not in ``leave``."""
    keys, ids, pos = duals.by_suffix()
    values = [_INF if i in leave or i == b else duals.u[i] for i in ids]
    tree = _MinTree(values)
    mates = duals.mates(b) - leave - {b}
    best = min((duals.slack(a, b) for a in mates), default=_INF)
    skip = sorted(pos[a] for a in mates)
    word, vb = duals.words[b], duals.vp(b)
    for k in range(len(word) + 1):
        lo, hi = _prefix_range(keys, word[:k][::-1])
        if lo < hi:
            m = _range_min(tree, lo, hi, skip)
            if m < _INF:
                best = min(best, m + vb - duals.gain(k))
    return best
