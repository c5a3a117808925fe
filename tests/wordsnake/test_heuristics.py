"""The heuristics on the overlap index (linear in the letters) against the explicit definitions.

Issue 23, item 3: the heuristics built the explicit overlap graph (and every prefix of every
word), so ENABLE ended in a MemoryError at 7.5 GB. They now work on
:class:`~cpwords.wordsnake.heuristics.overlaps.OverlapIndex`; these tests hold them to what the
explicit graph gives, on random lists.
"""

import random
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpwords.wordsnake.heuristics.baselines as baselines
from cpwords.core.result import SolveResult, Status
from cpwords.wordsnake.heuristics.overlaps import IndexStopped, OverlapIndex
from cpwords.wordsnake.rules import (
    WordsnakeInstance,
    check_snake,
    overlap_graph,
    pair_overlap,
    snake_score,
)

words_st = st.lists(st.text(alphabet="abc", min_size=1, max_size=6), min_size=1, max_size=25)


class ExplicitWeights:
    """The weights the heuristics used before (main, 2026-11-24): the explicit overlap graph.

    One change: ``out`` and ``inn`` leave the word itself out (the letter buckets once let it
    in when its first letter was its last, which offered local search a swap with a neighbour
    only then)."""

    def __init__(self, instance: WordsnakeInstance) -> None:
        g = overlap_graph(instance.words, proper=instance.proper, min_overlap=2)
        self.n, self.cyclic, self.words = instance.n, instance.cyclic, instance.words
        sel = g.overlap >= 2
        self.heavy = {
            (t, h): k * k
            for t, h, k in zip(
                g.tail[sel].tolist(), g.head[sel].tolist(), g.overlap[sel].tolist(), strict=True
            )
        }
        shortest = 2 if instance.proper else 1
        self.eligible = [len(w) >= shortest for w in instance.words]
        self.by_first: dict[str, list[int]] = {}
        self.by_last: dict[str, list[int]] = {}
        for i, w in enumerate(instance.words):
            if self.eligible[i] and self.n > 1:
                self.by_first.setdefault(w[0], []).append(i)
                self.by_last.setdefault(w[-1], []).append(i)
        self.heavy_out: list[list[int]] = [[] for _ in range(self.n)]
        self.heavy_in: list[list[int]] = [[] for _ in range(self.n)]
        for t, h in sorted(self.heavy, key=lambda p: -self.heavy[p]):
            self.heavy_out[t].append(h)
            self.heavy_in[h].append(t)

    def weight(self, a: int, b: int) -> int:
        if a == b:
            return 0
        w = self.heavy.get((a, b))
        if w is not None:
            return w
        if self.eligible[a] and self.eligible[b] and self.words[a][-1] == self.words[b][0]:
            return 1
        return 0

    def out(self, a: int) -> list[int]:
        extra = self.by_first.get(self.words[a][-1], []) if self.eligible[a] else []
        return [b for b in self.heavy_out[a] + extra if b != a]

    def inn(self, b: int) -> list[int]:
        extra = self.by_last.get(self.words[b][0], []) if self.eligible[b] else []
        return [a for a in self.heavy_in[b] + extra if a != b]


def assert_checked(inst: WordsnakeInstance, res: SolveResult) -> None:
    assert res.objective is not None and res.solution is not None
    assert check_snake(inst, list(res.solution), int(res.objective))


def ranks(words: tuple[str, ...]) -> list[int]:
    r = [0] * len(words)
    for k, i in enumerate(sorted(range(len(words)), key=lambda i: (words[i], i))):
        r[i] = k
    return r


@settings(max_examples=150, deadline=None)
@given(words_st, st.booleans())
def test_the_index_gives_the_maximal_overlaps_and_the_arcs(words: list[str], proper: bool) -> None:
    inst = WordsnakeInstance(tuple(words), proper=proper)
    ix = OverlapIndex(inst.words, proper=proper)
    old = ExplicitWeights(inst)
    for a in range(inst.n):
        for b in range(inst.n):
            k = 0 if a == b else pair_overlap(inst.words[a], inst.words[b], proper)
            assert ix.overlap(a, b) == k and ix.weight(a, b) == old.weight(a, b) == k * k
        assert set(ix.out(a)) == set(old.out(a))
        assert set(ix.inn(a)) == set(old.inn(a))
        # largest overlaps first (each item at its first place)
        outs, inns = ix.out(a), ix.inn(a)
        firsts = [ix.overlap(a, b) for j, b in enumerate(outs) if b not in outs[:j]]
        assert firsts == sorted(firsts, reverse=True)
        firsts = [ix.overlap(c, a) for j, c in enumerate(inns) if c not in inns[:j]]
        assert firsts == sorted(firsts, reverse=True)


def nearest_neighbour_reference(inst: WordsnakeInstance, seed: int) -> list[int]:
    """Always the unused word of largest overlap, ties to the first in sorted order."""
    rank = ranks(inst.words)
    cur = random.Random(seed).randrange(inst.n)
    seq, unused = [cur], set(range(inst.n)) - {cur}
    while unused:
        cur = max(
            unused,
            key=lambda b: (pair_overlap(inst.words[cur], inst.words[b], inst.proper), -rank[b]),
        )
        seq.append(cur)
        unused.discard(cur)
    return seq


@settings(max_examples=150, deadline=None)
@given(words_st, st.booleans(), st.booleans(), st.integers(0, 5))
def test_nearest_neighbour_equals_the_explicit_definition(
    words: list[str], proper: bool, cyclic: bool, seed: int
) -> None:
    inst = WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper)
    ix = OverlapIndex(inst.words, proper=proper, cyclic=cyclic)
    seq = baselines._nearest_neighbour_seq(ix, random.Random(seed))
    assert seq == nearest_neighbour_reference(inst, seed)
    res = baselines.nearest_neighbour(inst, seed=seed)
    assert_checked(inst, res)


def layered_reference(inst: WordsnakeInstance, rng: random.Random) -> list[int]:
    """One pass of the layered greedy with the overlap strings found by slicing the words."""
    words, n, proper = inst.words, inst.n, inst.proper
    rank = ranks(words)
    succ, pred, parent = [-1] * n, [-1] * n, list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            a = parent[a]
        return a

    strings = {w[len(w) - k :] for w in words for k in range(1, len(w) + (0 if proper else 1))}
    for s in sorted(strings, key=lambda s: (-len(s), s)):
        fits = [len(w) > len(s) if proper else True for w in words]
        tails = [a for a in range(n) if succ[a] == -1 and fits[a] and words[a].endswith(s)]
        heads = [b for b in range(n) if pred[b] == -1 and fits[b] and words[b].startswith(s)]
        heads.sort(key=rank.__getitem__)
        if not tails or not heads:
            continue
        rng.shuffle(tails)
        rng.shuffle(heads)
        for a in tails:
            for j, b in enumerate(heads):
                if find(a) != find(b):
                    parent[find(a)] = find(b)
                    succ[a], pred[b] = b, a
                    heads[j] = heads[-1]
                    heads.pop()
                    break
            if not heads:
                break
    starts = [i for i in range(n) if pred[i] == -1]
    rng.shuffle(starts)
    seq = []
    for item in starts:
        while item != -1:
            seq.append(item)
            item = succ[item]
    return seq


@settings(max_examples=150, deadline=None)
@given(words_st, st.booleans(), st.integers(0, 5))
def test_layered_greedy_equals_the_explicit_definition(
    words: list[str], proper: bool, seed: int
) -> None:
    inst = WordsnakeInstance(tuple(words), proper=proper)
    lv = baselines._Levels(OverlapIndex(inst.words, proper=proper))
    seq, complete = baselines._layered_once(lv, random.Random(seed))
    assert complete and seq == layered_reference(inst, random.Random(seed))
    res = baselines.layered_greedy(inst, iterations=5, seed=seed)
    assert_checked(inst, res)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(words_st, st.booleans(), st.booleans(), st.integers(0, 5))
def test_local_search_on_the_index_equals_local_search_on_the_explicit_graph(
    words: list[str], proper: bool, cyclic: bool, seed: int
) -> None:
    inst = WordsnakeInstance(tuple(words), cyclic=cyclic, proper=proper)
    ix = OverlapIndex(inst.words, proper=proper, cyclic=cyclic)
    start = list(range(inst.n))
    random.Random(seed).shuffle(start)
    new = baselines._LocalSearch(ix, list(start)).run(None)
    old = baselines._LocalSearch(ExplicitWeights(inst), list(start)).run(None)  # type: ignore[arg-type]
    assert new == old
    res = baselines.local_search(inst, seed=seed)
    assert_checked(inst, res)


@pytest.mark.slow
def test_three_long_words_are_indexed_in_memory_linear_in_their_letters() -> None:
    """Three words of 120,000 letters took 7.2 GB (every prefix stored). Measured with
    tracemalloc, the explicit structures took 1,171, 2,171 and 4,177 bytes per letter at 2,000,
    4,000 and 8,000 letters a word (quadratic in all); the index takes 264-276 at each."""
    rng = random.Random(3)
    words = tuple("".join(rng.choice("ab") for _ in range(8000)) for _ in range(3))
    inst = WordsnakeInstance(words)
    tracemalloc.start()
    res = baselines.nearest_neighbour(inst)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 400 * 24_000
    assert_checked(inst, res)


def test_a_limit_that_passes_while_indexing_gives_unknown_not_a_crash() -> None:
    from cpwords.wordsnake.spec import solve_wordsnake

    inst = WordsnakeInstance(("run", "nausea", "seasick"))
    with pytest.raises(IndexStopped):
        OverlapIndex(inst.words, deadline=0.0)
    for method in ("greedy", "layered", "local"):
        res = solve_wordsnake(inst, method, time_limit=1e-9)
        assert res.status in (Status.UNKNOWN, Status.FEASIBLE)
        assert res.status is Status.FEASIBLE or "time limit" in res.solver_info["reason"]


@pytest.mark.parametrize("method", ["greedy", "layered", "local"])
def test_the_heuristics_run_where_the_explicit_graph_would_not_fit(
    method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 23, item 3: they were refused in one line (after 7.5 GB and a MemoryError before).
    import cpwords.wordsnake.formulations.common as common
    from cpwords.wordsnake.spec import solve_wordsnake

    monkeypatch.setattr(common, "explicit_graph_bytes", lambda instance, lo: 10**15)
    inst = WordsnakeInstance(("run", "nausea", "seasick", "sickle"))
    res = solve_wordsnake(inst, method)
    assert res.status is Status.FEASIBLE and res.verified
    assert res.objective == snake_score(list(res.solution))


def test_ctrl_c_in_a_local_search_returns_the_ordering_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 23: Ctrl-C during --method local printed 'cpwords: interrupted' and no ordering
    (20,000 ENABLE words, SIGINT at 3 s). Now the scan stops at its next step and the ordering
    so far is returned, marked interrupted."""
    import signal

    real = baselines._LocalSearch.try_block_moves

    def ctrl_c_then_scan(self: baselines._LocalSearch, length: int) -> bool:
        signal.raise_signal(signal.SIGINT)
        return real(self, length)

    monkeypatch.setattr(baselines._LocalSearch, "try_block_moves", ctrl_c_then_scan)
    rng = random.Random(2)
    inst = WordsnakeInstance(
        tuple("".join(rng.choice("abc") for _ in range(5)) for _ in range(300))
    )
    res = baselines.local_search(inst)
    assert res.solver_info["interrupted"] is True
    assert_checked(inst, res)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_in_the_layered_greedy_returns_the_chains_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import signal

    real = OverlapIndex.beginning

    def ctrl_c_then_list(self: OverlapIndex, v: int):  # type: ignore[no-untyped-def]
        signal.raise_signal(signal.SIGINT)
        return real(self, v)

    monkeypatch.setattr(OverlapIndex, "beginning", ctrl_c_then_list)
    rng = random.Random(3)
    inst = WordsnakeInstance(
        tuple("".join(rng.choice("abc") for _ in range(5)) for _ in range(300))
    )
    res = baselines.layered_greedy(inst, iterations=50)
    assert res.solver_info["interrupted"] is True and res.solver_info["iterations"] == 1
    assert_checked(inst, res)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
