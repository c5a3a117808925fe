"""The word lists shipped inside cpwords: the games' own dictionaries, on every install.

Three English lists travel in ``cpwords/data/wordlists/``, compressed with xz (Python's
:mod:`lzma`), each with its licence beside it (compressed the same way, read by
:func:`licence_text`): the Letterpress game's list (``letterpress``, CC0), the Truncate game's
list (``truncate``, MIT) and ENABLE (``enable1``, public domain). Each decompressed file is the
source file byte for byte; ``manifest.json`` records its SHA-256, which every read checks. They
are written by ``tools/pack_word_lists.py`` from the project's real-data folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from cpwords.core.alphabet import Alphabet
from cpwords.core.errors import InputError
from cpwords.core.lexicon import Lexicon, parse_lexicon_bytes

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: The package folder of the lists (below ``cpwords.data``).
FOLDER = "wordlists"


@dataclass(frozen=True)
class PackagedList:
    """One word list shipped with cpwords, as ``manifest.json`` describes it.

    Attributes
    ----------
    name : str
        Its lexicon name (``letterpress``, ``truncate``, ``enable1``).
    file : str
        The compressed file's name in the package folder (``letterpress-en.txt.xz``).
    source_file : str
        The name of the file it was packed from (``letterpress-en.txt``).
    sha256 : str
        Hex SHA-256 of the decompressed text.
    bytes : int
        Size of the decompressed text, in bytes.
    lines : int
        Its lines (a last line without a newline counts).
    compressed_bytes : int
        Size of the compressed file, in bytes.
    licence : str
        Its licence (``CC0-1.0``, ``MIT``, ``public domain``).
    licence_file : str or None
        The licence text's file beside it, compressed with xz (``LICENSE-truncate-MIT.txt.xz``;
        None for a public-domain list).
    licence_sha256 : str or None
        Hex SHA-256 of the decompressed licence text (None without a licence file).
    origin : str
        Where it comes from.
    """

    name: str
    file: str
    source_file: str
    sha256: str
    bytes: int
    lines: int
    compressed_bytes: int
    licence: str
    licence_file: str | None
    licence_sha256: str | None
    origin: str


def folder() -> Traversable:
    """The package folder holding the lists, their licences and the manifest."""
    from importlib import resources  # a shipped list's read only: 3 ms of every start otherwise

    return resources.files("cpwords.data").joinpath(FOLDER)


@lru_cache(maxsize=1)
def packaged_lists() -> dict[str, PackagedList]:
    """Every shipped list by name, in the manifest's order (``enable1``, ``letterpress``,
    ``truncate``).

    Returns
    -------
    dict of str to PackagedList

    Examples
    --------
    >>> sorted(packaged_lists())
    ['enable1', 'letterpress', 'truncate']
    >>> packaged_lists()["letterpress"].licence
    'CC0-1.0'
    """
    entries = json.loads(folder().joinpath("manifest.json").read_text(encoding="utf-8"))
    return {name: PackagedList(name=name, **entry) for name, entry in entries.items()}


def is_packaged(name: str) -> bool:
    """Whether ``name`` names a shipped list.

    Examples
    --------
    >>> is_packaged("enable1"), is_packaged("web2")
    (True, False)
    """
    return name in packaged_lists()


@lru_cache(maxsize=3)
def packaged_bytes(name: str) -> bytes:
    """The decompressed text of a shipped list, checked against its SHA-256.

    Parameters
    ----------
    name : str
        ``letterpress``, ``truncate`` or ``enable1``.

    Returns
    -------
    bytes
        The list's file, byte for byte (UTF-8 text; 1.7 to 2.8 MB, decompressed in about
        30 ms). The last three lists read are cached.

    Raises
    ------
    InputError
        An unknown name (one line naming the shipped lists), or a damaged or missing file of
        the installed package (reinstall cpwords).
    """
    entry = _entry(name)
    return _read_checked(entry.file, entry.sha256, "word list")


def licence_text(name: str) -> str | None:
    """The licence of a shipped list, decompressed, as text.

    Parameters
    ----------
    name : str
        ``letterpress``, ``truncate`` or ``enable1``.

    Returns
    -------
    str or None
        The licence file's text (the source licence file byte for byte, checked against its
        SHA-256), or None for a list without one (``enable1``, public domain).

    Raises
    ------
    InputError
        As :func:`packaged_bytes`.

    Examples
    --------
    >>> licence_text("truncate").splitlines()[0]
    'MIT License'
    >>> licence_text("enable1") is None
    True
    """
    entry = _entry(name)
    if entry.licence_file is None or entry.licence_sha256 is None:
        return None
    return _read_checked(entry.licence_file, entry.licence_sha256, "licence").decode("utf-8")


def _entry(name: str) -> PackagedList:
    """The manifest's entry of ``name``; an :class:`InputError` naming the shipped lists if none."""
    lists = packaged_lists()
    entry = lists.get(name)
    if entry is None:
        raise InputError(f"no shipped word list {name!r} (shipped: {', '.join(lists)})")
    return entry


def _read_checked(file: str, sha256: str, what: str) -> bytes:
    """The decompressed bytes of the package folder's ``file``, checked against ``sha256``.

    ``what`` names the file in the errors (``word list``, ``licence``): an
    :class:`InputError` for a file that cannot be read or decompressed, or that is damaged.
    """
    import hashlib  # a shipped list's read only: 5 ms of every start otherwise
    import lzma

    try:
        data = lzma.decompress(folder().joinpath(file).read_bytes())
    except (OSError, lzma.LZMAError) as exc:
        raise InputError(
            f"the shipped {what} {file} cannot be read ({exc}): reinstall cpwords"
        ) from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise InputError(
            f"the shipped {what} {file} is damaged (its SHA-256 differs from the "
            "manifest's): reinstall cpwords"
        )
    return data


def packaged_lexicon(
    name: str, *, lang: str | None = None, alphabet: Alphabet = "a-z", fold: bool = False
) -> Lexicon:
    """A shipped list as a :class:`~cpwords.core.lexicon.Lexicon`, named ``name``.

    Read like a dictionary file (:func:`cpwords.core.lexicon.parse_lexicon_text`: the first
    field of a line, ``*`` marks stripped, so the Truncate list's ``word freq score`` lines
    give their words).

    Parameters
    ----------
    name : str
        ``letterpress``, ``truncate`` or ``enable1``.
    lang : str, optional
        The case rules (the lists are English, lower case: no effect on them).
    alphabet : {"a-z", "any"}
        Which entries are kept.
    fold : bool
        Fold accents (the lists have none).

    Returns
    -------
    Lexicon

    Raises
    ------
    InputError
        As :func:`packaged_bytes`.

    Examples
    --------
    >>> lex = packaged_lexicon("truncate")
    >>> len(lex), "relapsed" in lex, lex.source
    (112774, True, 'truncate')
    """
    return parse_lexicon_bytes(packaged_bytes(name), name, lang=lang, alphabet=alphabet, fold=fold)
