"""Shortest common superstring: the rules, the instance type and an independent checker.

A *superstring* of a word list ``L`` is a string that contains every word of ``L`` as a
substring (a run of consecutive letters); the puzzle asks for a shortest one::

    cat, atom, a   ->   catom                                   (5 letters)

Definitions used throughout cpwords:

* Words are the distinct entries of the list, in NFC and lower case (as every cpwords puzzle
  reads a list); a repeated line is one word.
* A word contained in another (``a`` in ``cat``, ``cat`` in ``catalog``) is in every superstring
  of the other: it *drops out* and the problem is that of the others, the *kept* words, a
  substring-free list.
* Of a substring-free list, a shortest superstring is the kept words in some order, each
  overlapping the next by their longest suffix-prefix overlap: its length is the kept letters
  less the sum of those overlaps. So the objective, the length, is minimised by maximising the
  sum of the overlaps (the Wordsnake with the linear score; card ``models/superstring.md``).
* The superstring is linear: it does not wrap around (a circular superstring is another
  puzzle, refused).

No solver and no model code is imported here: the checker reads only the strings, sharing no
code with the reduction and the models of :mod:`cpwords.superstring.models`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cpwords.core.alphabet import is_word, normalize_word, word_problem
from cpwords.core.errors import InputError, excerpt


@dataclass(frozen=True)
class SuperstringInstance:
    """A shortest-superstring puzzle: the words.

    Attributes
    ----------
    words : tuple of str
        Distinct words, normalised (NFC, lower case), in input order.
    source : str
        Where the words came from (for messages and reports).
    repeated : int
        How many lines of the source repeated a word already listed (they count once).
    """

    words: tuple[str, ...]
    source: str = "<words>"
    repeated: int = 0

    @property
    def letters(self) -> int:
        """The letters of the (distinct) words, in all."""
        return sum(len(w) for w in self.words)


def superstring_instance(words: Iterable[str], source: str = "<words>") -> SuperstringInstance:
    """A checked :class:`SuperstringInstance` (repeated words kept once, in input order).

    Parameters
    ----------
    words : iterable of str
        Normalised words (NFC, lower case), as :func:`cpwords.core.lexicon.read_word_list`
        returns them.
    source : str
        Where the words came from.

    Returns
    -------
    SuperstringInstance

    Raises
    ------
    InputError
        An empty list, one string given instead of a list, or something that is not a word (a
        digit, punctuation, a space: see :func:`cpwords.core.alphabet.word_problem`).

    Examples
    --------
    >>> superstring_instance(["cat", "atom", "Cat", "a"]).words
    ('cat', 'atom', 'a')
    """
    if isinstance(words, str):
        raise InputError(
            f"give the words as a sequence, e.g. ({excerpt(words, 20)!r},), not one string"
        )
    listed = []
    for w in words:
        if not isinstance(w, str):
            raise InputError(f"{excerpt(str(w))!r} is not a word (a string)")
        normal = normalize_word(w)
        w = w if normal == w else normal  # the caller's string when normal (no second copy)
        if not is_word(w):
            raise InputError(f"{excerpt(w)!r} is not a word: {word_problem(w)}")
        listed.append(w)
    distinct = tuple(dict.fromkeys(listed))
    if not distinct:
        raise InputError(f"the word list {source} is empty")
    return SuperstringInstance(distinct, source, len(listed) - len(distinct))


@dataclass(frozen=True)
class Superstring:
    """A superstring and where each word sits in it.

    Attributes
    ----------
    text : str
        The superstring.
    order : tuple of str
        The kept words (those contained in no other) in the order they start in ``text``.
    starts : tuple of int
        For every word of the instance (in its order), the index in ``text`` where the
        producer claims it starts. The checker reads it only as a hint: a word not found there
        is searched for in the whole string.
    """

    text: str
    order: tuple[str, ...]
    starts: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.text)


def superstring_problems(
    words: Sequence[str], found: Superstring | str, deadline: float | None = None
) -> list[str]:
    """Independent checker: the words a claimed superstring does not contain.

    Parameters
    ----------
    words : sequence of str
        The instance's words.
    found : Superstring or str
        The superstring (with the claimed start of each word), or a bare string.
    deadline : float, optional
        ``time.perf_counter()`` value after which the check stops (``TimeoutError``).

    Returns
    -------
    list of str
        Empty when every word is a substring of the text; else one line per missing word (the
        first 20).

    Notes
    -----
    A plain substring scan: each word is compared letter by letter at its claimed start
    (``text.startswith(word, start)``, O(its letters)) and, when the claim is absent or
    wrong, searched for in the whole text (``word in text``). A correct claim makes the whole
    check linear in the letters (a plain search of every word of ENABLE in its 831,792-letter
    superstring took 87 s). Nothing here comes from the model: a wrong claim costs time, never
    a wrong answer.

    Examples
    --------
    >>> superstring_problems(["cat", "atom", "a"], "catom")
    []
    >>> superstring_problems(["cat", "dog"], "catdo")
    ['dog is not in the superstring']
    """
    text = found.text if isinstance(found, Superstring) else found
    starts: Sequence[int] = found.starts if isinstance(found, Superstring) else ()
    if starts and len(starts) != len(words):
        starts = ()
    out: list[str] = []
    missing = 0
    for i, w in enumerate(words):
        if deadline is not None and i % 4096 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        if starts and starts[i] >= 0 and text.startswith(w, starts[i]):
            continue
        if w not in text:
            missing += 1
            if len(out) < 20:
                out.append(f"{excerpt(w)} is not in the superstring")
    if missing > len(out):
        out.append(f"... {missing - len(out):,} more words are not in it")
    return out


def substring_free_problem(words: Sequence[str], deadline: float | None = None) -> str | None:
    """Independent check that no word of ``words`` is a substring of another.

    The lower bound on a superstring's length that a certificate proves for a list holds only
    when the list is substring-free (``{abc, b}``: the bound would say 4, the answer is
    ``abc``); the words kept after the contained ones drop out must therefore be checked.

    Parameters
    ----------
    words : sequence of str
        Distinct words.
    deadline : float, optional
        ``time.perf_counter()`` value after which the check stops (``TimeoutError``).

    Returns
    -------
    str or None
        None when substring-free; else one line naming a word and the word it is in.

    Notes
    -----
    Every run of every word whose length is the length of some word (shorter than the one
    read) is looked up in the set of the words: O(sum of squared lengths / 2) lookups, no
    index shared with the models (ENABLE's 94,864 kept words: 4.4 million runs, 2.2 s).

    Examples
    --------
    >>> substring_free_problem(["cat", "atom"]) is None
    True
    >>> substring_free_problem(["cat", "catalog"])
    'cat is contained in catalog'
    """
    present = set(words)
    if len(present) != len(words):
        return "a word is listed twice"
    lengths = sorted({len(w) for w in words})
    for n, x in enumerate(words):
        if deadline is not None and n % 1024 == 0 and time.perf_counter() > deadline:
            raise TimeoutError
        lx = len(x)
        for k in lengths:
            if k >= lx:
                break
            for i in range(lx - k + 1):
                if x[i : i + k] in present:
                    return f"{excerpt(x[i : i + k], 30)} is contained in {excerpt(x, 30)}"
    return None
