"""What a task will need: its memory and its time, before it runs (``--executor dask``).

A dask worker takes as many tasks as it has threads; two tasks that each need most of its
memory then kill each other. Every task therefore carries an estimate of its peak memory, which
the runner gives dask as the task's ``memory`` resource (:mod:`cpwords.bench.cluster`), and of
its time, by which the small tasks are grouped into batches.

Memory, in MiB (the unit of the rows' ``peak_memory_mb``), the first of:

1. **the recorded peak of the same task**: a row with the task's key in the results files read
   (``--out``, the suite's recorded run ``benchmarks/results/<suite>/<suite>.jsonl``, and any
   ``--memory-from FILE``), its ``peak_memory_mb`` (else ``peak_memory_pss_mb``), times
   :data:`RECORDED_MARGIN`. Rows have a peak only when they ran with ``--isolate``;
2. **the recorded peak of the same instance and method** (another seed, time limit or
   parameters: the largest such peak), times :data:`RECORDED_MARGIN`;
3. **the puzzle's model** (:data:`MODELS`), on the instance built once in the runner:

   * Wordsnake: :func:`cpwords.wordsnake.relaxation.string_hub.estimate_memory` (the peak of a
     whole exact solve: 500 MB plus 220 bytes a letter and 1,400 a word), and for the methods
     that build the explicit overlap graph (``mip``, ``cpsat``, ...:
     :data:`cpwords.wordsnake.spec.EXPLICIT_GRAPH_METHODS`) the larger of that and their
     graph's estimate (:func:`cpwords.wordsnake.formulations.common.explicit_graph_bytes`, times
     the method's factor, plus 150 MiB), all times :data:`WORDSNAKE_MARGIN`. The 26 recorded
     peaks of ``results/wordsnake-dictionary/`` (``peak_memory_mb``, an upper bound; one an
     instance and method) were 0.2-1.18 times the unscaled model (1.18: the whole Letterpress list,
     ``auto``; 1.09: ``mip`` on 20,000 ENABLE words). The whole Polish dictionary is estimated
     at 20,440 MiB (measured: 11,548), so a worker of 24,000 runs one at a time. The
     heuristics need less than the estimate;
   * superstring: 100 MiB plus 400 bytes a letter (the largest recorded peak of each of the 17
     instances of ``results/superstring*/`` built here was at most 0.88 of it: the million
     31-mers' exact solve 9,315 MiB for 11,925 estimated; the dictionaries 0.3-0.6);
   * chain: 100 MiB plus 2 KiB a word (the 13 instances of ``results/chain/``: at most 0.82 of
     it, 358 MiB for ENABLE at 438);

4. **a constant**, :data:`DEFAULT_MEMORY_MB`, for the other puzzles (Letter Boxed, Letterpress,
   Truncate, the grid): their instances are not built in the runner (a generator search may list
   100,000 boxes), and their recorded peaks are far below it.

Time, in seconds: the same task's recorded ``harness_time`` (else ``wall_time``); else the same
instance and method's largest, at most the time limit; else the time limit (times the repeats).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cpwords.bench.results import read_rows
from cpwords.bench.suite import Task, canonical_json, instance_id
from cpwords.core.errors import InputError
from cpwords.core.spec import PuzzleSpec, get_spec

#: MiB assumed for a task of a puzzle without a model (:data:`MODELS`) and without a recorded
#: peak: a solver process's imports and a word list of a few hundred thousand words.
DEFAULT_MEMORY_MB = 512.0
#: A recorded peak is scaled by this (a re-run on another machine, another library version).
RECORDED_MARGIN = 1.1
_MIB = float(2**20)
#: The interpreter and the libraries, under a model's own bytes.
_INTERPRETER = 150 * _MIB
#: The Wordsnake's model is scaled by this (it was up to 1.18 under a recorded peak).
WORDSNAKE_MARGIN = 1.25


@dataclass(frozen=True)
class Estimate:
    """What one task is expected to need.

    Attributes
    ----------
    memory_mb : float
        Peak memory, MiB (at least 1).
    seconds : float
        Wall time.
    source : str
        Where ``memory_mb`` comes from: ``recorded`` (the same task's row), ``recorded-instance``
        (the same instance and method), ``model:PUZZLE`` or ``default``.
    """

    memory_mb: float
    seconds: float
    source: str


def _wordsnake_bytes(spec: PuzzleSpec, inst: Any, method: str) -> float:
    from cpwords.wordsnake.relaxation.string_hub import estimate_memory
    from cpwords.wordsnake.spec import EXPLICIT_GRAPH_METHODS

    need = float(estimate_memory(inst))
    if method in EXPLICIT_GRAPH_METHODS and inst.n >= 2:
        from cpwords.wordsnake.formulations.common import explicit_graph_bytes

        lo, factor = EXPLICIT_GRAPH_METHODS[method]
        need = max(need, _INTERPRETER + factor * explicit_graph_bytes(inst, lo))
    return WORDSNAKE_MARGIN * need


def _superstring_bytes(spec: PuzzleSpec, inst: Any, method: str) -> float:
    return 100 * _MIB + 400.0 * sum(map(len, inst.words))


def _chain_bytes(spec: PuzzleSpec, inst: Any, method: str) -> float:
    return 100 * _MIB + 2048.0 * float(spec.size(inst))


#: Peak bytes of a task from its instance and method (the spec's), per puzzle (the spec's name).
MODELS: dict[str, Callable[[PuzzleSpec, Any, str], float]] = {
    "wordsnake": _wordsnake_bytes,
    "superstring": _superstring_bytes,
    "chain": _chain_bytes,
}


@dataclass
class Recorded:
    """The peaks and times of rows already recorded, by task key and by (instance, method).

    Attributes
    ----------
    by_key : dict
        ``{key: (peak MiB or None, seconds or None)}``.
    by_instance : dict
        ``{(puzzle, instance_id, method): (largest peak or None, largest seconds or None)}``.
    """

    by_key: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    by_instance: dict[tuple[str, str, str], tuple[float | None, float | None]] = field(
        default_factory=dict
    )

    def add(self, row: Mapping[str, Any]) -> None:
        """Take one row's peak and time (rows without a key are ignored)."""
        key = row.get("key")
        if not isinstance(key, str):
            return
        peak = _number(row.get("peak_memory_mb")) or _number(row.get("peak_memory_pss_mb"))
        secs = _number(row.get("harness_time")) or _number(row.get("wall_time"))
        old = self.by_key.get(key, (None, None))
        self.by_key[key] = (peak or old[0], secs or old[1])
        iid = row.get("instance_id")
        method = row.get("spec_method") or row.get("method")
        if isinstance(iid, str) and isinstance(method, str):
            at = (str(row.get("puzzle")), iid, method)
            was = self.by_instance.get(at, (None, None))
            self.by_instance[at] = (_most(was[0], peak), _most(was[1], secs))


def _number(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x <= 0:
        return None
    return float(x)


def _most(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def recorded(rows: Iterable[Mapping[str, Any]] = (), files: Sequence[str | Path] = ()) -> Recorded:
    """The peaks and times of ``rows`` and of the rows of ``files`` (absent files are skipped).

    Raises
    ------
    InputError
        A file that exists but is not a cpwords results file.
    """
    rec = Recorded()
    for row in rows:
        rec.add(row)
    for f in files:
        if Path(f).is_file():
            for row in read_rows(f, strict=False):
                rec.add(row)
    return rec


def suite_results_file(suite_path: str | Path, name: str) -> Path:
    """Where the repository records a suite's current run: ``benchmarks/results/NAME/NAME.jsonl``
    beside the suite's folder (``benchmarks/suites/NAME.toml``)."""
    return Path(suite_path).resolve().parent.parent / "results" / name / f"{name}.jsonl"


def estimate_tasks(tasks: Sequence[Task], rec: Recorded) -> dict[str, Estimate]:
    """The estimate of every task, by key (see the module docstring for the order). An instance
    a model needs is built once for all its tasks, and let go before the next is built."""
    out: dict[str, Estimate] = {}
    modelled: dict[str, list[tuple[Task, float]]] = {}  # instance id -> its tasks and seconds
    for t in tasks:
        found, seconds = _from_rows(t, rec)
        if found is not None:
            out[t.key] = found
        elif _puzzle_name(t.puzzle) in MODELS:
            modelled.setdefault(instance_id(t.puzzle, t.instance), []).append((t, seconds))
        else:
            out[t.key] = Estimate(DEFAULT_MEMORY_MB, seconds, "default")
    for group in modelled.values():
        for (t, seconds), need in zip(group, _model_bytes([t for t, _ in group]), strict=True):
            if need is None:
                out[t.key] = Estimate(DEFAULT_MEMORY_MB, seconds, "default")
            else:
                source = f"model:{_puzzle_name(t.puzzle)}"
                out[t.key] = Estimate(max(1.0, need / _MIB), seconds, source)
    return out


def _from_rows(t: Task, rec: Recorded) -> tuple[Estimate | None, float]:
    """The task's estimate from recorded rows (None: no recorded peak), and its seconds."""
    limit = float(t.time_limit) * max(1, t.repeats)
    peak, secs = rec.by_key.get(t.key, (None, None))
    iid = instance_id(t.puzzle, t.instance)
    same = rec.by_instance.get((_puzzle_name(t.puzzle), iid, t.spec_method), (None, None))
    seconds = secs if secs is not None else min(same[1], limit) if same[1] is not None else limit
    if peak is not None:
        return Estimate(max(1.0, peak * RECORDED_MARGIN), seconds, "recorded"), seconds
    if same[0] is not None:
        return Estimate(max(1.0, same[0] * RECORDED_MARGIN), seconds, "recorded-instance"), seconds
    return None, seconds


def _puzzle_name(puzzle: str) -> str:
    try:
        return get_spec(puzzle).puzzle
    except InputError:
        return puzzle


def _model_bytes(tasks: Sequence[Task]) -> list[float | None]:
    """The puzzle's model for each of ``tasks`` (all on one instance, built once); None for all
    when the instance cannot be made (each task's own row then says why)."""
    t = tasks[0]
    try:
        spec = get_spec(t.puzzle)
        model = MODELS[spec.puzzle]
        inst = spec.make_instance(json.loads(canonical_json(dict(t.instance))), Path(t.base_dir))
    except Exception:  # a bad instance is the task's error, reported by its row
        return [None] * len(tasks)
    out: list[float | None] = []
    for task in tasks:
        try:
            out.append(float(model(spec, inst, task.spec_method)))
        except Exception:
            out.append(None)
    return out
