"""The tree certificate's check against the root-only check of the same certificate (issue 31).

Target: checking a certificate with a proof tree takes under 2x the time of checking the same
certificate with its tree removed (the root's values alone, as a version 1 check would). Each
list is solved once with ``certificate=True`` (the certificate is kept in ``--dir`` and reused),
then both checks run interleaved ``--pairs`` times; a row per list gives both medians, the ratio
of the medians and the median of the pair ratios::

    python benchmarks/check_ratio.py --pairs 15 --repeats 3 \\
        --out benchmarks/results/certified/check-ratio-2026-11-29.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time
from pathlib import Path

from cpwords.wordsnake.certificate import (
    Certificate,
    read_certificate,
    verify_certificate,
    write_certificate,
)
from cpwords.wordsnake.spec import WordsnakeInstance, random_strings, solve_wordsnake

#: The lists whose proofs need a tree: (name, alphabet, n, seed, shortest, longest).
LISTS = (
    ("ab-30000-1", "ab", 30_000, 1, 6, 12),
    ("ab-10000-1", "ab", 10_000, 1, 6, 12),
    ("abc-1000-3", "abc", 1_000, 3, 3, 8),
)


def tree_certificate(words: list[str], path: Path, time_limit: float) -> Certificate:
    """The certificate the default exact method writes for ``words`` (cached at ``path``)."""
    if not path.exists():
        res = solve_wordsnake(WordsnakeInstance(tuple(words)), "exact", time_limit=time_limit,
                              certificate=True)  # fmt: skip
        cert = res.solver_info.get("certificate")
        if cert is None:
            why = res.solver_info.get("certificate_error")
            raise SystemExit(f"{path.name}: no certificate ({why})")
        write_certificate(cert, path)
    return read_certificate(path)


def measure(words: list[str], cert: Certificate, pairs: int) -> dict[str, object]:
    """Both checks interleaved ``pairs`` times: medians (s) and ratios."""
    root = dataclasses.replace(cert, tree=(), target=None, core=None)
    tree_s: list[float] = []
    root_s: list[float] = []
    statuses = set()
    for _ in range(pairs):
        t = time.perf_counter()
        a = verify_certificate(words, cert)
        tree_s.append(time.perf_counter() - t)
        t = time.perf_counter()
        b = verify_certificate(words, root)
        root_s.append(time.perf_counter() - t)
        statuses.add((a.status, b.status))
    return {
        "nodes": len(cert.tree),
        "statuses": sorted(statuses),
        "tree_median_s": round(statistics.median(tree_s), 5),
        "root_only_median_s": round(statistics.median(root_s), 5),
        "ratio_of_medians": round(statistics.median(tree_s) / statistics.median(root_s), 3),
        "median_pair_ratio": round(
            statistics.median(x / y for x, y in zip(tree_s, root_s, strict=True)), 3
        ),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=15, help="interleaved pairs per row")
    ap.add_argument("--repeats", type=int, default=1, help="rows per list")
    ap.add_argument("--dir", type=Path, default=Path("/tmp/check-ratio"),
                    help="where the certificates are kept")  # fmt: skip
    ap.add_argument("--time-limit", type=float, default=300.0, help="per solve, seconds")
    ap.add_argument("--out", type=Path, help="append the rows here (JSON lines)")
    args = ap.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    for name, alphabet, n, seed, lo, hi in LISTS:
        words = random_strings(alphabet, n, seed, lo, hi)
        cert = tree_certificate(words, args.dir / f"{name}.json", args.time_limit)
        for repeat in range(args.repeats):
            row = {"list": name, "repeat": repeat, "pairs": args.pairs,
                   **measure(words, cert, args.pairs)}  # fmt: skip
            print(json.dumps(row))
            if args.out is not None:
                with args.out.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
