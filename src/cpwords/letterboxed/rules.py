"""Letter Boxed: the box, the rules, the scorer and an independent checker.

The New York Times puzzle: twelve distinct letters sit three to a side on a square. A *playable*
word has at least three letters, uses only box letters and never takes two consecutive letters
from the same side (letters may repeat). Words are chained: each word starts with the last letter
of the previous one. A *solution* is a chain that uses every letter of the box at least once;
the game ends as soon as every letter is used, so no proper prefix of a solution covers the box.
Fewer words is better, and among equal word counts fewer letters (the sum of the word lengths).

No solver is imported here. The checker (:func:`letterboxed_problems`) recomputes everything from
the strings with its own plain loops, sharing no code with the word index or the models.

References
----------
B. Mattessich (writeasync), "Letter Boxed: an algorithmic solution", 2019 (the seed: a trie walk
along the box graph, then a search over two-word pairs).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from cpwords.core.alphabet import is_letter, normalize_word, script_of
from cpwords.core.errors import InputError

#: The shape of the newspaper's puzzle: 4 sides of 3 letters.
NYT_SHAPE = (4, 3)

#: Weight of one word in the scalar objective ``WORD_WEIGHT * words + letters``; it exceeds the
#: letter count of any chain the solvers return, so the scalar orders solutions lexicographically
#: by (words, letters).
WORD_WEIGHT = 1000

#: Largest number of letters a box may hold (the exact method keeps a table of 2**n masks).
MAX_LETTERS = 16

_SEPARATORS = re.compile(r"[-,/|\s]+")


@dataclass(frozen=True)
class LetterBox:
    """A Letter Boxed puzzle: the sides of the box.

    Parameters
    ----------
    sides : tuple of str
        The letters of each side, normalised (NFC, lower case: see
        :mod:`cpwords.core.alphabet`), in any script. The newspaper's shape is 4 sides of 3
        letters (see :func:`parse_box`, which enforces it by default); this type accepts any
        shape of at least 2 non-empty sides with at most ``MAX_LETTERS`` distinct letters.

    Raises
    ------
    InputError
        Fewer than 2 sides, an empty side, a character that is not a letter, a letter on two
        sides or twice on one side, more than ``MAX_LETTERS`` letters.

    Examples
    --------
    >>> box = LetterBox(("abc", "def", "ghi", "jkl"))
    >>> box.letters, box.side_of["e"]
    ('abcdefghijkl', 1)
    """

    sides: tuple[str, ...]

    def __post_init__(self) -> None:
        sides = tuple(self.sides)
        object.__setattr__(self, "sides", sides)
        if len(sides) < 2:
            raise InputError(f"a box needs at least 2 sides, got {len(sides)}")
        seen: dict[str, int] = {}
        for i, side in enumerate(sides, start=1):
            if not isinstance(side, str) or not side:
                raise InputError(f"side {i} is empty")
            for ch in side:
                if not ("a" <= ch <= "z" or is_letter(ch)):
                    raise InputError(f"side {i} {side!r}: {ch!r} is not a letter")
                if ch in seen:
                    where = (
                        f"twice on side {i}" if seen[ch] == i else f"on sides {seen[ch]} and {i}"
                    )
                    raise InputError(f"letter {ch!r} appears {where}; box letters must be distinct")
                seen[ch] = i
        if len(seen) > MAX_LETTERS:
            raise InputError(f"a box holds at most {MAX_LETTERS} letters, got {len(seen)}")

    @property
    def letters(self) -> str:
        """All box letters, side by side (the order fixes the bit of each letter in masks)."""
        return "".join(self.sides)

    @property
    def side_of(self) -> dict[str, int]:
        """Map letter -> index of its side (0-based)."""
        return {ch: i for i, side in enumerate(self.sides) for ch in side}

    @property
    def n(self) -> int:
        """Number of letters."""
        return len(self.letters)

    @property
    def shape(self) -> tuple[int, ...]:
        """Side lengths."""
        return tuple(len(s) for s in self.sides)

    def __str__(self) -> str:
        return "-".join(self.sides)


def parse_box(
    spec: str | Sequence[str],
    shape: tuple[int, int] | None = NYT_SHAPE,
    lang: str | None = None,
    fold: bool = False,
) -> LetterBox:
    """Parse a box from ``"abc-def-ghi-jkl"`` or from a sequence of side strings.

    Parameters
    ----------
    spec : str or sequence of str
        One string whose sides are separated by ``-``, ``,``, ``/``, ``|`` or spaces, or one
        string per side (a sequence of one string is split like a string). Case is ignored;
        NFC and NFD are the same box.
    shape : (int, int) or None
        Required (number of sides, letters per side); None accepts any shape
        :class:`LetterBox` accepts.
    lang : str, optional
        ISO 639-1 code, for its case rules (``"tr"``: ``I`` is ``ı``).
    fold : bool
        Fold accents (``é`` -> ``e``); a box that then holds a letter twice is refused.

    Returns
    -------
    LetterBox

    Raises
    ------
    InputError
        Wrong number of sides or side length, a non-letter, a repeated letter.

    Examples
    --------
    >>> parse_box("LUA-SGC-YHK-ZOP").sides
    ('lua', 'sgc', 'yhk', 'zop')
    >>> parse_box(["lua", "sgc", "yhk", "zop"]) == parse_box("lua sgc yhk zop")
    True
    >>> parse_box("ÉRA-TLO-SNI-CUÈ").sides
    ('éra', 'tlo', 'sni', 'cuè')
    """
    if isinstance(spec, str):
        parts = [p for p in _SEPARATORS.split(spec.strip()) if p]
    else:
        spec = list(spec)
        if len(spec) == 1:
            return parse_box(spec[0], shape, lang, fold)
        parts = [str(p).strip() for p in spec]
    parts = [normalize_word(p, lang, fold) for p in parts]
    if not parts:
        raise InputError("the box is empty; give sides like abc-def-ghi-jkl")
    if shape is not None:
        n_sides, per_side = shape
        if len(parts) != n_sides:
            raise InputError(
                f"a box has {n_sides} sides of {per_side} letters (like abc-def-ghi-jkl), "
                f"got {len(parts)} side(s): {'-'.join(parts)!r}"
            )
        for i, p in enumerate(parts, start=1):
            if len(p) != per_side:
                raise InputError(
                    f"side {i} {p!r} has {len(p)} letter(s); every side needs {per_side}"
                )
    return LetterBox(tuple(parts))


def box_script_problem(box: LetterBox, lang: str) -> str | None:
    """Why a box is no puzzle of ``lang``: letters outside the scripts the language is written
    in (:func:`cpwords.core.languages.language_scripts`), or None.

    A language's built-in list may hold foreign tokens (wordfreq's Japanese list has English
    words); a Latin box "solved" from them is no Japanese puzzle.

    Parameters
    ----------
    box : LetterBox
    lang : str
        ISO 639 code (a language wordfreq has no list for is never refused).

    Returns
    -------
    str or None
        One line naming the box's foreign scripts and the language's.

    Examples
    --------
    >>> print(box_script_problem(LetterBox(("tae", "lin", "orc", "gsu")), "ja"))
    box tae-lin-orc-gsu is written in LATIN, not in the script of --lang ja (CJK/HIRAGANA/KATAKANA)
    >>> box_script_problem(LetterBox(("tae", "lin", "orc", "gsu")), "fr") is None
    True
    """
    from cpwords.core.languages import language_scripts

    scripts = language_scripts(lang)
    if scripts is None:
        return None
    foreign = sorted({script_of(ch) for ch in box.letters} - scripts)
    if not foreign:
        return None
    return (
        f"box {box} is written in {'/'.join(foreign)}, not in the script of --lang {lang} "
        f"({'/'.join(sorted(scripts))})"
    )


def unplayable_reason(word: str, box: LetterBox) -> str | None:
    """Why ``word`` is not playable in ``box``, or None when it is.

    Examples
    --------
    >>> box = LetterBox(("abc", "def", "ghi", "jkl"))
    >>> unplayable_reason("bead", box) is None
    True
    >>> unplayable_reason("cab", box)
    "'cab' takes 'c' and 'a' in a row from the same side"
    """
    if len(word) < 3:
        return f"{word!r} has fewer than 3 letters"
    side = box.side_of
    for ch in word:
        if ch not in side:
            return f"{word!r} uses {ch!r}, which is not in the box"
    for i in range(len(word) - 1):
        if side[word[i]] == side[word[i + 1]]:
            return f"{word!r} takes {word[i]!r} and {word[i + 1]!r} in a row from the same side"
    return None


def is_playable(word: str, box: LetterBox) -> bool:
    """True when ``word`` obeys the rules of ``box`` (length, letters, sides).

    Examples
    --------
    >>> box = LetterBox(("abc", "def", "ghi", "jkl"))
    >>> is_playable("bead", box), is_playable("bag", box), is_playable("be", box)
    (True, False, False)
    """
    return unplayable_reason(word, box) is None


def score(words: Sequence[str]) -> tuple[int, int]:
    """The lexicographic score ``(number of words, number of letters)``; lower is better."""
    return len(words), sum(len(w) for w in words)


def objective_value(words: Sequence[str]) -> int:
    """The scalar objective ``WORD_WEIGHT * words + letters`` (see :data:`WORD_WEIGHT`)."""
    n_words, n_letters = score(words)
    return WORD_WEIGHT * n_words + n_letters


def letterboxed_problems(
    box: LetterBox, words: Sequence[str], lexicon: Collection[str] | None = None
) -> list[str]:
    """Every rule a proposed solution breaks; an empty list means it is a valid solution.

    Parameters
    ----------
    box : LetterBox
    words : sequence of str
        The proposed chain, in play order (case is ignored).
    lexicon : collection of str, optional
        When given, every word must be in it.

    Returns
    -------
    list of str
        One message per broken rule: an empty chain, an unplayable word, a word outside the
        lexicon, a broken chain link, a letter never used, the box covered before the last word
        (the game ends as soon as every letter is used).

    Examples
    --------
    >>> box = LetterBox(("abc", "def", "ghi", "jkl"))
    >>> letterboxed_problems(box, ["bead", "dick"])
    ['letters never used: f, g, h, j, l']
    """
    problems: list[str] = []
    words = [normalize_word(w.strip()) for w in words]
    if not words:
        return ["the solution has no words"]
    for w in words:
        reason = unplayable_reason(w, box)
        if reason is not None:
            problems.append(reason)
        elif lexicon is not None and w not in lexicon:
            problems.append(f"{w!r} is not in the lexicon")
    for i in range(len(words) - 1):
        a, b = words[i], words[i + 1]
        if a and b and a[-1] != b[0]:
            problems.append(f"{b!r} does not start with the last letter of {a!r}")
    used: set[str] = set()
    for i, w in enumerate(words):
        used.update(w)
        if i < len(words) - 1 and all(ch in used for ch in box.letters):
            problems.append(f"every letter is used after word {i + 1} ({w!r}); the game ends there")
            break
    missing = [ch for ch in box.letters if ch not in used]
    if missing:
        problems.append("letters never used: " + ", ".join(sorted(missing)))
    return problems


def plays_problems(
    box: LetterBox,
    plays: Sequence[str],
    lexicon: Collection[str] | None = None,
    lexicon_name: str = "the lexicon",
) -> list[str]:
    """Every rule the words played so far break; an empty list means the game can go on.

    The rules of :func:`letterboxed_problems` for a game in progress: every play is a playable
    word (in ``lexicon`` when given), each starts with the last letter of the one before, and
    no play comes after the one that used the last letter (the game ended there). Unlike a
    solution, plays need not use every letter.

    Parameters
    ----------
    box : LetterBox
    plays : sequence of str
        The words played, in order (normalised: see :func:`split_solution`).
    lexicon : collection of str, optional
        When given, every play must be in it.
    lexicon_name : str
        How the messages name the lexicon.

    Returns
    -------
    list of str
        One message per broken rule, each naming the play (``play 2 'dhl': ...``).

    Examples
    --------
    >>> box = LetterBox(("abc", "def", "ghi", "jkl"))
    >>> plays_problems(box, ["bead", "dhl"]), plays_problems(box, ["bead", "lid"])
    ([], ["play 2 'lid' does not start with 'd', the last letter of 'bead'"])
    """
    problems: list[str] = []
    letters = set(box.letters)
    used: set[str] = set()
    for i, w in enumerate(plays, start=1):
        if used == letters:
            problems.append(f"play {i} {w!r} comes after every letter was used; the game ended")
            break
        reason = unplayable_reason(w, box)
        if reason is not None:
            problems.append(f"play {i} is not playable: {reason}")
        elif lexicon is not None and w not in lexicon:
            problems.append(f"play {i} {w!r} is not in {lexicon_name}")
        if i > 1 and w and plays[i - 2] and w[0] != plays[i - 2][-1]:
            before = plays[i - 2]
            problems.append(
                f"play {i} {w!r} does not start with {before[-1]!r}, the last letter of {before!r}"
            )
        used.update(letters.intersection(w))
    return problems


def is_valid_letterboxed(
    box: LetterBox, words: Sequence[str], lexicon: Collection[str] | None = None
) -> bool:
    """True when :func:`letterboxed_problems` finds nothing wrong."""
    return not letterboxed_problems(box, words, lexicon)


def split_solution(
    text: str | Iterable[str], lang: str | None = None, fold: bool = False
) -> list[str]:
    """Split a proposed solution ``"WORD WORD"`` (spaces, commas or dashes) into normalised
    words (NFC, lower case with the rules of ``lang``, accents folded when ``fold``)."""
    if isinstance(text, str):
        return [normalize_word(w, lang, fold) for w in _SEPARATORS.split(text.strip()) if w]
    return [normalize_word(w.strip(), lang, fold) for w in text if w.strip()]


def brute_force_short_solutions(
    box: LetterBox, words: Iterable[str]
) -> tuple[list[str], list[tuple[str, str]]]:
    """Every 1-word and every 2-word solution, by plain enumeration of word pairs.

    The independent path that re-checks the exact counts of the models and a generator's
    uniqueness claims: it filters ``words`` by the rules directly (a regular expression for the
    box letters and a loop for the side rule; no letter-set index) and tries every pair of
    (last letter, letter set) and (first letter, letter set) groups with plain bit masks (no
    tables, no dynamic programme). It shares no code with :mod:`cpwords.letterboxed.models.dp`.

    Parameters
    ----------
    box : LetterBox
    words : iterable of str
        The lexicon (lower-case; duplicates are counted once).

    Returns
    -------
    (one_word, two_words) : (list of str, list of (str, str))
        The words that cover the box alone, and the pairs ``(w1, w2)`` with ``w2`` starting
        with the last letter of ``w1``, covering the box together but not with ``w1`` alone
        (the game would end after ``w1``). Both sorted. A word may pair with itself.

    Notes
    -----
    ``O(|words| + P * P / n)`` set operations for P playable words and n box letters.

    Examples
    --------
    >>> box = LetterBox(("abc", "def", "ghi", "jkl"))
    >>> brute_force_short_solutions(box, ["bechfag", "gjdkil", "bead", "dhl", "gila"])
    ([], [('bechfag', 'gjdkil')])
    """
    only_box = re.compile(f"[{re.escape(box.letters)}]{{3,}}").fullmatch
    side = box.side_of
    playable = sorted(
        {w for w in words if only_box(w) and all(side[a] != side[b] for a, b in pairwise(w))}
    )
    bit = {ch: 1 << i for i, ch in enumerate(box.letters)}
    full = (1 << box.n) - 1

    def letter_set(w: str) -> int:
        m = 0
        for ch in w:
            m |= bit[ch]
        return m

    # words with the same (first or last letter, letter set) pair alike: try set pairs, not words
    starts: dict[str, dict[int, list[str]]] = {}
    ends: dict[tuple[str, int], list[str]] = {}
    one: list[str] = []
    for w in playable:
        m = letter_set(w)
        if m == full:
            one.append(w)
        starts.setdefault(w[0], {}).setdefault(m, []).append(w)
        ends.setdefault((w[-1], m), []).append(w)
    two: list[tuple[str, str]] = []
    for (last, m1), firsts in ends.items():
        need = full & ~m1
        if not need:
            continue  # the game ends after the first word
        seconds = [v for m2, vs in starts.get(last, {}).items() if not need & ~m2 for v in vs]
        two.extend((w, v) for w in firsts for v in seconds)
    two.sort()
    return one, two
