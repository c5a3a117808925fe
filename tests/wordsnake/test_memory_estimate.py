"""The string-hub solve's memory estimate against the peaks measured on whole lists (the
command line's process tree, ``/usr/bin/time``, 2026-12-06): an upper bound with a margin on
each, and not far above any."""

from __future__ import annotations

import pytest

from cpwords.wordsnake.relaxation.string_hub import BYTES_BASE, estimate_memory, estimated_bytes
from cpwords.wordsnake.rules import WordsnakeInstance

#: (list, letters, words, measured peak in bytes).
MEASURED = [
    ("C. elegans 31-mers", 30_304_205, 977_555, 6_460_000_000),
    ("Japanese wordfreq list", 844_568, 209_187, 1_000_000_000),
    ("Chinese wordfreq list", 968_897, 332_191, 1_070_000_000),
    ("whole Polish dictionary", 50_100_000, 4_017_624, 7_060_000_000),
    ("every 2nd Polish word", 26_500_053, 2_163_850, 3_390_000_000),
    ("every 4th Polish word", 13_250_310, 1_081_925, 1_572_000_000),
    ("ENABLE", 1_570_514, 172_823, 237_500_000),
    ("wfrench", 3_489_848, 346_205, 492_800_000),
    ("lambda 31-mers", 1_502_632, 48_472, 343_600_000),
    ("1,000 words of 1,000 letters", 1_000_000, 1_000, 213_300_000),
    ("three words of 33,000 letters", 100_010, 3, 114_800_000),
]


@pytest.mark.parametrize(("name", "letters", "words", "peak"), MEASURED)
def test_the_estimate_bounds_each_measured_peak_with_a_margin(
    name: str, letters: int, words: int, peak: int
) -> None:
    est = estimated_bytes(letters, words)
    assert est >= 1.2 * peak, name  # an upper bound with 20 % to spare
    # and not far above it: at most 2.2 x, or twice a small list's peak and the base
    assert est <= max(2.2 * peak, 2 * peak + BYTES_BASE), name


def test_the_estimate_of_an_instance_counts_its_letters_and_words() -> None:
    inst = WordsnakeInstance(("seasick", "sickle", "lemon", "onset", "onset"))
    assert estimate_memory(inst) == estimated_bytes(7 + 6 + 5 + 5 + 5, 5)
    assert estimated_bytes(10, 2) < estimated_bytes(11, 2) <= estimated_bytes(11, 3)
