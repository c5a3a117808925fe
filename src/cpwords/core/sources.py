"""Where suite instances come from: files, the shared real-data folder, seeded lexicon samples.

Paths in a suite are relative to the suite file's folder, except those starting with
``shared:``, which are relative to the project's real-data folder (``../shared/data``, see
:func:`cpwords.core.lexicon.shared_data_dir`). A lexicon is named by a path or by one of the
built-in names below.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

from cpwords.core.errors import InputError
from cpwords.core.lexicon import (
    WHOLE_LIST,
    english_words_lexicon,
    language_lexicon,
    load_lexicon,
    shared_data_dir,
    wordfreq_lexicon,
)

#: Lexicon names that resolve to files of the shared real-data folder.
NAMED_LEXICONS: dict[str, str] = {
    "enable1": "enable1.txt",
    "letterpress": "letterpress-en.txt",
    "truncate": "truncate-final-wordlist.txt",
}


def resolve_path(path: str, base_dir: Path) -> Path:
    """Resolve a suite path (``shared:`` prefix or relative to ``base_dir``).

    Raises
    ------
    InputError
        When a ``shared:`` path is used and the shared data folder is absent, or the file does
        not exist.
    """
    if path.startswith("shared:"):
        root = shared_data_dir()
        if root is None:
            raise InputError(f"{path}: the shared data folder (../shared/data) is absent")
        p = root / path[len("shared:") :]
    else:
        p = Path(path).expanduser()
        if not p.is_absolute():
            p = base_dir / p
    if not p.exists():
        raise InputError(f"file not found: {p} (from {path!r})")
    return p


@functools.lru_cache(maxsize=8)
def lexicon_words(name: str, base_dir: str = ".") -> tuple[str, ...]:
    """The sorted distinct words of a named lexicon.

    Parameters
    ----------
    name : str
        ``enable1``, ``letterpress``, ``truncate`` (shared data); ``web2`` (Webster's 2nd,
        from the english-words package; every entry, proper nouns lower-cased) and ``gcide``
        (the GNU Collaborative International Dictionary of English, same package);
        ``dict:LANG`` or ``dict:NAME`` (a curated dictionary: a language's default one, e.g.
        ``dict:fr``, or one by name, e.g. ``dict:wngerman``; a Hunspell one, ``dict:ru`` or
        ``dict:hunspell-ru``, read with every form of its stems; proper nouns left out where
        the source capitalises them: :func:`cpwords.core.dictionaries.dictionary_lexicon`);
        ``wordfreq:N`` (the N most frequent English words, a-z); ``wordfreq:LANG:N`` (the N
        most frequent entries of wordfreq's list for ``LANG``, words of any alphabet, e.g.
        ``wordfreq:de:1000000``; ``wordfreq:de+fr:N`` is the union of several languages'
        lists); ``lang:LANG`` or ``lang:LANG:N`` (what ``--lang LANG`` reads:
        :func:`cpwords.core.lexicon.language_lexicon`); or a path (``shared:`` prefix allowed).
    base_dir : str
        Folder that relative paths are resolved against.

    Returns
    -------
    tuple of str

    Raises
    ------
    InputError
        A malformed name, an unknown or absent file, or a ``dict:`` dictionary that cpwords
        does not know or that is not installed (one line with the command that installs it).
    """
    if name.startswith("dict:"):
        from cpwords.core.dictionaries import dictionary_lexicon

        if not name[len("dict:") :]:
            raise InputError(f"lexicon {name!r}: expected dict:LANG or dict:NAME (e.g. dict:fr)")
        return dictionary_lexicon(name[len("dict:") :]).words
    if name.startswith("wordfreq:"):
        parts = name.split(":")
        try:
            n = int(parts[-1])
        except ValueError:
            raise InputError(
                f"lexicon {name!r}: expected wordfreq:N or wordfreq:LANG:N with an integer N"
            ) from None
        if len(parts) == 2:
            return tuple(sorted(set(wordfreq_lexicon(n))))
        if len(parts) != 3 or not parts[1]:
            raise InputError(f"lexicon {name!r}: expected wordfreq:LANG:N (LANG like de or de+fr)")
        words: set[str] = set()
        for lang in parts[1].split("+"):
            words.update(wordfreq_lexicon(n, lang, alphabet="any"))
        return tuple(sorted(words))
    if name.startswith("lang:"):
        parts = name.split(":")
        if len(parts) not in (2, 3) or not parts[1] or (len(parts) == 3 and not parts[2].isdigit()):
            raise InputError(f"lexicon {name!r}: expected lang:LANG or lang:LANG:N")
        n = int(parts[2]) if len(parts) == 3 else WHOLE_LIST
        return language_lexicon(parts[1], n).words
    if name in ("web2", "gcide"):  # shipped by the english-words package
        # Every entry, proper nouns lower-cased in (as the recorded Wordsnake runs read it: a
        # benchmark's list of strings, not a game's dictionary).
        return tuple(sorted(set(english_words_lexicon(name, proper=True).words)))
    if name in NAMED_LEXICONS:
        name = "shared:" + NAMED_LEXICONS[name]
    return load_lexicon(resolve_path(name, Path(base_dir))).words


def sample_words(
    lexicon: str,
    n: int,
    seed: int,
    base_dir: Path,
    min_len: int = 1,
    max_len: int = 99,
) -> list[str]:
    """``n`` distinct words drawn uniformly (seeded) from a lexicon, length-filtered.

    The draw depends only on the lexicon, the filters, ``n`` and ``seed``, so a suite names the
    same instance on every machine that has the same word list.

    Raises
    ------
    InputError
        When fewer than ``n`` words pass the filter or ``n`` is not positive.
    """
    if n <= 0:
        raise InputError(f"sample size must be positive, got {n}")
    pool = [w for w in lexicon_words(lexicon, str(base_dir)) if min_len <= len(w) <= max_len]
    if len(pool) < n:
        raise InputError(f"lexicon {lexicon!r} has only {len(pool)} words of the asked lengths")
    return sorted(random.Random(seed).sample(pool, n))
