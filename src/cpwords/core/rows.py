"""The JSON rows every command prints (``--json``): one shape for every subcommand and for the
``cpwords serve`` pages' ``/api/...`` answers, which share these functions with the command line.
"""

from __future__ import annotations

from typing import Any

#: Keys of every solving mode's ``--json`` object, in this order (README, "Conventions"):
#: the same names for the same things in every subcommand; None where a mode has no value.
RESULT_KEYS = (
    "status", "objective", "bound", "gap", "method", "wall_time", "solution", "counts",
    "verified", "interrupted", "stopped",
)  # fmt: skip

#: Keys of every checking mode's ``--json`` object (``--check FILE`` / ``--check-text``).
CHECK_KEYS = ("valid", "problems", "solution", "objective")


def result_row(row: dict[str, Any], **values: Any) -> dict[str, Any]:
    """``row`` with ``values`` merged in and the :data:`RESULT_KEYS` first (missing: None,
    ``interrupted``: False, ``stopped``: see :func:`stop_reason`), the mode's own keys after
    them.

    Parameters
    ----------
    row : dict
        A result's row (:meth:`cpwords.core.result.SolveResult.to_dict`, or a mode's own).
    **values
        Keys to set or add (they win over ``row``'s).

    Returns
    -------
    dict
        A new dict; ``row`` is left as it was.

    Examples
    --------
    >>> list(result_row({"extra": 1, "status": "OPTIMAL"}))[:3], result_row({})["interrupted"]
    (['status', 'objective', 'bound'], False)
    """
    merged = {**row, **values}
    out = {k: merged.get(k) for k in RESULT_KEYS}
    out["interrupted"] = bool(out["interrupted"])
    if "stopped" not in merged:
        out["stopped"] = stop_reason(merged)
    out.update((k, v) for k, v in merged.items() if k not in out)
    return out


def stop_reason(row: dict[str, Any]) -> str | None:
    """Why a solve ended before it finished: ``"interrupted"`` (Ctrl-C), ``"time_limit"``,
    ``"model_too_large"`` (a model it did not start: too large to stop on time), or None (it
    finished, or stopped for a reason of its own).

    Read from a result row (:meth:`SolveResult.to_dict` plus ``interrupted``): Ctrl-C first,
    then the method's own ``solver_info["stopped"]`` (``"exhausted"``: the method ran out of
    stages before the limit, not stopped), then an exact solve left FEASIBLE with a bound (not
    proven: a limit stopped the proof).

    Examples
    --------
    >>> stop_reason({"status": "FEASIBLE", "bound": 31.0, "interrupted": False})
    'time_limit'
    >>> stop_reason({"status": "OPTIMAL", "bound": 30.0}) is None
    True
    >>> row = {"status": "FEASIBLE", "bound": 31.0, "solver_info": {"stopped": "exhausted"}}
    >>> stop_reason(row) is None
    True
    >>> row = {"status": "FEASIBLE", "bound": 5.0, "solver_info": {"complete": True}}
    >>> stop_reason(row) is None  # a complete listing (every word a bag spells) finished
    True
    >>> row = {"status": "FEASIBLE", "bound": 5.0, "solver_info": {"stopped": "model_too_large"}}
    >>> stop_reason(row)
    'model_too_large'
    """
    if row.get("interrupted"):
        return "interrupted"
    info = row.get("solver_info") or {}
    said = info.get("stopped") if isinstance(info, dict) else None
    if said in ("interrupt", "interrupted"):
        return "interrupted"
    if said in ("time", "time_limit"):
        return "time_limit"
    if said == "exhausted":  # every stage of the method ended before the limit, gap open
        return None
    if said == "model_too_large":  # its model was not started (it would not stop on time)
        return "model_too_large"
    if isinstance(info, dict) and info.get("complete") is True:  # a finished listing
        return None
    if row.get("status") == "FEASIBLE" and row.get("bound") is not None:
        return "time_limit"
    return None


def check_row(valid: bool, problems: list[str], solution: Any, objective: Any, **rest: Any) -> dict:
    """One checking mode's JSON object: the :data:`CHECK_KEYS`, then the mode's own keys.

    Parameters
    ----------
    valid : bool
        Whether the answer passed the puzzle's checker.
    problems : list of str
        The checker's findings (empty when valid).
    solution : Any
        The answer as read (words, a board).
    objective : Any
        Its score, or None.
    **rest
        The mode's own keys, after these.

    Returns
    -------
    dict

    Examples
    --------
    >>> list(check_row(True, [], ["run"], 0, box="abc"))
    ['valid', 'problems', 'solution', 'objective', 'box']
    """
    return {
        "valid": valid,
        "problems": problems,
        "solution": solution,
        "objective": objective,
        **rest,
    }


#: Sequences longer than this are stored as a summary in study rows (a whole dictionary's
#: Wordsnake ordering or word chain would make each row megabytes long).
ROW_MAX_WORDS = 1_000


def sequence_json(solution: Any, max_words: int = ROW_MAX_WORDS) -> Any:
    """A study row's copy of a sequence of words: the words, or for long ones a summary.

    Parameters
    ----------
    solution : iterable of str
        The words in order (a Wordsnake ordering, a word chain).
    max_words : int
        Longest sequence stored whole.

    Returns
    -------
    list of str or dict
        Up to ``max_words`` words as they are; longer sequences as ``{"words": n, "first":
        [...20 words], "sha256": hex digest of the words joined by newlines}``.

    Examples
    --------
    >>> sequence_json(["run", "nausea"])
    ['run', 'nausea']
    >>> sequence_json(["a", "b", "c"], max_words=2)["words"]
    3
    """
    words = list(solution)
    if len(words) <= max_words:
        return words
    import hashlib

    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()
    return {"words": len(words), "first": words[:20], "sha256": digest}
