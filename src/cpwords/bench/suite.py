"""Study suites: a small TOML file naming instances and methods, expanded into tasks.

A suite looks like this (every key but ``puzzle``, the instances and the methods is optional)::

    [suite]
    name = "wordsnake-quick"
    puzzle = "wordsnake"        # default puzzle of the tables below
    time_limit = 10             # seconds per task (default for every method)
    workers = 1                 # solver threads per task

    [[instances]]               # one instance from a file (path relative to the suite file)
    file = "../../instances/wordsnake/demo.txt"

    [[instances]]               # a seeded sample of a lexicon, swept over sizes and seeds
    lexicon = "enable1"
    sweep = { n = [10, 20, 40], seed = [1, 2, 3] }

    [[methods]]
    method = "cpsat"            # a method of the puzzle's spec (cpwords.specs)
    time_limit = 30

    [[methods]]
    method = "layered"
    seeds = [1, 2, 3]           # several seeds for seeded methods
    name = "layered"            # label in results (default: the method name)
    params = { restarts = 10 }  # passed to the method
    instances = ["*-n10*"]      # only on the instances whose names match (fnmatch patterns)

    [[methods]]
    method = "dp"
    repeats = 21                # timing: run 21 times in one process; the row's wall_time is
                                # the median, wall_time_min the fastest (default 1)

Each method runs on every instance of its puzzle, once per seed. Every task has a stable key:
a hash of the puzzle, the concrete instance table, the method, its parameters, the seed, the
time limit, the number of solver threads and the repeats (when more than one); the runner skips
keys already in the results file.
"""

from __future__ import annotations

import fnmatch
import hashlib
import itertools
import json
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from cpwords.core.errors import InputError
from cpwords.core.spec import PuzzleSpec, get_spec

_SUITE_KEYS = {"name", "puzzle", "time_limit", "workers", "description"}
_INSTANCE_COMMON = {"name", "puzzle", "sweep"}
_METHOD_KEYS = {
    "method",
    "name",
    "puzzle",
    "seeds",
    "time_limit",
    "workers",
    "params",
    "instances",
    "repeats",
}


@dataclass(frozen=True)
class Task:
    """One (instance, method, seed) run.

    Attributes
    ----------
    key : str
        Stable hash identifying the run (see :func:`task_key`).
    suite : str
        Name of the suite it comes from (not part of the key).
    puzzle : str
    instance_name : str
    instance : Mapping
        The concrete instance table (JSON-like).
    method : str
        Label of the method in the suite.
    spec_method : str
        Method name passed to the pspec.
    kind : str
        ``exact``, ``heuristic`` or ``baseline``.
    seed : int
    time_limit : float
        Seconds.
    workers : int
        Solver threads.
    params : Mapping
    base_dir : str
        Folder that relative instance paths are resolved against (not part of the key).
    repeats : int
        Runs of the method in one process, for timing; the row keeps the last result, the
        median ``wall_time`` and the fastest ``wall_time_min``.
    """

    key: str
    suite: str
    puzzle: str
    instance_name: str
    instance: Mapping[str, Any]
    method: str
    spec_method: str
    kind: str
    seed: int
    time_limit: float
    workers: int
    params: Mapping[str, Any] = field(default_factory=dict)
    base_dir: str = "."
    repeats: int = 1


@dataclass(frozen=True)
class Suite:
    """A loaded and validated suite (see the module docstring for the file format)."""

    name: str
    path: Path
    description: str
    tasks: tuple[Task, ...]
    instances: tuple[tuple[str, str, Mapping[str, Any]], ...]  # (puzzle, name, spec)
    methods: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.tasks)


def canonical_json(obj: Any) -> str:
    """Key-sorted compact JSON, the input of every hash."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def instance_id(puzzle: str, spec: Mapping[str, Any]) -> str:
    """Stable identifier of an instance: a hash of its puzzle and concrete table."""
    payload = canonical_json({"puzzle": puzzle, "instance": _keyed(spec)})
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def task_key(
    puzzle: str,
    spec: Mapping[str, Any],
    method: str,
    params: Mapping[str, Any],
    seed: int,
    time_limit: float,
    workers: int,
    repeats: int = 1,
) -> str:
    """Stable key of a task: the hash of everything that can change its result.

    The instance name is left out (renaming an instance redoes nothing), so is the suite name
    (two suites sharing a task share its row). ``repeats`` enters only when above 1, so the
    keys of single runs are those of earlier versions.
    """
    fields: dict[str, Any] = {
        "puzzle": puzzle,
        "instance": _keyed(spec),
        "method": method,
        "params": dict(params),
        "seed": seed,
        "time_limit": float(time_limit),
        "workers": workers,
    }
    if repeats != 1:
        fields["repeats"] = repeats
    payload = canonical_json(fields)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def _keyed(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k != "name"}


def load_suite(path: str | Path) -> Suite:
    """Read, validate and expand a suite file.

    Parameters
    ----------
    path : path-like
        The TOML suite.

    Returns
    -------
    Suite
        With one :class:`Task` per (instance, method, seed).

    Raises
    ------
    InputError
        Missing file, TOML syntax error, unknown key, unknown puzzle or method, bad value; the
        message names the table (``[[methods]] #2``) and the key.
    """
    p = Path(path)
    if str(path) == "-":  # stdin; relative paths then resolve against the working folder
        p = Path("<stdin>")
    elif not p.is_file():
        raise InputError(f"suite not found: {p}" if not p.exists() else f"suite is not a file: {p}")
    try:
        raw = sys.stdin.buffer.read() if str(path) == "-" else p.read_bytes()
        data = tomllib.loads(raw.decode("utf-8-sig"))  # a byte-order mark is accepted
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"suite {p}: TOML syntax error: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read suite {p}: {exc}") from None
    return parse_suite(data, p)


def parse_suite(data: Mapping[str, Any], path: Path) -> Suite:
    """Validate and expand a parsed suite (see :func:`load_suite`)."""
    where = f"suite {path}"
    _no_unknown(data, {"suite", "instances", "methods"}, where)
    head = _parse_head(data, path, where)
    inst_tables = _table_list(data, "instances", where)
    meth_tables = _table_list(data, "methods", where)
    instances = _parse_instances(inst_tables, head, where)
    if not instances:
        raise InputError(f"{where}: no instances")
    tasks: list[Task] = []
    labels: list[str] = []
    seen_labels: set[tuple[str, str]] = set()
    for j, table in enumerate(meth_tables, start=1):
        run = _parse_method(table, head, seen_labels, f"{where}: [[methods]] #{j}")
        labels.append(run.label)
        tasks.extend(_method_tasks(run, instances, head))
    if not meth_tables:
        raise InputError(f"{where}: no methods")
    _check_tasks(tasks, instances, where)
    return Suite(
        name=head.name,
        path=path,
        description=head.description,
        tasks=tuple(tasks),
        instances=tuple((p, n, s) for p, n, s in instances),
        methods=tuple(labels),
    )


@dataclass(frozen=True)
class _Head:
    """The ``[suite]`` table: the suite's name and the defaults of its tables."""

    name: str
    puzzle: str | None
    time_limit: float
    workers: int
    description: str
    base_dir: Path


def _parse_head(data: Mapping[str, Any], path: Path, where: str) -> _Head:
    """Validate the ``[suite]`` table (every key optional)."""
    head = data.get("suite", {})
    if not isinstance(head, Mapping):
        raise InputError(f"{where}: [suite] must be a table")
    _no_unknown(head, _SUITE_KEYS, f"{where}: [suite]")
    return _Head(
        name=_typed(head, "name", str, path.stem, f"{where}: [suite]"),
        puzzle=_typed(head, "puzzle", str, None, f"{where}: [suite]"),
        time_limit=_positive(head, "time_limit", 10.0, f"{where}: [suite]"),
        workers=int(_positive(head, "workers", 1, f"{where}: [suite]", integer=True)),
        description=_typed(head, "description", str, "", f"{where}: [suite]"),
        base_dir=path.resolve().parent,
    )


def _table_puzzle(table: Mapping[str, Any], head: _Head, tw: str) -> tuple[str, PuzzleSpec]:
    """The puzzle of an ``[[instances]]`` or ``[[methods]]`` table (or the suite's) and its spec."""
    puzzle = _typed(table, "puzzle", str, head.puzzle, tw)
    if puzzle is None:
        raise InputError(f"{tw}: no puzzle (set puzzle in [suite] or in the table)")
    return puzzle, _puzzle_spec(puzzle, tw)


def _parse_instances(
    inst_tables: list[Mapping[str, Any]], head: _Head, where: str
) -> list[tuple[str, str, dict[str, Any]]]:
    """Every ``[[instances]]`` table expanded: (puzzle, name, concrete table), each once."""
    instances: list[tuple[str, str, dict[str, Any]]] = []
    seen_ids: set[str] = set()
    for i, table in enumerate(inst_tables, start=1):
        tw = f"{where}: [[instances]] #{i}"
        puzzle, pspec = _table_puzzle(table, head, tw)
        _no_unknown(table, _INSTANCE_COMMON | pspec.spec_keys, tw)
        for spec in _expand_instance(table, pspec, head.base_dir, tw):
            spec = {k: v for k, v in spec.items() if k != "puzzle"}
            iid = instance_id(puzzle, spec)
            if iid in seen_ids:
                continue  # the same instance listed twice runs once
            seen_ids.add(iid)
            instances.append((puzzle, str(spec.get("name") or _auto_name(spec)), spec))
    return instances


@dataclass(frozen=True)
class _MethodRun:
    """One validated ``[[methods]]`` table."""

    where: str
    puzzle: str
    method: str
    label: str
    kind: str
    seeds: list[int]
    time_limit: float
    workers: int
    repeats: int
    params: dict[str, Any]
    patterns: list[str]


def _parse_method(
    table: Mapping[str, Any], head: _Head, seen_labels: set[tuple[str, str]], tw: str
) -> _MethodRun:
    """Validate one ``[[methods]]`` table; its label joins ``seen_labels``."""
    _no_unknown(table, _METHOD_KEYS, tw)
    puzzle, pspec = _table_puzzle(table, head, tw)
    method = _method_name(table, pspec, puzzle, tw)
    label = _typed(table, "name", str, method, tw)
    if (puzzle, label) in seen_labels:
        raise InputError(f"{tw}: method label {label!r} used twice; give a distinct 'name'")
    seen_labels.add((puzzle, label))
    seeds = _seeds(table, tw)
    tl = _positive(table, "time_limit", head.time_limit, tw)
    workers = int(_positive(table, "workers", head.workers, tw, integer=True))
    repeats = int(_positive(table, "repeats", 1, tw, integer=True))
    params = _params(table, tw)
    patterns = table.get("instances", ["*"])
    if not isinstance(patterns, list) or not all(isinstance(x, str) for x in patterns):
        raise InputError(f"{tw}: 'instances' must be a list of name patterns")
    kind = pspec.methods[method].kind
    return _MethodRun(
        tw, puzzle, method, label, kind, seeds, tl, workers, repeats, params, patterns
    )


def _method_name(table: Mapping[str, Any], pspec: PuzzleSpec, puzzle: str, tw: str) -> str:
    """The table's ``method``: one of the puzzle spec's (a close match is suggested)."""
    method = _typed(table, "method", str, None, tw)
    if method is None:
        raise InputError(f"{tw}: missing key 'method'")
    if method not in pspec.methods:
        hint = get_close_matches(method, list(pspec.methods), n=1)
        raise InputError(
            f"{tw}: unknown method {method!r} for {puzzle}"
            + (f" (did you mean {hint[0]!r}?)" if hint else "")
            + f"; known: {', '.join(sorted(pspec.methods))}"
        )
    return str(method)


def _seeds(table: Mapping[str, Any], tw: str) -> list[int]:
    """The table's ``seeds``: a non-empty list of distinct integers (default ``[0]``)."""
    seeds = table.get("seeds", [0])
    if (
        not isinstance(seeds, list)
        or not seeds
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds)
    ):
        raise InputError(f"{tw}: 'seeds' must be a non-empty list of integers")
    if len(set(seeds)) != len(seeds):
        raise InputError(f"{tw}: 'seeds' lists a seed twice")
    return seeds


def _params(table: Mapping[str, Any], tw: str) -> dict[str, Any]:
    """The table's ``params``, none of them one the table or the harness sets itself."""
    params = table.get("params", {})
    if not isinstance(params, Mapping):
        raise InputError(f"{tw}: 'params' must be a table")
    params = dict(params)
    reserved = sorted(set(params) & {"seed", "time_limit", "workers", "strict", "check"})
    if reserved:
        raise InputError(
            f"{tw}: 'params' cannot set {', '.join(reserved)} (the method table's own keys "
            "or the harness's)"
        )
    return params


def _method_tasks(
    run: _MethodRun, instances: list[tuple[str, str, dict[str, Any]]], head: _Head
) -> list[Task]:
    """One task per matching instance and seed; a method matching no instance is an error."""
    tasks: list[Task] = []
    matched = 0
    for ipuzzle, iname, spec in instances:
        if ipuzzle != run.puzzle or not any(
            fnmatch.fnmatchcase(iname, pat) for pat in run.patterns
        ):
            continue
        matched += 1
        for seed in run.seeds:
            key = task_key(
                run.puzzle,
                spec,
                run.method,
                run.params,
                seed,
                run.time_limit,
                run.workers,
                run.repeats,
            )
            tasks.append(
                Task(
                    key=key,
                    suite=head.name,
                    puzzle=run.puzzle,
                    instance_name=iname,
                    instance=spec,
                    method=run.label,
                    spec_method=run.method,
                    kind=run.kind,
                    seed=seed,
                    time_limit=run.time_limit,
                    workers=run.workers,
                    params=run.params,
                    base_dir=str(head.base_dir),
                    repeats=run.repeats,
                )
            )
    if not matched:
        raise InputError(f"{run.where}: no {run.puzzle} instance matches {run.patterns}")
    return tasks


def _check_tasks(
    tasks: list[Task], instances: list[tuple[str, str, dict[str, Any]]], where: str
) -> None:
    """Every puzzle's instances get a method, and no two tasks are the same run."""
    for puzzle in {p for p, _, _ in instances}:
        if not any(t.puzzle == puzzle for t in tasks):
            raise InputError(f"{where}: no method runs on the {puzzle} instances")
    keys = [t.key for t in tasks]
    if len(set(keys)) != len(keys):
        raise InputError(f"{where}: two methods describe the same run (same method and params)")


def _expand_instance(
    table: Mapping[str, Any], pspec: PuzzleSpec, base_dir: Path, where: str
) -> list[dict[str, Any]]:
    sweep = table.get("sweep", {})
    if not isinstance(sweep, Mapping):
        raise InputError(f"{where}: 'sweep' must be a table of lists")
    for k, v in sweep.items():
        if k in _INSTANCE_COMMON or (pspec.spec_keys and k not in pspec.spec_keys):
            raise InputError(f"{where}: sweep key {k!r} is not an instance key")
        if not isinstance(v, list) or not v:
            raise InputError(f"{where}: sweep.{k} must be a non-empty list")
        if k in table:
            raise InputError(f"{where}: {k!r} is both a key and a sweep key")
    base = {k: v for k, v in table.items() if k != "sweep"}
    out: list[dict[str, Any]] = []
    names = list(sweep)
    for combo in itertools.product(*(sweep[k] for k in names)):
        spec = dict(base)
        spec.update(zip(names, combo, strict=True))
        if names and "name" in base:
            spec["name"] = base["name"] + "".join(
                f"-{k}{v}" for k, v in zip(names, combo, strict=True)
            )
        if pspec.expand is not None:
            try:
                out.extend(pspec.expand(spec, base_dir))
            except InputError as exc:
                raise InputError(f"{where}: {exc}") from None
        else:
            out.append(spec)
    return out


def _auto_name(spec: Mapping[str, Any]) -> str:
    parts = []
    for k, v in spec.items():
        if isinstance(v, str):
            v = Path(v.removeprefix("shared:")).stem if ("/" in v or "." in v) else v
        elif isinstance(v, (list, dict)):
            v = f"{len(v)}"
        parts.append(f"{k}={v}")
    return ",".join(parts) or "instance"


def _puzzle_spec(puzzle: str, where: str) -> PuzzleSpec:
    try:
        return get_spec(puzzle)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def _no_unknown(table: Mapping[str, Any], allowed: set[str] | frozenset[str], where: str) -> None:
    for k in table:
        if k not in allowed:
            hint = get_close_matches(k, sorted(allowed), n=1)
            raise InputError(
                f"{where}: unknown key {k!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                + f"; allowed: {', '.join(sorted(allowed))}"
            )


def _typed(table: Mapping[str, Any], key: str, typ: type, default: Any, where: str) -> Any:
    if key not in table:
        return default
    v = table[key]
    if not isinstance(v, typ):
        raise InputError(f"{where}: {key!r} must be a {typ.__name__}, not {v!r}")
    return v


def _positive(
    table: Mapping[str, Any], key: str, default: float, where: str, integer: bool = False
) -> float:
    if key not in table:
        return default
    v = table[key]
    ok_type = int if integer else (int, float)
    if isinstance(v, bool) or not isinstance(v, ok_type) or v <= 0:
        what = "a positive integer" if integer else "a positive number"
        raise InputError(f"{where}: {key!r} must be {what}, not {v!r}")
    return v


def _table_list(data: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
    v = data.get(key, [])
    if not isinstance(v, list) or not all(isinstance(t, Mapping) for t in v):
        raise InputError(f"{where}: {key} must be written as [[{key}]] tables")
    return v
