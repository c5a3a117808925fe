"""Every word a bag of letters can spell: a bitset index, built once per lexicon, cached on disk.

A word ``w`` can be spelled from a bag ``b`` iff for every letter ``c``, ``count_w(c) <= b(c)``.
Equivalently ``w`` is *not* in any of the sets ``S(c, b(c) + 1)``, where ``S(c, k)`` is the set
of words with at least ``k`` copies of ``c``. The index stores one bitset per ``(c, k)`` (one bit
per word, ``k`` up to the largest count of ``c`` in the lexicon: about 110 bitsets of ``n`` bits);
a query ORs at most one per letter of the alphabet with NumPy and complements the result. The
letters are the lexicon's own, in any script (:mod:`cpwords.core.alphabet`): column ``c`` is
the ``c``-th of its distinct code points, sorted (``a`` to ``z`` for English). Words are stored
in the order (length, alphabetical), so the set bits come out already sorted and a length range is a
slice of the bitsets.

The index is cached in the user's cache directory (``platformdirs``; ``$CPWORDS_CACHE_DIR``
overrides it), keyed by a SHA-256 content hash of the lexicon's source bytes (the dictionary
file, or the packaged list) and the index format version: a changed lexicon gets a new key.
See ``models/letterpress.md``.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cpwords.core.errors import InputError
from cpwords.core.languages import curated_language, language_lexicon
from cpwords.core.lexicon import (
    Lexicon,
    check_lang,
    english_words_lexicon,
    lexicon_from_words,
    parse_lexicon_bytes,
    read_file_bytes,
)
from cpwords.core.result import SolveResult, listing_status
from cpwords.core.sources import dictionary_kind, read_dictionary
from cpwords.core.wordlists import packaged_bytes
from cpwords.letterpress.rules import parse_letters

__all__ = [
    "LetterpressIndex",
    "build_letterpress_index",
    "cache_dir",
    "load_letterpress_index",
    "query_letterpress_index",
]

INDEX_FORMAT = 5  # bump whenever the layout, the parser or the word order changes (2: checksum,
# 3: any alphabet, the letters stored, 4: the rare letters' row, 5: fields split on spaces and
# tabs only, so a line with a U+2028 is no longer its first part)

#: Letters beyond this many most frequent of a lexicon are *rare*: one extra bitset holds every
#: word with a rare letter, so a bag without rare letters excludes them all in one OR
#: (wordfreq's French list has 116 letters, 0.05 % of its letters beyond the 40 most frequent).
COMMON_LETTERS = 40

#: A bag of the letters a-z only.
_AZ_BAG = re.compile("[a-z]*")

#: The letters of an English index, as code points (column c is letter 97 + c).
_AZ = np.arange(97, 123, dtype=np.uint32)


def _code_points(text: str) -> np.ndarray:
    """The code points of ``text`` (uint32), ASCII by the fast path."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.uint32)
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


#: The English default: the game's own word list (shipped with cpwords, CC0).
DEFAULT_DICTIONARY = "letterpress"
#: The name web2's index is keyed under (the list of the english-words package).
WEB2_DICTIONARY = "english-words:web2"


@dataclass
class LetterpressIndex:
    """The bitset index of one lexicon.

    Attributes
    ----------
    words : list of str
        The words, sorted by (length, word); word ``i`` is bit ``i``.
    bits : numpy.ndarray of uint64, shape (R, ceil(n / 64))
        Row ``offset[c] + k - 1`` is the bitset of ``S(c, k)``, words with at least ``k``
        copies of letter ``c`` (``alphabet[c]``), for ``k = 1 .. maxcount[c]``.
    offset : numpy.ndarray of int64, shape (A,)
        First row of each letter.
    maxcount : numpy.ndarray of int64, shape (A,)
        Largest count of each letter in a word of the lexicon.
    length_start : numpy.ndarray of int64, shape (maxlen + 2,)
        ``length_start[l]`` is the index of the first word of length >= ``l``.
    source : str
        Where the lexicon came from.
    skipped : int
        Entries of the source dropped as not words (see :mod:`cpwords.core.alphabet`).
    fingerprint : str
        Hex SHA-256 of the source content and the index format (the cache key).
    from_cache : bool
        True when this index was loaded from the on-disk cache.
    cache_problem : str
        Empty, or why the cached file of this lexicon could not be used (a corrupt file) and
        the index was rebuilt; front ends say it as a warning.
    alphabet : numpy.ndarray of uint32, shape (A,)
        The lexicon's letters as sorted code points (``a`` to ``z``, 26, for English).
    rare : numpy.ndarray of bool, shape (A,) or (0,)
        The rare letters (beyond the :data:`COMMON_LETTERS` most frequent); when any, the last
        row of ``bits`` is the bitset of the words holding one. Empty for 40 letters or fewer
        (English).
    """

    words: list[str]
    bits: np.ndarray = field(repr=False)
    offset: np.ndarray = field(repr=False)
    maxcount: np.ndarray = field(repr=False)
    length_start: np.ndarray = field(repr=False)
    source: str = "<words>"
    skipped: int = 0
    fingerprint: str = ""
    from_cache: bool = False
    cache_problem: str = ""
    alphabet: np.ndarray = field(default_factory=lambda: _AZ.copy(), repr=False)
    rare: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool), repr=False)

    def __post_init__(self) -> None:
        # An object array turns a fancy index into a list of words ~3x faster than itemgetter.
        self._word_array = np.empty(len(self.words), dtype=object)
        self._word_array[:] = self.words
        # the 26 letters a-z in columns 0-25 (English): a bag's counts by one bincount
        self._az = self.alphabet.size == 26 and bool(np.array_equal(self.alphabet, _AZ))

    @property
    def n(self) -> int:
        """Number of words."""
        return len(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def as_set(self) -> frozenset[str]:
        """The words as a frozenset (computed once; for checkers)."""
        cached = self.__dict__.get("_set")
        if cached is None:
            cached = frozenset(self.words)
            self.__dict__["_set"] = cached
        return cached

    @property
    def letters(self) -> frozenset[str]:
        """The lexicon's letters."""
        return frozenset(map(chr, self.alphabet.tolist()))

    def columns(self, text: str) -> np.ndarray:
        """The column of each letter of ``text`` (int64), -1 for a letter no word holds."""
        cps = _code_points(text)
        pos = np.searchsorted(self.alphabet, cps)
        np.minimum(pos, self.alphabet.size - 1, out=pos)
        return np.where(self.alphabet[pos] == cps, pos, -1).astype(np.int64)

    def query_indices(self, letters: str, min_length: int = 1) -> np.ndarray:
        """Indices of the words spellable from ``letters`` (int64, increasing).

        ``letters`` must already be normalised (see :func:`parse_letters`); a letter that no
        word holds is never needed, so it is left out of the bag.
        """
        if self._az and _AZ_BAG.fullmatch(letters):
            bag = np.bincount(np.frombuffer(letters.encode("ascii"), np.uint8) - 97, minlength=26)
        else:
            cols = self.columns(letters)
            bag = np.bincount(cols[cols >= 0], minlength=self.alphabet.size)
        maxlen = self.length_start.size - 2
        lo = int(self.length_start[min(max(min_length, 1), maxlen + 1)])
        hi = int(self.length_start[min(len(letters), maxlen) + 1])
        if lo >= hi:
            return np.zeros(0, dtype=np.int64)
        w0, w1 = lo >> 6, (hi + 63) >> 6
        tight = np.flatnonzero(bag < self.maxcount)
        if self.rare.size and not bag[self.rare].any():  # one row excludes every rare letter
            tight = tight[~self.rare[tight]]
            rows = np.append(self.offset[tight] + bag[tight], self.bits.shape[0] - 1)
        else:
            rows = self.offset[tight] + bag[tight]
        if rows.size:
            bad = np.bitwise_or.reduce(self.bits[rows, w0:w1], axis=0)
            good = np.invert(bad, out=bad)
        else:
            good = np.full(w1 - w0, np.uint64(0xFFFFFFFFFFFFFFFF), dtype=np.uint64)
        nz = np.flatnonzero(good)
        if nz.size * 5 > good.size * 3:  # dense (measured crossover ~60%): unpack everything
            idx = np.flatnonzero(np.unpackbits(good.view(np.uint8), bitorder="little"))
        else:  # sparse: unpack only the non-zero bytes
            g8 = good.view(np.uint8)
            nz8 = np.flatnonzero(g8)
            sub = np.unpackbits(g8[nz8], bitorder="little").reshape(-1, 8)
            r, col = np.nonzero(sub)
            idx = nz8[r] * 8 + col
        idx = idx + (w0 << 6)
        return idx[(idx >= lo) & (idx < hi)]

    def query(
        self,
        letters: str,
        min_length: int = 1,
        limit: int | None = None,
        longest_first: bool = False,
    ) -> tuple[list[str], int]:
        """Words spellable from ``letters`` and their total number.

        Parameters
        ----------
        letters : str
            The bag, letters of any script (normalised here).
        min_length : int
            Shortest word to list (letters).
        limit : int, optional
            List at most this many (after ordering).
        longest_first : bool
            Order by decreasing length (then alphabetically) instead of increasing.

        Returns
        -------
        (list of str, int)
            The listed words and the number of all matching words (before ``limit``).
        """
        letters = parse_letters(letters)
        idx = self.query_indices(letters, min_length)
        total = int(idx.size)
        if longest_first and total:
            lens = np.searchsorted(self.length_start, idx, side="right")
            idx = idx[np.lexsort((idx, -lens))]
        if limit is not None:
            idx = idx[:limit]
        return self._word_array[idx].tolist(), total


def _order_and_counts(
    words: Iterable[str],
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Words in (length, word) order, their lengths, the alphabet (sorted code points) and the
    letter counts, shape (n, A)."""
    ordered = sorted(words, key=lambda w: (len(w), w))
    n = len(ordered)
    lens = np.fromiter(map(len, ordered), dtype=np.int64, count=n)
    cps = _code_points("".join(ordered))
    alphabet = np.unique(cps)
    rows = np.repeat(np.arange(n, dtype=np.int64), lens)
    a = alphabet.size
    if a <= 64:  # one bincount (English: 26 columns)
        cols = np.searchsorted(alphabet, cps).astype(np.int64)
        counts = np.bincount(rows * a + cols, minlength=n * a).reshape(n, a)
    else:  # large alphabets: one column at a time, in int32, to keep n * A small
        cols = np.searchsorted(alphabet, cps)
        order = np.argsort(cols, kind="stable")
        cuts = np.searchsorted(cols[order], np.arange(a + 1))
        counts = np.zeros((n, a), dtype=np.int32)
        for c in range(a):
            counts[:, c] = np.bincount(rows[order[cuts[c] : cuts[c + 1]]], minlength=n)
    return ordered, lens, alphabet.astype(np.uint32), counts


def build_letterpress_index(
    words: Lexicon | Iterable[str], source: str | None = None, fingerprint: str = ""
) -> LetterpressIndex:
    """Build the bitset index of a lexicon (no cache involved).

    Parameters
    ----------
    words : Lexicon or iterable of str
        The lexicon; plain iterables are normalised like
        :func:`cpwords.core.lexicon.lexicon_from_words`.
    source : str, optional
        Name to record (defaults to the lexicon's source).
    fingerprint : str
        Cache key to record; computed from the words when empty.

    Returns
    -------
    LetterpressIndex

    Raises
    ------
    InputError
        When no word is left.

    Notes
    -----
    ``O(total letters)`` for the letter counts (one ``bincount`` up to 64 letters, one per
    letter beyond), ``O(R n / 8)`` bytes of bitsets for ``R = sum(maxcount)`` rows (about 110
    for English).
    """
    lex = words if isinstance(words, Lexicon) else lexicon_from_words(words, alphabet="any")
    ordered, lens, alphabet, counts = _order_and_counts(lex.words)
    n = len(ordered)
    nw = (n + 63) // 64
    maxcount = counts.max(axis=0).astype(np.int64)
    offset = np.concatenate([[0], np.cumsum(maxcount)[:-1]]).astype(np.int64)
    rare = np.zeros(0, dtype=bool)
    if alphabet.size > COMMON_LETTERS:
        totals = counts.sum(axis=0)
        rare = np.ones(alphabet.size, dtype=bool)
        rare[np.argsort(-totals, kind="stable")[:COMMON_LETTERS]] = False
    bits = np.zeros((int(maxcount.sum()) + int(rare.any()), nw * 8), dtype=np.uint8)
    for c in range(alphabet.size):
        col = counts[:, c]
        for k in range(1, int(maxcount[c]) + 1):
            packed = np.packbits(col >= k, bitorder="little")
            bits[offset[c] + k - 1, : packed.size] = packed
    if rare.any():
        packed = np.packbits(counts[:, rare].any(axis=1), bitorder="little")
        bits[-1, : packed.size] = packed
    maxlen = int(lens[-1])
    length_start = np.searchsorted(lens, np.arange(0, maxlen + 2), side="left")
    fp = fingerprint or _fingerprint_words(ordered)
    return LetterpressIndex(
        ordered,
        bits.view(np.uint64),
        offset,
        maxcount,
        length_start.astype(np.int64),
        source or lex.source,
        lex.skipped,
        fp,
        alphabet=alphabet,
        rare=rare,
    )


# --- the on-disk cache -------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where indexes are cached: ``$CPWORDS_CACHE_DIR`` or the platform's user cache dir."""
    env = os.environ.get("CPWORDS_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("cpwords"))


def _digest(payload: bytes, kind: str) -> str:
    h = hashlib.sha256()
    h.update(f"cpwords letterpress index v{INDEX_FORMAT} {kind}\0".encode())
    h.update(payload)
    return h.hexdigest()


def _fingerprint_words(ordered: Iterable[str]) -> str:
    return _digest("\n".join(ordered).encode("utf-8"), "words")


def _default_source_bytes(proper: bool = False) -> bytes:
    """The packaged web2 list's bytes, the package version and the proper-noun rule (the
    default's content key)."""
    from importlib import metadata, resources

    data = resources.files("english_words").joinpath("data", "web2_alpha.pickle").read_bytes()
    rule = b"proper" if proper else b"no-proper"
    return metadata.version("english-words").encode() + b"\0" + rule + b"\0" + data


def _cache_file(fp: str) -> Path:
    return cache_dir() / "letterpress" / f"index-v{INDEX_FORMAT}-{fp[:40]}.npz"


#: Default cap on the index cache (bytes); ``$CPWORDS_CACHE_MAX_MB`` overrides it.
CACHE_MAX_BYTES = 512 * 1024 * 1024


def cache_max_bytes() -> int:
    """The cache size cap: ``$CPWORDS_CACHE_MAX_MB`` MiB (2^20 bytes), else
    :data:`CACHE_MAX_BYTES`; a cap beyond any disk (``1e308``) means no cap."""
    env = os.environ.get("CPWORDS_CACHE_MAX_MB")
    if env:
        try:
            mb = float(env)
        except ValueError:
            mb = -1.0
        if not (mb >= 0 and mb != float("inf")):
            from cpwords.core.errors import InputError

            raise InputError(f"CPWORDS_CACHE_MAX_MB must be a non-negative number, not {env!r}")
        return int(min(mb * 1024 * 1024, 2.0**62))  # 4 EiB: no cap (and no OverflowError)
    return CACHE_MAX_BYTES


def cache_files() -> list[Path]:
    """The cached index files, oldest (least recently used) first."""
    folder = cache_dir() / "letterpress"
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("index-*.npz") if p.is_file()]
    return sorted(files, key=lambda p: p.stat().st_mtime)


def cache_info() -> dict[str, Any]:
    """Folder, number of files, total bytes and the cap of the index cache."""
    files = cache_files()
    return {
        "dir": str(cache_dir() / "letterpress"),
        "files": len(files),
        "bytes": sum(p.stat().st_size for p in files),
        "max_bytes": cache_max_bytes(),
        "entries": [{"file": p.name, "bytes": p.stat().st_size} for p in files],
    }


def cache_clear() -> int:
    """Delete every cached index; returns how many files were removed."""
    n = 0
    for p in cache_files():
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
            n += 1
    return n


def evict(keep: Path | None = None, max_bytes: int | None = None) -> int:
    """Delete the oldest cached indexes until the cache fits ``max_bytes``.

    ``keep`` (the file just written) is never deleted. Returns how many files were removed.
    """
    cap = cache_max_bytes() if max_bytes is None else max_bytes
    files = cache_files()
    total = sum(p.stat().st_size for p in files)
    removed = 0
    for p in files:
        if total <= cap:
            break
        if keep is not None and p == keep:
            continue
        size = p.stat().st_size
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
            removed += 1
        total -= size
    return removed


def _save(index: LetterpressIndex, path: Path) -> bool:
    """Write atomically; a read-only or full cache only costs speed, never the answer."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        blob = np.frombuffer("\n".join(index.words).encode("utf-8"), dtype=np.uint8)
        arrays = (
            blob,
            index.bits,
            index.offset,
            index.maxcount,
            index.length_start,
            index.alphabet,
            index.rare,
        )
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez(
                    fh,
                    blob=blob,
                    bits=index.bits,
                    offset=index.offset,
                    maxcount=index.maxcount,
                    length_start=index.length_start,
                    alphabet=index.alphabet,
                    rare=index.rare,
                    meta=np.array(
                        [index.fingerprint, index.source, str(index.skipped), _checksum(*arrays)]
                    ),
                )
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        return True
    except OSError:
        return False


def _checksum(*arrays: np.ndarray) -> str:
    """SHA-256 of the arrays' dtypes, shapes and bytes: a cached file whose content changed
    after it was written (a bad disk, an edit, a copy cut short) no longer matches."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(f"{a.dtype.str}{a.shape}\0".encode())
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


#: The arrays of a cached index file, in checksum order.
_ARRAYS = ("blob", "bits", "offset", "maxcount", "length_start", "alphabet", "rare")


class _Corrupt(Exception):
    """A cached index file that cannot be trusted."""


def _load(path: Path, fp: str) -> LetterpressIndex | None:
    """Read a cached index; None when absent or for another key.

    Raises
    ------
    _Corrupt
        The file is unreadable or its content does not match the checksum written with it.
    """
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = z["meta"].tolist()
            if meta[0] != fp:
                return None
            arrays = [z[k] for k in _ARRAYS]
    except Exception as exc:  # any unreadable cache file is rebuilt, never trusted
        raise _Corrupt(f"unreadable ({type(exc).__name__})") from None
    if len(meta) != 4 or meta[3] != _checksum(*arrays):
        raise _Corrupt("its content does not match its checksum")
    blob, bits, offset, maxcount, length_start, alphabet, rare = arrays
    try:
        index = LetterpressIndex(
            blob.tobytes().decode("utf-8").split("\n"),
            bits,
            offset,
            maxcount,
            length_start,
            meta[1],
            int(meta[2]),
            fp,
            from_cache=True,
            alphabet=alphabet,
            rare=rare,
        )
    except Exception as exc:
        raise _Corrupt(f"unreadable ({type(exc).__name__})") from None
    if (
        index.bits.shape[1] * 64 < index.n
        or index.length_start[-1] != index.n
        or not (index.alphabet.size == index.offset.size == index.maxcount.size)
        or index.rare.size not in (0, index.alphabet.size)
        or index.bits.shape[0] != int(index.maxcount.sum()) + int(index.rare.any())
    ):
        raise _Corrupt("its arrays do not fit together")
    with contextlib.suppress(OSError):
        os.utime(path)  # most recently used: evicted last
    return index


def _cached(path: Path, fp: str) -> tuple[LetterpressIndex | None, str]:
    """The cached index (or None) and, for a corrupt file (deleted here), what was wrong."""
    try:
        return _load(path, fp), ""
    except _Corrupt as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        return None, f"the cached index {path} was corrupt ({exc}); rebuilt it"


def load_letterpress_index(
    dictionary: str | os.PathLike[str] | Lexicon | Iterable[str] | None = None,
    use_cache: bool = True,
    lang: str = "en",
    fold: bool = False,
    proper: bool = False,
) -> LetterpressIndex:
    """The index of a dictionary, from the on-disk cache when it is there.

    Parameters
    ----------
    dictionary : path, str, Lexicon, iterable of str, or None
        A dictionary file (plain list or Truncate format, read in any alphabet with
        :func:`cpwords.core.lexicon.load_dictionary`) or, where no file has that name, a
        lexicon name (``enable1``, ``web2``, ``wfrench``, ``dict:fr``: what ``--dict`` takes,
        :func:`cpwords.core.sources.read_dictionary`); a lexicon; words; or None for the
        default: the game's own list (``letterpress``, shipped with cpwords:
        :mod:`cpwords.core.wordlists`) for English, the curated dictionary of another ``lang``
        (``wfrench``, ...), or wordfreq's whole list for a language without one
        (:func:`cpwords.core.languages.language_lexicon`).
    use_cache : bool
        Read and write the cache (``cache_dir() / "letterpress"``).
    lang : str
        ISO 639-1 code: the default list and the case rules of a dictionary file.
    fold : bool
        Fold accents in the dictionary (:func:`cpwords.core.alphabet.fold_accents`).
    proper : bool
        Keep the default dictionary's proper nouns (its capitalised entries).

    Returns
    -------
    LetterpressIndex
        ``from_cache`` tells whether it was loaded rather than built; ``cache_problem`` says
        when a corrupt cached file was found (and replaced by the rebuilt index).

    Raises
    ------
    InputError
        Missing, unreadable, non-UTF-8 or empty dictionary; unknown language; a default
        dictionary that is not installed (one line with the command that installs it).

    Notes
    -----
    The key hashes the *source bytes* (file content, the shipped list's text, or the packaged
    web2 list and its version) and the reading rules (``lang``, ``fold``), so a cache hit needs
    no parsing, and any edit of the file makes a new key. A Hunspell dictionary's key hashes
    both its files and the expansion's version (:func:`cpwords.core.hunspell.source_digest`).
    Words given in memory (and the other languages' lists, and lexicon names read by
    :func:`cpwords.core.sources.read_dictionary`) are keyed by their sorted content.
    """
    if dictionary is None and lang == "en":
        dictionary = DEFAULT_DICTIONARY
    fp, read = _index_source(dictionary, lang, fold, proper)
    path = _cache_file(fp)
    hit, problem = _cached(path, fp) if use_cache else (None, "")
    if hit is not None:
        return hit
    index = build_letterpress_index(read(), fingerprint=fp)
    index.cache_problem = problem
    if use_cache and _save(index, path):
        with contextlib.suppress(OSError):
            evict(keep=path)
    return index


#: A dictionary's cache key and how to read it as a lexicon (on a cache miss only).
_Source = tuple[str, Callable[[], Lexicon]]


def _index_source(
    dictionary: str | os.PathLike[str] | Lexicon | Iterable[str] | None,
    lang: str,
    fold: bool,
    proper: bool,
) -> _Source:
    """The key of :func:`load_letterpress_index`'s dictionary, and its reader: a file of that
    name wins over a lexicon name; ``web2`` is keyed by the package's bytes; another lexicon
    name is read now and keyed by its words; None is the language's own list."""
    kind = "words"
    if isinstance(dictionary, os.PathLike):
        kind = "file"
    elif isinstance(dictionary, str):
        kind = dictionary_kind(dictionary)  # a file of that name wins over a name
        if kind == "name" and dictionary == "web2":  # keyed by the package's bytes
            kind = "web2"
        elif kind == "name":  # a lexicon cpwords reads (a curated dictionary, wordfreq's list)
            dictionary = read_dictionary(dictionary, lang=lang, fold=fold, proper=proper)
            kind = "words"
    if dictionary is None:
        return _language_source(lang, fold, proper)
    if kind in ("web2", "file", "packaged"):
        assert isinstance(dictionary, (str, os.PathLike))
        return _file_source(dictionary, kind, lang, fold, proper)
    assert not isinstance(dictionary, (str, os.PathLike))  # kind "words"
    lex = (
        dictionary
        if isinstance(dictionary, Lexicon)
        else lexicon_from_words(dictionary, lang=lang, alphabet="any", fold=fold)
    )
    return _fingerprint_words(sorted(lex.words, key=lambda w: (len(w), w))), lambda: lex


def _language_source(lang: str, fold: bool, proper: bool) -> _Source:
    """The default list of a language other than English: a curated dictionary keyed by its
    file's bytes (a Hunspell one by both files and the expansion's version), else wordfreq's
    list keyed by wordfreq's version and the reading rules (a hit reads no list)."""
    from importlib import metadata

    check_lang(lang)
    if curated_language(lang):  # keyed by the dictionary file's bytes
        from cpwords.core.dictionaries import find_dictionary

        d = find_dictionary(lang)
        if not d.installed():
            language_lexicon(lang, fold=fold, proper=proper)  # the one-line install message
        kind = f"{d.name} lang={lang} fold={fold} proper={proper}"
        if d.aff_path is not None:  # Hunspell: both files and the expansion's version
            from cpwords.core.hunspell import source_digest

            try:
                data = source_digest(d.path, d.aff_path).encode()
            except OSError as exc:
                raise InputError(f"cannot read the dictionary {d.path}: {exc}") from None
            kind += " hunspell"
        else:
            data = read_file_bytes(d.path, "dictionary")
        fp = _digest(data, kind)
    else:
        fp = _digest(f"{metadata.version('wordfreq')} {lang} {fold}".encode(), "wordfreq")
    return fp, lambda: language_lexicon(lang, fold=fold, proper=proper)


def _file_source(
    dictionary: str | os.PathLike[str], kind: str, lang: str, fold: bool, proper: bool
) -> _Source:
    """A dictionary keyed by its bytes: ``web2`` (the package's list), a shipped list (its
    text, checked by its SHA-256) or a file (read once: hashed, then parsed on a miss)."""
    if kind == "web2":
        fp = _digest(_default_source_bytes(proper), WEB2_DICTIONARY)
        return fp, lambda: english_words_lexicon("web2", proper)
    if kind == "packaged":  # the shipped list's text, checked by its SHA-256
        data = packaged_bytes(str(dictionary))
        fp = _digest(data, f"packaged {dictionary} lang={lang} fold={fold}")
    else:
        data = read_file_bytes(dictionary, "dictionary")  # read once: hashed, then parsed
        fp = _digest(data, f"file lang={lang} fold={fold}")
    return fp, lambda: parse_lexicon_bytes(data, dictionary, lang=lang, alphabet="any", fold=fold)


def query_letterpress_index(
    letters: str,
    index: LetterpressIndex,
    min_length: int = 1,
    limit: int | None = None,
    longest_first: bool = False,
) -> SolveResult:
    """Every dictionary word that a bag of letters can spell, from a built index.

    The ``index`` method of :func:`cpwords.letterpress.spec.find_letterpress_words`, which
    loads (or builds) the index and re-checks the listing with the independent checker.

    Parameters
    ----------
    letters : str
        The bag (about 25 letters; a letter given twice may be used twice).
    index : LetterpressIndex
        See :func:`load_letterpress_index` and :func:`build_letterpress_index`.
    min_length : int
        Shortest word to list, in letters (>= 1).
    limit : int, optional
        List at most this many words (``objective`` still counts all of them).
    longest_first : bool
        Longest words first (default: shortest first; ties alphabetical).

    Returns
    -------
    SolveResult
        ``status`` FEASIBLE with ``solver_info["complete"]`` (the listing is exhaustive; a
        listing is never OPTIMAL) or INFEASIBLE when no word is spelled; ``objective ==
        bound`` the number of spellable words, ``solution`` the listed words (list of str),
        ``wall_time`` the query time in seconds.

    Raises
    ------
    InputError
        A character that is not a letter, or empty; ``min_length < 1``; ``limit < 0``.

    References
    ----------
    S. H. Eskildsen, "Letterpress Cheater Algorithm" (2013).

    Examples
    --------
    >>> index = build_letterpress_index(["cat", "act", "coats", "taco", "tact", "a"])
    >>> r = query_letterpress_index("tacos", index)
    >>> r.solution, r.objective
    (['a', 'act', 'cat', 'taco', 'coats'], 5.0)
    """
    letters = parse_letters(letters)
    if min_length < 1:
        raise InputError(f"min_length must be >= 1, got {min_length}")
    if limit is not None and limit < 0:
        raise InputError(f"limit must be >= 0, got {limit}")
    t1 = time.perf_counter()
    words, total = index.query(letters, min_length, limit, longest_first)
    t2 = time.perf_counter()
    info = {
        "words": index.n,
        "alphabet_size": int(index.alphabet.size),
        "source": index.source,
        "index_from_cache": index.from_cache,
        "letters": letters,
        "returned": len(words),
        "complete": True,
    }
    # A listing optimises nothing, so it is never OPTIMAL: FEASIBLE and complete (the count
    # is exact: bound == objective), or INFEASIBLE when the bag spells no word.
    status = listing_status(total, complete=True)
    count = float(total) if total else None
    return SolveResult(status, count, count, t2 - t1, words, "index", solver_info=info)
