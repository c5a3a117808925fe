"""Wordsnake in the study: seeded lexicon samples or word-list files; exact models and heuristics.

Instance tables (keys): ``file`` (a word list), ``words`` (inline list), or ``lexicon`` alone
(the whole lexicon) or with ``n``, ``seed`` and optional ``min_len`` / ``max_len`` (a seeded
sample, see :func:`cpwords.bench.sources.sample_words`); plus ``cyclic`` and ``proper``.
Two generated families where heuristics are tested harder:

* ``alphabet`` with ``n``, ``seed`` and optional ``min_len`` / ``max_len`` (default 3 and 8):
  ``n`` random strings over a small alphabet (long overlaps, many ties, repeats), see
  :func:`random_strings`;
* ``lexicon`` with ``distinct = k``: ``n`` items drawn with replacement from ``k`` sampled words
  (a list with many repeats), see :func:`repeated_sample`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...lexicon import read_word_list
from ...puzzles.wordsnake import WordsnakeInstance, check_snake
from ...result import SolveResult
from ...wordsnake import solve_wordsnake
from ..adapter import MethodInfo, PuzzleAdapter, call_method
from ..sources import lexicon_words, resolve_path, sample_words

_METHODS: dict[str, MethodInfo] = {
    "auto": MethodInfo(
        "exact",
        description="the default: string-hub flow, certificate, repair, Lagrangian bound, routes",
    ),
    "cpsat-routes": MethodInfo("exact", description="path cover with CP-SAT's routes constraint"),
    "mip": MethodInfo(
        "exact", description="letter-hub model: min-cost-flow relaxation, then MIP cuts (HiGHS)"
    ),
    "mip-scip": MethodInfo("exact", description="the same, with SCIP for the cut rounds"),
    "cpsat": MethodInfo("exact", description="CP-SAT on the letter-hub model with lazy cuts"),
    "naive": MethodInfo("exact", description="CP-SAT AddCircuit over the complete n x n graph"),
    "layered": MethodInfo("heuristic", seeded=True, description="the seed's layered greedy"),
    "greedy": MethodInfo("heuristic", seeded=True, description="nearest-neighbour greedy"),
    "local": MethodInfo("heuristic", seeded=True, description="nearest neighbour + local search"),
    "ortools-routing": MethodInfo(
        "heuristic", description="peer: OR-Tools routing, guided local search until the limit"
    ),
    "lkh": MethodInfo(
        "heuristic", seeded=True, description="peer: LKH-3 through elkai (cpwords[peers])"
    ),
}


def random_strings(
    alphabet: str, n: int, seed: int, min_len: int = 3, max_len: int = 8
) -> list[str]:
    """``n`` seeded random strings over ``alphabet`` with lengths uniform in [min_len, max_len].

    The same generator as ``benchmarks/bench_wordsnake.py``'s small-alphabet family, so the two
    name the same lists for the same ``(n, seed)``; repeats are kept (they are separate items).

    Raises
    ------
    InputError
        An alphabet that is not lower-case a-z letters, or bad sizes.
    """
    import random

    if not (alphabet.isascii() and alphabet.isalpha() and alphabet.islower()):
        raise InputError(f"alphabet {alphabet!r} must be lower-case a-z letters")
    if n <= 0 or not 1 <= min_len <= max_len:
        raise InputError(f"bad sizes: n={n}, min_len={min_len}, max_len={max_len}")
    rng = random.Random(1000 * n + seed)
    return [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(min_len, max_len)))
        for _ in range(n)
    ]


def repeated_sample(
    lexicon: str, n: int, distinct: int, seed: int, base_dir: Path, min_len: int, max_len: int
) -> list[str]:
    """``n`` items drawn (seeded, with replacement) from ``distinct`` sampled lexicon words."""
    import random

    pool = sample_words(lexicon, distinct, seed, base_dir, min_len=min_len, max_len=max_len)
    rng = random.Random(seed)
    return sorted(rng.choice(pool) for _ in range(n))


def make_instance(spec: Mapping[str, Any], base_dir: Path) -> WordsnakeInstance:
    """Build a :class:`WordsnakeInstance` from one instance table."""
    sources = [k for k in ("file", "words", "lexicon", "alphabet") if k in spec]
    if len(sources) != 1:
        raise InputError(
            "a wordsnake instance needs exactly one of 'file', 'words', 'lexicon', 'alphabet'"
        )
    if "file" in spec:
        words = read_word_list(resolve_path(str(spec["file"]), base_dir))
    elif "words" in spec:
        words = [str(w) for w in spec["words"]]
    elif "alphabet" in spec:
        for k in ("n", "seed"):
            if not isinstance(spec.get(k), int):
                raise InputError(f"random strings need an integer {k!r}")
        words = random_strings(
            str(spec["alphabet"]), int(spec["n"]), int(spec["seed"]),
            min_len=int(spec.get("min_len", 3)), max_len=int(spec.get("max_len", 8)),
        )  # fmt: skip
    elif "distinct" in spec:
        for k in ("n", "seed", "distinct"):
            if not isinstance(spec.get(k), int):
                raise InputError(f"a repeated sample needs an integer {k!r}")
        words = repeated_sample(
            str(spec["lexicon"]), int(spec["n"]), int(spec["distinct"]), int(spec["seed"]),
            base_dir, int(spec.get("min_len", 1)), int(spec.get("max_len", 99)),
        )  # fmt: skip
    elif "n" not in spec and "seed" not in spec:  # the whole lexicon
        words = list(lexicon_words(str(spec["lexicon"]), str(base_dir)))
    else:
        for k in ("n", "seed"):
            if not isinstance(spec.get(k), int):
                raise InputError(f"a lexicon sample needs an integer {k!r}")
        words = sample_words(
            str(spec["lexicon"]),
            int(spec["n"]),
            int(spec["seed"]),
            base_dir,
            min_len=int(spec.get("min_len", 1)),
            max_len=int(spec.get("max_len", 99)),
        )
    return WordsnakeInstance(
        tuple(words),
        cyclic=bool(spec.get("cyclic", False)),
        proper=bool(spec.get("proper", False)),
        name=str(spec.get("name", "wordsnake")),
    )


def run(
    instance: WordsnakeInstance,
    method: str,
    *,
    seed: int,
    time_limit: float,
    workers: int,
    params: Mapping[str, Any],
) -> SolveResult:
    """Run one named method (see ``ADAPTER.methods``) through :func:`solve_wordsnake`.

    ``params`` may hold ``iterations`` (layered greedy) and ``hint``.
    """
    return call_method(
        solve_wordsnake, instance, method, params=params, seed=seed, time_limit=time_limit,
        workers=workers,
    )  # fmt: skip


def check(instance: WordsnakeInstance, result: SolveResult) -> bool:
    """The puzzle's independent checker on a returned snake."""
    return check_snake(instance, list(result.solution), float(result.objective or 0))


#: Orderings longer than this are stored as a summary in study rows (a whole dictionary's
#: ordering would make each row megabytes long).
ROW_MAX_WORDS = 1_000


def solution_json(solution: Any) -> Any:
    """A study row's copy of an ordering: the words, or for long ones a summary.

    Returns
    -------
    list of str or dict
        Up to ``ROW_MAX_WORDS`` words as they are; longer orderings as ``{"words": n,
        "first": [...20 words], "sha256": hex digest of the words joined by newlines}``.
    """
    words = list(solution)
    if len(words) <= ROW_MAX_WORDS:
        return words
    import hashlib

    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()
    return {"words": len(words), "first": words[:20], "sha256": digest}


ADAPTER = PuzzleAdapter(
    puzzle="wordsnake",
    sense="max",
    methods=_METHODS,
    make_instance=make_instance,
    run=run,
    size=lambda inst: inst.n,
    check=check,
    solution_json=solution_json,
    size_label="words",
    spec_keys=frozenset(
        {"file", "words", "lexicon", "n", "seed", "min_len", "max_len", "cyclic", "proper"}
        | {"alphabet", "distinct"}
    ),
    objective_label="sum of squared overlaps",
)
