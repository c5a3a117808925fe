"""Range queries on the distinct words, against brute force."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cpwords.wordsnake.relaxation.word_ranges import WordRanges

words = st.lists(st.text(alphabet="abé\U0001f600", min_size=1, max_size=5), unique=True)


@given(words, st.text(alphabet="abé\U0001f600", max_size=3))
def test_the_ranges_hold_exactly_the_words_that_start_or_end_with_a_string(
    ws: list[str], s: str
) -> None:
    ws = sorted(ws)
    r = WordRanges(ws)
    assert r.rev_ids.dtype.kind == "i"
    assert r.rev_ids.tolist() == sorted(range(len(ws)), key=lambda i: ws[i][::-1])
    assert r.rev_words == [ws[i][::-1] for i in r.rev_ids.tolist()]
    lo, hi = r.starting(s)
    assert ws[lo:hi] == [w for w in ws if w.startswith(s)]
    lo, hi = r.ending(s)
    assert sorted(ws[i] for i in r.rev_ids[lo:hi].tolist()) == [w for w in ws if w.endswith(s)]
