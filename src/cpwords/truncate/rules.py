"""Truncate chains: the rules, the solution type and an independent checker.

In the word game Truncate a line of tiles grows one tile at a time, at either end, and every word
it spells should stay valid. The seed question (G. Hogg-Blake, "Longest valid Truncate sequence -
algorithm comparison", 2024) asks for the longest possible sequence of plays::

    a -> la -> lap -> laps -> lapse -> elapse -> elapsed -> relapsed      (8 plays)

Definitions used throughout cpwords:

* A *Truncate sequence* over a dictionary ``D`` is a tuple of words ``(w_1, ..., w_k)``, all in
  ``D``, with ``len(w_{i+1}) == len(w_i) + 1`` and ``w_i`` equal to ``w_{i+1}`` with its first or
  its last letter removed. Its *length* is ``k``, the number of plays (words), not of letters.
* The first word may be any dictionary word (as in both algorithms of the seed), so a longest
  sequence always starts at a word from which no letter can be removed.
* Two sequences are *distinct* when their tuples of words differ. Adding ``a`` to either end of
  ``aa`` gives the same ``aaa``: that is one sequence, not two.

No solver is imported here: the checker recomputes everything from the strings, sharing no code
with the dynamic programme of :mod:`cpwords.truncate.models.dp`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from cpwords.core.errors import CheckError


@dataclass(frozen=True)
class TruncateSolution:
    """A longest Truncate sequence and how many there are.

    Attributes
    ----------
    sequence : tuple of str
        One longest sequence, from the smallest word to the largest.
    count : int
        Number of distinct longest sequences (sequences of words; see the module notes). A
        Python int, exact however large.
    sequences : tuple of tuple of str, or None
        All longest sequences (or the first ``max_sequences`` of them, in lexicographic order of
        their reversed word tuples) when they were asked for; None otherwise.
    starting, ending : str or None
        The restrictions the sequence was solved under.
    """

    sequence: tuple[str, ...]
    count: int
    sequences: tuple[tuple[str, ...], ...] | None = None
    starting: str | None = None
    ending: str | None = None

    @property
    def length(self) -> int:
        """Number of plays (words) in the sequence."""
        return len(self.sequence)

    def to_dict(self) -> dict[str, object]:
        """JSON-friendly rendering."""
        out: dict[str, object] = {
            "sequence": list(self.sequence),
            "length": self.length,
            "count": self.count,
            "starting": self.starting,
            "ending": self.ending,
        }
        if self.sequences is not None:
            out["sequences"] = [list(s) for s in self.sequences]
        return out


def truncate_step_ok(shorter: str, longer: str) -> bool:
    """True when ``longer`` is ``shorter`` with one letter added at its start or its end.

    Examples
    --------
    >>> truncate_step_ok("lap", "laps"), truncate_step_ok("lap", "clap")
    (True, True)
    >>> truncate_step_ok("ap", "lip")
    False
    """
    if len(longer) != len(shorter) + 1:
        return False
    return longer.startswith(shorter) or longer.endswith(shorter)


def truncate_sequence_problems(
    sequence: Sequence[str],
    dictionary: Collection[str],
    starting: str | None = None,
    ending: str | None = None,
) -> list[str]:
    """List every rule a candidate Truncate sequence breaks (empty when it is valid).

    Parameters
    ----------
    sequence : sequence of str
        The words, smallest first.
    dictionary : collection of str
        The valid words (a set is fastest).
    starting, ending : str, optional
        Required first and last words.

    Returns
    -------
    list of str
        Human-readable problems; empty for a valid sequence.
    """
    problems: list[str] = []
    if len(sequence) == 0:
        return ["the sequence is empty"]
    for i, w in enumerate(sequence):
        if w not in dictionary:
            problems.append(f"word {i + 1} {w!r} is not in the dictionary")
    for i in range(len(sequence) - 1):
        a, b = sequence[i], sequence[i + 1]
        if not truncate_step_ok(a, b):
            problems.append(f"step {i + 1}: {b!r} is not {a!r} plus one letter at an end")
    if starting is not None and sequence[0] != starting:
        problems.append(f"the sequence starts at {sequence[0]!r}, not {starting!r}")
    if ending is not None and sequence[-1] != ending:
        problems.append(f"the sequence ends at {sequence[-1]!r}, not {ending!r}")
    return problems


def is_valid_truncate_sequence(
    sequence: Sequence[str],
    dictionary: Collection[str],
    starting: str | None = None,
    ending: str | None = None,
) -> bool:
    """True when ``sequence`` is a valid Truncate sequence over ``dictionary``.

    Every word must be in the dictionary and each word must be the previous one plus one letter
    at its start or its end.

    Examples
    --------
    >>> d = {"a", "la", "lap", "laps", "clap"}
    >>> is_valid_truncate_sequence(["a", "la", "lap", "laps"], d)
    True
    >>> is_valid_truncate_sequence(["a", "la", "lap", "clap", "laps"], d)
    False
    """
    return not truncate_sequence_problems(sequence, dictionary, starting, ending)


def truncate_solution_problems(
    solution: TruncateSolution, dictionary: Collection[str]
) -> list[str]:
    """What is wrong with a reported :class:`TruncateSolution` (empty when nothing is).

    Checks the main sequence, the restrictions it was solved under, and, when all sequences are
    listed, that each is valid, of the same length, and that they are pairwise distinct.

    Parameters
    ----------
    solution : TruncateSolution
    dictionary : collection of str
        The words allowed.

    Returns
    -------
    list of str
        The first problem found (at most one), or empty.
    """
    problems = truncate_sequence_problems(
        solution.sequence, dictionary, solution.starting, solution.ending
    )
    if problems:
        return ["invalid Truncate sequence: " + "; ".join(problems)]
    if solution.count < 1:
        return [f"a found sequence needs a count >= 1, got {solution.count}"]
    if solution.sequences is not None:
        if len(set(solution.sequences)) != len(solution.sequences):
            return ["the listed sequences are not distinct"]
        if len(solution.sequences) > solution.count:
            return ["more sequences listed than counted"]
        for s in solution.sequences:
            if len(s) != solution.length:
                return [f"listed sequence {s} is not of the longest length"]
            p = truncate_sequence_problems(s, dictionary, solution.starting, solution.ending)
            if p:
                return ["invalid listed sequence: " + "; ".join(p)]
    return []


def verify_truncate_solution(solution: TruncateSolution, dictionary: Collection[str]) -> None:
    """Raise :class:`~cpwords.core.errors.CheckError` unless every reported sequence is valid.

    The raising form of :func:`truncate_solution_problems`.
    """
    problems = truncate_solution_problems(solution, dictionary)
    if problems:
        raise CheckError(problems[0])
