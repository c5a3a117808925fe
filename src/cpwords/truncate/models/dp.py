"""Exact longest Truncate sequence: longest path with path counting on the word DAG.

Every word ``w`` of the dictionary is a node; it has at most two in-arcs, from ``w[:-1]`` (its
last letter removed) and from ``w[1:]`` (its first letter removed), when those are words. Arcs
go from length ``l - 1`` to length ``l``, so the graph is acyclic and layered by word length,
and a Truncate sequence is exactly a path in it. One sweep over the layers in increasing length
computes, for every word, the number of words ``L(w)`` of the longest sequence ending at ``w``
and the number ``C(w)`` of such sequences. The sweep is exhaustive, so its optimum is proven.

The arcs are found without a Python loop: the words become a NumPy fixed-width byte array
(sorted, so binary search works), the "last letter removed" and "first letter removed" arrays are
built by zeroing a column and shifting the byte matrix, and ``numpy.searchsorted`` finds them.
See ``models/truncate.md`` for the formulation card.
"""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from cpwords.core.alphabet import normalize_word
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, lexicon_from_words
from cpwords.core.result import SolveResult, Status
from cpwords.truncate.rules import TruncateSolution

__all__ = ["TruncateDag", "iter_longest_sequences", "truncate_dag", "truncate_dp"]


@dataclass(frozen=True)
class TruncateDag:
    """The word DAG of a dictionary.

    Attributes
    ----------
    words : tuple of str
        The nodes: distinct normalised words of any alphabet, sorted by code point (node ``i``
        is ``words[i]``).
    length : numpy.ndarray of int64, shape (n,)
        Number of letters of each word.
    drop_last : numpy.ndarray of int64, shape (n,)
        Index of ``w[:-1]``, or ``n`` when that is not a word (``n`` is a sentinel node).
    drop_first : numpy.ndarray of int64, shape (n,)
        Index of ``w[1:]``, or ``n`` when that is not a word or equals ``w[:-1]`` (one arc
        per distinct predecessor word).
    """

    words: tuple[str, ...]
    length: np.ndarray = field(repr=False)
    drop_last: np.ndarray = field(repr=False)
    drop_first: np.ndarray = field(repr=False)

    @property
    def n(self) -> int:
        """Number of words."""
        return len(self.words)

    @property
    def n_arcs(self) -> int:
        """Number of arcs (distinct word -> word-plus-a-letter pairs)."""
        return int(
            np.count_nonzero(self.drop_last < self.n) + np.count_nonzero(self.drop_first < self.n)
        )

    def index(self, word: str) -> int:
        """Node index of ``word``, or -1 when it is not in the dictionary."""
        i = bisect.bisect_left(self.words, word)
        return i if i < self.n and self.words[i] == word else -1

    def predecessors(self, i: int) -> list[int]:
        """Indices of the words obtained from node ``i`` by removing one end letter, sorted."""
        return sorted(p for p in (int(self.drop_last[i]), int(self.drop_first[i])) if p < self.n)

    def successors(self, i: int) -> list[int]:
        """Indices of the words that are node ``i`` plus one letter at either end, sorted (the
        plays from ``i``; none: ``i`` is a dead end). One pass over the arcs, ``O(n)``."""
        return np.flatnonzero((self.drop_last == i) | (self.drop_first == i)).tolist()


def _sorted_words(words: Lexicon | Iterable[str]) -> tuple[str, ...]:
    if isinstance(words, Lexicon):
        return words.words
    return lexicon_from_words(words, "<words>", alphabet="any").words


def _dag_any_alphabet(ws: tuple[str, ...]) -> TruncateDag:
    """The DAG of words beyond a-z, by dictionary look-ups: ``O(total letters)``."""
    n = len(ws)
    where = {w: i for i, w in enumerate(ws)}
    get = where.get
    length = np.fromiter(map(len, ws), dtype=np.int64, count=n)
    drop_last = np.fromiter((get(w[:-1], n) if len(w) > 1 else n for w in ws), np.int64, n)
    drop_first = np.fromiter((get(w[1:], n) if len(w) > 1 else n for w in ws), np.int64, n)
    drop_first[drop_first == drop_last] = n
    return TruncateDag(ws, length, drop_last, drop_first)


def truncate_dag(words: Lexicon | Iterable[str]) -> TruncateDag:
    """Build the word DAG of a dictionary.

    Parameters
    ----------
    words : Lexicon or iterable of str
        The dictionary. A :class:`~cpwords.core.lexicon.Lexicon` is used as is (sorted, distinct);
        other iterables are normalised (NFC, lower-cased, entries that are not words skipped,
        deduplicated: see :mod:`cpwords.core.alphabet`).

    Returns
    -------
    TruncateDag

    Raises
    ------
    InputError
        When no word is left.

    Notes
    -----
    Words of the letters a-z: ``O(n log n)`` comparisons of fixed-width byte strings (two
    ``searchsorted`` calls), all in NumPy; ``O(n w)`` memory for ``w`` the longest word length.
    Other alphabets: one dictionary look-up per arc, ``O(total letters)``.

    Examples
    --------
    >>> dag = truncate_dag(["я", "ям", "яма", "ма"])
    >>> [dag.words[p] for p in dag.predecessors(dag.index("яма"))]
    ['ма', 'ям']
    """
    ws = _sorted_words(words)
    n = len(ws)
    if n == 0:
        raise InputError("the dictionary is empty")
    try:  # normalised words in ASCII are words of a-z: the byte-string path
        arr = np.array(ws, dtype="S")
    except UnicodeEncodeError:
        return _dag_any_alphabet(ws)
    width = arr.dtype.itemsize
    mat = arr.view(np.uint8).reshape(n, width)
    length = np.count_nonzero(mat, axis=1).astype(np.int64)

    single = length == 1
    drop_last = np.full(n, n, dtype=np.int64)
    drop_first = np.full(n, n, dtype=np.int64)

    # Short keys (w[:-1] and w[1:] of at most _K letters) are found by integer binary search
    # on a packed code of the first _K letters; longer ones by byte-string binary search.
    short = (length <= _K + 1) & ~single
    _drop_short(mat, length, np.flatnonzero(short), drop_last, drop_first)
    _drop_long(arr, mat, length, np.flatnonzero(~short & ~single), drop_last, drop_first)
    drop_first[drop_first == drop_last] = n
    return TruncateDag(ws, length, drop_last, drop_first)


def _drop_short(
    mat: np.ndarray,
    length: np.ndarray,
    rows: np.ndarray,
    drop_last: np.ndarray,
    drop_first: np.ndarray,
) -> None:
    """Fill ``drop_last`` and ``drop_first`` (the index of ``w[:-1]`` and ``w[1:]``, else n) at
    the ``rows`` whose keys have at most ``_K`` letters, by integer binary search on the packed
    code of the words' first ``_K`` letters (``mat``: the sorted words' bytes, one row each)."""
    width = mat.shape[1]
    code = _packed_prefix_code(mat)
    klen = length[rows] - 1
    c = code[rows]
    shift = (5 * (_K - 1 - klen)).astype(np.uint64)
    last_letter = mat[rows, np.minimum(klen, width - 1)].astype(np.uint64) - np.uint64(96)
    # clear letter number len(w) (0-based len-1) when it is inside the code
    key_last = np.where(klen < _K, c - (last_letter << shift), c)
    nxt = (mat[rows, _K] if width > _K else np.zeros(rows.size, np.uint8)).astype(np.uint64)
    nxt = np.where(nxt > 0, nxt - np.uint64(96), np.uint64(0))
    key_first = ((c << np.uint64(5)) & _MASK) | nxt
    drop_last[rows] = _lookup_code(code, length, key_last, klen)
    drop_first[rows] = _lookup_code(code, length, key_first, klen)


def _drop_long(
    arr: np.ndarray,
    mat: np.ndarray,
    length: np.ndarray,
    long_rows: np.ndarray,
    drop_last: np.ndarray,
    drop_first: np.ndarray,
) -> None:
    """As :func:`_drop_short` at the ``long_rows``, whose keys have more than ``_K`` letters, by
    byte-string binary search in the sorted words ``arr``."""
    if not long_rows.size:
        return
    # w[:-1]: zero the last letter; w[1:]: shift left by one column. Trailing NUL bytes
    # are ignored by NumPy's fixed-width byte strings, so these compare like shorter words.
    sub = mat[long_rows]
    last = sub.copy()
    last[np.arange(long_rows.size), length[long_rows] - 1] = 0
    first = np.zeros_like(sub)
    first[:, :-1] = sub[:, 1:]
    # the keys have more than _K letters: search among those words only (still sorted)
    hay = np.flatnonzero(length > _K)
    for out, keys in ((drop_last, last), (drop_first, first)):
        found = _lookup(arr[hay], keys.view(arr.dtype).ravel())
        ok = found < hay.size
        out[long_rows[ok]] = hay[found[ok]]


_K = 12  # letters packed in one uint64 code, 5 bits each
_MASK = np.uint64((1 << (5 * _K)) - 1)


def _packed_prefix_code(mat: np.ndarray) -> np.ndarray:
    """Code of the first ``_K`` letters, 5 bits each, left-aligned (missing letters are 0).

    The code preserves the sorted order of the words (it is non-decreasing along a sorted
    array) and is exact, hence injective, on words of at most ``_K`` letters.
    """
    k = min(_K, mat.shape[1])
    letters = mat[:, :k].astype(np.int64)
    letters -= 96
    np.maximum(letters, 0, out=letters)  # NUL padding (0 - 96) becomes 0
    shifts = 5 * (_K - 1 - np.arange(k, dtype=np.int64))
    # the fields do not overlap, so the sum is the bitwise OR; 60 bits fit in int64
    return (letters << shifts).sum(axis=1).astype(np.uint64)


def _lookup_code(
    code: np.ndarray, length: np.ndarray, keys: np.ndarray, key_len: np.ndarray
) -> np.ndarray:
    """Index of the word with packed code ``key`` and ``key_len`` letters (<= _K), else n.

    Among the words sharing a code, the one of at most ``_K`` letters sorts first (it is a
    prefix of the others), so ``searchsorted(..., 'left')`` lands on it when it exists.
    """
    n = code.shape[0]
    pos = np.searchsorted(code, keys)
    pos[pos == n] = 0
    found = (code[pos] == keys) & (length[pos] == key_len)
    return np.where(found, pos, n).astype(np.int64)


def _lookup(sorted_arr: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Index of each key in ``sorted_arr``, or ``len(sorted_arr)`` when absent."""
    n = sorted_arr.shape[0]
    pos = np.searchsorted(sorted_arr, keys)
    pos[pos == n] = 0
    found = sorted_arr[pos] == keys
    return np.where(found, pos, n).astype(np.int64)


@dataclass(frozen=True)
class _Table:
    """DP values per node (sentinel ``n`` last): ``L`` words in the longest sequence ending
    there (0 = unreachable from the allowed first words), ``C`` the number of such sequences."""

    L: np.ndarray
    C: np.ndarray


def _count_dtype(dag: TruncateDag) -> type | np.dtype:
    # C(w) <= 2 ** (len(w) - 1): at most two predecessors per word. The total over all words
    # must also fit, so int64 is safe when n * 2 ** (maxlen - 1) < 2 ** 63; else Python ints.
    maxlen = int(dag.length.max())
    if maxlen - 1 + math.ceil(math.log2(dag.n + 1)) <= 62:
        return np.int64
    return object


def _sweep(dag: TruncateDag, start: int | None) -> _Table:
    """One pass over the layers by increasing word length (the DP of the module docstring)."""
    n = dag.n
    dtype = _count_dtype(dag)
    # Words without a predecessor are settled at once (L = C = 1 if they may start a
    # sequence, else 0); only the words with one are swept, layer by layer.
    L = np.zeros(n + 1, dtype=np.int64)
    C = np.zeros(n + 1, dtype=dtype)
    if start is None:
        L[:n] = 1
        C[:n] = 1
    else:
        L[start] = 1
        C[start] = 1
    if dtype is object:
        C[:] = [int(v) for v in C]  # Python ints, never int64 scalars
    inner = np.flatnonzero((dag.drop_last < n) | (dag.drop_first < n))
    if start is not None:
        inner = inner[dag.length[inner] > dag.length[start]]
    if inner.size == 0:
        return _Table(L, C)
    lens = dag.length[inner]
    order = inner[np.argsort(lens, kind="stable")]
    sorted_len = dag.length[order]
    bounds = np.flatnonzero(np.diff(sorted_len)) + 1
    for idx in np.split(order, bounds):
        a = dag.drop_last[idx]
        b = dag.drop_first[idx]
        la = L[a]
        lb = L[b]
        m = np.maximum(la, lb)
        c = np.where(la == m, C[a], 0) + np.where(lb == m, C[b], 0)
        reach = m > 0
        # a word with a predecessor is never a start when start is None: m > 0 there
        L[idx] = np.where(reach, m + 1, L[idx])
        C[idx] = np.where(reach, c, C[idx])
    return _Table(L, C)


def _walk_down(dag: TruncateDag, tab: _Table, end: int) -> tuple[str, ...]:
    """One longest sequence ending at ``end``: at each step the alphabetically first word."""
    seq = [end]
    i = end
    while tab.L[i] > 1:
        i = next(p for p in dag.predecessors(i) if tab.L[p] == tab.L[i] - 1)
        seq.append(i)
    return tuple(dag.words[j] for j in reversed(seq))


def _iter_from(dag: TruncateDag, tab: _Table, end: int) -> Iterator[tuple[str, ...]]:
    stack: list[tuple[int, list[int]]] = [(end, [end])]
    while stack:
        i, path = stack.pop()
        if tab.L[i] == 1:
            yield tuple(dag.words[j] for j in reversed(path))
            continue
        nxt = [p for p in dag.predecessors(i) if tab.L[p] == tab.L[i] - 1]
        for p in reversed(nxt):  # LIFO: alphabetically first predecessor is expanded first
            stack.append((p, [*path, p]))


def iter_longest_sequences(
    dag: TruncateDag, starting: str | None = None, ending: str | None = None
) -> Iterator[tuple[str, ...]]:
    """Yield every longest Truncate sequence, smallest word first.

    Sequences come in lexicographic order of their reversed word tuples (last word first, then
    the word before it, ...). Their number is the ``count`` of :func:`truncate_dp`, which may
    be large: stop early with :func:`itertools.islice`.
    """
    start, end = _restrictions(dag, starting, ending)
    tab = _sweep(dag, start)
    for e in _ends(tab, dag.n, end):
        yield from _iter_from(dag, tab, e)


def _restrictions(
    dag: TruncateDag, starting: str | None, ending: str | None
) -> tuple[int | None, int | None]:
    out: list[int | None] = []
    for what, w in (("starting", starting), ("ending", ending)):
        if w is None:
            out.append(None)
            continue
        i = dag.index(normalize_word(w.strip()))
        if i < 0:
            raise InputError(f"the {what} word {w!r} is not in the dictionary")
        out.append(i)
    return out[0], out[1]


def _ends(tab: _Table, n: int, end: int | None) -> list[int]:
    if end is not None:
        return [end] if tab.L[end] > 0 else []
    best = int(tab.L[:n].max())
    return np.flatnonzero(tab.L[:n] == best).tolist() if best > 0 else []


def truncate_dp(
    words: Lexicon | Iterable[str] | TruncateDag,
    starting: str | None = None,
    ending: str | None = None,
    all_sequences: bool = False,
    max_sequences: int | None = None,
    time_limit: float | None = None,
) -> SolveResult:
    """Find a longest Truncate sequence, count them, and prove it longest.

    Parameters
    ----------
    words : Lexicon, iterable of str, or TruncateDag
        The dictionary (see :func:`truncate_dag`); passing a prebuilt DAG skips its
        construction.
    starting : str, optional
        Require the sequence to start at this word.
    ending : str, optional
        Require the sequence to end at this word.
    all_sequences : bool
        Also list the longest sequences (``solution.sequences``).
    max_sequences : int, optional
        Stop listing after this many (default: all of them).
    time_limit : float, optional
        Seconds for listing the sequences (``all_sequences``); when reached the listing so
        far is returned with ``solver_info["stopped"] = "time_limit"``.

    Returns
    -------
    SolveResult
        ``status`` OPTIMAL (the DP is exhaustive) with ``objective == bound`` the number of
        words of a longest sequence and ``solution`` a
        :class:`~cpwords.truncate.rules.TruncateSolution`; INFEASIBLE with no solution when
        no sequence satisfies ``starting``/``ending``. ``wall_time`` (seconds) includes building
        the DAG unless one was passed. Ctrl-C returns what is known, marked
        ``solver_info["interrupted"]``: UNKNOWN before the DP has finished, else the proven
        optimum with the sequences listed so far.

    Raises
    ------
    InputError
        Empty dictionary; ``starting`` or ``ending`` not in the dictionary; negative
        ``max_sequences``.

    Notes
    -----
    ``L(w) = 1 + max(L(w[:-1]), L(w[1:]))`` over the predecessors that are words (``L = 1``
    when there is none, or, with ``starting = s``, ``L(s) = 1`` and ``L = 0`` for words not
    reachable from ``s``), and ``C(w)`` sums ``C`` over the predecessors attaining the maximum.
    The optimum is ``max L`` (or ``L(ending)``) and the count is the sum of ``C`` over the words
    attaining it. ``O(n)`` array work after the DAG is built; counts are exact integers
    (NumPy int64 when they provably fit, Python ints otherwise).

    References
    ----------
    G. Hogg-Blake, "Longest valid Truncate sequence - algorithm comparison" (2024).

    Examples
    --------
    >>> r = truncate_dp(["a", "la", "lap", "laps", "clap", "claps", "lapse"])
    >>> r.status.value, r.objective, r.solution.sequence, r.solution.count
    ('OPTIMAL', 5.0, ('a', 'la', 'lap', 'clap', 'claps'), 3)
    """
    starting, ending = _normal_options(starting, ending, max_sequences)
    t0 = time.perf_counter()
    try:
        dag, tab, ends = _longest_ends(words, starting, ending)
    except KeyboardInterrupt:  # Ctrl-C before the DP finished: no answer yet
        wall = time.perf_counter() - t0
        stop = {"interrupted": True, "algorithm": "layered DAG DP with path counts"}
        return SolveResult(Status.UNKNOWN, None, None, wall, None, "dp", solver_info=stop)
    info = {"words": dag.n, "arcs": dag.n_arcs, "algorithm": "layered DAG DP with path counts"}
    if not ends:
        wall = time.perf_counter() - t0
        return SolveResult(Status.INFEASIBLE, None, None, wall, None, "dp", solver_info=info)
    listing = (max_sequences, time_limit, t0) if all_sequences else None
    sol = _longest_solution(dag, tab, ends, listing, info, starting, ending)
    best = float(tab.L[ends[0]])
    wall = time.perf_counter() - t0
    return SolveResult(Status.OPTIMAL, best, best, wall, sol, "dp", solver_info=info)


def _normal_options(
    starting: str | None, ending: str | None, max_sequences: int | None
) -> tuple[str | None, str | None]:
    """The ``starting`` and ``ending`` words of :func:`truncate_dp`, normalised; raise
    :class:`InputError` on a negative ``max_sequences``."""
    if max_sequences is not None and max_sequences < 0:
        raise InputError(f"max_sequences must be >= 0, got {max_sequences}")
    starting = normalize_word(starting.strip()) if starting is not None else None
    ending = normalize_word(ending.strip()) if ending is not None else None
    return starting, ending


def _longest_ends(
    words: Lexicon | Iterable[str] | TruncateDag, starting: str | None, ending: str | None
) -> tuple[TruncateDag, _Table, list[int]]:
    """The DAG of ``words``, the DP's table and the last words of the longest sequences (none
    when no sequence meets ``starting`` and ``ending``)."""
    dag = words if isinstance(words, TruncateDag) else truncate_dag(words)
    start, end = _restrictions(dag, starting, ending)
    tab = _sweep(dag, start)
    return dag, tab, _ends(tab, dag.n, end)


def _longest_solution(
    dag: TruncateDag,
    tab: _Table,
    ends: list[int],
    listing: tuple[int | None, float | None, float] | None,
    info: dict[str, object],
    starting: str | None,
    ending: str | None,
) -> TruncateSolution:
    """The solution of :func:`truncate_dp` once the DP has found the ``ends`` of the longest
    sequences: the alphabetically first one, their count (told in ``info`` too) and, when
    ``listing`` gives ``(max_sequences, time_limit, t0)``, the sequences listed within the time
    limit counted from ``t0`` (a stop told in ``info``)."""
    count = int(sum(int(tab.C[e]) for e in ends))
    info["count"] = count
    sequence = _walk_down(dag, tab, ends[0])
    listed = None
    if listing is not None:
        max_sequences, time_limit, t0 = listing
        deadline = None if time_limit is None else t0 + time_limit
        listed = _list_sequences(dag, tab, ends, max_sequences, deadline, info)
    return TruncateSolution(sequence, count, listed, starting, ending)


def _list_sequences(
    dag: TruncateDag,
    tab: _Table,
    ends: list[int],
    max_sequences: int | None,
    deadline: float | None,
    info: dict[str, object],
) -> tuple[tuple[str, ...], ...]:
    """The longest sequences ending at ``ends``, up to ``max_sequences`` or the deadline.

    A stop (time limit or Ctrl-C) is recorded in ``info`` and keeps the sequences so far.
    """
    acc: list[tuple[str, ...]] = []
    try:
        for e in ends:
            for s in _iter_from(dag, tab, e):
                if max_sequences is not None and len(acc) >= max_sequences:
                    break
                if deadline is not None and time.perf_counter() >= deadline:
                    info["stopped"] = "time_limit"
                    break
                acc.append(s)
    except KeyboardInterrupt:  # Ctrl-C: the optimum is proven, the listing is partial
        info["interrupted"] = True
        info["stopped"] = "interrupted"
    return tuple(acc)
