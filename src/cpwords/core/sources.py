"""Where word lists come from: files, lexicon names, the shared real-data folder, samples.

One resolver for every front end: :func:`read_dictionary` is what ``--dict VALUE`` reads on
the command line and what a page's dictionary choice reads (a file, or a name that ``cpwords
lexicons`` lists: ``letterpress``, ``truncate``, ``enable1`` shipped with cpwords, ``web2``,
``wfrench``, ``dict:fr``, ``wordfreq:de:1000``, ``lang:fr``); :func:`lexicon_words` is what a
suite's ``lexicon`` names.

Paths in a suite are relative to the suite file's folder, except those starting with
``shared:``, which are relative to the project's real-data folder (``../shared/data``, see
:func:`cpwords.core.lexicon.shared_data_dir`).
"""

from __future__ import annotations

import functools
from pathlib import Path

from cpwords.core.errors import InputError, excerpt
from cpwords.core.languages import dictionary_language_lexicon, language_lexicon
from cpwords.core.lexicon import (
    WHOLE_LIST,
    Lexicon,
    english_words_lexicon,
    lexicon_from_words,
    load_dictionary,
    load_lexicon,
    shared_data_dir,
    wordfreq_lexicon,
)
from cpwords.core.wordlists import is_packaged, packaged_lexicon, packaged_lists

#: The word lists of the english-words package, by name.
ENGLISH_WORDS_LISTS = ("web2", "gcide")
#: The prefixes of the lexicon names that take an argument.
NAME_PREFIXES = ("dict:", "wordfreq:", "lang:", "shared:")


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
        ``enable1``, ``letterpress``, ``truncate`` (shipped with cpwords:
        :mod:`cpwords.core.wordlists`); ``web2`` (Webster's 2nd,
        from the english-words package; every entry, proper nouns lower-cased) and ``gcide``
        (the GNU Collaborative International Dictionary of English, same package);
        ``dict:LANG`` or ``dict:NAME`` (a curated dictionary: a language's default one, e.g.
        ``dict:fr``, or one by name, e.g. ``dict:wngerman``; a Hunspell one, ``dict:ru`` or
        ``dict:hunspell-ru``, read with every form of its stems; proper nouns left out where
        the source capitalises them: :func:`cpwords.core.dictionaries.dictionary_lexicon`; a
        dictionary's bare name, ``wfrench``, is the same);
        ``wordfreq:N`` (the N most frequent English words, a-z); ``wordfreq:LANG:N`` (the N
        most frequent entries of wordfreq's list for ``LANG``, words of any alphabet, e.g.
        ``wordfreq:de:1000000``; ``wordfreq:de+fr:N`` is the union of several languages'
        lists); ``lang:LANG`` or ``lang:LANG:N`` (what ``--lang LANG`` reads:
        :func:`cpwords.core.languages.language_lexicon`); or a path (``shared:`` prefix allowed).
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
    if _dictionary_name(name):
        name = "dict:" + name
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
    if name in ENGLISH_WORDS_LISTS:  # shipped by the english-words package
        # Every entry, proper nouns lower-cased in (as the recorded Wordsnake runs read it: a
        # benchmark's list of strings, not a game's dictionary).
        return tuple(sorted(set(english_words_lexicon(name, proper=True).words)))
    if is_packaged(name):  # the same bytes as ../shared/data's file of old
        return packaged_lexicon(name).words
    return load_lexicon(resolve_path(name, Path(base_dir))).words


def _dictionary_name(name: str) -> bool:
    """Whether ``name`` is a curated dictionary's own name (``wfrench``, ``hunspell-ru``)."""
    from cpwords.core.dictionaries import DICTIONARIES

    return any(name == d.name for d in DICTIONARIES)


def is_lexicon_name(value: str) -> bool:
    """Whether ``value`` is a lexicon name (what :func:`read_dictionary` reads when no file has
    that name): a shipped list, an english-words list, a curated dictionary's name, or a name
    with a prefix (``dict:``, ``wordfreq:``, ``lang:``, ``shared:``).

    Examples
    --------
    >>> [is_lexicon_name(v) for v in ("enable1", "web2", "wfrench", "dict:fr", "words.txt")]
    [True, True, True, True, False]
    """
    return (
        is_packaged(value)
        or value in ENGLISH_WORDS_LISTS
        or _dictionary_name(value)
        or value.startswith(NAME_PREFIXES)
    )


def lexicon_names() -> list[str]:
    """The lexicon names without an argument, in the order ``cpwords lexicons`` lists them
    (the curated dictionaries, the shipped lists, the english-words lists); with an argument
    there are also ``dict:LANG``, ``wordfreq:LANG:N``, ``lang:LANG[:N]`` and ``shared:PATH``.

    Examples
    --------
    >>> names = lexicon_names()
    >>> names[0], "letterpress" in names, names[-1]
    ('wamerican', True, 'gcide')
    """
    from cpwords.core.dictionaries import DICTIONARIES

    return [d.name for d in DICTIONARIES] + list(packaged_lists()) + list(ENGLISH_WORDS_LISTS)


def dictionary_kind(value: str, files: bool = True) -> str:
    """How :func:`read_dictionary` reads ``value``: ``"file"`` (``-``, stdin, or an existing
    path: a file wins over a name), ``"packaged"`` (a list shipped with cpwords), or
    ``"name"`` (another lexicon name).

    Parameters
    ----------
    value : str
        What ``--dict`` was given.
    files : bool
        Whether ``value`` may name a file (False on the pages: a name only, whatever files the
        server's folder holds).

    Raises
    ------
    InputError
        Neither a file nor a lexicon name: one line, pointing at ``cpwords lexicons``.

    Examples
    --------
    >>> dictionary_kind("letterpress"), dictionary_kind("dict:fr"), dictionary_kind("-")
    ('packaged', 'name', 'file')
    """
    if files and (value == "-" or Path(value).expanduser().exists()):
        return "file"
    if is_packaged(value):
        return "packaged"
    if is_lexicon_name(value) and (files or not value.startswith("shared:")):
        return "name"
    what = "neither a file nor a lexicon name" if files else "not a lexicon name"
    raise InputError(
        f"dictionary not found: {excerpt(value)} ({what}; cpwords lexicons lists the names)"
    )


def read_dictionary(
    value: str, *, lang: str = "en", fold: bool = False, proper: bool = False, files: bool = True
) -> Lexicon:
    """What ``--dict VALUE`` reads, on the command line and on the pages alike.

    Parameters
    ----------
    value : str
        A dictionary file (``-``: standard input; plain list or the Truncate ``word freq
        score`` format: :func:`cpwords.core.lexicon.load_dictionary`), or, where no file has
        that name, a lexicon name: ``letterpress``, ``truncate``, ``enable1`` (shipped with
        cpwords), ``web2``, ``gcide`` (english-words), a curated dictionary (``wamerican``,
        ``wfrench``, ``dict:fr``), ``wordfreq:N``, ``wordfreq:LANG:N``, ``lang:LANG[:N]``
        (:func:`cpwords.core.languages.language_lexicon`) or ``shared:PATH``.
    lang : str
        The case rules of a file's words (a named list has its own language).
    fold : bool
        Fold accents (:func:`cpwords.core.alphabet.fold_accents`).
    proper : bool
        Keep the proper nouns of a list that marks them by a capital (``web2``, the curated
        dictionaries); the game lists and files have none to leave out.
    files : bool
        Whether ``value`` may name a file (the pages read names only).

    Returns
    -------
    Lexicon
        Its words in any alphabet, named by the file's path or the lexicon's name
        (``letterpress``, ``wfrench``, ``english-words:web2``).

    Raises
    ------
    InputError
        A missing, unreadable or empty file; a value that is neither a file nor a lexicon
        name; a curated dictionary that is not installed (one line with its install command).

    Examples
    --------
    >>> lex = read_dictionary("enable1")
    >>> lex.source, len(lex), "aardvark" in lex
    ('enable1', 172823, True)
    """
    kind = dictionary_kind(value, files)
    if kind == "file":
        return load_dictionary(value, lang, fold)
    if kind == "packaged":
        return packaged_lexicon(value, lang=lang, alphabet="any", fold=fold)
    if value.startswith("shared:"):
        return load_dictionary(resolve_path(value, Path(".")), lang, fold)
    if value.startswith("lang:"):
        parts = value.split(":")
        if len(parts) not in (2, 3) or not parts[1] or (len(parts) == 3 and not parts[2].isdigit()):
            raise InputError(f"lexicon {value!r}: expected lang:LANG or lang:LANG:N")
        n = int(parts[2]) if len(parts) == 3 else WHOLE_LIST
        return language_lexicon(parts[1], n, fold, proper)
    if _dictionary_name(value) or value.startswith("dict:"):
        name = value.removeprefix("dict:")
        if not name:
            raise InputError(f"lexicon {value!r}: expected dict:LANG or dict:NAME (e.g. dict:fr)")
        return dictionary_language_lexicon(name, fold=fold, proper=proper)
    if value in ENGLISH_WORDS_LISTS:
        lex = english_words_lexicon(value, proper)
    else:  # wordfreq:...
        lex = Lexicon(lexicon_words(value), value)
    if not fold:
        return lex
    return lexicon_from_words(lex.words, lex.source, lang=lang, alphabet="any", fold=True)


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
    import random  # a sample's draw only (2 ms of every start otherwise)

    return sorted(random.Random(seed).sample(pool, n))
