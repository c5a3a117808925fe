"""A Wordsnake as a TSPLIB asymmetric TSP, and TSPLIB tours read back as snakes.

The transformation (stated again in the ``COMMENT`` line of every exported file):

* nodes ``1..n`` are the words in input order; a linear snake adds node ``n + 1``, a dummy
  whose arcs to and from every word cost 0, so a tour cut open at the dummy is a path;
* the arc ``i -> j`` between two words costs ``M - overlap(i, j)^2``, where ``M`` is the largest
  squared overlap of the instance (at least 1), so every cost is in ``[0, M]``; the diagonal
  holds ``M`` (never used by a tour);
* a tour uses ``E`` word-to-word arcs, ``E = n - 1`` (linear) or ``n`` (cyclic), so
  ``score = E * M - tour length``: a minimum-length tour is a maximum-score snake.

TSPLIB itself is G. Reinelt's format ("TSPLIB - A traveling salesman problem library", ORSA
Journal on Computing 3(4), 1991). cpwords writes and reads the small part it needs (an
``EXPLICIT`` / ``FULL_MATRIX`` ``ATSP`` and a ``TOUR``) itself: the Python package ``tsplib95``
(0.7.1, 2020, the latest) pins ``networkx~=2.1``, which conflicts with cpwords' ``networkx>=3.2``.
The files are read by LKH-3 (through ``elkai``) in the tests.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cpwords.core.errors import InputError
from cpwords.core.files import check_output, open_output
from cpwords.wordsnake.rules import WordsnakeInstance, overlap_graph

#: Files larger than this are refused by default (bytes). An ``n``-word linear snake with
#: 3-digit costs needs about ``4 (n + 1)^2`` bytes: 400 MB at 10,000 words.
DEFAULT_MAX_BYTES = 2 * 1024**3

#: Bytes in a GiB: messages say GiB where they mean 2^30 (2 GiB once printed as "2.15 GB").
GIB = 1024**3


@dataclass(frozen=True)
class SnakeMatrix:
    """The ATSP cost matrix of a Wordsnake, produced row by row (never n^2 in memory at once).

    Attributes
    ----------
    instance : WordsnakeInstance
    big_m : int
        ``M``, the largest squared overlap (>= 1).
    dimension : int
        Number of TSP nodes: ``n + 1`` (linear, with the dummy) or ``n`` (cyclic).
    dummy : int or None
        0-based index of the dummy node (``n``), None for a cyclic snake.
    word_edges : int
        ``E``, the word-to-word arcs of a tour: ``n - 1`` (linear) or ``n`` (cyclic, 0 if n = 1).
    """

    instance: WordsnakeInstance
    big_m: int
    dimension: int
    dummy: int | None
    word_edges: int
    _heavy_heads: tuple[np.ndarray, ...]
    _heavy_weights: tuple[np.ndarray, ...]
    _first: np.ndarray
    _last: np.ndarray
    _eligible: np.ndarray

    def row(self, i: int) -> np.ndarray:
        """Costs of the arcs leaving node ``i`` (0-based).

        Returns
        -------
        numpy.ndarray of int64, shape (dimension,)
        """
        n = self.instance.n
        out = np.zeros(self.dimension, dtype=np.int64)
        if self.dummy is not None and i == self.dummy:
            return out  # dummy -> word costs 0 (its diagonal entry is unused)
        words = out[:n]
        one = (self._first == self._last[i]) & self._eligible & bool(self._eligible[i])
        words[:] = self.big_m - one.astype(np.int64)
        words[self._heavy_heads[i]] = self.big_m - self._heavy_weights[i]
        words[i] = self.big_m
        return out

    def rows(self) -> Iterator[np.ndarray]:
        """All rows in node order."""
        for i in range(self.dimension):
            yield self.row(i)

    def full(self) -> np.ndarray:
        """The whole matrix, shape (dimension, dimension), int64 (``8 dimension^2`` bytes)."""
        return np.vstack(list(self.rows())) if self.dimension else np.zeros((0, 0), np.int64)

    def score_from_length(self, length: int) -> int:
        """Snake score of a tour of this length: ``word_edges * M - length``."""
        return self.word_edges * self.big_m - int(length)

    def comment(self) -> str:
        """The ``COMMENT`` line: how to read a tour of this file back as a snake."""
        n = self.instance.n
        kind = "cyclic" if self.instance.cyclic else "linear"
        text = (
            f"cpwords Wordsnake ({kind}{', proper overlaps' if self.instance.proper else ''}) "
            f"of {n} words; nodes 1..{n} are the words in input order; "
            f"cost(i,j) = M - overlap(i,j)^2 with M = {self.big_m}; "
        )
        if self.dummy is not None:
            text += (
                f"node {self.dummy + 1} is a dummy (cost 0 to and from every word): rotate the "
                f"tour to start just after it; "
            )
        text += (
            f"score = {self.word_edges} * {self.big_m} - tour length; "
            "check a tour with: cpwords snake WORDS --check TOUR"
        )
        return text


def snake_matrix(instance: WordsnakeInstance) -> SnakeMatrix:
    """Set up the ATSP cost matrix of a Wordsnake (see the module docstring).

    Parameters
    ----------
    instance : WordsnakeInstance

    Returns
    -------
    SnakeMatrix
        Rows are computed on demand in O(n + heavy arcs of the row); setup costs
        O(sum of word lengths + number of pairs with overlap >= 2), which can itself be
        ~n^2 on lists of many repeated words: check sizes first (:func:`estimated_bytes`).

    Examples
    --------
    >>> sm = snake_matrix(WordsnakeInstance(("run", "nausea", "seasick")))
    >>> sm.big_m, sm.dimension, sm.dummy
    (9, 4, 3)
    >>> sm.full().tolist()
    [[9, 8, 9, 0], [9, 9, 0, 0], [9, 9, 9, 0], [0, 0, 0, 0]]
    """
    words = instance.words
    n = len(words)
    g = overlap_graph(words, proper=instance.proper, min_overlap=2, score=instance.score)
    order = np.argsort(g.tail, kind="stable")
    bounds = np.searchsorted(g.tail[order], np.arange(n + 1))
    heads = tuple(g.head[order[bounds[i] : bounds[i + 1]]].astype(np.int64) for i in range(n))
    weights = tuple(g.weight[order[bounds[i] : bounds[i + 1]]].astype(np.int64) for i in range(n))
    shortest = 2 if instance.proper else 1
    eligible = np.array([len(w) >= shortest and n > 1 for w in words], dtype=bool)
    first = np.array([ord(w[0]) for w in words], dtype=np.int64)
    last = np.array([ord(w[-1]) for w in words], dtype=np.int64)
    big_m = max(1, int(g.weight.max()) if g.m else 1)
    cyclic = instance.cyclic
    return SnakeMatrix(
        instance=instance,
        big_m=big_m,
        dimension=n if cyclic else n + 1,
        dummy=None if cyclic else n,
        word_edges=(n if n > 1 else 0) if cyclic else n - 1,
        _heavy_heads=heads,
        _heavy_weights=weights,
        _first=first,
        _last=last,
        _eligible=eligible,
    )


def estimated_bytes(instance: WordsnakeInstance) -> int:
    """An upper bound on the TSPLIB file size (bytes), from n and the longest word only.

    Computed before any overlap is, so a list too large to export is refused at once: every
    cost is at most ``(longest word)^2``, written with at most that many digits plus a space.
    """
    dim = instance.n + (0 if instance.cyclic else 1)
    longest = max(len(w) for w in instance.words)
    return dim * dim * (len(str(max(1, longest * longest))) + 1) + 4096


def _lines(sm: SnakeMatrix, name: str) -> Iterator[str]:
    yield f"NAME : {name}\n"
    yield "TYPE : ATSP\n"
    yield f"COMMENT : {sm.comment()}\n"
    yield f"DIMENSION : {sm.dimension}\n"
    yield "EDGE_WEIGHT_TYPE : EXPLICIT\n"
    yield "EDGE_WEIGHT_FORMAT : FULL_MATRIX\n"
    yield "EDGE_WEIGHT_SECTION\n"
    for r in sm.rows():
        yield " ".join(map(str, r.tolist())) + "\n"
    yield "EOF\n"


def _tsplib_name(instance: WordsnakeInstance) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", Path(instance.name).name) or "wordsnake"


def atsp_text(instance: WordsnakeInstance, *, max_bytes: int | None = None) -> str:
    """The TSPLIB ``ATSP`` text of an instance, in memory (for solvers that read a string).

    Raises
    ------
    InputError
        When the estimated size exceeds ``max_bytes``.
    """
    _refuse_large(instance, max_bytes, None)
    sm = snake_matrix(instance)
    return "".join(_lines(sm, _tsplib_name(instance)))


def _refuse_large(
    instance: WordsnakeInstance, max_bytes: int | None, directory: Path | None
) -> None:
    if max_bytes is None:
        max_bytes = DEFAULT_MAX_BYTES
    need = estimated_bytes(instance)
    n = instance.n
    if need > max_bytes:
        raise InputError(
            f"a TSPLIB matrix of {n} words would take up to {need / GIB:.2f} GiB "
            f"(limit {max_bytes / GIB:.2f} GiB): a TSP matrix grows as n^2"
        )
    if directory is not None:
        import shutil  # with bz2 and lzma: 3-5 ms of a start that exports nothing

        free = shutil.disk_usage(directory).free
        if need > free:
            raise InputError(
                f"a TSPLIB matrix of {n} words would take about {need / GIB:.1f} GiB, more "
                f"than the {free / GIB:.1f} GiB free in {directory}"
            )


def write_atsp(
    instance: WordsnakeInstance,
    path: str | os.PathLike[str],
    *,
    force: bool = False,
    max_bytes: int | None = None,
) -> SnakeMatrix:
    """Write a Wordsnake as a TSPLIB ``ATSP`` file (``EXPLICIT``, ``FULL_MATRIX``).

    Parameters
    ----------
    instance : WordsnakeInstance
    path : path-like
        The file to create.
    force : bool
        Overwrite an existing file (default: refuse).
    max_bytes : int, optional
        Refuse when the estimated file size exceeds this many bytes (default
        ``DEFAULT_MAX_BYTES``).

    Returns
    -------
    SnakeMatrix
        The transformation written (``big_m``, ``dummy``, ``word_edges``).

    Raises
    ------
    InputError
        The file exists (without ``force``), its folder is missing or not writable, or the
        estimated size exceeds ``max_bytes`` or the free disk space (checked before writing).

    Notes
    -----
    Rows are formatted one at a time, so memory stays O(n + heavy arcs); time and file size are
    O(n^2). A refused or failed write leaves no partial file.
    """
    p = Path(path)
    check_output(p, None, force)
    through = p.exists() and not p.is_file()  # a device or pipe: no disk space of its own
    _refuse_large(instance, max_bytes, None if through else p.resolve().parent)
    sm = snake_matrix(instance)
    with open_output(p, encoding="ascii") as fh:
        fh.writelines(_lines(sm, _tsplib_name(instance)))
    return sm


# ---------------------------------------------------------------------------------------------
# Tours
# ---------------------------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*([A-Z_]+)\s*:\s*(.*?)\s*$")


def looks_like_tour(text: str) -> bool:
    """Whether ``text`` is a TSPLIB tour (it has a ``TOUR_SECTION`` line) rather than words."""
    return any(line.strip() == "TOUR_SECTION" for line in text.splitlines())


def parse_tour(text: str, source: str = "<tour>") -> list[int]:
    """Parse a TSPLIB ``TOUR`` (LKH, Concorde after conversion, or any TSPLIB writer).

    Parameters
    ----------
    text : str
        The file's text: ``KEY : value`` header lines, ``TOUR_SECTION``, node numbers (1-based,
        any number per line) ended by ``-1``, optionally ``EOF``.
    source : str
        Name used in error messages.

    Returns
    -------
    list of int
        The tour as 0-based node indices.

    Raises
    ------
    InputError
        No ``TOUR_SECTION``, a non-integer token, a missing ``-1``, a repeated node, a node
        outside ``1..DIMENSION`` or a tour whose length differs from ``DIMENSION``.

    Examples
    --------
    >>> parse_tour("TYPE : TOUR\\nDIMENSION : 3\\nTOUR_SECTION\\n2 3\\n1\\n-1\\nEOF\\n")
    [1, 2, 0]
    """
    lines = text.splitlines()
    header: dict[str, str] = {}
    k = 0
    while k < len(lines) and lines[k].strip() != "TOUR_SECTION":
        m = _HEADER.match(lines[k])
        if m:
            header[m.group(1)] = m.group(2)
        elif lines[k].strip():
            raise InputError(f"{source}: line {k + 1} is not a TSPLIB header line")
        k += 1
    if k == len(lines):
        raise InputError(f"{source}: no TOUR_SECTION (not a TSPLIB tour)")
    if header.get("TYPE", "TOUR").upper() != "TOUR":
        raise InputError(f"{source}: TYPE is {header['TYPE']}, not TOUR")
    nodes: list[int] = []
    ended = False
    for line in lines[k + 1 :]:
        for tok in line.split():
            if tok == "EOF":
                break
            try:
                v = int(tok)
            except ValueError:
                msg = f"{source}: {tok!r} in TOUR_SECTION is not a node number"
                raise InputError(msg) from None
            if v == -1:
                ended = True
                break
            nodes.append(v)
        if ended:
            break
    if not ended:
        raise InputError(f"{source}: TOUR_SECTION does not end with -1")
    dim_text = header.get("DIMENSION")
    dim = len(nodes)
    if dim_text is not None:
        try:
            dim = int(dim_text)
        except ValueError:
            raise InputError(f"{source}: DIMENSION {dim_text!r} is not an integer") from None
    if len(nodes) != dim or sorted(nodes) != list(range(1, dim + 1)):
        raise InputError(
            f"{source}: the tour is not a permutation of the nodes 1..{dim} ({len(nodes)} entries)"
        )
    return [v - 1 for v in nodes]


def tour_to_order(instance: WordsnakeInstance, tour: Sequence[int]) -> list[str]:
    """Read a tour of :func:`write_atsp`'s file back as a snake.

    Parameters
    ----------
    instance : WordsnakeInstance
        The instance that was exported (same words, same order, same variant).
    tour : sequence of int
        0-based node indices, a permutation of the TSP nodes.

    Returns
    -------
    list of str
        The words: for a linear snake the tour rotated to start just after the dummy node.

    Raises
    ------
    InputError
        When the tour's size does not match the instance (e.g. a tour of a cyclic export
        checked against a linear instance).
    """
    n = instance.n
    dim = n if instance.cyclic else n + 1
    if len(tour) != dim or sorted(tour) != list(range(dim)):
        what = "cyclic" if instance.cyclic else "linear (n + 1 nodes, with the dummy)"
        raise InputError(
            f"a tour of {len(tour)} nodes does not fit this {what} snake of {n} words "
            f"(expected {dim} nodes)"
        )
    seq = list(tour)
    if not instance.cyclic:
        d = seq.index(n)
        seq = seq[d + 1 :] + seq[:d]
    return [instance.words[i] for i in seq]


def tour_text(tour: Sequence[int], name: str = "wordsnake", length: int | None = None) -> str:
    """A TSPLIB ``TOUR`` file for a 0-based tour (as LKH writes them)."""
    head = [f"NAME : {name}.tour", "TYPE : TOUR"]
    if length is not None:
        head.append(f"COMMENT : Length = {length}")
    head += [f"DIMENSION : {len(tour)}", "TOUR_SECTION"]
    return "\n".join([*head, *(str(v + 1) for v in tour), "-1", "EOF", ""])


def read_ordering(
    instance: WordsnakeInstance,
    path: str | os.PathLike[str],
    *,
    lang: str | None = None,
    fold: bool = False,
) -> list[str]:
    """Read a proposed snake: a word list, or a TSPLIB tour of this instance's export.

    A file is read as a tour when its name ends in ``.tour`` or it has a ``TOUR_SECTION`` line
    (a word list holds only lower-case words, so the two cannot be confused).

    Raises
    ------
    InputError
        Unreadable or non-UTF-8 file, a malformed word list or tour, or a tour that does not
        fit the instance.
    """
    from cpwords.core.lexicon import parse_word_lines, read_file_bytes

    raw = read_file_bytes(path, "ordering")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"ordering {path} is not UTF-8 text") from None
    if str(path).lower().endswith(".tour") or looks_like_tour(text):
        return tour_to_order(instance, parse_tour(text, str(path)))
    return parse_word_lines(text, str(path), lang=lang, fold=fold)
