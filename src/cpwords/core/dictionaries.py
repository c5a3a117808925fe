"""Curated dictionaries: which words are valid, apart from how common they are.

A word game's notion of "a word" is a dictionary's: Debian's word lists (``wfrench``,
``wngerman``, ``wpolish``, ...) and, for languages without one, Hunspell's dictionaries
(``hunspell-ru``, ``hunspell-cs``: stems and affix rules, every form expanded by
:mod:`cpwords.core.hunspell`) say what is valid; frequency (``wordfreq``'s Zipf values) only
ranks the dictionary's words by how common they are. ``wordfreq``'s own lists (words seen in
web text: names, brands, fragments) stay available by name for those who want them
(``wordfreq:LANG:N`` in :func:`cpwords.core.sources.lexicon_words`), never as a language's
dictionary.

Proper nouns are left out by default where the source marks them by a capital letter (every
list here but German's, where every noun is capitalised: there the capitals mark no proper
noun, and every entry is kept); ``proper=True`` keeps them. In Russian and Czech too a
capital marks a proper noun (``Москва/H``, ``Praha``) or an abbreviation (``ЧПУ``), and every
form of a capitalised stem stays capitalised, so they are left out the same way.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from operator import itemgetter
from pathlib import Path

from cpwords.core.alphabet import normalize_words, word_flags
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, sorted_distinct, zipf

#: Where Debian's word lists live (``$CPWORDS_DICT_DIR`` overrides it: a folder, or ``none`` for
#: a machine without any, as the README's fresh-machine check runs the tests).
DICT_DIR = Path("/usr/share/dict")
#: Where Debian's Hunspell dictionaries live (``$CPWORDS_DICT_DIR``, when set, stands for it
#: too: one folder of fixtures, or ``none``, hides both kinds).
HUNSPELL_DIR = Path("/usr/share/hunspell")


@dataclass(frozen=True)
class Dictionary:
    """A curated dictionary cpwords can read.

    Attributes
    ----------
    name : str
        The lexicon's name (the Debian package's).
    lang : str
        ISO 639-1 code of its language.
    language : str
        The language's English name.
    file : str
        Its file name in :data:`DICT_DIR` (a word list), or the name of its ``.dic``/``.aff``
        pair in :data:`HUNSPELL_DIR` without the extension (a Hunspell dictionary).
    licence : str
        The licence its package states (``/usr/share/doc/<package>/copyright``).
    encoding : str
        The file's text encoding.
    capitals_mark_proper_nouns : bool
        Whether a capitalised entry is a proper noun (False for German, which capitalises
        every noun).
    hunspell : bool
        A Hunspell dictionary (stems and affix rules, :mod:`cpwords.core.hunspell`) rather
        than a plain word list; its encoding is the ``.aff`` file's ``SET``.
    """

    name: str
    lang: str
    language: str
    file: str
    licence: str
    encoding: str = "utf-8"
    capitals_mark_proper_nouns: bool = True
    hunspell: bool = False

    @property
    def package(self) -> str:
        """The Debian package that installs it."""
        return self.name

    @property
    def install(self) -> str:
        """The one command that installs it."""
        return f"apt-get install {self.package}"

    @property
    def path(self) -> Path:
        """Where its file (a Hunspell dictionary's ``.dic``) is once installed."""
        if self.hunspell:
            return hunspell_dir() / f"{self.file}.dic"
        return dict_dir() / self.file

    @property
    def aff_path(self) -> Path | None:
        """A Hunspell dictionary's ``.aff`` file (None for a word list)."""
        return hunspell_dir() / f"{self.file}.aff" if self.hunspell else None

    def installed(self) -> bool:
        """Whether its file (both, for Hunspell) is on this machine."""
        aff = self.aff_path
        return self.path.is_file() and (aff is None or aff.is_file())

    def entries(self) -> int:
        """Its entries when installed: a word list's lines, a Hunspell dictionary's stems."""
        return count_lines(self.path) - (1 if self.hunspell else 0)

    def read_entries(self) -> str:
        """Its entries, one a line: a word list's text, or every form of a Hunspell
        dictionary (:func:`cpwords.core.hunspell.expanded_words`, cached).

        Raises
        ------
        InputError
            A file that cannot be read or decoded.
        """
        if self.aff_path is not None:
            from cpwords.core.hunspell import expanded_words

            return "\n".join(expanded_words(self.path, self.aff_path))
        try:
            return self.path.read_text(encoding=self.encoding)
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(
                f"cannot read the {self.language} dictionary {self.path}: {exc}"
            ) from None


def dict_dir() -> Path:
    """The folder of the word lists: ``$CPWORDS_DICT_DIR`` when set (``none``: a folder that
    does not exist, so that no dictionary is installed), else :data:`DICT_DIR`."""
    env = os.environ.get("CPWORDS_DICT_DIR")
    if env:
        return Path("/nonexistent/cpwords-dictionaries") if env == "none" else Path(env)
    return DICT_DIR


def hunspell_dir() -> Path:
    """The folder of the Hunspell dictionaries: ``$CPWORDS_DICT_DIR``'s (see :func:`dict_dir`)
    when it is set, else :data:`HUNSPELL_DIR`."""
    return dict_dir() if os.environ.get("CPWORDS_DICT_DIR") else HUNSPELL_DIR


_GPL = "GPL-2+"
_SCOWL = "SCOWL (permissive, MIT-like; parts public domain)"
#: The dictionaries cpwords knows, by language: the first of a language is its default. The
#: licences are those the packages' ``/usr/share/doc/<package>/copyright`` states.
DICTIONARIES: tuple[Dictionary, ...] = (
    Dictionary("wamerican", "en", "English (US)", "american-english", _SCOWL),
    Dictionary("wbritish", "en-gb", "English (UK)", "british-english", _SCOWL),
    Dictionary("wfrench", "fr", "French", "french", _GPL),
    Dictionary(
        "wngerman",
        "de",
        "German",
        "ngerman",
        "GPL-2+ / BSD-4-clause",
        capitals_mark_proper_nouns=False,
    ),
    Dictionary("wspanish", "es", "Spanish", "spanish", "public domain"),
    Dictionary("witalian", "it", "Italian", "italian", "GPL-3+"),
    Dictionary(
        "wpolish", "pl", "Polish", "polish", "GPL-2 / LGPL-2.1 / MPL-1.1 / Apache-2.0 / CC-BY-4.0"
    ),
    Dictionary("wportuguese", "pt", "Portuguese", "portuguese", "GPL-2+ / LGPL-2.1+ / MPL-1.1"),
    Dictionary("wswedish", "sv", "Swedish", "swedish", _GPL, encoding="latin-1"),
    Dictionary("wdutch", "nl", "Dutch", "dutch", "BSD-3-Clause / CC-BY-3.0 (OpenTaal)"),
    Dictionary("wdanish", "da", "Danish", "danish", _GPL),
    Dictionary("wnorwegian", "nb", "Norwegian Bokmål", "bokmaal", "GPL", encoding="latin-1"),
    Dictionary("wcatalan", "ca", "Catalan", "catalan", _GPL),
    Dictionary("wukrainian", "uk", "Ukrainian", "ukrainian", "GPL / LGPL"),
    Dictionary("wbulgarian", "bg", "Bulgarian", "bulgarian", "GPL-2"),
    # Hunspell dictionaries (LibreOffice's, packaged by Debian) where no word list exists.
    Dictionary("hunspell-ru", "ru", "Russian", "ru_RU", "BSD-4-clause (A. Lebedev)", hunspell=True),
    Dictionary("hunspell-cs", "cs", "Czech", "cs_CZ", "GPL-2", hunspell=True),
)


def find_dictionary(name: str) -> Dictionary:
    """The dictionary named ``name`` (a package name such as ``wfrench``) or the default one of
    a language code (``fr``).

    Raises
    ------
    InputError
        When cpwords knows no such dictionary (one line naming the known languages).

    Examples
    --------
    >>> find_dictionary("fr").name, find_dictionary("wngerman").lang
    ('wfrench', 'de')
    """
    for d in DICTIONARIES:
        if name in (d.name, d.lang):
            return d
    known = ", ".join(d.lang for d in DICTIONARIES)
    raise InputError(f"no dictionary for {name!r} (languages with one: {known})")


def has_dictionary(lang: str) -> bool:
    """Whether cpwords knows a dictionary for ``lang`` (installed or not)."""
    return any(lang in (d.name, d.lang) for d in DICTIONARIES)


def parse_dictionary_text(
    text: str, lang: str, *, proper: bool = False, capitals_mark_proper_nouns: bool = True
) -> tuple[list[str], int, int]:
    """The words of a dictionary's text: one entry a line, normalised (NFC, lower case).

    Parameters
    ----------
    text : str
        The whole file.
    lang : str
        Its language (for its case rules: :func:`cpwords.core.alphabet.normalize_word`).
    proper : bool
        Keep the capitalised entries that mark proper nouns.
    capitals_mark_proper_nouns : bool
        Whether a capitalised entry is a proper noun in this source.

    Returns
    -------
    (list of str, int, int)
        The distinct words, sorted; the entries skipped as proper nouns; the entries skipped as
        not words (an apostrophe, a hyphen, a digit).

    Examples
    --------
    >>> parse_dictionary_text("Paris\\nparis\\nÉté\\nété\\naujourd'hui\\nchat\\n", "fr")
    (['chat', 'paris', 'été'], 2, 1)
    >>> parse_dictionary_text("Haus\\nBerlin\\ngehen\\n", "de", capitals_mark_proper_nouns=False)
    (['berlin', 'gehen', 'haus'], 0, 0)
    """
    # Whole lists at a time (a French list's 350,000 lines): the entries, the proper nouns,
    # then one normalisation and one check of the joined entries (cpwords.core.alphabet).
    entries = list(filter(None, map(str.strip, text.splitlines())))
    proper_skipped = 0
    if capitals_mark_proper_nouns and not proper:
        capital = map(str.isupper, map(itemgetter(0), entries))
        lower = list(compress(entries, map(operator.not_, capital)))
        proper_skipped = len(entries) - len(lower)
        entries = lower
    words = normalize_words(entries, lang)
    flags = word_flags(words, "any")
    not_words = 0
    if flags is not None:
        words = list(compress(words, flags))
        not_words = len(flags) - len(words)
    return sorted_distinct(words), proper_skipped, not_words


@lru_cache(maxsize=4)
def dictionary_lexicon(name: str, proper: bool = False) -> Lexicon:
    """A curated dictionary as a :class:`~cpwords.core.lexicon.Lexicon`.

    Parameters
    ----------
    name : str
        A language code (its default dictionary) or a dictionary's name (:data:`DICTIONARIES`).
    proper : bool
        Keep proper nouns (capitalised entries, where they mark them).

    Returns
    -------
    Lexicon
        Named after the dictionary (``wfrench``, or ``wfrench with proper nouns``);
        ``skipped`` counts the entries that are not words.

    Raises
    ------
    InputError
        Unknown dictionary, or not installed here (one line with the command that installs
        it), or a file that cannot be read in its encoding.
    """
    d = find_dictionary(name)
    if not d.installed():
        raise InputError(f"the {d.language} dictionary ({d.name}) is not installed: {d.install}")
    text = d.read_entries()
    words, _proper, not_words = parse_dictionary_text(
        text,
        d.lang.split("-")[0],
        proper=proper,
        capitals_mark_proper_nouns=d.capitals_mark_proper_nouns,
    )
    if not words:
        raise InputError(f"the {d.language} dictionary {d.path} holds no words")
    label = d.name + (" with proper nouns" if proper else "")
    return Lexicon(tuple(words), label, not_words)


def ranked_words(name: str, n: int | None = None, proper: bool = False) -> list[str]:
    """A dictionary's words, most common first (``wordfreq``'s Zipf value, then alphabetical).

    Frequency only ranks: every word returned is the dictionary's. Words ``wordfreq`` has
    never seen come last.

    Parameters
    ----------
    name : str
        A language code or a dictionary's name.
    n : int, optional
        Keep the ``n`` most common (default: all).
    proper : bool
        Keep proper nouns.

    Returns
    -------
    list of str

    Raises
    ------
    InputError
        As :func:`dictionary_lexicon`, or ``n < 1``.
    """
    if n is not None and n < 1:
        raise InputError(f"the number of words must be positive, got {n}")
    d = find_dictionary(name)
    lex = dictionary_lexicon(d.name, proper)
    lang = d.lang.split("-")[0]
    ranked = sorted(lex.words, key=lambda w: (-zipf(w, lang), w))
    return ranked if n is None else ranked[:n]


# --- English's common words ------------------------------------------------------------------

#: The English list the puzzles fall back to where ``wamerican`` is not installed: Webster's
#: 2nd (the ``english-words`` package, a dependency, so on every machine).
ENGLISH_FALLBACK = "web2"


@lru_cache(maxsize=4)
def _ranked_english(proper: bool) -> tuple[tuple[str, ...], str]:
    d = find_dictionary("en")
    if d.installed():
        return tuple(ranked_words("en", None, proper)), d.name
    from cpwords.core.lexicon import english_words_lexicon

    lex = english_words_lexicon(ENGLISH_FALLBACK, proper)
    name = f"{ENGLISH_FALLBACK} ({d.name} is not installed: {d.install})"
    return tuple(sorted(lex.words, key=lambda w: (-zipf(w), w))), name


def english_common_words(n: int | None = None, proper: bool = False) -> tuple[list[str], str]:
    """The ``n`` most common English words of a dictionary, and the name of what was read.

    The puzzles' default English lexicon (Letter Boxed, the grid's common words): ``wamerican``
    (:func:`ranked_words`) where it is installed, else Webster's 2nd (``web2``, from the
    ``english-words`` package, on every machine); capitalised entries (proper nouns) left out
    unless ``proper``; ranked by wordfreq's Zipf value, which only ranks: every word is the
    dictionary's. Never wordfreq's own list, whose top words hold names (``khadija``).

    Parameters
    ----------
    n : int, optional
        Keep the ``n`` most common (default: all).
    proper : bool
        Keep proper nouns.

    Returns
    -------
    (list of str, str)
        The words, most common first; the list's name (``wamerican top 100,000``, or
        ``web2 top 100,000 (wamerican is not installed: apt-get install wamerican)``).

    Raises
    ------
    InputError
        ``n < 1``.

    Examples
    --------
    >>> words, name = english_common_words(3)
    >>> len(words), name.split()[1:3]
    (3, ['top', '3'])
    """
    if n is not None and n < 1:
        raise InputError(f"the number of words must be positive, got {n}")
    words, name = _ranked_english(proper)
    head, _, tail = name.partition(" ")
    label = (
        head + (f" top {n:,}" if n is not None else "") + (" with proper nouns" if proper else "")
    )
    return list(words[:n]), label + (f" {tail}" if tail else "")


# --- Every lexicon cpwords knows --------------------------------------------------------------

#: The English names of wordfreq's languages (``langcodes`` needs an extra package for them).
WORDFREQ_LANGUAGES: dict[str, str] = {
    "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "ca": "Catalan", "cs": "Czech",
    "da": "Danish", "de": "German", "el": "Greek", "en": "English", "es": "Spanish",
    "fa": "Persian", "fi": "Finnish", "fil": "Filipino", "fr": "French", "he": "Hebrew",
    "hi": "Hindi", "hu": "Hungarian", "id": "Indonesian", "is": "Icelandic", "it": "Italian",
    "ja": "Japanese", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian",
    "ms": "Malay", "nb": "Norwegian Bokmål", "nl": "Dutch", "pl": "Polish", "pt": "Portuguese",
    "ro": "Romanian", "ru": "Russian", "sh": "Serbo-Croatian", "sk": "Slovak", "sl": "Slovenian",
    "sv": "Swedish", "ta": "Tamil", "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu",
    "vi": "Vietnamese", "zh": "Chinese",
}  # fmt: skip

#: The lists shipped with cpwords (:mod:`cpwords.core.wordlists`): what they are.
_SHIPPED_LISTS: dict[str, str] = {
    "enable1": "ENABLE, Scrabble-style",
    "letterpress": "the game Letterpress",
    "truncate": "the game Truncate",
}

#: The word lists the ``english-words`` package ships: source, licence.
_ENGLISH_WORDS: dict[str, tuple[str, str]] = {
    "web2": ("Webster's 2nd International (1934)", "public domain"),
    "gcide": ("GNU Collaborative International Dictionary of English", "GPL-3+"),
}

#: Where the shipped lists come from: the package itself (``cpwords/data/wordlists``).
SHIPPED_INSTALL = "shipped with cpwords"


@dataclass(frozen=True)
class LexiconInfo:
    """One lexicon cpwords knows, as ``cpwords lexicons`` lists it.

    Attributes
    ----------
    name : str
        Its name, as ``--dict`` and a suite take it: a dictionary's (``wfrench``, also
        ``dict:wfrench``), a shipped list's (``enable1``), ``web2``/``gcide``, or
        ``wordfreq:LANG:N``.
    lang : str
        ISO 639-1 code of its language (``en-gb`` for British English).
    language : str
        The language's English name.
    kind : str
        ``dictionary`` (which words are valid), ``word list`` (a game's or a package's list)
        or ``frequency list`` (words seen in text, not a dictionary).
    source : str
        Where it comes from.
    licence : str
        Its licence.
    installed : bool
        Whether it can be read on this machine.
    words : int or None
        The entries of its file (lines, not parsed; a Hunspell dictionary's stems, before
        its affixes are expanded) when installed; None when unknown (not
        installed, or a wordfreq list, whose size is the ``N`` asked for).
    install : str
        The one command (or place) that installs it.
    """

    name: str
    lang: str
    language: str
    kind: str
    source: str
    licence: str
    installed: bool
    words: int | None
    install: str


def count_lines(path: Path) -> int:
    """The lines of a file, counted without decoding it (a last line without a newline counts).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d) / "w.txt"
    ...     _ = p.write_bytes(b"a\\nb\\nc")
    ...     count_lines(p)
    3
    """
    n = 0
    last = b"\n"
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (last != b"\n")


def list_lexicons() -> list[LexiconInfo]:
    """Every lexicon cpwords knows, installed or not, with the command that installs it.

    In this order: the curated dictionaries (:data:`DICTIONARIES`), the lists shipped with
    cpwords (``enable1``, ``letterpress``, ``truncate``: :mod:`cpwords.core.wordlists`, always
    installed),
    the lists of the ``english-words`` package (``web2``, ``gcide``: always installed, a
    dependency), then wordfreq's frequency lists, one per language (``wordfreq:LANG:N``).
    Nothing is parsed: a file's entries are its lines.

    Returns
    -------
    list of LexiconInfo

    Examples
    --------
    >>> rows = list_lexicons()
    >>> [r.name for r in rows][:3], rows[0].kind, rows[0].install
    (['wamerican', 'wbritish', 'wfrench'], 'dictionary', 'apt-get install wamerican')
    """
    return [*_dictionary_rows(), *_shipped_rows(), *_english_words_rows(), *_wordfreq_rows()]


def _dictionary_rows() -> list[LexiconInfo]:
    """The rows of the curated dictionaries (:data:`DICTIONARIES`)."""
    rows = []
    for d in DICTIONARIES:
        ok = d.installed()
        source = str(d.path)
        if d.hunspell:
            source = f"{hunspell_dir() / d.file}.dic/.aff (Hunspell: stems, affixes expanded)"
        rows.append(
            LexiconInfo(
                d.name,
                d.lang,
                d.language,
                "dictionary",
                source,
                d.licence,
                ok,
                d.entries() if ok else None,
                d.install,
            )
        )
    return rows


def _shipped_rows() -> list[LexiconInfo]:
    """The rows of the lists shipped with cpwords (:mod:`cpwords.core.wordlists`)."""
    from cpwords.core.wordlists import packaged_lists

    rows = []
    for name, entry in packaged_lists().items():
        source = _SHIPPED_LISTS.get(name, entry.origin)
        rows.append(
            LexiconInfo(
                name,
                "en",
                "English",
                "word list",
                f"{source} ({entry.source_file}, shipped)",
                entry.licence,
                True,
                entry.lines,
                SHIPPED_INSTALL,
            )
        )
    return rows


def _english_words_rows() -> list[LexiconInfo]:
    """The rows of the ``english-words`` package's lists."""
    rows = []
    for name, (source, licence) in _ENGLISH_WORDS.items():
        size = _english_words_size(name)
        rows.append(
            LexiconInfo(
                name,
                "en",
                "English",
                "word list",
                f"{source} (english-words)",
                licence,
                size is not None,
                size,
                "pip install english-words",
            )
        )
    return rows


def _wordfreq_rows() -> list[LexiconInfo]:
    """The rows of wordfreq's frequency lists, one per language."""
    rows = []
    for lang in _wordfreq_languages():
        rows.append(
            LexiconInfo(
                f"wordfreq:{lang}:N",
                lang,
                WORDFREQ_LANGUAGES.get(lang, lang),
                "frequency list",
                "wordfreq: words seen in text, not a dictionary",
                "Apache-2.0 (code) / CC-BY-SA-4.0 (data)",
                True,
                None,
                "pip install wordfreq",
            )
        )
    return rows


def _english_words_size(source: str) -> int | None:
    """The entries of an ``english-words`` list (None when the package lacks it)."""
    try:
        from english_words import get_english_words_set

        return len(get_english_words_set([source], alpha=False, lower=False))
    except (ImportError, ValueError, OSError):
        return None


def _wordfreq_languages() -> list[str]:
    """wordfreq's languages, sorted (none without the package)."""
    try:
        from wordfreq import available_languages
    except ImportError:
        return []
    return sorted(available_languages())
