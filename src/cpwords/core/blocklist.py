"""Words a generated puzzle must not show: profanity and slurs, plus the designer's own list.

The puzzles cpwords *generates* (grid listings and ``--unique`` designs, ``letterboxed
--generate``) draw on frequency lists, which hold profanity, slurs and names: a grid board
spelled "fuck" and "rape". The default blocklist is the word list of the ``better-profanity``
package (MIT; 944 entries, 866 of them plain a-z words; the most used word list of its kind
on PyPI, a plain text file with no model or network behind it). A designer adds words of their
own from a file, or turns the list off.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cpwords.core.errors import InputError

__all__ = ["Blocklist", "default_blocklist_words", "load_blocklist"]

#: The package whose word list is the default blocklist.
DEFAULT_SOURCE = "better-profanity"


@dataclass(frozen=True)
class Blocklist:
    """A set of blocked words and where they came from.

    Attributes
    ----------
    words : frozenset of str
        Lower-case words; a word is blocked when it is one of them, in any case (the list
        holds its own inflections: "fucks", "sucked"; adding a plural rule blocked "assess"
        and "spaces").
    source : str
        For messages and JSON (``"better-profanity 0.7.0 + mine.txt"``, ``"off"``).
    """

    words: frozenset[str]
    source: str

    def blocks(self, word: str) -> bool:
        """Whether ``word`` (any case) is blocked.

        Examples
        --------
        >>> b = Blocklist(frozenset({"damn"}), "test")
        >>> b.blocks("Damn"), b.blocks("dam")
        (True, False)
        """
        return word.lower() in self.words

    def any_blocked(self, words: Iterable[str]) -> list[str]:
        """The blocked words among ``words``, in order."""
        return [w for w in words if self.blocks(w)]

    def __bool__(self) -> bool:
        return bool(self.words)


def default_blocklist_words() -> frozenset[str]:
    """The default blocklist: ``better-profanity``'s word list, lower-cased.

    Returns
    -------
    frozenset of str

    Raises
    ------
    InputError
        The package is not installed (it is a dependency of cpwords).
    """
    from importlib import resources

    try:
        text = (
            resources.files("better_profanity")
            .joinpath("profanity_wordlist.txt")
            .read_text(encoding="utf-8")
        )
    except (ModuleNotFoundError, FileNotFoundError):
        raise InputError(
            "the default blocklist needs the package better-profanity (pip install "
            "better-profanity), or give --no-blocklist"
        ) from None
    return frozenset(w.strip().lower() for w in text.splitlines() if w.strip())


def load_blocklist(extra: str | Path | None = None, enabled: bool = True) -> Blocklist:
    """The blocklist of a generating command: the default list plus a file of one's own.

    Parameters
    ----------
    extra : path-like, optional
        A UTF-8 file of words to block too, one a line (``#`` starts a comment).
    enabled : bool
        False turns the default list off (``--no-blocklist``); ``extra`` still applies.

    Returns
    -------
    Blocklist

    Raises
    ------
    InputError
        The extra file is missing, a directory, unreadable or not UTF-8.
    """
    from importlib.metadata import PackageNotFoundError, version

    words: set[str] = set()
    parts: list[str] = []
    if enabled:
        words |= default_blocklist_words()
        try:
            parts.append(f"{DEFAULT_SOURCE} {version(DEFAULT_SOURCE)}")
        except PackageNotFoundError:  # pragma: no cover - read above, so installed
            parts.append(DEFAULT_SOURCE)
    if extra is not None:
        p = Path(extra)
        if not p.is_file():
            what = "a directory" if p.is_dir() else "not found"
            raise InputError(f"blocklist file {p} is {what}")
        try:
            text = p.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise InputError(f"blocklist file {p} is not UTF-8 text") from None
        except OSError as exc:
            raise InputError(f"cannot read blocklist file {p}: {exc.strerror}") from None
        for line in text.splitlines():
            w = line.split("#", 1)[0].strip().lower()
            if w:
                words.add(w)
        parts.append(str(p))
    return Blocklist(frozenset(words), " + ".join(parts) if parts else "off")
