"""The seed's Letterpress word finders, ported from Ruby to Python.

S. H. Eskildsen, "Letterpress Cheater Algorithm" (2013), benchmarks on ``/usr/share/dict/words``:

* the **naive frequency-map scan**: for every word, copy the bag's letter counts and decrement
  them letter by letter, dropping the word as soon as a count goes negative (2-4 s in Ruby);
* the same scan **grouped by first letter**, skipping the groups whose letter is not in the bag;
* a **trie** of the dictionary walked depth first, descending only into children whose letter
  is still available in the bag (30-670 ms in Ruby on the four benchmark strings).

All are exact (they list every spellable word); they are kept to be measured against the bitset
index of :mod:`cpwords.letterpress.models.index`. Results are sorted by (length, word) so that
listings
can be compared directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from cpwords.core.lexicon import Lexicon
from cpwords.letterpress.rules import parse_letters, sort_key


def _words(words: Lexicon | Iterable[str]) -> list[str]:
    return list(words.words) if isinstance(words, Lexicon) else list(words)


def _fits(word: str, bag: dict[str, int]) -> bool:
    """The seed's test: spend a copy of the bag's letter counts on the word's letters."""
    freq = bag.copy()
    for ch in word:
        left = freq.get(ch, 0) - 1
        if left < 0:
            return False
        freq[ch] = left
    return True


def naive_scan(words: Lexicon | Iterable[str], letters: str) -> list[str]:
    """The seed's naive frequency-map scan over every word.

    Returns
    -------
    list of str
        The spellable words, distinct, sorted by (length, word).
    """
    bag = dict(Counter(parse_letters(letters)))
    out = [word for word in _words(words) if _fits(word, bag)]
    return sorted(set(out), key=sort_key)


class FirstLetterGroups:
    """The seed's "group by first letter" refinement of the naive scan (built once)."""

    def __init__(self, words: Lexicon | Iterable[str]) -> None:
        self.groups: dict[str, list[str]] = {}
        for w in _words(words):
            self.groups.setdefault(w[0], []).append(w)

    def query(self, letters: str) -> list[str]:
        """Spellable words, sorted by (length, word)."""
        bag = dict(Counter(parse_letters(letters)))
        out: list[str] = []
        for first, group in self.groups.items():
            if first not in bag:
                continue
            out.extend(word for word in group if _fits(word, bag))
        return sorted(set(out), key=sort_key)


class _Node:
    __slots__ = ("children", "word")

    def __init__(self) -> None:
        self.word: str | None = None
        self.children: dict[str, _Node] = {}


class Trie:
    """The seed's trie: insert every word, then walk it with the bag's letter counts.

    Examples
    --------
    >>> Trie(["cat", "act", "coats", "taco", "tact"]).query("tacos")
    ['act', 'cat', 'taco', 'coats']
    """

    def __init__(self, words: Lexicon | Iterable[str]) -> None:
        self.root = _Node()
        for w in _words(words):
            node = self.root
            for ch in w:
                nxt = node.children.get(ch)
                if nxt is None:
                    nxt = node.children[ch] = _Node()
                node = nxt
            node.word = w

    def query(self, letters: str) -> list[str]:
        """Spellable words, sorted by (length, word)."""
        freq = dict(Counter(parse_letters(letters)))
        out: list[str] = []

        def walk(node: _Node) -> None:
            if node.word is not None:
                out.append(node.word)
            for ch, child in node.children.items():
                k = freq.get(ch, 0)
                if k:
                    freq[ch] = k - 1
                    walk(child)
                    freq[ch] = k

        walk(self.root)
        return sorted(out, key=sort_key)
