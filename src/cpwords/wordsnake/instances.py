"""Wordsnake instances: read from a word-list file, built from a study suite's instance table
(a file, inline words, a lexicon or a sample of it, random strings over a small alphabet, a
sample with repeats), and the built-in demonstration list.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cpwords.core.alphabet import is_word, normalize_word
from cpwords.core.errors import InputError
from cpwords.core.lexicon import parse_word_lines, read_word_list
from cpwords.core.sources import lexicon_words, resolve_path, sample_words
from cpwords.wordsnake.rules import WordsnakeInstance


def random_strings(
    alphabet: str, n: int, seed: int, min_len: int = 3, max_len: int = 8
) -> list[str]:
    """``n`` seeded random strings over ``alphabet`` with lengths uniform in [min_len, max_len].

    Repeats are kept (they are separate items).

    Raises
    ------
    InputError
        An alphabet that is not lower-case letters (of any script), or bad sizes.
    """
    import random

    if not is_word(alphabet) or normalize_word(alphabet) != alphabet:
        raise InputError(f"alphabet {alphabet!r} must be lower-case letters")
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
            str(spec["alphabet"]),
            int(spec["n"]),
            int(spec["seed"]),
            min_len=int(spec.get("min_len", 3)),
            max_len=int(spec.get("max_len", 8)),
        )
    elif "distinct" in spec:
        for k in ("n", "seed", "distinct"):
            if not isinstance(spec.get(k), int):
                raise InputError(f"a repeated sample needs an integer {k!r}")
        words = repeated_sample(
            str(spec["lexicon"]),
            int(spec["n"]),
            int(spec["distinct"]),
            int(spec["seed"]),
            base_dir,
            int(spec.get("min_len", 1)),
            int(spec.get("max_len", 99)),
        )
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
        score=str(spec.get("score", "squared")),
    )


def builtin_instance(cyclic: bool = False, proper: bool = False) -> WordsnakeInstance:
    """The built-in demonstration list (``cpwords snake`` without a file).

    Returns
    -------
    WordsnakeInstance
        The words of ``cpwords/data/wordsnake_demo.txt`` (written for this project).
    """
    from importlib import resources  # the demo only: tempfile, random and more (3 ms)

    text = resources.files("cpwords.data").joinpath("wordsnake_demo.txt").read_text("utf-8")
    return WordsnakeInstance(
        tuple(parse_word_lines(text, "wordsnake_demo.txt")), cyclic, proper, "builtin-demo"
    )


def load_instance(
    path: str,
    cyclic: bool = False,
    proper: bool = False,
    *,
    lang: str | None = None,
    fold: bool = False,
    skip_invalid: bool = False,
) -> WordsnakeInstance:
    """Read a Wordsnake instance from a word-list file, in any alphabet.

    Parameters
    ----------
    path : str
        One word a line, UTF-8 (see :func:`cpwords.core.lexicon.parse_word_lines`).
    cyclic, proper : bool
        The variant.
    lang : str, optional
        The words' language, for its case rules (``"tr"``: dotted and dotless i).
    fold : bool
        Fold accents (``é`` -> ``e``; :func:`cpwords.core.alphabet.fold_accents`).
    skip_invalid : bool
        Leave out the lines that are not words (a warning says how many and where) instead
        of refusing the list.

    Returns
    -------
    WordsnakeInstance

    Raises
    ------
    InputError
        Missing, unreadable or non-UTF-8 file, lines that are not words (a digit,
        punctuation, a space inside it; unless ``skip_invalid``), an empty list.
    """
    words = read_word_list(path, lang=lang, fold=fold, skip_invalid=skip_invalid)
    return WordsnakeInstance(tuple(words), cyclic, proper, str(path))
