"""The k-mers of a real genome: the distinct forward-strand ``k``-mers of a FASTA file.

Genome assembly and k-mer-set compression pose the shortest superstring on the k-mers of a
sequenced genome (issue 46): every run of ``k`` bases of the forward strand, each counted once.
The file is read with dnaio (plain, gzip, bzip2, xz or zstd, by its name), every record or
those named, in lower case; a window holding a letter other than ``acgt`` (``N``, an IUPAC
ambiguity code) gives no k-mer and is counted as skipped. Nothing here imports a solver or
another room of the wing.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from cpwords.core.errors import InputError, excerpt, short_message

#: The runs of plain bases (after lower-casing), where the k-mers are.
_BASES = re.compile("[acgt]+")
#: Control characters, escaped where an error message quotes the file.
_CONTROL = re.compile("[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class GenomeKmers:
    """What :func:`genome_kmers` read.

    Attributes
    ----------
    kmers : tuple of str
        The distinct k-mers, lower case, shuffled (or in the order of their first occurrence).
    k : int
        Their length.
    path : str
        The FASTA file.
    records : tuple of str
        The names (first words of the headers) of the records read.
    bases : int
        The bases of those records.
    skipped : int
        The windows of ``k`` bases that held a letter other than ``acgt`` (no k-mer).
    """

    kmers: tuple[str, ...]
    k: int
    path: str
    records: tuple[str, ...]
    bases: int
    skipped: int

    @property
    def source(self) -> str:
        """One line for messages and reports: the k-mers' file, records and skipped windows."""
        what = f"{self.k}-mers of {Path(self.path).name}"
        if len(self.records) <= 3:
            what += f" ({', '.join(self.records)})"
        else:
            what += f" ({len(self.records):,} records)"
        if self.skipped:
            what += f", {self.skipped:,} windows with a letter other than acgt skipped"
        return what


def genome_kmers(
    path: str | os.PathLike[str],
    k: int,
    seed: int | None = None,
    *,
    records: Collection[str] | None = None,
) -> GenomeKmers:
    r"""The distinct forward-strand ``k``-mers of the records of a FASTA file.

    Parameters
    ----------
    path : str or path-like
        A FASTA file, plain or compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``: by its name).
    k : int
        The k-mers' length (at least 1).
    seed : int, optional
        Shuffle the k-mers with ``random.Random(seed)``; None: keep them in the order of their
        first occurrence (then the records themselves are superstrings of them).
    records : collection of str, optional
        Read only these records, each named by its header's first word or its whole header
        (default: every record).

    Returns
    -------
    GenomeKmers
        The k-mers (``kmers``, lower case, each once), the records read, their bases and the
        windows skipped for a letter other than ``acgt``.

    Raises
    ------
    InputError
        A bad ``k``; a file that is absent, unreadable (a directory, a broken compressed
        stream) or not FASTA (a first line that is no ``>`` header, no record, bytes that are
        not ASCII); a named record that is not in the file; no window of ``k`` plain bases.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder, "tiny.fa")
    ...     _ = path.write_text(">one a tiny genome\nACGTAC\nGT\n>two\nacgNtt\n")
    ...     found = genome_kmers(path, 4)
    ...     shuffled = genome_kmers(path, 4, seed=1)
    >>> found.kmers, found.records, found.bases, found.skipped
    (('acgt', 'cgta', 'gtac', 'tacg'), ('one', 'two'), 14, 3)
    >>> sorted(shuffled.kmers) == sorted(found.kmers)
    True
    >>> found.source
    '4-mers of tiny.fa (one, two), 3 windows with a letter other than acgt skipped'
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InputError(f"bad k-mer length k={excerpt(repr(k))}: a whole number, at least 1")
    where = os.fspath(path)
    seen: dict[str, None] = {}
    names: list[str] = []
    bases = skipped = 0
    for name, sequence in _fasta_records(where, records):
        names.append(name)
        bases += len(sequence)
        skipped += max(0, len(sequence) - k + 1)
        for run in _BASES.findall(sequence.lower()):
            if len(run) >= k:
                skipped -= len(run) - k + 1
                seen.update((run[i : i + k], None) for i in range(len(run) - k + 1))
    if not seen:
        raise InputError(f"no {k}-mer of plain bases (acgt) in the FASTA file {where}")
    kept = list(seen)
    if seed is not None:
        random.Random(seed).shuffle(kept)
    return GenomeKmers(tuple(kept), k, where, tuple(names), bases, skipped)


def _fasta_records(path: str, wanted: Collection[str] | None) -> Iterator[tuple[str, str]]:
    """The (name, sequence) of each record of a FASTA file, or of those ``wanted`` (by their
    header's first word or whole header), read with dnaio; every problem an InputError."""
    import dnaio

    p = Path(path)
    if not p.exists():
        raise InputError(f"the FASTA file {path} is absent")
    if p.is_dir():
        raise InputError(f"{path} is a folder, not a FASTA file")
    left = None if wanted is None else set(wanted)
    found = 0
    try:
        with dnaio.open(p, fileformat="fasta", mode="r") as reader:
            for rec in reader:
                found += 1
                if left is None or rec.id in left or rec.name in left:
                    if left is not None:
                        left -= {rec.id, rec.name}
                    yield rec.id, rec.sequence
    except dnaio.exceptions.FileFormatError as exc:
        why = _CONTROL.sub(lambda m: repr(m.group())[1:-1], short_message(str(exc)))
        raise InputError(f"{path} is not a FASTA file: {why}") from None
    except UnicodeError:
        raise InputError(f"{path} is not a FASTA file: it holds bytes that are not text") from None
    except MemoryError:
        raise
    except Exception as exc:  # OSError, a broken compressed stream (EOFError, zlib's, ISA-L's)
        why = short_message(f"{type(exc).__name__}: {exc}")
        raise InputError(f"cannot read the FASTA file {path}: {why}") from None
    if not found:
        raise InputError(f"{path} is not a FASTA file: it holds no record (no '>' header)")
    if left:
        raise InputError(f"no record {', '.join(sorted(left))} in the FASTA file {path}")
