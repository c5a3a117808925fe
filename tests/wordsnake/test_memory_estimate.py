"""The string-hub solve's memory estimate against the peaks measured on whole lists (the
process trees, 2026-12-06, late evening): an upper bound with a margin on each, and not far
above any."""

from __future__ import annotations

import pytest

from cpwords.wordsnake.relaxation.string_hub import BYTES_BASE, estimate_memory, estimated_bytes
from cpwords.wordsnake.rules import WordsnakeInstance

#: (list, letters, words, measured peak in bytes): the process tree's peak (MiB x 2**20) in the
#: suites' rows and the side-by-side runs of 2026-12-06, late evening (Japanese: /usr/bin/time).
MEASURED = [
    ("C. elegans 31-mers", 30_304_205, 977_555, 4757 * 2**20),
    ("Japanese wordfreq list", 844_568, 209_187, 549_204 * 2**10),
    ("Chinese wordfreq list", 968_897, 332_191, 873 * 2**20),
    ("whole Polish dictionary", 50_100_000, 4_017_624, 5258 * 2**20),
    ("every 2nd line of the Polish dictionary", 26_500_053, 2_163_850, 2501 * 2**20),
    ("every 4th line of the Polish dictionary", 13_250_310, 1_081_925, 1291 * 2**20),
    ("ENABLE", 1_570_514, 172_823, 215 * 2**20),
    ("dict:fr", 3_431_556, 341_727, 405 * 2**20),
    ("lambda 31-mers", 1_502_632, 48_472, 304 * 2**20),
    ("1,000 words of 1,000 letters", 1_000_000, 1_000, 161 * 2**20),
    ("a word of 100,000 letters and two short ones", 100_010, 3, 102 * 2**20),
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
