"""Issue 47, item 3: Truncate help from where the player stands (``--from WORD``): the proven
longest continuation and whether the word is a dead end, against a brute force."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cpwords.core.errors import InputError
from cpwords.core.result import Status
from cpwords.truncate.spec import continue_truncate
from tests.conftest import run_cli
from tests.truncate.test_truncate import brute_force, lexicons

WORDS = ["a", "la", "lap", "laps", "clap", "claps", "lapse"]


@settings(max_examples=100, deadline=None)
@given(lexicons, st.data())
def test_the_longest_continuation_and_dead_ends_agree_with_a_brute_force(
    words: list[str], data: st.DataObject
) -> None:
    word = data.draw(st.sampled_from(sorted(words)))
    from_word = [s for s in brute_force(words) if s[0] == word]
    best = max(map(len, from_word))
    longest = {s for s in from_word if len(s) == best}
    nxt = sorted(
        w for w in set(words) if len(w) == len(word) + 1 and word in (w[1:], w[:-1])
    )  # a plain scan of the words, not the DAG
    res = continue_truncate(words, word, all_sequences=True)
    assert res.status is Status.OPTIMAL and res.verified
    assert res.solution.sequence[0] == word and res.solution.sequence in longest
    assert set(res.solution.sequences) == longest and res.solution.count == len(longest)
    info = res.solver_info
    assert info["plays_left"] == best - 1
    assert info["next_words"] == nxt
    assert info["dead_end"] is (not nxt) is (best == 1)


def test_a_dead_end_is_reported_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    res = continue_truncate(WORDS, "claps")
    info = res.solver_info
    assert info["dead_end"] is True and info["plays_left"] == 0 and info["next_words"] == []
    assert res.solution.sequence == ("claps",)
    f = tmp_path / "t.txt"
    f.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    code, out, _ = run_cli(["truncate", "--dict", str(f), "--from", "CLAPS"], capsys)
    assert code == 0
    assert "dead end    yes: no word is it plus one letter at either end" in out.splitlines()
    assert "length      1 play: claps and 0 more (proven longest: exhaustive DP)" in out
    code, out, _ = run_cli(["truncate", "--dict", str(f), "--from", "lap", "--json"], capsys)
    row = json.loads(out)
    assert code == 0 and row["sequence"] == ["lap", "clap", "claps"]
    assert row["from"] == "lap" and row["plays_left"] == 2 and row["dead_end"] is False
    assert row["next_words"] == ["clap", "laps"] and row["status"] == "OPTIMAL"


@pytest.mark.parametrize(
    "args",
    [["--from", "lapsed"], ["--from", "lap", "--start", "la"], ["--from", "lap", "--end", "claps"]],
)
def test_a_word_off_the_dictionary_is_one_line_exit_2(
    tmp_path: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.txt"
    f.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    code, out, err = run_cli(["truncate", "--dict", str(f), *args], capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("cpwords: error: "), err
    with pytest.raises(InputError, match="'lapsed' is not in the dictionary"):
        continue_truncate(WORDS, "lapsed")


def test_the_command_s_query_is_the_continuation_or_the_longest_sequence() -> None:
    """truncate_query (what `cpwords truncate` calls) answers --from by continue_truncate and
    the rest by solve_truncate, and refuses --from with --start or --end; its JSON row holds
    the continuation's keys only for --from."""
    from cpwords.core.lexicon import lexicon_from_words
    from cpwords.truncate.spec import solve_truncate, truncate_query, truncate_row

    lex = lexicon_from_words(WORDS, "seven")
    here = truncate_query(lex, from_word="lap", all_sequences=True)
    assert here.solution == continue_truncate(lex, "lap", all_sequences=True).solution
    whole = truncate_query(lex, ending="lapse")
    assert whole.solution == solve_truncate(lex, ending="lapse").solution
    with pytest.raises(InputError, match="drop --start and --end"):
        truncate_query(lex, from_word="lap", starting="a")
    with pytest.raises(InputError, match="drop --start and --end"):
        truncate_query(lex, from_word="lap", ending="claps")
    row = truncate_row(here, lex, min_zipf=1.5)
    assert (
        row["from"] == "lap" and row["dead_end"] is False and row["next_words"] == ["clap", "laps"]
    )
    assert row["sequences"] == [list(s) for s in here.solution.sequences] and row["complete"]
    assert (row["lexicon"], row["lexicon_size"], row["min_zipf"]) == ("seven", 7, 1.5)
    assert "from" not in truncate_row(whole, lex) and "sequences" not in truncate_row(whole, lex)
