"""Word chains: the MIP equals brute force, every chain passes the checker, the heuristic never
beats the proven optimum, the cuts are needed and work, the CLI and bad input."""

from __future__ import annotations

import doctest
import json
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cpwords
import cpwords.chain.heuristics as heuristics
import cpwords.chain.models.trail as trail
import cpwords.chain.rules as rules
import cpwords.chain.spec as spec
from cpwords.chain.rules import ChainInstance, chain_problems, chain_value
from cpwords.chain.spec import chain_instance, solve_chain
from cpwords.cli import main
from cpwords.cli._common import RESULT_KEYS
from cpwords.core.errors import InputError
from cpwords.core.result import Status

HERE = Path(__file__).parent


def brute_force(inst: ChainInstance) -> int | None:
    """The best chain value by trying every sequence of distinct words (None: no chain)."""
    k = inst.overlap
    usable = [w for w in inst.words if len(w) >= k]
    best: list[int | None] = [None]

    def grow(path: list[str], value: int) -> None:
        if inst.end is None or path[-1] == inst.end:
            if best[0] is None or value > best[0]:
                best[0] = value
            if inst.end is not None:
                return  # the fixed last word ends the chain
        for w in usable:
            if w not in path and w[:k] == path[-1][-k:]:
                grow([*path, w], value + (len(w) if inst.objective == "letters" else 1))

    for w in usable:
        if inst.start is None or w == inst.start:
            grow([w], len(w) if inst.objective == "letters" else 1)
    return best[0]


def random_instance(rng: random.Random) -> ChainInstance:
    """A tiny list over a small alphabet, a random overlap, objective and fixed ends."""
    k = rng.choice([1, 2])
    words = list(
        dict.fromkeys(
            "".join(rng.choice("abc") for _ in range(rng.randint(1, 4)))
            for _ in range(rng.randint(1, 9))
        )
    )
    if not any(len(w) >= k for w in words):
        words.append("ab" if k == 2 else "a")
    long = [w for w in words if len(w) >= k]
    start = rng.choice([None, None, *long])
    end = rng.choice([None, None, *long])
    return chain_instance(words, k, rng.choice(["words", "letters"]), start, end)


CASES = [random_instance(random.Random(i)) for i in range(60)]


def test_doctests() -> None:
    for mod in (rules, heuristics, trail, spec):
        assert doctest.testmod(mod).failed == 0


@pytest.mark.parametrize("inst", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_mip_equals_brute_force_and_passes_the_checker(inst: ChainInstance) -> None:
    best = brute_force(inst)
    res = solve_chain(inst)
    if best is None:
        assert res.status is Status.INFEASIBLE and res.solution is None
        return
    assert res.status is Status.OPTIMAL, (inst, res)
    assert res.objective == res.bound == best
    assert res.verified is True
    assert chain_problems(res.solution, set(inst.words), inst.overlap, inst.start, inst.end) == []
    assert chain_value(res.solution, inst.objective) == best


@pytest.mark.parametrize("inst", CASES[:30], ids=[f"case{i}" for i in range(30)])
def test_heuristic_never_beats_the_optimum(inst: ChainInstance) -> None:
    best = brute_force(inst)
    res = solve_chain(inst, "random-dfs", seed=3)
    assert res.bound is None and res.status is not Status.OPTIMAL
    if res.solution is not None:
        assert res.verified is True
        assert best is not None and res.objective is not None and res.objective <= best


def test_all_variants_are_covered() -> None:
    seen = {(c.overlap, c.objective, c.start is not None, c.end is not None) for c in CASES}
    assert {(k, o) for k, o, _, _ in seen} == {
        (1, "words"),
        (1, "letters"),
        (2, "words"),
        (2, "letters"),
    }
    assert any(s for _, _, s, _ in seen) and any(e for _, _, _, e in seen)
    assert any(s and e for _, _, s, e in seen)


def test_two_cycles_need_a_cut() -> None:
    # Without connectivity cuts the flow model takes both cycles (4 words); a chain has 3 at
    # most (ab, ba, ab is not allowed: distinct words), and the cut loop must get there.
    words = ["ab", "ba", "aab", "cd", "dc"]
    res = solve_chain(words)
    assert res.status is Status.OPTIMAL and res.objective == brute_force(chain_instance(words))
    assert res.solver_info["rounds"] >= 2 and res.solver_info["cuts"] >= 1


def test_a_word_as_long_as_the_overlap_links_to_itself_once() -> None:
    words = ["ab", "cab", "abc"]
    res = solve_chain(words, overlap=2)
    assert res.status is Status.OPTIMAL and res.solution == ("cab", "ab", "abc")


def test_words_shorter_than_the_overlap_take_no_part() -> None:
    inst = chain_instance(["a", "ab", "bc"], 2)
    assert inst.usable() == ("ab", "bc")
    res = solve_chain(inst)
    assert res.objective == 1 and "a" not in res.solution


def test_the_checker_refuses_bad_chains() -> None:
    words = {"abc", "cde", "efg", "ab"}
    assert chain_problems([], words, 1) == ["the chain is empty"]
    assert any("not in the list" in p for p in chain_problems(["abc", "cat"], words, 1))
    assert any("used twice" in p for p in chain_problems(["abc", "cde", "efg", "abc"], words, 1))
    assert any("link 1" in p for p in chain_problems(["abc", "efg"], words, 1))
    assert any("shorter than" in p for p in chain_problems(["ab"], words, 3))
    assert any("starts at" in p for p in chain_problems(["cde"], words, 1, start="abc"))
    assert any("ends at" in p for p in chain_problems(["cde"], words, 1, end="efg"))
    assert chain_problems(["abc", "cde", "efg"], words, 1, "abc", "efg") == []


def test_solve_through_the_seam() -> None:
    inst = chain_instance(["seasick", "kiln", "nausea", "dog"])
    res = cpwords.solve("chain", inst)
    assert res.method == "trail-mip" and res.verified and res.objective == 3
    assert cpwords.solve("chain", inst, "random-dfs").verified


def test_fixed_ends_that_cannot_meet_are_infeasible() -> None:
    res = solve_chain(["ab", "cd"], start="ab", end="cd")
    assert res.status is Status.INFEASIBLE and res.solution is None


@pytest.mark.parametrize(
    ("words", "kwargs", "message"),
    [
        ([], {}, "empty"),
        (["ab"], {"start": "zz"}, "not in the word list"),
        (["ab"], {"end": "zz"}, "not in the word list"),
        (["ab", "c"], {"overlap": 2, "end": "c"}, "shorter than the overlap"),
        (["a"], {"overlap": 2}, "at least 2 letters"),
        (["ab"], {"objective": "points"}, "objective"),
    ],
)
def test_bad_instances(words: list[str], kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        chain_instance(words, **kwargs)


def _cli(args: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


@pytest.mark.parametrize(
    ("lines", "extra", "message"),
    [
        ("", [], "empty"),
        ("seasick\nkiln\n", ["--start", "zebra"], "not in the word list"),
        ("seasick\nkiln\n", ["--end", "k", "--overlap", "2"], "not in the word list"),
        ("seasick\nkiln\n", ["--overlap", "0"], "overlap"),
        ("seasick\nki1n\n", [], "line 2"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: str, extra: list[str], message: str
) -> None:
    f = tmp_path / "words.txt"
    f.write_text(lines, encoding="utf-8")
    code, out, err = _cli(["chain", str(f), *extra], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_cli_json_has_the_shared_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "words.txt"
    f.write_text("Seasick\nkiln\nnausea\ndog\nkiln\n", encoding="utf-8")
    code, out, _ = _cli(["chain", str(f), "--json", "--maximise", "letters"], capsys)
    row = json.loads(out)
    assert code == 0
    assert list(row)[:11] == list(RESULT_KEYS)
    assert row["status"] == "OPTIMAL" and row["verified"] is True and row["gap"] == 0
    assert row["solution"] == row["chain"] == ["seasick", "kiln", "nausea"]
    assert row["objective"] == row["letters"] == 17 and row["words"] == 3
    assert row["list_size"] == 4 and row["maximise"] == "letters"


def test_cli_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "words.txt"
    f.write_text("seasick\nkiln\nnausea\n", encoding="utf-8")
    code, out, _ = _cli(["chain", str(f), "--method", "random-dfs"], capsys)
    assert code == 0 and "seasick -> kiln -> nausea" in out and "FEASIBLE" in out


def _pokemon() -> list[str]:
    text = (HERE / "pokemon70.txt").read_text(encoding="utf-8")
    return [w.strip() for w in text.splitlines() if w.strip() and not w.startswith("#")]


def test_pokemon_rosetta_task() -> None:
    # Rosetta Code's "Last letter-first letter": 70 names, the longest chain has 23.
    names = _pokemon()
    assert len(names) == 70
    res = solve_chain(names)
    assert res.status is Status.OPTIMAL and res.objective == 23 and res.verified
    dfs = solve_chain(names, "random-dfs", seed=1)
    assert dfs.objective is not None and dfs.objective <= 23


@pytest.mark.slow
def test_bigger_random_lists_match_brute_force() -> None:
    rng = random.Random(12345)
    for _ in range(40):
        words = list(
            dict.fromkeys(
                "".join(rng.choice("abcd") for _ in range(rng.randint(2, 5))) for _ in range(12)
            )
        )
        for k in (1, 2):
            for objective in ("words", "letters"):
                inst = chain_instance(words, k, objective)
                res = solve_chain(inst)
                assert res.status is Status.OPTIMAL and res.verified
                assert res.objective == brute_force(inst)


@pytest.mark.slow
def test_enable_one_letter_chain_is_proven(shared_data: Path) -> None:
    from cpwords.chain.spec import load_chain_instance

    inst = load_chain_instance(str(shared_data / "enable1.txt"))
    res = solve_chain(inst, time_limit=300)
    assert res.status is Status.OPTIMAL and res.verified is True
    assert res.objective == res.bound == len(res.solution)
    dfs = cpwords.solve("chain", inst, "random-dfs", steps=20_000)
    assert dfs.verified is True and dfs.objective is not None
    assert dfs.objective <= res.objective


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["seasick", "kiln", "nausea", "run", "lemon", "nab"]), max_size=5))
def test_check_text_agrees_with_the_rules(chain: list[str]) -> None:
    # cpwords chain --check-text gives the checker's verdict, its problems and exit status.
    import json as _json

    from click.testing import CliRunner

    from cpwords.chain.rules import chain_problems
    from cpwords.cli import cli

    words = ["seasick", "kiln", "nausea", "run", "lemon"]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "w.txt"
        path.write_text("\n".join(words) + "\n")
        res = CliRunner().invoke(
            cli, ["chain", str(path), "--check-text", " ".join(chain) or " ", "--json"]
        )
    row = _json.loads(res.output)
    expected = chain_problems(chain, set(words), 1)
    assert row["problems"] == expected and row["valid"] is (not expected)
    assert res.exit_code == (0 if not expected else 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=1, max_value=40), st.integers(min_value=1, max_value=3))
def test_the_drawing_has_a_row_per_word_and_marks_every_shared_letter(n: int, k: int) -> None:
    from cpwords.chain.draw import MAX_DRAWN, chain_svg

    rng = random.Random(n * 7 + k)
    chain = ["".join(rng.choice("abc") for _ in range(rng.randint(k, 9)))]
    for _ in range(n - 1):
        chain.append(chain[-1][-k:] + "".join(rng.choice("abc") for _ in range(rng.randint(0, 12))))
    svg = chain_svg(chain, k)
    drawn = min(len(chain), MAX_DRAWN)
    assert svg.count('class="word"') == drawn
    shared = 0
    for i, w in enumerate(chain[:drawn]):  # a word of k letters shares the same cells twice
        cells = set(range(k)) if i else set()
        shared += len(cells | (set(range(len(w) - k, len(w))) if i < drawn - 1 else set()))
    assert svg.count('class="cell shared"') == shared
    assert svg.count('class="letter"') == sum(map(len, chain[:drawn]))
    with pytest.raises(ValueError):
        chain_svg([*chain, "zz" * k], k)  # a link that shares nothing


def test_cli_svg_draws_the_proven_chain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cpwords.cli import main

    words = tmp_path / "w.txt"
    words.write_text("seasick\nkiln\nnausea\nrun\n")
    with pytest.raises(SystemExit) as exc:
        main(["chain", str(words), "--svg", str(tmp_path / "c.svg")])
    assert exc.value.code in (0, None)
    svg = (tmp_path / "c.svg").read_text()
    assert svg.count('class="word"') == 3 and "OPTIMAL" in svg


@pytest.mark.slow
def test_compare_never_puts_the_search_above_the_proven_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cpwords.cli import main

    rng = random.Random(5)
    words = {"".join(rng.choice("abcde") for _ in range(rng.randint(2, 6))) for _ in range(300)}
    f = tmp_path / "w.txt"
    f.write_text("\n".join(sorted(words)) + "\n")
    with pytest.raises(SystemExit) as exc:
        main(["chain", str(f), "--compare", "--time-limit", "20", "--json"])
    row = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and row["status"] == "OPTIMAL"
    exact, search = row["comparison"]
    assert (exact["method"], search["method"]) == ("trail-mip", "random-dfs")
    assert exact["objective"] == row["objective"] >= search["objective"] > 0
    assert exact["verified"] and search["verified"] and exact["gap_to_optimum"] == 0
    assert search["gap_to_optimum"] == pytest.approx(1 - search["objective"] / exact["objective"])
