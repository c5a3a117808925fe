"""Letter Boxed design: generate boxes whose fewest-word answer is proven, counted and rated.

A generated box is accepted only on exact evidence: the layered DP of
:mod:`cpwords.letterboxed.models.dp` proves that its fewest-word solution has 2 words (and gives the
fewest letters), the counting tables give the exact number of solutions of 1, 2 and 3 words, and
an independent brute force over word pairs
(:func:`~cpwords.letterboxed.rules.brute_force_short_solutions`, which shares no code with the
DP) recounts the 1- and 2-word solutions. A disagreement raises
:class:`~cpwords.core.errors.CheckError`
rather than emitting a box, so a demanded uniqueness is verified, never assumed.

Letters are drawn without replacement with probabilities proportional to English letter
frequencies (:data:`LETTER_FREQUENCIES`), from a seeded :class:`numpy.random.Generator`: the same
seed and lexicon give the same boxes.

The difficulty score (:func:`box_difficulty`, in :mod:`cpwords.letterboxed.models.difficulty` and
re-exported here) counts the solutions of at most 3 words made of *common* words (wordfreq Zipf
frequency >= 3, about once per million words of text):
``difficulty = max(0, 6 - log10(1 + C))``. Fewer common solutions, harder box. On the 332 NYT
puzzles of 2024 its Spearman correlation with the newspaper's par is +0.62 (see
``benchmarks/results/design/report.md``).

References
----------
P. Norvig, "English letter frequency counts: Mayzner revisited", 2013 (letter frequencies of the
Google Books n-grams). R. Speer, *wordfreq* (PyPI), Zipf frequencies.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from cpwords.core.alphabet import accent_twins
from cpwords.core.blocklist import Blocklist
from cpwords.core.errors import CheckError, InputError
from cpwords.core.lexicon import Lexicon, draw_letters, letter_frequencies, zipf
from cpwords.core.result import Status
from cpwords.letterboxed.models.answers import ANSWER_ZIPF, CommonPairs, answer_floor
from cpwords.letterboxed.models.classes import WordClasses, build_classes
from cpwords.letterboxed.models.counting import CountStopped, count_tables
from cpwords.letterboxed.models.difficulty import (
    COMMON_ZIPF,
    COUNT_WORDS,
    DIFFICULTY_BANDS,
    DIFFICULTY_MAX,
    BoxDifficulty,
    box_difficulty,
    difficulty_band,
    playable_difficulty,
    zipf_values,
)
from cpwords.letterboxed.models.dp import LetterBoxedSolver
from cpwords.letterboxed.models.fewest import solve_classes
from cpwords.letterboxed.rules import (
    MAX_LETTERS,
    NYT_SHAPE,
    LetterBox,
    brute_force_short_solutions,
    letterboxed_problems,
)

__all__ = [
    "ANSWER_ZIPF",
    "COMMON_ZIPF",
    "COUNT_WORDS",
    "DIFFICULTY_BANDS",
    "DIFFICULTY_MAX",
    "LETTER_FREQUENCIES",
    "MAX_BOXES",
    "BoxDifficulty",
    "BoxGeneration",
    "GeneratedBox",
    "answer_floor",
    "box_difficulty",
    "difficulty_band",
    "draw_box",
    "draw_weights",
    "generate_boxes",
    "zipf",
]

#: English letter frequencies in percent (Norvig 2013, Google Books), the drawing weights.
LETTER_FREQUENCIES: dict[str, float] = {
    "e": 12.49, "t": 9.28, "a": 8.04, "o": 7.64, "i": 7.57, "n": 7.23, "s": 6.51,
    "r": 6.28, "h": 5.05, "l": 4.07, "d": 3.82, "c": 3.34, "u": 2.73, "m": 2.51,
    "f": 2.40, "p": 2.14, "g": 1.87, "w": 1.68, "y": 1.66, "b": 1.48, "v": 1.05,
    "k": 0.54, "x": 0.23, "j": 0.16, "q": 0.12, "z": 0.09,
}  # fmt: skip


#: The most boxes one call generates (each is a draw loop and a proof: ``--generate 10**30``
#: used to be accepted and ran until the time limit).
MAX_BOXES = 10_000


@dataclass(frozen=True)
class GeneratedBox:
    """A generated box with its proven optimum, exact counts and difficulty.

    Attributes
    ----------
    box : LetterBox
        Sides sorted (letters within a side, then the sides), a canonical form.
    words, letters : int
        The proven optimum over the whole dictionary: fewest words (always 2), then fewest
        letters.
    solution : tuple of str
        The box's answer: a 2-word solution (so an optimal one in words); with a Zipf floor,
        the one of fewest letters among the solutions whose words are all at or above it
        (``letters`` may be fewer: a solution with rarer words); without, one optimal solution.
    counts : tuple of int, length 3
        Exact numbers of solutions of exactly 1, 2 and 3 words (words may repeat).
    playable_words : int
    difficulty : BoxDifficulty
    two_word_solutions : tuple of (str, str)
        Every 2-word solution, as found by the independent brute force, when there are at
        most 10 (empty otherwise).
    verified : bool
        True: the brute force agreed with the DP's 1- and 2-word counts and every listed
        solution passed the checker (a generated box is never returned unverified).
    wall_time : float
        Seconds spent on this box after it was drawn (solve, counts, check, difficulty).
    answer_zipf : float or None
        The least Zipf frequency of the solution's words (None: no floor was asked).
    """

    box: LetterBox
    words: int
    letters: int
    solution: tuple[str, ...]
    counts: tuple[int, ...]
    playable_words: int
    difficulty: BoxDifficulty
    two_word_solutions: tuple[tuple[str, str], ...]
    verified: bool
    wall_time: float
    answer_zipf: float | None = None

    @property
    def unique(self) -> bool:
        """Exactly one 2-word solution and none of one word."""
        return self.counts[0] == 0 and self.counts[1] == 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly row."""
        return {
            "box": str(self.box),
            "status": Status.OPTIMAL.value,
            "num_words": self.words,
            "num_letters": self.letters,
            "solution": list(self.solution),
            "counts": {str(j + 1): c for j, c in enumerate(self.counts)},
            "unique": self.unique,
            "two_word_solutions": [list(p) for p in self.two_word_solutions],
            "playable_words": self.playable_words,
            "verified": self.verified,
            "wall_time": self.wall_time,
            "answer_zipf": self.answer_zipf,
            **self.difficulty.to_dict(),
        }


@dataclass(frozen=True)
class BoxGeneration:
    """The outcome of :func:`generate_boxes`.

    Attributes
    ----------
    boxes : tuple of GeneratedBox
        In the order found; fewer than ``requested`` when ``max_draws`` ran out.
    requested : int
    draws : int
        Boxes drawn (accepted or not).
    rejected : dict of str to int
        Why drawn boxes were rejected: ``repeat`` (drawn before), ``few_playable``,
        ``one_word`` (a 1-word solution), ``needs_3_or_more`` (no 2-word solution),
        ``too_many_2_word`` (more than ``max_solutions``), ``blocked`` (a solution shows a
        word of the blocklist), ``difficulty`` (out of the band), ``rare_answer`` (no 2-word
        solution of words at or above the Zipf floor, or no such pair drawn).
    seed : int
    lexicon : str
    settings : dict
        ``unique``, ``max_solutions``, ``min_playable``, ``max_draws``, ``shape``,
        ``min_zipf`` (the answer words' floor; 0: none), ``allow_accent_twins``.
    wall_time : float
        Seconds, indexing the lexicon excluded.
    stopped : {None, "time_limit", "interrupted"}
        Why the generation stopped before ``requested`` boxes or ``max_draws`` draws.
    """

    boxes: tuple[GeneratedBox, ...]
    requested: int
    draws: int
    rejected: dict[str, int]
    seed: int
    lexicon: str
    settings: dict[str, Any] = field(default_factory=dict)
    wall_time: float = 0.0
    stopped: str | None = None

    @property
    def complete(self) -> bool:
        """True when all requested boxes were found."""
        return len(self.boxes) == self.requested

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly object (the CLI's ``--json`` output)."""
        return {
            "requested": self.requested,
            "found": len(self.boxes),
            "complete": self.complete,
            "draws": self.draws,
            "rejected": dict(self.rejected),
            "seed": self.seed,
            "lexicon": self.lexicon,
            **self.settings,
            "wall_time": self.wall_time,
            "stopped": self.stopped,
            "boxes": [b.to_dict() for b in self.boxes],
        }


def draw_weights(solver: LetterBoxedSolver, lang: str = "en", n: int = 12) -> dict[str, float]:
    """The letters a generator draws and their weights.

    :data:`LETTER_FREQUENCIES` (Norvig's English table) for an English lexicon of the letters
    a-z, so English boxes do not change; otherwise the share of each letter among the letters
    of the lexicon's words of 3 or more letters (the language's own frequencies).

    Raises
    ------
    InputError
        When the lexicon has fewer than ``n`` (the box's) letters.

    Examples
    --------
    >>> sorted(draw_weights(LetterBoxedSolver(["абвгдеёжзийк"]), "ru"))[:3]
    ['а', 'б', 'в']
    """
    if lang == "en" and solver.letters <= set(LETTER_FREQUENCIES):
        return LETTER_FREQUENCIES
    weights = letter_frequencies(w for w in solver.lexicon.words if len(w) >= 3)
    if len(weights) < n:
        raise InputError(f"{solver.source}: fewer than {n} letters to draw a box from")
    return weights


def draw_box(
    rng: np.random.Generator,
    weights: dict[str, float] | None = None,
    shape: tuple[int, int] = NYT_SHAPE,
    allow_accent_twins: bool = True,
) -> LetterBox:
    """Draw ``k * m`` distinct letters by frequency and deal them onto ``k`` sides of ``m``.

    Parameters
    ----------
    rng : numpy.random.Generator
    weights : dict of str to float, optional
        Drawing weight of each letter (default :data:`LETTER_FREQUENCIES`).
    shape : (int, int)
        ``(k, m)``: sides and letters per side (the newspaper's 4 x 3 by default; the draws of
        that shape are those of every earlier version).
    allow_accent_twins : bool
        False: a draw holding a letter and its accented twin (``o`` and ``ó``) is drawn again
        (up to 1,000 times), so the box never holds both.

    Returns
    -------
    LetterBox
        Canonical form: letters sorted within a side, sides sorted.

    Examples
    --------
    >>> b = draw_box(np.random.default_rng(7))
    >>> b.shape, len(set(b.letters))
    ((3, 3, 3, 3), 12)
    >>> draw_box(np.random.default_rng(7), shape=(3, 4)).shape
    (4, 4, 4)
    """
    w = weights if weights is not None else LETTER_FREQUENCIES
    k, m = shape
    drawn = draw_letters(rng, w, k * m, replace=False)
    for _ in range(1000):
        if allow_accent_twins or not accent_twins(drawn):
            break
        drawn = draw_letters(rng, w, k * m, replace=False)
    sides = sorted("".join(sorted(drawn[i : i + m])) for i in range(0, k * m, m))
    return LetterBox(tuple(sides))


def _verify(
    box: LetterBox,
    words: Iterable[str],
    counts: Sequence[int],
    solution: Sequence[str],
    lexicon: Collection[str],
) -> tuple[tuple[str, str], ...]:
    """Recount the 1- and 2-word solutions by brute force and check them; raise on mismatch."""
    one, two = brute_force_short_solutions(box, words)
    if len(one) != counts[0] or len(two) != counts[1]:
        raise CheckError(
            f"box {box}: the DP counts {counts[0]} one-word and {counts[1]} two-word solutions, "
            f"the brute force {len(one)} and {len(two)}"
        )
    if tuple(solution) not in set(two):
        raise CheckError(f"box {box}: optimal solution {list(solution)} not found by brute force")
    for chain in [list(solution), *(list(p) for p in two[:10])]:
        problems = letterboxed_problems(box, chain, lexicon)
        if problems:
            raise CheckError(f"box {box}: solution {chain} fails the checker: {problems[0]}")
    return tuple(two) if len(two) <= 10 else ()


def generate_boxes(
    k: int,
    lexicon: Lexicon | Iterable[str] | LetterBoxedSolver | None = None,
    *,
    seed: int = 0,
    unique: bool = False,
    max_solutions: int | None = None,
    min_playable: int = 0,
    max_draws: int | None = None,
    zipf_threshold: float = COMMON_ZIPF,
    time_limit: float | None = None,
    blocklist: Blocklist | None = None,
    lang: str = "en",
    shape: tuple[int, int] = NYT_SHAPE,
    difficulty: str | tuple[float, float] | None = None,
    min_zipf: float | None = None,
    allow_accent_twins: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
) -> BoxGeneration:
    """Generate ``k`` Letter Boxed puzzles whose fewest-word solution is proven to be 2 words.

    Parameters
    ----------
    k : int
        Number of boxes, from 1 to :data:`MAX_BOXES`.
    lexicon : Lexicon, iterable of str, LetterBoxedSolver or None
        The accepted words (None: wordfreq's 100,000 most frequent English entries).
    seed : int
        Seed of the letter draws; the same seed and lexicon give the same boxes.
    unique : bool
        Demand exactly one 2-word solution (and none of 1 word); same as ``max_solutions=1``.
    max_solutions : int, optional
        Accept at most this many 2-word solutions.
    min_playable : int
        Accept only boxes with at least this many playable words.
    max_draws : int, optional
        Give up after this many drawn boxes (default ``1000 * k``).
    zipf_threshold : float
        Zipf frequency of a common word, for the difficulty (:func:`box_difficulty`).
    time_limit : float, optional
        Seconds; no new box is drawn after it (``stopped = "time_limit"``). Ctrl-C likewise
        returns the boxes finished so far (``stopped = "interrupted"``).
    blocklist : Blocklist, optional
        Words a box must not show: a box whose optimal solution or any 2-word solution uses
        one is rejected (``rejected["blocked"]``). The counts and the proof still use the
        whole lexicon, so a kept box's solutions are all of its solutions.
    lang : str
        The words' language (ISO 639-1): the letters are drawn by :data:`LETTER_FREQUENCIES`
        for English words of the letters a-z, and by the letter frequencies of the lexicon
        itself otherwise (:func:`cpwords.core.lexicon.letter_frequencies`); the difficulty
        reads the language's Zipf frequencies.
    shape : (int, int)
        ``(k, m)``: boxes of ``k`` sides of ``m`` letters (at least 2 sides, at most
        :data:`~cpwords.letterboxed.rules.MAX_LETTERS` letters); the newspaper's 4 x 3 by
        default.
    difficulty : {"easy", "medium", "hard"} or (float, float), optional
        Keep only boxes whose :func:`box_difficulty` score lies in this band (a name of
        :data:`DIFFICULTY_BANDS`, or ``(low, high)`` with ``low <= score < high``); the others
        are rejected (``rejected["difficulty"]``). None keeps every box.
    min_zipf : float, optional
        The floor of the answer words' wordfreq Zipf frequency (in ``lang``): each box is
        dealt from two chained words at or above it
        (:class:`~cpwords.letterboxed.models.answers.CommonPairs`) and its ``solution`` is
        such a pair; the proof, the counts and ``unique`` still read the whole lexicon. None:
        the language's default (:data:`ANSWER_ZIPF`: English 3, French 3, German 3.25, Spanish
        3; 3 for the other languages wordfreq has a list for, else 0); 0: no floor, the
        letters drawn by frequency as before (``rejected["rare_answer"]`` counts the draws
        that found no such pair).
    allow_accent_twins : bool
        Allow a box to hold a letter and its accented twin (``o`` and ``ó``, compared by
        their base letter, Unicode NFD); off by default.
    on_progress : callable ``(draws, found)``, optional
        Called after each drawn box with the boxes drawn and found so far (a progress line).

    Returns
    -------
    BoxGeneration
        Up to ``k`` verified boxes (fewer when ``max_draws`` ran out or the generation was
        stopped: check ``complete`` and ``stopped``).

    Raises
    ------
    InputError
        ``k`` not from 1 to :data:`MAX_BOXES`, ``max_solutions < 1``, ``unique`` with
        ``max_solutions != 1``, ``min_playable < 0``, ``max_draws < 1``, ``min_zipf`` not
        from 0 to 8, an empty lexicon.
    CheckError
        The independent brute force disagrees with the DP (a bug, never a silent box).

    Notes
    -----
    Per drawn box: the playable words from the letter-set index (O(2**12 + matches)), word
    classes, then the exact counting tables for 1 and 2 words (a superset-sum transform,
    O(12 * 12 * 2**12)). A box passing the filters is solved by the DP (the proof of the
    optimum), counted up to 3 words, recounted by brute force and rated.

    References
    ----------
    P. Norvig, "English letter frequency counts: Mayzner revisited", 2013.

    Examples
    --------
    >>> words = ["bechfag", "gjdkil", "bead", "dhl", "lcfgjik", "cab"]
    >>> g = generate_boxes(1, words, unique=True, max_draws=20)
    >>> g.complete, g.draws, sum(g.rejected.values())
    (False, 20, 20)
    """
    t_start = time.perf_counter()
    cfg = _settings(k, unique, max_solutions, min_playable, max_draws, shape, difficulty)
    cfg = replace(cfg, floor=answer_floor(lang, min_zipf), twins=allow_accent_twins)
    solver = lexicon if isinstance(lexicon, LetterBoxedSolver) else LetterBoxedSolver(lexicon)
    # The limit counts from the call: reading the lexicon is part of it.
    left = None if time_limit is None else time_limit - (time.perf_counter() - t_start)
    gen = _BoxGenerator(cfg, solver, seed, left, zipf_threshold, blocklist, lang)
    gen.on_progress = on_progress
    gen.run()
    return gen.outcome()


@dataclass(frozen=True)
class _Settings:
    """The checked settings of one :func:`generate_boxes` call (``cap``: most 2-word solutions)."""

    k: int
    unique: bool
    cap: int | None
    min_playable: int
    max_draws: int
    shape: tuple[int, int]
    band: tuple[float, float] | None
    floor: float = 0.0
    twins: bool = False


def _settings(
    k: int,
    unique: bool,
    max_solutions: int | None,
    min_playable: int,
    max_draws: int | None,
    shape: tuple[int, int],
    difficulty: str | tuple[float, float] | None,
) -> _Settings:
    """Check :func:`generate_boxes`' arguments (InputError) and fill in the defaults."""
    if k < 1:
        raise InputError(f"the number of boxes to generate must be at least 1, got {k}")
    if k > MAX_BOXES:  # k itself is not quoted: it may have thousands of digits
        raise InputError(f"at most {MAX_BOXES:,} boxes are generated at once")
    if max_solutions is not None and max_solutions < 1:
        raise InputError(f"the most 2-word solutions must be at least 1, got {max_solutions}")
    if unique and max_solutions not in (None, 1):
        raise InputError(f"unique means at most 1 two-word solution, not {max_solutions}")
    if min_playable < 0:
        raise InputError(f"the least playable words must be >= 0, got {min_playable}")
    if max_draws is None:
        max_draws = 1000 * k
    if max_draws < 1:
        raise InputError(f"max_draws must be at least 1, got {max_draws}")
    k_sides, per_side = shape
    if k_sides < 2 or per_side < 1 or k_sides * per_side > MAX_LETTERS:
        raise InputError(
            f"a box shape needs at least 2 sides and at most {MAX_LETTERS} letters, got "
            f"{k_sides}x{per_side}"
        )
    band = difficulty_band(difficulty)
    cap = 1 if unique else max_solutions
    return _Settings(k, unique, cap, min_playable, max_draws, shape, band)


class _BoxGenerator:
    """The draw loop of :func:`generate_boxes`: its random generator, counters and boxes."""

    def __init__(
        self,
        cfg: _Settings,
        solver: LetterBoxedSolver,
        seed: int,
        time_limit: float | None,
        zipf_threshold: float,
        blocklist: Blocklist | None,
        lang: str,
    ) -> None:
        self.cfg = cfg
        self.solver = solver
        self.seed = seed
        self.zipf_threshold = zipf_threshold
        self.blocklist = blocklist
        self.lang = lang
        self.lex_words = solver.lexicon.words
        self.lex_set = solver.lexicon.as_set()
        # With a floor the answer comes first (two common words dealt onto the sides); without,
        # the letters are drawn by frequency (both prepared by run()).
        self.pairs: CommonPairs | None = None
        self.weights: dict[str, float] | None = None
        self.rng = np.random.default_rng(seed)
        self.t0 = time.perf_counter()
        self.on_progress: Callable[[int, int], None] | None = None  # (draws, boxes found)
        self.seen: set[str] = set()
        self.rejected = dict.fromkeys(
            (
                "repeat",
                "few_playable",
                "one_word",
                "needs_3_or_more",
                "too_many_2_word",
                "blocked",
                "difficulty",
                "rare_answer",
            ),
            0,
        )
        self.found: list[GeneratedBox] = []
        self.draws = 0
        self.stopped: str | None = None
        self.deadline = None if time_limit is None else self.t0 + time_limit

    def run(self) -> None:
        """Draw boxes until enough are found, the draws run out, time is up or Ctrl-C."""
        try:
            self._prepare()  # inside: a Ctrl-C while the common words are read is a stop too
            while len(self.found) < self.cfg.k and self.draws < self.cfg.max_draws:
                if self.deadline is not None and time.perf_counter() >= self.deadline:
                    self.stopped = "time_limit"
                    break
                self.draws += 1
                box = self._draw_one()
                if box is not None:
                    self.found.append(box)
                if self.on_progress is not None:
                    self.on_progress(self.draws, len(self.found))
        except CountStopped:  # the limit passed while a box was counted: it is dropped
            self.stopped = "time_limit"
        except KeyboardInterrupt:  # Ctrl-C: the boxes finished so far
            self.stopped = "interrupted"

    def _prepare(self) -> None:
        """With a floor, the common words' pairs the answers are dealt from; without, the
        letters' weights."""
        cfg = self.cfg
        letters = cfg.shape[0] * cfg.shape[1]
        if cfg.floor > 0:
            self.pairs = CommonPairs(self.lex_words, self.lang, cfg.floor, letters, cfg.twins)
        else:
            self.weights = draw_weights(self.solver, self.lang, letters)

    def _reject(self, reason: str) -> None:
        """Count one drawn box rejected for ``reason``."""
        self.rejected[reason] += 1

    def _draw_one(self) -> GeneratedBox | None:
        """Draw a box and return it when it passes every filter (None: counted as rejected)."""
        if self.pairs is not None:
            drawn = self.pairs.draw(self.rng, self.cfg.shape)
        else:
            drawn = draw_box(self.rng, self.weights, self.cfg.shape, self.cfg.twins)
        if drawn is None:  # the first common word drawn has no partner (or no deal)
            self._reject("rare_answer")
            return None
        box = drawn
        if str(box) in self.seen:
            self._reject("repeat")
            return None
        self.seen.add(str(box))
        t1 = time.perf_counter()
        playable = self.solver.playable(box)
        screened = self._screen(box, playable)
        if isinstance(screened, str):
            self._reject(screened)
            return None
        return self._prove(box, playable, screened, t1)

    def _screen(self, box: LetterBox, playable: list[tuple[str, int]]) -> WordClasses | str:
        """The box's word classes, or why the cheap filters (1- and 2-word counts) reject it."""
        if len(playable) < max(self.cfg.min_playable, 1):
            return "few_playable"
        classes = build_classes(box, playable)
        quick, _ = count_tables(classes, 2, self.deadline)
        if quick[0]:
            return "one_word"
        if not quick[1]:
            return "needs_3_or_more"
        if self.cfg.cap is not None and quick[1] > self.cfg.cap:
            return "too_many_2_word"
        return classes

    def _prove(
        self, box: LetterBox, playable: list[tuple[str, int]], classes: WordClasses, t1: float
    ) -> GeneratedBox | None:
        """Solve, count, verify and rate a screened box (None: blocked or out of the band)."""
        res = solve_classes(classes, False, t1, self.solver)
        if res.solver_info.get("interrupted"):  # the DP returns what it has on Ctrl-C
            raise KeyboardInterrupt
        n_words = res.solver_info.get("words")
        if res.status is not Status.OPTIMAL or n_words != 2:
            raise CheckError(f"box {box}: counts show a 2-word optimum, the DP says {n_words}")
        counts, _ = count_tables(classes, COUNT_WORDS, self.deadline)
        solution, answer_zipf = tuple(res.solution or ()), None
        if self.pairs is not None:
            answer = self._answer(box, playable, t1)
            if answer is None:
                self._reject("rare_answer")
                return None
            solution, answer_zipf = answer
        pairs = _verify(box, self.lex_words, counts, solution, self.lex_set)
        blocklist = self.blocklist
        if blocklist and blocklist.any_blocked([*solution, *(w for p in pairs for w in p)]):
            self._reject("blocked")
            return None
        diff = playable_difficulty(box, playable, self.zipf_threshold, self.lang, self.deadline)
        band = self.cfg.band
        if band is not None and not band[0] <= diff.score < band[1]:
            self._reject("difficulty")
            return None
        return GeneratedBox(
            box=box,
            words=2,
            letters=int(res.solver_info["letters"]),
            solution=solution,
            counts=tuple(counts),
            playable_words=len(playable),
            difficulty=diff,
            two_word_solutions=pairs,
            verified=True,
            wall_time=time.perf_counter() - t1,
            answer_zipf=answer_zipf,
        )

    def _answer(
        self, box: LetterBox, playable: list[tuple[str, int]], t1: float
    ) -> tuple[tuple[str, ...], float] | None:
        """The box's answer: its 2-word solution of fewest letters among those whose words are
        all at or above the floor, with the least Zipf of its words (None: there is none)."""
        z = zipf_values((w for w, _ in playable), self.lang)
        common = [(w, m) for w, m in playable if z[w] >= self.cfg.floor]
        if not common:
            return None
        res = solve_classes(build_classes(box, common), False, t1, None)
        if res.solver_info.get("interrupted"):
            raise KeyboardInterrupt
        if res.status is not Status.OPTIMAL or res.solver_info.get("words") != 2:
            return None
        answer = tuple(res.solution or ())
        least = min(z[w] for w in answer)
        if least < self.cfg.floor:  # never: the DP read only the common words
            raise CheckError(f"box {box}: answer {list(answer)} holds a word below the floor")
        return answer, least

    def outcome(self) -> BoxGeneration:
        """The generation so far, with its settings and wall time."""
        cfg = self.cfg
        k_sides, per_side = cfg.shape
        return BoxGeneration(
            boxes=tuple(self.found),
            requested=cfg.k,
            draws=self.draws,
            rejected=self.rejected,
            seed=self.seed,
            lexicon=self.solver.source,
            settings={
                "unique": cfg.unique,
                "max_solutions": cfg.cap,
                "min_playable": cfg.min_playable,
                "max_draws": cfg.max_draws,
                "shape": f"{k_sides}x{per_side}",
                "min_zipf": cfg.floor,
                "allow_accent_twins": cfg.twins,
            },
            wall_time=time.perf_counter() - self.t0,
            stopped=self.stopped,
        )
