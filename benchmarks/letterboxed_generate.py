"""``letterboxed --generate 10 --unique`` in English, French, German and Spanish, recounted.

Runs the command (``cpwords letterboxed --generate K --unique --lang L --seed S --json``) once per
language, times it from the outside, and re-checks every box with code written here from the
rules alone (no cpwords solver or brute force): every 2-word solution is enumerated over the
lexicon the command read (the language's whole dictionary, ``whole_lexicon``) and over the
dictionary's file as ``--dict NAME`` reads it (proper nouns and all), the answer's words are
looked up in wordfreq directly, and the box's letters are compared by their base letter (NFD)
for accent twins. Prints the markdown of ``docs/reports/letterboxed-generate.md``'s tables.

Usage: ``python benchmarks/letterboxed_generate.py [--boxes 10] [--seed 0] [--langs en,fr,de,es]
[--whole]`` (``--whole``: the command reads ``--dict wamerican``, ``--dict wfrench``...).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
import unicodedata
from itertools import pairwise
from typing import Any

from wordfreq import zipf_frequency

#: The language's whole dictionary (the command's default reads its 100,000 most common words).
WHOLE = {"en": "wamerican", "fr": "wfrench", "de": "wngerman", "es": "wspanish"}


def two_word_solutions(sides: list[str], words: list[str]) -> list[tuple[str, str]]:
    """Every (w1, w2): playable words, w2 starting with w1's last letter, covering the box
    together and not w1 alone (the game ends there)."""
    side = {ch: i for i, s in enumerate(sides) for ch in s}
    letters = set(side)
    only = re.compile(f"[{re.escape(''.join(sorted(letters)))}]{{3,}}").fullmatch
    playable = sorted(
        {w for w in words if only(w) and all(side[a] != side[b] for a, b in pairwise(w))}
    )
    by_first: dict[str, list[str]] = {}
    for w in playable:
        by_first.setdefault(w[0], []).append(w)
    out = []
    for a in playable:
        sa = set(a)
        if sa >= letters:
            continue
        for b in by_first.get(a[-1], ()):
            if sa | set(b) >= letters:
                out.append((a, b))
    return out


def twins(letters: str) -> list[str]:
    """The letters that share a base letter (NFD's first code point) with another."""
    base: dict[str, set[str]] = {}
    for ch in letters:
        base.setdefault(unicodedata.normalize("NFD", ch)[0], set()).add(ch)
    return sorted(ch for group in base.values() if len(group) > 1 for ch in group)


def run(lang: str, k: int, seed: int, whole: bool) -> tuple[dict[str, Any], float]:
    """The command's JSON and its wall time (s)."""
    argv = ["cpwords", "letterboxed", "--generate", str(k), "--unique", "--lang", lang]
    argv += ["--seed", str(seed), "--json", *(["--dict", WHOLE[lang]] if whole else [])]
    t0 = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=600)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout), wall


def check(lang: str, row: dict[str, Any], whole_used: bool) -> list[dict[str, Any]]:
    """Each box recounted: its answer, floor, twins, and 2-word solutions in both lists."""
    from cpwords.core.sources import read_dictionary
    from cpwords.letterboxed.models.dp import whole_lexicon

    whole = list(read_dictionary(WHOLE[lang], lang=lang).words)
    used = whole if whole_used else list(whole_lexicon(lang).words)
    floor = row["min_zipf"]
    out = []
    for b in row["boxes"]:
        sides = b["box"].split("-")
        answer = tuple(b["solution"])
        zs = [zipf_frequency(w, lang) for w in answer]
        pairs = two_word_solutions(sides, used)
        pairs_whole = two_word_solutions(sides, whole)
        out.append(
            {
                "box": b["box"],
                "answer": answer,
                "zipf": zs,
                "above_floor": min(zs) >= floor,
                "twins": twins("".join(sides)),
                "pairs": len(pairs),
                "unique": pairs == [answer],
                "pairs_whole": len(pairs_whole),
                "difficulty": b["difficulty"],
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boxes", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--langs", default="en,fr,de,es")
    ap.add_argument("--whole", action="store_true", help="--dict the whole dictionary")
    args = ap.parse_args()
    summary = []
    for lang in args.langs.split(","):
        row, wall = run(lang, args.boxes, args.seed, args.whole)
        boxes = check(lang, row, args.whole)
        summary.append(
            f"| {lang} | {row['lexicon']} | {row['min_zipf']:g} | {row['found']} of "
            f"{row['requested']} | {row['draws']:,} | {row['wall_time']:.2f} | {wall:.2f} | "
            f"{sum(b['above_floor'] for b in boxes)} | {sum(b['unique'] for b in boxes)} | "
            f"{sum(not b['twins'] for b in boxes)} | "
            f"{sum(b['pairs_whole'] == 1 for b in boxes)} |"
        )
        print(f"\n### {lang}\n")
        print("| box | answer | Zipf | 2-word solutions (lexicon / --dict list) | difficulty |")
        print("|---|---|---|---|---|")
        for b in boxes:
            print(
                f"| {b['box']} | {'-'.join(w.upper() for w in b['answer'])} | "
                f"{' / '.join(f'{z:.2f}' for z in b['zipf'])} | {b['pairs']} / "
                f"{b['pairs_whole']} | {b['difficulty']:.2f} |"
            )
    print(
        "\n| lang | lexicon | floor | boxes | draws | generation (s) | command (s) | "
        "answers above floor | unique by brute force | no accent twins | unique in the --dict "
        "list |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
