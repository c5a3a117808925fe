"""Word chains: the rules, the instance type and an independent checker.

A *word chain* with overlap ``k`` over a word list ``L`` is a sequence ``(w_1, ..., w_m)``,
``m >= 1``, of pairwise distinct words of ``L``, each of at least ``k`` letters, in which every
word begins with the last ``k`` letters of the one before: ``w_{i+1}[:k] == w_i[-k:]``. With
``k = 1`` this is shiritori (the "last letter - first letter" game)::

    seasick -> kiln -> nausea                                     (k = 1, 3 words)

Definitions used throughout cpwords:

* Words are the distinct entries of the list, in NFC and lower case (as every cpwords puzzle
  reads a list); a repeated line is one word.
* A word of fewer than ``k`` letters has no last ``k`` letters and cannot begin with ``k``
  letters: it takes no part in any chain (not even alone).
* A word of exactly ``k`` letters is its own first and last ``k`` letters (``"ab"`` can follow
  ``"cab"`` and precede ``"abc"`` when ``k = 2``).
* The objective is the number of words (``"words"``) or the total number of letters
  (``"letters"``) of the chain.

No solver is imported here: the checker recomputes everything from the strings, sharing no code
with the trail model of :mod:`cpwords.chain.models.trail`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from cpwords.core.result import counted

#: The objectives a chain may maximise.
OBJECTIVES = ("words", "letters")


@dataclass(frozen=True)
class ChainInstance:
    """A word-chain puzzle: the words, the overlap, the objective and the fixed ends.

    Attributes
    ----------
    words : tuple of str
        Distinct words, normalised (NFC, lower case), in input order.
    overlap : int
        ``k``: how many letters consecutive words share (at least 1).
    objective : {"words", "letters"}
        What the chain maximises.
    start, end : str or None
        The required first and last words.
    source : str
        Where the words came from (for messages).
    """

    words: tuple[str, ...]
    overlap: int = 1
    objective: str = "words"
    start: str | None = None
    end: str | None = None
    source: str = "<words>"

    def usable(self) -> tuple[str, ...]:
        """The words that can take part in a chain (at least ``overlap`` letters)."""
        return tuple(w for w in self.words if len(w) >= self.overlap)


def chain_value(chain: Sequence[str], objective: str) -> int:
    """The objective of ``chain``: its number of words, or its number of letters.

    Parameters
    ----------
    chain : sequence of str
        The words in order.
    objective : {"words", "letters"}
        What is counted.

    Returns
    -------
    int
        ``len(chain)``, or the sum of the words' lengths (in characters).

    Examples
    --------
    >>> chain_value(["seasick", "kiln", "nausea"], "words")
    3
    >>> chain_value(["seasick", "kiln", "nausea"], "letters")
    17
    """
    if objective == "letters":
        return sum(len(w) for w in chain)
    return len(chain)


def chain_problems(
    chain: Sequence[str],
    words: Collection[str],
    overlap: int,
    start: str | None = None,
    end: str | None = None,
) -> list[str]:
    """List every rule a candidate chain breaks (empty when it is valid).

    Parameters
    ----------
    chain : sequence of str
        The words, in order.
    words : collection of str
        The word list (a set is fastest).
    overlap : int
        ``k``, the letters shared by consecutive words.
    start, end : str, optional
        Required first and last words.

    Returns
    -------
    list of str
        Human-readable problems; empty for a valid chain.

    Examples
    --------
    >>> chain_problems(["seasick", "kiln", "nausea"], {"seasick", "kiln", "nausea"}, 1)
    []
    >>> chain_problems(["kiln", "seasick"], {"seasick", "kiln"}, 1)
    ["link 1: 'seasick' does not begin with 'n', the last 1 letter of 'kiln'"]
    """
    if len(chain) == 0:
        return ["the chain is empty"]
    problems: list[str] = []
    seen: set[str] = set()
    for i, w in enumerate(chain):
        if w not in words:
            problems.append(f"word {i + 1} {w!r} is not in the list")
        if w in seen:
            problems.append(f"word {i + 1} {w!r} is used twice")
        seen.add(w)
        if len(w) < overlap:
            problems.append(f"word {i + 1} {w!r} is shorter than the overlap {overlap}")
    for i in range(len(chain) - 1):
        a, b = chain[i], chain[i + 1]
        tail = a[len(a) - overlap :]
        if len(a) < overlap or len(b) < overlap or b[:overlap] != tail:
            problems.append(
                f"link {i + 1}: {b!r} does not begin with {tail!r}, the last "
                f"{counted(overlap, 'letter')} of {a!r}"
            )
    if start is not None and chain[0] != start:
        problems.append(f"the chain starts at {chain[0]!r}, not {start!r}")
    if end is not None and chain[-1] != end:
        problems.append(f"the chain ends at {chain[-1]!r}, not {end!r}")
    return problems


def instance_problems(instance: ChainInstance, chain: Sequence[str]) -> list[str]:
    """:func:`chain_problems` under the instance's list, overlap and fixed ends.

    Parameters
    ----------
    instance : ChainInstance
    chain : sequence of str

    Returns
    -------
    list of str
        Empty when ``chain`` is a valid chain of ``instance``.
    """
    return chain_problems(
        chain, frozenset(instance.words), instance.overlap, instance.start, instance.end
    )


def is_valid_chain(
    chain: Sequence[str],
    words: Collection[str],
    overlap: int = 1,
    start: str | None = None,
    end: str | None = None,
) -> bool:
    """True when ``chain`` is a valid word chain over ``words``.

    Parameters
    ----------
    chain : sequence of str
        The words in order.
    words : collection of str
        The list the chain must be drawn from (each word at most once).
    overlap : int
        ``k``: each word begins with the last ``k`` letters of the one before.
    start, end : str, optional
        The word the chain must begin, or end, with.

    Returns
    -------
    bool
        Whether every rule of the card (models/chain.md) holds.

    Examples
    --------
    >>> is_valid_chain(["abc", "bcd", "cde"], {"abc", "bcd", "cde"}, overlap=2)
    True
    >>> is_valid_chain(["abc", "abc"], {"abc"}, overlap=1)
    False
    """
    return not chain_problems(chain, words, overlap, start, end)
