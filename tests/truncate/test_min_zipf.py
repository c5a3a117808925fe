"""Issue 47, item 4: ``truncate --min-zipf Z``, chains of words a player knows.

Every word of the chain is at or above the floor, and the chain is a longest one of the
dictionary's common words (recounted by the brute force of ``test_truncate.py``).
"""

from __future__ import annotations

import json

import pytest

from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, zipf, zipf_floor
from cpwords.truncate.spec import continue_truncate, solve_truncate, truncate_dictionary
from tests.conftest import run_cli
from tests.truncate.test_truncate import brute_force

WORDS = ["a", "at", "ate", "late", "plate", "plates", "la", "lap", "laps", "lapse", "elapse"]
WORDS += ["elapsed", "relapsed", "i", "in", "tin", "tine", "stine", "pi", "pin", "spin"]


@pytest.mark.parametrize("floor", [0.0, 2.0, 3.0, 4.0, 5.0])
def test_the_floor_keeps_common_words_and_the_longest_chain_of_them(floor: float) -> None:
    res = solve_truncate(WORDS, min_zipf=floor, all_sequences=True)
    common = [w for w in WORDS if zipf(w) >= floor]
    longest = max(map(len, brute_force(common)))
    assert res.solution is not None and res.verified
    assert res.solution.length == longest
    assert all(zipf(w) >= floor for w in res.solution.sequence)
    assert {tuple(s) for s in res.solution.sequences} == {
        s for s in brute_force(common) if len(s) == longest
    }


def test_the_floor_of_a_lexicon_and_of_a_continuation() -> None:
    lex = Lexicon(tuple(sorted(WORDS)), "demo")
    assert zipf_floor(lex, "en", 0) is lex
    kept = zipf_floor(lex, "en", 4.0)
    assert kept.source == "demo, Zipf >= 4" and set(kept.words) == {
        w for w in WORDS if zipf(w) >= 4.0
    }
    res = continue_truncate(WORDS, "a", min_zipf=4.0)
    assert all(zipf(w) >= 4.0 for w in res.solution.sequence)
    assert all(zipf(w) >= 4.0 for w in res.solver_info["next_words"])
    for bad in (-0.5, 8.5, float("nan")):
        with pytest.raises(InputError):
            solve_truncate(WORDS, min_zipf=bad)


def test_the_default_dictionary_with_a_floor() -> None:
    lex = truncate_dictionary(min_zipf=3.0)
    assert lex.source == "truncate, Zipf >= 3" and 0 < len(lex) < len(truncate_dictionary())
    assert all(zipf(w) >= 3.0 for w in lex.words)


def test_the_command_min_zipf(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["truncate", "--min-zipf", "3", "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["min_zipf"] == 3.0 and row["lexicon"] == "truncate, Zipf >= 3"
    assert row["sequence"] and all(zipf(w) >= 3.0 for w in row["sequence"])
    code, out, _ = run_cli(["truncate", "--json"], capsys)
    assert json.loads(out)["length"] >= row["length"]  # the floor only takes words away
    for bad in ("nan", "-1", "9", "x"):
        code, out, err = run_cli(["truncate", "--min-zipf", bad], capsys)
        assert code == 2 and not out and err.count("\n") == 1, err
