"""Unions of two large wordfreq lists drawn at random, written as a benchmark suite (issue 46).

The issue's target is *any* union of two large lists of 1.0-1.5 M words, measured on pairs drawn
with a seed nobody picks: by default the UTC date and minute of the draw (``202612070740``).
Pairs of the languages with a large wordfreq list are drawn without repeats until ``--keep``
unions fall in the size range; every pair drawn is printed with its size, and the kept ones
become a suite::

    python benchmarks/draw_unions.py --out /tmp/drawn.toml      # seed: now, UTC
    cpwords bench /tmp/drawn.toml --isolate --jobs 1 --out /tmp/drawn.jsonl

``--seed`` draws again what an earlier draw drew (the suite's first line names its seed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def draw(
    seed: int, keep: int = 3, low: int = 1_000_000, high: int = 1_500_000
) -> tuple[list[tuple[str, str, int]], list[tuple[str, str, int]]]:
    """Draw pairs of large wordfreq lists until ``keep`` unions hold ``low..high`` words.

    Parameters
    ----------
    seed : int
        The seed of :class:`random.Random`.
    keep : int
        Unions in range to draw.
    low, high : int
        The size range, in distinct words (the lexicon ``wordfreq:a+b:1000000``).

    Returns
    -------
    drawn, kept : list of (str, str, int)
        Every pair drawn (languages sorted, size), and those in range, in the order drawn.

    Raises
    ------
    ValueError
        When every pair was drawn and fewer than ``keep`` are in range.
    """
    import wordfreq

    from cpwords.core.sources import lexicon_words

    langs = sorted(wordfreq.available_languages("large"))
    rng = random.Random(seed)
    drawn: list[tuple[str, str, int]] = []
    kept: list[tuple[str, str, int]] = []
    seen: set[tuple[str, str]] = set()
    total = len(langs) * (len(langs) - 1) // 2
    while len(kept) < keep:
        if len(seen) == total:
            raise ValueError(f"only {len(kept)} of {total} pairs hold {low:,}-{high:,} words")
        a, b = sorted(rng.sample(langs, 2))
        if (a, b) in seen:
            continue
        seen.add((a, b))
        n = len(lexicon_words(f"wordfreq:{a}+{b}:1000000"))
        drawn.append((a, b, n))
        print(f"{a}+{b} {n:,}", file=sys.stderr, flush=True)
        if low <= n <= high:
            kept.append((a, b, n))
    return drawn, kept


def suite_text(
    seed: int, drawn: list[tuple[str, str, int]], kept: list[tuple[str, str, int]]
) -> str:
    """The suite of the kept unions (the default method, 300 s each), every draw in its comments.

    Examples
    --------
    >>> kept = [("es", "ru", 1_011_603)]
    >>> print(suite_text(1, [("de", "fr", 900), *kept], kept))  # doctest: +ELLIPSIS
    # Unions drawn at random (benchmarks/draw_unions.py --seed 1); every pair drawn:
    # de+fr 900, es+ru 1,011,603 (kept)
    [suite]
    name = "wordsnake-unions-drawn"
    ...
    [[instances]]
    name = "union-es-ru"
    lexicon = "wordfreq:es+ru:1000000"
    ...
    """
    pairs = ", ".join(f"{a}+{b} {n:,}{' (kept)' if (a, b, n) in kept else ''}" for a, b, n in drawn)
    lines = [
        f"# Unions drawn at random (benchmarks/draw_unions.py --seed {seed}); every pair drawn:",
        f"# {pairs}",
        "[suite]",
        'name = "wordsnake-unions-drawn"',
        'puzzle = "wordsnake"',
        "time_limit = 300",
        "workers = 2",
        "",
    ]
    for a, b, _ in kept:
        lines += [
            "[[instances]]",
            f'name = "union-{a}-{b}"',
            f'lexicon = "wordfreq:{a}+{b}:1000000"',
            "",
        ]
    lines += ["[[methods]]", 'method = "auto"', ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Draw, print every pair and write the suite; 0, or 2 on a bad argument."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, help="default: the UTC date and minute, YYYYMMDDHHMM")
    parser.add_argument("--keep", type=int, default=3, help="unions in range to keep (3)")
    parser.add_argument("--out", type=Path, required=True, help="the suite's TOML file (new)")
    args = parser.parse_args(argv)
    if args.out.exists():
        parser.error(f"{args.out} exists: not overwritten")
    seed = args.seed if args.seed is not None else int(time.strftime("%Y%m%d%H%M", time.gmtime()))
    drawn, kept = draw(seed, args.keep)
    args.out.write_text(suite_text(seed, drawn, kept), encoding="utf-8")
    print(f"seed {seed}: {len(drawn)} drawn, {len(kept)} kept -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
