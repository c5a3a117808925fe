"""One result type for every exact model, baseline and heuristic in cpwords.

The shape follows python-mip and PyVRP: the objective, the solver's dual bound and the optimality
gap are first-class fields, and a result states whether its solution was re-checked by the puzzle's
independent checker.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any


class Status(enum.Enum):
    """Outcome of a solve.

    ``OPTIMAL`` is a claim of proof: only a solver's proven status (or an exhaustive exact
    algorithm that finished) earns it. A solve stopped by a time or gap limit with a solution
    is ``FEASIBLE``; one stopped without any solution is ``UNKNOWN``.

    Only an optimisation can be ``OPTIMAL``. A satisfaction task (any solution answers, e.g.
    completing a grid board) that finds a solution is ``FEASIBLE`` without a bound, and a
    listing task (all solutions) is ``FEASIBLE`` whether or not the list is complete (its
    completeness is reported beside the status); both are ``INFEASIBLE`` when they prove that
    there is no solution. See :func:`listing_status`.
    """

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class TracePoint:
    """One point of the incumbent trace: elapsed seconds, incumbent objective, dual bound."""

    time: float
    objective: float | None
    bound: float | None


@dataclass(frozen=True)
class SolveResult:
    """The outcome of one solve, exact or heuristic.

    Parameters
    ----------
    status : Status
        Proven status (see :class:`Status`).
    objective : float or None
        Objective value of ``solution``; None when there is no solution.
    bound : float or None
        The solver's dual bound (an upper bound when maximising, a lower bound when
        minimising); None for heuristics, which prove nothing.
    wall_time : float
        Elapsed wall-clock time in seconds.
    solution : Any
        A puzzle-typed value (for Wordsnake, the ordered list of words).
    method : str
        Name of the method, e.g. ``"cpsat-pathcover"`` or ``"layered-greedy"``.
    sense : {"max", "min"}
        Direction of optimisation; used to check that the bound is on the right side.
    solver_info : Mapping
        Versions, parameters, seed, workers.
    trace : tuple of TracePoint
        Incumbent trace over time.
    verified : bool or None
        True when the puzzle's independent checker accepted ``solution`` and recomputed
        ``objective``; None when not checked yet.

    Raises
    ------
    ValueError
        When the invariants fail: OPTIMAL without a solution, OPTIMAL with a bound different
        from the objective, a bound on the wrong side of the objective, negative time.
    """

    status: Status
    objective: float | None
    bound: float | None
    wall_time: float
    solution: Any
    method: str
    sense: str = "max"
    solver_info: Mapping[str, Any] = field(default_factory=dict)
    trace: tuple[TracePoint, ...] = ()
    verified: bool | None = None

    def __post_init__(self) -> None:
        if self.sense not in ("max", "min"):
            raise ValueError(f"sense must be 'max' or 'min', not {self.sense!r}")
        if self.wall_time < 0:
            raise ValueError("wall_time must be non-negative")
        if self.status in (Status.OPTIMAL, Status.FEASIBLE) and self.objective is None:
            raise ValueError(f"a {self.status} result needs an objective")
        if (
            self.status is Status.OPTIMAL
            and self.bound is not None
            and abs(self.bound - float(self.objective or 0)) > 1e-6
        ):
            raise ValueError(
                f"OPTIMAL needs bound == objective, got {self.objective} and {self.bound}"
            )
        if self.objective is not None and self.bound is not None:
            if self.sense == "max" and self.bound < self.objective - 1e-6:
                raise ValueError(f"dual bound {self.bound} below objective {self.objective}")
            if self.sense == "min" and self.bound > self.objective + 1e-6:
                raise ValueError(f"dual bound {self.bound} above objective {self.objective}")

    @property
    def gap(self) -> float | None:
        """Relative optimality gap ``|objective - bound| / max(1, |objective|)`` (CP-SAT's)."""
        if self.objective is None or self.bound is None:
            return None
        return abs(self.objective - self.bound) / max(1.0, abs(self.objective))

    @property
    def is_optimal(self) -> bool:
        """True when the status is a proven OPTIMAL."""
        return self.status is Status.OPTIMAL

    def with_verified(self, verified: bool) -> SolveResult:
        """Return a copy with ``verified`` set."""
        return replace(self, verified=verified)

    def to_dict(self, solution: Any = None) -> dict[str, Any]:
        """One JSON-serialisable row (for ``--json`` and benchmark files).

        Parameters
        ----------
        solution : optional
            A JSON-friendly rendering of the solution; defaults to ``self.solution``.
        """
        return {
            "status": self.status.value,
            "objective": _whole(self.objective),
            "bound": _whole(self.bound),
            "gap": self.gap,
            "wall_time": self.wall_time,
            "method": self.method,
            "sense": self.sense,
            "verified": self.verified,
            "solution": self.solution if solution is None else solution,
            "solver_info": dict(self.solver_info),
            "trace": [[p.time, p.objective, p.bound] for p in self.trace],
        }

    def to_json(self) -> str:
        """``to_dict`` as one JSON line."""
        return json.dumps(json_safe(self.to_dict()), default=_json_default, allow_nan=False)

    def summary(self, width: int | None = None) -> str:
        """One aligned block for humans (labels padded to ``width``, default: the longest)."""
        gap = self.gap
        rows: Sequence[tuple[str, Any]] = [
            ("method", self.method),
            ("status", self.status.value),
            ("objective", format_value(self.objective)),
            ("bound", format_value(self.bound) if self.bound is not None else "-"),
            ("gap", format_gap(gap)),
            ("wall time", f"{self.wall_time:.3f} s"),
            ("verified", {True: "yes", False: "NO", None: "not checked"}[self.verified]),
        ]
        width = max([len(k) for k, _ in rows] + [width or 0])
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def listing_status(found: int, complete: bool) -> Status:
    """Status of a listing task that ``found`` solutions and did (not) finish.

    A listing is never OPTIMAL: it has no objective to prove. Whether it is complete is
    reported beside the status.

    Examples
    --------
    >>> [listing_status(3, True).value, listing_status(0, True).value]
    ['FEASIBLE', 'INFEASIBLE']
    >>> [listing_status(3, False).value, listing_status(0, False).value]
    ['FEASIBLE', 'UNKNOWN']
    """
    if found:
        return Status.FEASIBLE
    return Status.INFEASIBLE if complete else Status.UNKNOWN


def format_value(x: float | None) -> str:
    """A score for humans: ``-`` for None, integers without a decimal point, else 6 digits.

    Examples
    --------
    >>> format_value(30.0), format_value(None), format_value(0.125)
    ('30', '-', '0.125')
    """
    if x is None:
        return "-"
    return str(int(x)) if float(x).is_integer() else f"{x:.6g}"


def counted(n: int, noun: str, plural: str | None = None, *, grouped: bool = True) -> str:
    """A count and its noun, singular for one: ``1 word``, ``2 words``, ``0 words``.

    Parameters
    ----------
    n : int
        The count.
    noun : str
        The singular (``"word"``, ``"distinct longest sequence"``).
    plural : str, optional
        The plural (default: ``noun + "s"``).
    grouped : bool
        Thousands separated by commas (``1,000``), as most outputs print them.

    Returns
    -------
    str

    Examples
    --------
    >>> counted(1, "word"), counted(2, "play"), counted(1234, "word"), counted(0, "word")
    ('1 word', '2 plays', '1,234 words', '0 words')
    >>> counted(1, "solution"), counted(3, "match", "matches", grouped=False)
    ('1 solution', '3 matches')
    """
    number = f"{n:,}" if grouped else str(n)
    return f"{number} {noun if n == 1 else plural or noun + 's'}"


def gap_to_optimum(objective: float | None, optimum: float | None, sense: str) -> float | None:
    """How far a value falls short of a proven optimum, as a share of it.

    Parameters
    ----------
    objective : float or None
        The method's value (None: it found nothing).
    optimum : float or None
        The proven optimum (None: none is proven).
    sense : {"max", "min"}
        Whether the puzzle maximises (a shortfall is below the optimum) or minimises.

    Returns
    -------
    float or None
        ``(optimum - objective) / max(1, |optimum|)`` when maximising, ``(objective -
        optimum) / max(1, |optimum|)`` when minimising; None without both values.

    Examples
    --------
    >>> gap_to_optimum(3.0, 4.0, "max"), gap_to_optimum(5.0, 4.0, "min")
    (0.25, 0.25)
    >>> gap_to_optimum(None, 4.0, "max") is None
    True
    """
    if optimum is None or objective is None:
        return None
    short = optimum - objective if sense == "max" else objective - optimum
    return short / max(1.0, abs(optimum))


def format_gap(gap: float | None) -> str:
    """A relative gap as a percentage that never reads 0 unless it is 0.

    Two decimals, or two significant digits below 0.01 % (a gap of 24 on 9,772,166 printed
    as "0.00%" looked like a proof).

    Parameters
    ----------
    gap : float or None
        The relative gap (0.01 is 1 %); None prints ``-``.

    Returns
    -------
    str

    Examples
    --------
    >>> format_gap(0.0), format_gap(0.1234), format_gap(24 / 9772166), format_gap(None)
    ('0.00%', '12.34%', '0.00025%', '-')
    """
    if gap is None:
        return "-"
    pct = 100 * gap
    if pct == 0 or abs(pct) >= 0.01:
        return f"{pct:.2f}%"
    return f"{pct:.2g}%"


def json_safe(obj: Any) -> Any:
    """``obj`` with every non-finite float (NaN, +-inf) replaced by None, recursively.

    JSON has no NaN or Infinity; Python's ``json`` would print them as invalid tokens.
    """
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        if set(map(type, obj)) <= {str}:  # an ordering of words: nothing to replace
            return list(obj)
        return [json_safe(v) for v in obj]
    return obj


def _json_default(obj: Any) -> Any:
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    if hasattr(obj, "to_dict"):
        return json_safe(obj.to_dict())
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def _whole(x: Any) -> Any:
    """A whole-number value as an int (``30.0`` -> ``30``), as the checking modes print it."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 2**53:
        return int(x)
    return x
