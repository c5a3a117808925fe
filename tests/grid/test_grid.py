"""The prefix/suffix grid: boards, symmetry, enumeration, CP-SAT model, baseline, checker."""

from __future__ import annotations

import doctest
import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.grid.fill_spec import solve_grid
from cpwords.grid.heuristics import backtrack_count, backtrack_quadruples, centre_out_order
from cpwords.grid.models.cpsat import (
    build_grid_model,
    count_completions,
    cpsat_all_boards,
    cpsat_quadruples,
    enumerate_quadruples,
)
from cpwords.grid.models.index import build_index, reduce_pairs
from cpwords.grid.models.listing import count_matchings, match_slots
from cpwords.grid.rules import (
    Board,
    CheckerLexicon,
    GridTokens,
    common_tokens,
    cut_words,
    default_board,
    draw_grid,
    drop_plurals,
    grid_problems,
    parse_board,
    parse_fill,
)
from cpwords.grid.symmetry import board_automorphisms, board_symmetry

BOARD = default_board()

# A small board with the same dihedral symmetry: centre + 4 corners around the suffix ring.
SQUARE = Board(
    "square",
    ("s1", "s2", "s3", "s4"),
    ("c", "ne", "se", "sw", "nw"),
    (
        *(("c", s) for s in ("s1", "s2", "s3", "s4")),
        ("ne", "s1"),
        ("ne", "s2"),
        ("se", "s2"),
        ("se", "s3"),
        ("sw", "s3"),
        ("sw", "s4"),
        ("nw", "s4"),
        ("nw", "s1"),
    ),
)

# A board whose automorphism group has a non-trivial kernel: a and b are twins (same
# neighbours), so swapping them fixes every suffix slot; swapping s1/s2 also swaps c/d.
TWINS = Board(
    "twins",
    ("s1", "s2"),
    ("a", "b", "c", "d"),
    (("a", "s1"), ("a", "s2"), ("b", "s1"), ("b", "s2"), ("c", "s1"), ("d", "s2")),
)


def dense_tokens(seed: int, n_pre: int, n_suf: int, density: float) -> GridTokens:
    """A random lexicon: 2-letter prefixes x 2-letter suffixes, each pair a word with prob."""
    rng = random.Random(seed)
    pres = rng.sample([a + b for a in "bcdfgh" for b in "aeiou"], n_pre)
    sufs = rng.sample([a + b for a in "lmnrst" for b in "aeiou"], n_suf)
    words = [p + s for p in pres for s in sufs if rng.random() < density]
    if not words:
        words = [pres[0] + sufs[0]]
    return cut_words(words, 2, 2, f"random-{seed}")


#: The letters of the random tokens: (prefix consonants, vowels, suffix consonants).
LATIN = ("bcdfgh", "aeiou", "lmnrst")
CYRILLIC = ("бвгджз", "аеиоуяё", "лмнрсш")


def planted_tokens(
    seed: int, n_pre: int, n_suf: int, noise: float, letters: tuple[str, str, str] = LATIN
) -> GridTokens:
    """A random lexicon holding the 24 words of one planted board plus random noise words."""
    rng = random.Random(seed)
    cons, vowels, cons2 = letters
    pres = rng.sample([a + b for a in cons for b in vowels], n_pre)
    sufs = rng.sample([a + b for a in cons2 for b in vowels], n_suf)
    fill = dict(zip(BOARD.suffix_slots, sufs, strict=False)) | dict(
        zip(BOARD.prefix_slots, pres, strict=False)
    )
    words = {fill[p] + fill[s] for p, s in BOARD.edges}
    words |= {p + s for p in pres for s in sufs if rng.random() < noise}
    return cut_words(
        sorted(words), 2, 2, f"planted-{seed}", lang="ru" if letters != LATIN else "en"
    )


def brute_count(board: Board, words: set[str], suffixes: tuple[str, ...], pre: list[str]) -> int:
    """Full boards with these suffixes: try every injective prefix assignment, slot by slot,
    checking the words directly against the word set (independent of every model)."""
    sfill = dict(zip(board.suffix_slots, suffixes, strict=True))
    if len(set(suffixes)) < len(suffixes):
        return 0
    slots = list(board.prefix_slots)
    nb = {p: [s for q, s in board.edges if q == p] for p in slots}

    def rec(i: int, used: set[str]) -> int:
        if i == len(slots):
            return 1
        total = 0
        for t in pre:
            if t not in used and all(t + sfill[s] in words for s in nb[slots[i]]):
                total += rec(i + 1, used | {t})
        return total

    return rec(0, set())


# ------------------------------------------------------------------------------------ boards


def test_default_board_shape() -> None:
    assert len(BOARD.prefix_slots) == 9 and len(BOARD.suffix_slots) == 4
    assert len(BOARD.edges) == 24
    assert all(BOARD.degree(s) == 6 for s in BOARD.suffix_slots)
    assert BOARD.degree("c") == 4
    assert all(BOARD.degree(v) == 2 for v in ("ne", "se", "sw", "nw"))
    assert all(BOARD.degree(v) == 3 for v in ("n", "e", "s", "w"))
    assert set(BOARD.neighbours("n")) == {"s1", "s2", "s4"}
    assert set(BOARD.neighbours("sw")) == {"s3", "s4"}
    assert parse_board(json.dumps(BOARD.to_dict())) == BOARD


def test_default_board_group_is_dihedral_of_order_8() -> None:
    autos = board_automorphisms(BOARD)
    assert len(autos) == 8
    edges = set(BOARD.edges)
    ring = ("s1", "s2", "s3", "s4")
    for g in autos:
        assert {(g[p], g[s]) for p, s in edges} == edges
        # each automorphism is a rotation or reflection of the ring s1-s2-s3-s4
        images = [ring.index(g[s]) for s in ring]
        step = (images[1] - images[0]) % 4
        assert step in (1, 3)
        assert all((images[i + 1] - images[i]) % 4 == step for i in range(3))
    sym = board_symmetry(BOARD)
    assert sym.kernel_order == 1 and sym.suffix_orbit_size == 8
    # rules pick s1 as the smallest suffix and s2 < s4 (the reflection through s1-s3)
    assert set(sym.suffix_rules) == {("s1", "s2"), ("s1", "s3"), ("s1", "s4"), ("s2", "s4")}


def test_twins_board_has_a_kernel() -> None:
    sym = board_symmetry(TWINS)
    assert sym.order == 4 and sym.kernel_order == 2 and sym.suffix_orbit_size == 2
    assert ("a", "b") in sym.prefix_rules


def test_board_json_round_trip_and_layout_drawing() -> None:
    fill = {v: v + "x" for v in BOARD.slots}
    pic = draw_grid(BOARD, fill).splitlines()
    assert len(pic) == 5 and "cx-" in pic[2] and "-s1x" in pic[1]


@pytest.mark.parametrize(
    "path",
    sorted((Path(__file__).parents[1] / "data" / "bad").glob("grid_*")),
    ids=lambda p: p.name,
)
def test_bad_board_files_raise_one_clear_error(path) -> None:  # type: ignore[no-untyped-def]
    from cpwords.grid.rules import load_board

    with pytest.raises(InputError) as exc:
        load_board(path)
    assert "\n" not in str(exc.value) and str(exc.value)


# ------------------------------------------------------------------------------------ tokens


def test_cutting_rules() -> None:
    t = cut_words(["hello", "hellos", "go", "going", "x"], 2, 2)
    assert t.pairs == (("goi", "ng"), ("hel", "lo"))  # plural dropped, short words not cut
    t3 = cut_words(["hello", "going"], 3, 2)
    assert t3.pairs == (("go", "ing"), ("he", "llo"))
    assert cut_words(["hello", "hellos"], 2, 2, plurals=True).pairs[-1] == ("hell", "os")
    assert drop_plurals(["bus", "bu"]) == ["bu"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"suffix_length": 0},
        {"suffix_length": 9},
        {"min_prefix": 0},
        {"min_prefix": 9},
    ],
    ids=lambda k: "-".join(f"{a}={b}" for a, b in k.items()),
)
def test_cut_options_out_of_range(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        cut_words(["hello"], **kwargs)


def test_empty_lexicon_is_an_error() -> None:
    with pytest.raises(InputError, match="empty"):
        cut_words(["ab", "cd"], 2, 2)
    with pytest.raises(InputError):
        common_tokens(0)


def test_preprocessing_reaches_a_fixpoint() -> None:
    pairs = [("a", "x"), ("a", "y"), ("b", "x"), ("c", "y"), ("c", "z")]
    out = reduce_pairs(pairs, 2, 2)
    # b has one partner -> gone; then x keeps only a, so x dies, then a dies ...
    assert out == []
    assert reduce_pairs(pairs, 1, 1) == pairs


# ------------------------------------------------------------------------------- matching


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 63), min_size=1, max_size=6))
def test_matching_agrees_with_hall(cands: list[int]) -> None:
    m = match_slots(cands)
    hall = all(
        bin(_union(cands, sub)).count("1") >= len(sub)
        for r in range(1, len(cands) + 1)
        for sub in itertools.combinations(range(len(cands)), r)
    )
    assert (m is not None) == hall
    if m is not None:
        assert len(set(m)) == len(cands)
        assert all(cands[i] >> m[i] & 1 for i in range(len(cands)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=0, max_size=6))
def test_matching_count_agrees_with_brute_force(cands: list[int]) -> None:
    elems = [[j for j in range(8) if c >> j & 1] for c in cands]
    brute = sum(len(set(pick)) == len(pick) for pick in itertools.product(*elems))
    assert count_matchings(cands) == brute
    assert count_matchings(cands, limit=2) == min(brute, 2)


def _union(cands: list[int], sub: tuple[int, ...]) -> int:
    u = 0
    for i in sub:
        u |= cands[i]
    return u


# ----------------------------------------------------- enumeration == baseline == CP-SAT


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(9, 10), st.integers(4, 6), st.sampled_from([0.2, 0.35]))
def test_enumeration_matches_baseline_and_brute_force(
    seed: int, n_pre: int, n_suf: int, noise: float
) -> None:
    _check_enumeration(planted_tokens(seed, n_pre, n_suf, noise))


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(9, 10), st.integers(4, 6), st.sampled_from([0.2, 0.35]))
def test_enumeration_matches_brute_force_beyond_latin(
    seed: int, n_pre: int, n_suf: int, noise: float
) -> None:
    tokens = planted_tokens(seed, n_pre, n_suf, noise, CYRILLIC)
    assert all("а" <= ch <= "ё" for w in tokens.words for ch in w)
    _check_enumeration(tokens)


def _check_enumeration(tokens: GridTokens) -> None:
    fast = enumerate_quadruples(BOARD, tokens)
    base = backtrack_quadruples(BOARD, tokens)
    assert fast.count >= 1  # the planted board
    assert fast.suffix_set() == base.suffix_set()
    sym = board_symmetry(BOARD)
    words = set(tokens.words)
    pre = sorted({p for p, _ in tokens.pairs})
    # every listed class is its own lex-leader and its example is a valid board
    for q in fast.quadruples:
        assert sym.canonical_suffixes(q.suffixes) == q.suffixes
        assert not grid_problems(BOARD, q.example, tokens.words, 2, 2)
    for q in base.quadruples:  # the baseline's example boards are full, valid boards too
        assert not grid_problems(BOARD, q.example, tokens.words, 2, 2)
    # brute force over every suffix assignment (no symmetry): feasible iff a completion exists,
    # and the feasible ones are exactly the orbits of the listed classes
    sufs = sorted({s for _, s in tokens.pairs})
    feasible = set()
    counts: dict[tuple[str, ...], int] = {}
    for quad in itertools.permutations(sufs, 4):
        n = brute_count(BOARD, words, quad, pre) if _cheap_filter(quad, tokens) else 0
        counts[quad] = n
        if n:
            feasible.add(quad)
    orbits = [sym.suffix_orbit(q.suffixes) for q in fast.quadruples]
    assert all(len(o) == 8 for o in orbits)
    assert set().union(*orbits) == feasible if orbits else not feasible
    assert sum(len(o) for o in orbits) == len(feasible)  # orbits are disjoint
    # completion counts: CP-SAT == baseline == brute force; total = sum orbit size x count
    total = 0
    for q in fast.quadruples:
        c = count_completions(BOARD, tokens, q.suffixes)
        assert c.count == backtrack_count(BOARD, tokens, q.suffixes) == counts[q.suffixes]
        assert c.count == count_completions(BOARD, tokens, q.suffixes, method="cpsat").count
        assert count_completions(BOARD, tokens, q.suffixes, limit=2).count == min(c.count, 2)
        assert c.example is not None
        assert not grid_problems(BOARD, c.example, tokens.words, 2, 2)
        total += fast.orbit_size * c.count
    assert total == sum(counts.values())
    # without symmetry breaking the enumeration lists every feasible assignment
    assert enumerate_quadruples(BOARD, tokens, break_symmetry=False).suffix_set() == feasible


def _cheap_filter(quad: tuple[str, ...], tokens: GridTokens) -> bool:
    """Skip the brute force for assignments where some suffix has fewer than 6 prefixes
    (a suffix slot has 6 distinct words); the brute force itself decides the rest."""
    return all(sum(s == q for _, s in tokens.pairs) >= 6 for q in quad)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cpsat_nogood_enumeration_matches(seed: int) -> None:
    tokens = dense_tokens(seed, 10, 5, 0.8)
    fast = enumerate_quadruples(BOARD, tokens)
    slow = cpsat_quadruples(BOARD, tokens)
    assert fast.suffix_set() == slow.suffix_set()
    for q in slow.quadruples:
        assert not grid_problems(BOARD, q.example, tokens.words, 2, 2)


@pytest.mark.parametrize("board", [SQUARE, TWINS], ids=lambda b: b.name)
@pytest.mark.parametrize("seed", [4, 5])
def test_lex_leader_keeps_exactly_one_board_per_orbit(board: Board, seed: int) -> None:
    tokens = dense_tokens(seed, 7, 5, 0.7)
    sym = board_symmetry(board)
    every = cpsat_all_boards(board, tokens, break_symmetry=False)
    leaders = cpsat_all_boards(board, tokens, break_symmetry=True)
    classes = {sym.canonical_fill(f) for f in every}
    order = board.slots
    assert {tuple(f[v] for v in order) for f in leaders} == classes
    assert len(every) == sym.order * len(leaders)  # every orbit has |G| members
    for f in every:
        assert not grid_problems(board, f, tokens.words, 2, 2)
    # quadruple classes: total boards = sum over classes of orbit size x completions
    e = enumerate_quadruples(board, tokens)
    assert sum(
        e.orbit_size * count_completions(board, tokens, q.suffixes).count for q in e.quadruples
    ) == len(every)
    # and with |K| > 1, completions come in K-orbits
    for q in e.quadruples:
        c = count_completions(board, tokens, q.suffixes)
        assert c.count == sym.kernel_order * c.count_up_to_symmetry
        assert c.count == backtrack_count(board, tokens, q.suffixes)
        assert c.count == count_completions(board, tokens, q.suffixes, method="cpsat").count


# ------------------------------------------------------------------ partial boards, checker


def test_solve_partial_board_respects_placed_tokens() -> None:
    tokens = dense_tokens(7, 10, 5, 0.8)
    e = enumerate_quadruples(BOARD, tokens)
    assert e.quadruples, "the random lexicon should admit a board"
    ex = e.quadruples[-1].example
    # place three tokens of a known board in non-canonical orientation: still completable
    partial = {"s1": ex["s3"], "s3": ex["s1"], "c": ex["c"]}
    res = solve_grid(BOARD, tokens, partial)
    # completing a board is a satisfaction problem: FEASIBLE without a bound, never OPTIMAL
    assert res.status is Status.FEASIBLE and res.bound is None and res.verified
    assert all(res.solution[v] == t for v, t in partial.items())
    # a prefix on two slots is infeasible
    bad = solve_grid(BOARD, tokens, {"c": ex["c"], "n": ex["c"]})
    assert bad.status is Status.INFEASIBLE and bad.solution is None
    with pytest.raises(InputError):
        solve_grid(BOARD, tokens, {"zz": "ab"})


def test_checker_rejects_each_broken_rule() -> None:
    tokens = dense_tokens(7, 10, 5, 0.8)
    ex = enumerate_quadruples(BOARD, tokens).quadruples[0].example
    words = tokens.words
    assert grid_problems(BOARD, ex, words, 2, 2) == []
    dup = dict(ex, n=ex["c"])
    assert any("prefix token" in p for p in grid_problems(BOARD, dup, words, 2, 2))
    swap = dict(ex, s1=ex["s2"])
    assert any("suffix token" in p for p in grid_problems(BOARD, swap, words, 2, 2))
    missing = {k: v for k, v in ex.items() if k != "w"}
    assert grid_problems(BOARD, missing, words, 2, 2) == ["slot w is empty"]
    assert grid_problems(BOARD, missing, words, 2, 2, partial=True) == []
    nonword = dict(ex, ne="zz")
    assert any("not a word" in p for p in grid_problems(BOARD, nonword, words, 2, 2))
    assert any("letters" in p for p in grid_problems(BOARD, dict(ex, s2="abc"), words, 2, 2))


def test_checker_lexicon_gives_the_same_verdicts_as_the_words() -> None:
    """A lexicon normalised once (for many boards) checks like the raw word list, case and
    normal form included."""
    tokens = dense_tokens(7, 10, 5, 0.8)
    ex = enumerate_quadruples(BOARD, tokens).quadruples[0].example
    raw = [w.upper() for w in tokens.words]  # the checker lower-cases the words it is given
    lex = CheckerLexicon.of(raw)
    assert lex == {w.lower() for w in raw} and CheckerLexicon.of(lex) is lex
    boards = [ex, dict(ex, n=ex["c"]), dict(ex, ne="zz"), {k: v for k, v in ex.items() if k != "w"}]
    for fill in boards:
        assert grid_problems(BOARD, fill, lex, 2, 2) == grid_problems(BOARD, fill, raw, 2, 2)
    assert grid_problems(BOARD, ex, lex, 2, 2) == []
    on_board = ex["c"] + ex["s1"]  # a word of the board, left out of the lexicon
    less = CheckerLexicon.of(w for w in raw if w.lower() != on_board)
    assert any(on_board in p for p in grid_problems(BOARD, ex, less, 2, 2))


def test_parse_fill_forms() -> None:
    assert parse_fill('{"c": "Ba", "s1": "ck"}') == {"c": "ba", "s1": "ck"}
    assert parse_fill("c=ba, s1=ck") == {"c": "ba", "s1": "ck"}
    for bad in ("c:ba", "c=b4", "{not json"):
        with pytest.raises(InputError):
            parse_fill(bad)


def test_model_domains_and_search_order() -> None:
    tokens = dense_tokens(8, 10, 5, 0.8)
    idx = build_index(tokens, BOARD)
    gm = build_grid_model(BOARD, idx, {"s1": "qq"})
    assert not gm.feasible  # a suffix that is not a token cannot be placed
    assert centre_out_order(BOARD)[:5] == ["c", "s1", "s2", "s3", "s4"]


# --------------------------------------------------------------------------- real lexicon


def test_seed_2000_words_admit_no_board() -> None:
    """The seed's author found no board with the 2,000 most common words."""
    tokens = common_tokens(2000, 2, 2)
    assert enumerate_quadruples(BOARD, tokens).count == 0
    assert backtrack_quadruples(BOARD, tokens).count == 0


@pytest.mark.slow
def test_wordfreq_5000_matches_baseline_and_cpsat_sample() -> None:
    tokens = common_tokens(5000, 2, 2)
    fast = enumerate_quadruples(BOARD, tokens)
    assert fast.count > 0
    base = backtrack_quadruples(BOARD, tokens)
    assert fast.suffix_set() == base.suffix_set()
    for q in base.quadruples:
        assert not grid_problems(BOARD, q.example, tokens.words, 2, 2)
    for q in fast.quadruples:
        assert not grid_problems(BOARD, q.example, tokens.words, 2, 2)
        c = count_completions(BOARD, tokens, q.suffixes, method="cpsat")
        assert c.count == backtrack_count(BOARD, tokens, q.suffixes)
        assert c.count == count_completions(BOARD, tokens, q.suffixes).count


@pytest.mark.slow
def test_wordfreq_10000_cpsat_cross_check_on_a_sample() -> None:
    """CP-SAT agrees with the matching enumeration on sampled accepted and rejected
    suffix assignments (feasibility and completion counts)."""
    tokens = common_tokens(10000, 2, 2)
    fast = enumerate_quadruples(BOARD, tokens)
    found = fast.suffix_set()
    rng = random.Random(0)
    sample = rng.sample(fast.quadruples, 6)
    for q in sample:
        c = count_completions(BOARD, tokens, q.suffixes, method="cpsat")
        assert c.count >= 1 and c.count == backtrack_count(BOARD, tokens, q.suffixes)
        assert c.count == count_completions(BOARD, tokens, q.suffixes).count
    sym = board_symmetry(BOARD)
    sufs = build_index(tokens, BOARD).suffixes
    rejected = 0
    while rejected < 6:
        quad = tuple(rng.sample(sufs, 4))
        if sym.canonical_suffixes(quad) != quad or quad in found:
            continue
        assert count_completions(BOARD, tokens, quad, method="cpsat").count == 0
        assert count_completions(BOARD, tokens, quad).count == 0
        rejected += 1


# ------------------------------------------------------------------------------- doctests


@pytest.mark.parametrize(
    "modname",
    [
        "cpwords.grid.rules.boards",
        "cpwords.grid.rules.filled",
        "cpwords.grid.rules.tokens",
        "cpwords.grid.models.listing",
        "cpwords.grid.models.index",
        "cpwords.grid.symmetry",
        "cpwords.grid.heuristics",
    ],
)
def test_doctests(modname: str) -> None:
    import importlib

    res = doctest.testmod(importlib.import_module(modname))
    assert res.failed == 0 and res.attempted > 0


def test_tokens_nfc_nfd_turkish_and_folding() -> None:
    import unicodedata

    from cpwords.grid.rules import parse_fill, parse_suffixes

    words = ["kafé", "kalé", "ıslak", "café"]
    nfc = cut_words(words, 2, 2, lang="fr")
    nfd = cut_words([unicodedata.normalize("NFD", w) for w in words], 2, 2, lang="fr")
    assert nfc == nfd and ("ka", "fé") in nfc.pairs
    # English drops plurals by its rule; other languages keep every word
    assert cut_words(["chat", "chats"], 2, 2, lang="fr").words == ("chat", "chats")
    assert cut_words(["cat", "cats"], 1, 2).words == ("cat",)
    # Turkish I is ı; folded accents merge café and cafe into one word
    assert cut_words(["ISLAK"], 2, 2, lang="tr").words == ("ıslak",)
    assert cut_words(["café", "cafe"], 2, 2, fold=True).words == ("cafe",)
    assert parse_fill("s1=FÉ, c=ka") == {"s1": "fé", "c": "ka"}
    assert parse_fill("s1=FÉ", fold=True) == {"s1": "fe"}
    assert parse_suffixes("ÉE,te,TS,té", BOARD) == ("ée", "te", "ts", "té")
    with pytest.raises(InputError, match="is not letters"):
        parse_suffixes("é1,te,ts,té", BOARD)
