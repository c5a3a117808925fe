"""A proof tree's leaves checked against the root: the joints a leaf's changed values touch,
found by range searches on the sorted words and their prefix minima.

The format and the argument: :mod:`cpwords.wordsnake.certificate`.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterable, Sequence
from typing import Any

from cpwords.core.errors import excerpt
from cpwords.wordsnake.certificate.duals import (
    cut_terms,
    joint_gain,
    pair_rhs,
    suffix_prefix_overlap,
)
from cpwords.wordsnake.certificate.format import (
    CORE_CHECK_MAX,
    INT_LIMIT,
    Certificate,
    TreeNode,
)

#: A leaf whose changed words (heads and tails counted apart) outnumber this share of the
#: words is checked by one search over every word on its own values, not from the root's.
WHOLE_LEAF_SHARE = 0.5

#: Above every code point: ``s + _TOP`` bounds the strings that start with ``s``.
_TOP = "\U0010ffff"


#: The most strings whose prefix minima a range search keeps (:class:`SortedStrings`): the table
#: holds a value per distinct prefix, up to the strings' letters (ENABLE's 172,823 words: 387,881
#: prefixes).
PREFIX_MINIMA_MAX = 300_000


def prefix_minima(keys: list[str], values: list[int]) -> tuple[dict[str, int], dict[str, int]]:
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


class SortedStrings:
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
        self.tree: MinTree | None = None  # built at the first range search
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
            self.prefix_minima()

    def prefix_minima(self) -> None:
        self.longer, self.least = prefix_minima(self.keys, self.values)

    def search(
        self,
        string: str,
        count: int,
        gains: Sequence[int],
        shift: int,
        longer: bool,
        other_than: int,
        bound_shift: int | None = None,
        first: int = 0,
    ) -> tuple[list[int], int]:
        """The distinct ids (``other_than`` left out) of :meth:`below` for the suffixes ``s`` of
        ``string`` of lengths ``k < count`` as prefixes, each at the limit ``gains[k] - shift``,
        in the order first found, and the number of range searches made (a prefix whose strings,
        ``other_than`` left out, all have values above its limit costs one or two look-ups and no
        search). With ``bound_shift``, an id found for the ``k``-th prefix is kept only if its
        second value is at most ``gains[k] + bound_shift`` too (else it may be found again for a
        later prefix), and a prefix whose strings' second values all exceed that is skipped.
        The suffixes shorter than ``first`` are left out (1: the joints of zero overlap)."""
        found: list[int] = []
        seen = {other_than}
        searches = 0
        second = self.second
        least, strict, owner = self.least, self.longer.get, self.owner.get
        n = len(string)
        for k in range(first, count):
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
                        self.second_minima = prefix_minima(self.keys, self.second_values)
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
                self.prefix_minima()
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
            self.tree = MinTree(self.values)
        return [self.ids[p] for p in self.tree.at_most(lo, hi, limit)]


class _TooMuch(Exception):
    """The leaves need more joints checked than :data:`CORE_CHECK_MAX`."""


class RootJoints:
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
        core: RootJoints | None = None,
        shift: int = 0,
    ) -> None:
        self.words, self.mult, self.cert, self.deadline = words, mult, cert, deadline
        #: The root's joints when these values are the tree's base (``cert``: the root with
        #: the base's changes): a joint is in the core by its root slack, not its base slack;
        #: ``shift`` bounds how much larger a joint's base slack is than its root slack.
        self.core, self.shift = core, shift
        self.terms = cut_terms(cert, len(words))
        self.value = cert.dual_value(mult)
        self.budget = self.value - cert.scale * (cert.target or 0)
        self.member: dict[int, set[int]] = {}  # the cuts holding a word, as a set, when asked
        #: ``scale |s|^2 - 1`` by the length of ``s`` (``scale |s| - 1`` for the linear score).
        top = max(map(len, words), default=0)
        self.gains = [cert.scale * joint_gain(k, cert.score) - 1 for k in range(top + 1)]
        self._fwd: SortedStrings | None = None
        self._rev: SortedStrings | None = None
        self.out_need: dict[int, int] = {}
        self.in_need: dict[int, int] = {}
        self.outs: dict[int, list[tuple[int, int]]] = {}
        self.ins: dict[int, list[tuple[int, int]]] = {}
        self.by_v: list[int] | None = None
        self.by_u: list[int] | None = None
        self.work = 0
        #: The shortest common string searched: 1 in the tree model ``"root"`` (its zero-overlap
        #: joints are checked through the root, :func:`_short_root`), else 0.
        self.first = 1 if cert.tree_model == "root" else 0

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
            ov = suffix_prefix_overlap(words[a], words[a], cert.proper)
            return cert.u[a] + cert.v[a] - cert.scale * joint_gain(ov, cert.score)
        held = self.member.get(a)
        if held is None:
            held = self.member[a] = set(self.terms.member[a])
        rhs = pair_rhs(
            words[a],
            words[b],
            self.terms.member[b],
            held,
            self.terms.lams,
            cert.scale,
            cert.proper,
            cert.score,
        )
        return cert.u[a] + cert.v[b] - rhs

    def prepare(self, changes: list[LeafChange]) -> None:
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
            self._fwd = SortedStrings(
                list(self.words), list(range(len(self.words))), self.terms.v_all
            )
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
            self._rev = SortedStrings([words[i][::-1] for i in order], order, [u[i] for i in order])
        need, w = self.in_need.get(b, 0), self.words[b]
        fresh = self._below_need(self._rev, w[::-1], self.terms.v_all[b], need, b)
        got = sorted((s, a) for s, a in ((self.slack(a, b), a) for a in fresh) if s < need)
        self.ins[b] = got
        return got

    def _below_need(
        self, table: SortedStrings, string: str, own: int, need: int, word: int
    ) -> list[int]:
        """The words of ``table`` (``word`` left out) that start with a suffix ``s`` of ``string``
        (proper when the snake is) and whose value is below ``need + scale |s|^2 - own``: every
        joint of ``word`` (out of it, or into it, ``string`` reversed) whose root slack is below
        ``need``, and others."""
        count = len(string) if self.cert.proper else len(string) + 1
        fresh, searches = table.search(
            string, count, self.gains, own - need, self.cert.proper, word, first=self.first
        )
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


class LeafChange:
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
        self.dd = (
            (0, 0)
            if node.depot is None
            else (node.depot[0] - root_depot[0], node.depot[1] - root_depot[1])
        )
        self.total = sum(lam for _, lam in node.cuts)
        self.sets = {s: lam for s, lam in by_set(node.cuts).items() if lam}
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


def leaf_bound(joints: RootJoints, ch: LeafChange, path: LeafPath) -> tuple[int | None, str | None]:
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
    if joints.first:
        bad = _short_root(joints, ch)
        if bad is not None:
            return None, bad
    for a, b in used:
        root = joints.slack(a, b)
        if not joints.in_core(a, b, root) or (
            joints.first and a != b and not suffix_prefix_overlap(words[a], words[b], cert.proper)
        ):
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
    words: Sequence[str], mult: Sequence[int], cert: Certificate, ch: LeafChange
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
    joints: RootJoints, ch: LeafChange, short: dict[int, int], skip: frozenset[tuple[int, int]]
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


def _short_root(joints: RootJoints, ch: LeafChange) -> str | None:
    """Tree model ``"root"``: the pair ``a -> b`` of different words whose ``u'(a) + v'(b) -
    L'(b)`` under the leaf's values is negative, named, or None. At least 0 for every such
    pair bounds every zero-overlap joint's leaf slack below by 0 (it is that sum plus the
    multipliers of the cuts holding both words); the least sum over ``a != b`` is among the
    two smallest ``u'`` and the two smallest ``v' - L'``, each taken from the leaf's changed
    words and the first two unchanged ones in the order of the values it is stated against."""
    cert, terms = joints.cert, joints.terms
    lows_u = _two_least(
        {a: cert.u[a] + d for a, d in ch.du.items()}, joints.ascending_ends(), cert.u
    )
    lows_v = _two_least(
        {b: terms.v_all[b] + ch.dv.get(b, 0) - ch.load.get(b, 0) for b in ch.dv_star},
        joints.ascending_starts(),
        terms.v_all,
    )
    name = _joint_name(joints.words)
    for x, a in lows_u:
        for y, b in lows_v:
            if a != b and x + y < 0:
                return (
                    f"u(a) + v(b) - L(b) is {x + y} < 0 through the root for a -> b = {name(a, b)}"
                )
    return None


def _two_least(
    changed: dict[int, int], ascending: list[int], unchanged: Sequence[int]
) -> list[tuple[int, int]]:
    """The two smallest ``(value, id)``: the ``changed`` ids' values and, in ``ascending``
    order, the first two others' ``unchanged`` values."""
    found = sorted((val, i) for i, val in changed.items())[:2]
    taken = 0
    for i in ascending:
        if taken == 2:
            break
        if i not in changed:
            found.append((unchanged[i], i))
            taken += 1
    return sorted(found)[:2]


def _short_copy(
    joints: RootJoints, ch: LeafChange, short: dict[int, int], skip: frozenset[tuple[int, int]]
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
    joints: RootJoints,
    ch: LeafChange,
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
    table = SortedStrings(
        [words[b] for b in ends], ends, values, queries, [root_v[b] for b in ends]
    )
    name = _joint_name(words)
    gains, du, u = joints.gains, ch.du, cert.u
    for a in starts:
        w, ua = words[a], u[a] + du.get(a, 0)
        m = len(w) if proper else len(w) + 1
        fresh, searches = table.search(
            w, m, gains, ua, proper, a, budget + 1 - root_u[a], first=joints.first
        )
        joints.count(len(fresh) + searches + 1)
        for b in fresh:
            root = joints.slack(a, b)
            slack = ch.slack(a, b, root)
            if slack < 0 and (a, b) not in skip and joints.in_core(a, b, root):
                return f"the joint {name(a, b)} is short by {-slack}"
    return None


def _short_depot(joints: RootJoints, ch: LeafChange) -> str | None:
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


#: The longest range :class:`MinTree` scans instead of walking (measured on 8,192 values: a
#: scan of 64 took 2.6-2.8 us, a walk 1.5 us finding none and 8.8 us finding 6 of them).
_SCAN = 64


class MinTree:
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


def by_set(
    cuts: Iterable[tuple[Sequence[int], int]], start: dict[frozenset[int], int] | None = None
) -> dict[frozenset[int], int]:
    """Cut multipliers summed by set, added to a copy of ``start`` when given."""
    out = dict(start or {})
    for ids, lam in cuts:
        key = frozenset(ids)
        out[key] = out.get(key, 0) + lam
    return out


#: A leaf's path: its forced joints and its forbidden ones.
LeafPath = tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]
