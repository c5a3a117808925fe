"""Every puzzle on the curated dictionaries (issue 30): the measurements the harness cannot make,
and the report.

    cpwords bench benchmarks/suites/languages-dictionaries.toml --jobs 1 \\
        --out benchmarks/results/languages-dictionaries/languages-dictionaries.jsonl
    python benchmarks/languages.py compact            # the grid rows' example boards out
    python benchmarks/languages.py generate [LANG ...]  # Letter Boxed boxes
    python benchmarks/languages.py grid [LANG:TOP:LETTERS ...]  # unique grid puzzles
    python benchmarks/languages.py boards [LANG ...]  # random Letterpress boards
    python benchmarks/languages.py report [--before-commit 8d17b24] \\
        > benchmarks/results/languages-dictionaries/report.md

``generate`` runs ``cpwords letterboxed --generate 10 --unique --lang L --json`` per language
(each box proven by the DP and recounted by the independent brute force before it is printed;
``verified``); ``grid`` designs unique grid puzzles per language (``cpwords grid --unique``),
each one re-verified by the independent checker and a CP-SAT recount; ``boards`` draws one
random Letterpress board per language (``cpwords letterpress --random-board``). Their runs go
into one file beside the suite's rows, ``languages-dictionaries-designs.json`` (a section per
command); given languages (``generate ru``, ``boards ru``, ``grid ru:20000:2``), a command runs
only those and merges them into its section, the other runs kept (:func:`merge_runs`).

``report`` writes the report with the wordfreq-era record of issue 20 as the "before" (the same
puzzles when ``--lang`` read wordfreq's token lists): ``benchmarks/results/languages/`` as it
was at ``--before-commit`` (read with ``git show``; the record left the tree with issue 49).
Its check that every answer word is in the language's dictionary reads the dictionary's file
itself (one entry a line, NFC, lower case; a capitalised entry counts as a proper noun where the
source marks them so), sharing no code with cpwords' reader; it checks the wordfreq answers
against the same files.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cpwords.bench.results import read_rows
from cpwords.bench.runner import machine
from cpwords.core.dictionaries import Dictionary, find_dictionary

HERE = Path(__file__).parent
ROOT = HERE.parent
#: The commit whose tree holds the wordfreq-era record (``benchmarks/results/languages/``).
BEFORE_COMMIT = "8d17b24"
#: The puzzles whose answers are checked, in the report's order.
PUZZLES = ("truncate", "letterboxed", "grid", "letterpress")
#: The languages with a curated dictionary that issue 30 measures (Russian: hunspell-ru, its
#: affix rules expanded by :mod:`cpwords.core.hunspell`; recorded after the other eight, its
#: runs merged into the file: ``generate ru``, ``boards ru``, ``grid ru:20000:2 ...``).
DICT_LANGS = ("fr", "de", "es", "it", "pl", "pt", "sv", "nl", "ru")


@dataclass(frozen=True)
class Target:
    """One recorded run: where its files go and which languages each command covers."""

    results: Path
    prefix: str
    lb_langs: tuple[str, ...]
    grid_runs: tuple[tuple[str, int, int], ...]
    board_runs: tuple[tuple[str, bool], ...]

    @property
    def rows(self) -> Path:
        """The suite's rows (``cpwords bench``)."""
        return self.results / f"{self.prefix}.jsonl"

    @property
    def designs(self) -> Path:
        """The runs of ``generate``, ``grid`` and ``boards``: a section each."""
        return self.results / f"{self.prefix}-designs.json"


#: Every puzzle on the dictionaries (issue 30).
DICTIONARIES = Target(
    HERE / "results" / "languages-dictionaries",
    "languages-dictionaries",
    DICT_LANGS,
    tuple(
        (lang, top, length)
        for length, top in ((2, 20000), (3, 50000), (2, 50000))
        for lang in DICT_LANGS
    ),
    (*((lang, False) for lang in DICT_LANGS), ("fr", True)),
)


def generate(
    target: Target = DICTIONARIES,
    k: int = 10,
    time_limit: float = 1800.0,
    only: list[str] | None = None,
) -> None:
    """Run the generator for each language and store its JSON answers. ``only``: these
    languages, their runs merged into the section's (:func:`merge_runs`)."""
    runs: list[dict[str, Any]] = []
    for lang in only or target.lb_langs:
        cmd = [
            sys.executable,
            "-m",
            "cpwords",
            "letterboxed",
            "--generate",
            str(k),
            "--unique",
            "--lang",
            lang,
            "--seed",
            "0",
            "--time-limit",
            str(time_limit),
            "--json",
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
        out = json.loads(proc.stdout)
        out["command"] = " ".join(["cpwords", *cmd[3:]])
        out["command_wall_time"] = wall
        out["exit_status"] = proc.returncode
        runs.append(out)
        print(f"{lang}: {out.get('found')} boxes in {wall:.1f} s", file=sys.stderr)
    merge_runs(
        target.designs, "letterboxed", machine(), runs, lambda r: r["lang"], only is not None
    )


def _recheck_grid(lang: str, top: int, length: int, puzzles: list[dict[str, Any]]) -> None:
    """Re-verify each unique puzzle of a ``--unique`` run, in place, by two paths that share no
    code with the design: the independent checker on its answer board (``grid_problems``,
    every rule recomputed from the strings and the word list) and a recount of its full boards
    by CP-SAT (every solution of the board model with the suffixes fixed, no preprocessing)."""
    from cpwords.grid.models.cpsat import count_completions
    from cpwords.grid.rules import common_tokens, default_board, grid_problems
    from cpwords.grid.symmetry import board_symmetry

    board = default_board()
    sym = board_symmetry(board)
    tokens = common_tokens(top, length, 2, False, lang)
    for p in puzzles:
        t0 = time.perf_counter()
        problems = grid_problems(board, p["board"], tokens.words, length, 2)
        cnt = count_completions(
            board, tokens, p["suffixes"], method="cpsat", preprocess=False, symmetry=sym
        )
        p["recheck"] = {
            "checker_problems": problems,
            "cpsat_boards": cnt.count,
            "cpsat_boards_up_to_symmetry": cnt.count_up_to_symmetry,
            "cpsat_complete": cnt.complete,
            "ok": not problems and cnt.complete and cnt.count_up_to_symmetry == 1,
            "seconds": time.perf_counter() - t0,
        }


def merge_runs(
    path: Path,
    section: str,
    host: dict[str, Any],
    runs: list[dict[str, Any]],
    key: Callable[[dict[str, Any]], Hashable],
    merge: bool,
) -> None:
    """Write ``{"machine": host, "runs": runs}`` as the file's ``section`` (the others kept);
    with ``merge``, into the runs already in the section instead, under a lock (several
    processes may share the work): a run with the same ``key`` is replaced in its place, the
    others are kept, new ones appended; the section's machine stays and each merged run
    records its own (``run["machine"]``)."""
    import fcntl

    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if not merge or section not in data:
            data[section] = {"machine": host, "runs": runs}
        else:
            new = {key(r): {**r, "machine": host} for r in runs}
            old = data[section]["runs"]
            data[section]["runs"] = [new.pop(key(r), r) for r in old] + list(new.values())
        path.write_text(json.dumps(data, indent=1) + "\n")


def _grid_key(run: dict[str, Any]) -> tuple[str, int, int]:
    return (run["lang"], run["top"], run["suffix_length"])


def grid(
    target: Target = DICTIONARIES,
    time_limit: float = 900.0,
    only: list[tuple[str, int, int]] | None = None,
) -> None:
    """Design unique grid puzzles per language and re-verify each one; store the answers (after
    every run, so that an interrupted run keeps the runs it finished). ``only``: these runs
    (language, top, suffix letters), merged into the section's."""
    runs: list[dict[str, Any]] = []
    host = machine()
    for lang, top, length in only or target.grid_runs:
        cmd = [
            sys.executable,
            "-m",
            "cpwords",
            "grid",
            "--unique",
            "--count-limit",
            "2",
            "--lang",
            lang,
            "--top",
            str(top),
            "-L",
            str(length),
            "--limit",
            "100",
            "--time-limit",
            str(time_limit),
            "--json",
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
        out = json.loads(proc.stdout)
        del out["others"]  # the first 100 classes that are not unique: not reported
        out["command"] = " ".join(["cpwords", *cmd[3:]])
        out["command_wall_time"] = wall
        out["exit_status"] = proc.returncode
        _recheck_grid(lang, top, length, out["quadruples"])
        runs.append(out)
        ok = sum(p["recheck"]["ok"] for p in out["quadruples"])
        print(
            f"{lang} {top} L{length}: {out['classes']:,} classes, {out['unique_count']} unique "
            f"({ok} re-verified) in {wall:.1f} s",
            file=sys.stderr,
        )
        merge_runs(target.designs, "grid", host, runs, _grid_key, only is not None)


def _grid_table(data: dict[str, Any] | None) -> list[str]:
    if not data:
        return ["(not run: `python benchmarks/languages.py grid`)"]
    m = data["machine"]
    out = [
        f"Machine: {m['nproc']} cores, shared; load at start "
        f"{', '.join(f'{x:.1f}' for x in m['loadavg_start'])}; {m['date']}.",
        "",
        "| language | top N | suffix letters | lexicon words | classes | unique puzzles "
        "| re-verified | enumerate + count | command time | an example (suffixes: the 24 words) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in data["runs"]:
        st = r["stats"]
        uniq = r["quadruples"]
        ok = sum(p["recheck"]["ok"] for p in uniq)
        withheld = r.get("blocklist", {}).get("withheld", 0)
        shown = f"{r['unique_count']}" + (f" (+{withheld} withheld)" if withheld else "")
        if uniq:
            ex = max(uniq, key=lambda p: p["min_zipf"])  # the one with the commonest words
            example = f"{'-'.join(ex['suffixes'])}: {' '.join(ex['words'])}"
        else:
            example = "none"
        out.append(
            f"| {r['lang']} | {r['top']:,} | {r['suffix_length']} | {r['lexicon_size']:,} "
            f"| {r['classes']:,} | {shown} | {ok} of {len(uniq)} "
            f"| {st['enumerate_time']:.1f} + {st['count_time']:.1f} s "
            f"| {r['command_wall_time']:.1f} s | {example} |"
        )
    return out


def boards(target: Target = DICTIONARIES, seed: int = 0, only: list[str] | None = None) -> None:
    """One random Letterpress board per language (``--random-board``) and the words it spells.
    ``only``: these languages' runs (accents kept), merged into the section's
    (:func:`merge_runs`)."""
    runs: list[dict[str, Any]] = []
    for lang, fold in [(x, False) for x in only] if only else target.board_runs:
        cmd = [
            sys.executable,
            "-m",
            "cpwords",
            "letterpress",
            "--random-board",
            "--seed",
            str(seed),
            "--lang",
            lang,
            *(["--fold-accents"] if fold else []),
            "--longest-first",
            "--limit",
            "3",
            "--time-limit",
            "900",
            "--json",
        ]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        out = json.loads(proc.stdout)
        out["command"] = " ".join(["cpwords", *cmd[3:]])
        out["command_wall_time"] = time.perf_counter() - t0
        out["exit_status"] = proc.returncode
        runs.append(out)
        found = f"{out['letters']} {out['count']:,} words" if "letters" in out else out["status"]
        print(f"{lang}{' folded' if fold else ''}: {found}", file=sys.stderr)
    key = lambda r: (r["lang"], r["fold_accents"])  # noqa: E731
    merge_runs(target.designs, "boards", machine(), runs, key, only is not None)


def _boards_table(data: dict[str, Any] | None) -> list[str]:
    if not data:
        return ["(not run: `python benchmarks/languages.py boards`)"]
    out = [
        "| language | accents | list | board (seed 0, row by row) | words it spells "
        "| longest | verified |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in data["runs"]:
        rows = "/".join(r["letters"][i : i + 5] for i in range(0, len(r["letters"]), 5))
        out.append(
            f"| {r['lang']} | {'folded' if r['fold_accents'] else 'kept'} | {r['lexicon']} "
            f"| {rows} | {r['count']:,} | {', '.join(r['solution'])} "
            f"| {'yes' if r['verified'] else 'no'} |"
        )
    return out


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def _letterboxed_table(data: dict[str, Any] | None) -> list[str]:
    if not data:
        return ["(not run: `python benchmarks/languages.py generate`)"]
    out = [
        f"Machine: {data['machine']['nproc']} cores, shared; load at start "
        f"{', '.join(f'{x:.1f}' for x in data['machine']['loadavg_start'])}; "
        f"{data['machine']['date']}.",
        "",
        "| language | lexicon | boxes | verified | draws | total time | median time per box "
        "| median playable words | an example (proven optimum) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in data["runs"]:
        boxes = run.get("boxes", [])
        per_box = [b["wall_time"] for b in boxes]
        playable = [b["playable_words"] for b in boxes]
        ex = boxes[0] if boxes else None
        example = f"{ex['box']}: {'-'.join(w.upper() for w in ex['solution'])}" if ex else "none"
        verified = sum(bool(b.get("verified")) for b in boxes)
        out.append(
            f"| {run['lang']} | {run['lexicon']} | {len(boxes)} of {run['requested']} "
            f"| {verified} | {run['draws']:,} | {run['wall_time']:.1f} s "
            f"| {_median(per_box):.3f} s | {_median(playable):,.0f} | {example} |"
        )
    return out


#: A compacted grid row keeps its classes' suffix quadruples up to this many classes: its
#: quadruples held 1.8 MB of the record's 1.9 MB (the report reads only their
#: ``solver_info``), over the repository's 1 MB for one file.
COMPACT_CLASSES = 1000


def compact(path: Path = DICTIONARIES.rows, most: int = COMPACT_CLASSES) -> None:
    """Keep the recorded rows small: a grid row's solution (one example board per puzzle class,
    5.8 MB of the 5.9 MB file) becomes its suffix quadruples, or nothing beyond ``most``
    classes (151,459 quadruples are 5 MB); the report reads ``solver_info``. A row compacted
    before to its quadruples is cut again when it holds more than ``most``."""
    rows = list(read_rows(path))
    for r in rows:
        sol = r.get("solution")
        if r.get("puzzle") != "grid" or not isinstance(sol, list):
            continue
        quads = [p["suffixes"] if isinstance(p, dict) else p for p in sol]
        if len(quads) <= most:
            if "solution_compacted" not in r:
                r["solution"] = quads
                r["solution_compacted"] = (
                    "the example boards were left out (benchmarks/languages.py compact)"
                )
        else:
            r["solution"] = None
            r["solution_compacted"] = (
                f"the {len(quads):,} classes were left out (languages.py compact; more than "
                f"{most:,}); solver_info keeps their number and the unique puzzles"
            )
    tmp = path.with_suffix(".part")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    tmp.replace(path)


def _lang_of_lexicon(name: str) -> str | None:
    """``lang:fr`` -> ``fr``; anything else (``web2``) -> None."""
    return name.split(":")[1] if name.startswith("lang:") else None


def _git_show(commit: str, path: str) -> str | None:
    """A file of the repository as it was at ``commit`` (None when it had none)."""
    proc = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return proc.stdout if proc.returncode == 0 else None


class Record:
    """One recorded run: the harness's rows and the runs of ``generate``, ``grid`` and
    ``boards`` (:meth:`of` a :class:`Target`, or :meth:`at` a commit for the wordfreq-era
    record, whose three commands each wrote a file of their own)."""

    def __init__(
        self,
        rows: list[dict[str, Any]],
        letterboxed: dict[str, Any] | None = None,
        grid: dict[str, Any] | None = None,
        boards: dict[str, Any] | None = None,
    ) -> None:
        self.rows = [r for r in rows if r.get("status") != "ERROR"]
        self.letterboxed, self.grid, self.boards = letterboxed, grid, boards

    @classmethod
    def of(cls, target: Target) -> Record:
        """The record in ``target``'s folder."""
        rows = read_rows(target.rows) if target.rows.exists() else []
        designs = json.loads(target.designs.read_text("utf-8")) if target.designs.exists() else {}
        return cls(rows, designs.get("letterboxed"), designs.get("grid"), designs.get("boards"))

    @classmethod
    def at(cls, commit: str, folder: str = "benchmarks/results/languages") -> Record:
        """The wordfreq-era record as the tree held it at ``commit`` (``languages.jsonl``,
        ``languages-letterboxed.json``, ``languages-grid.json``,
        ``languages-letterpress-boards.json``)."""

        def load(name: str) -> dict[str, Any] | None:
            text = _git_show(commit, f"{folder}/{name}")
            return None if text is None else json.loads(text)

        text = _git_show(commit, f"{folder}/languages.jsonl") or ""
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        return cls(
            rows,
            load("languages-letterboxed.json"),
            load("languages-grid.json"),
            load("languages-letterpress-boards.json"),
        )

    def truncate(self) -> dict[str, dict[str, Any]]:
        """Truncate rows by language."""
        out = {}
        for r in self.rows:
            lang = _lang_of_lexicon(str(r["instance_spec"].get("lexicon", "")))
            if r["puzzle"] == "truncate" and lang:
                out[lang] = r
        return out

    def letterpress(self) -> dict[str, list[dict[str, Any]]]:
        """Letterpress rows by language, bag by bag (keyed by the bag's letters)."""
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in self.rows:
            lang = _lang_of_lexicon(str(r["instance_spec"].get("lexicon", "")))
            if r["puzzle"] == "letterpress" and lang:
                out[lang].append(r)
        return out

    def lb_runs(self) -> dict[str, dict[str, Any]]:
        """Letter Boxed generator runs by language."""
        return {r["lang"]: r for r in (self.letterboxed or {}).get("runs", [])}

    def grid_runs(self) -> dict[tuple[str, int, int], dict[str, Any]]:
        """Grid designs by (language, top, suffix letters)."""
        runs = (self.grid or {}).get("runs", [])
        return {(r["lang"], r["top"], r["suffix_length"]): r for r in runs}

    def board_runs(self) -> dict[tuple[str, bool], dict[str, Any]]:
        """Random Letterpress boards by (language, accents folded)."""
        return {(r["lang"], r["fold_accents"]): r for r in (self.boards or {}).get("runs", [])}

    def answers(self, lang: str) -> dict[str, set[str]]:
        """Every answer word this record shows for ``lang``, by puzzle."""
        out: dict[str, set[str]] = {p: set() for p in PUZZLES}
        trunc = self.truncate().get(lang)
        if trunc:
            out["truncate"].update(trunc.get("solution") or [])
        lb = self.lb_runs().get(lang)
        for box in (lb or {}).get("boxes", []):
            out["letterboxed"].update(box.get("solution") or [])
            for pair in box.get("two_word_solutions") or []:
                out["letterboxed"].update(pair)
        for (glang, _top, _len), run in self.grid_runs().items():
            if glang == lang:
                for p in run.get("quadruples", []):
                    out["grid"].update(p.get("words") or [])
        for r in self.letterpress().get(lang, []):
            out["letterpress"].update((r.get("solution") or {}).get("longest") or [])
        for (blang, fold), run in self.board_runs().items():
            if blang == lang and not fold:
                out["letterpress"].update(run.get("solution") or [])
        return out


def dictionary_status(
    path: Path | Iterable[str], encoding: str, proper_capitals: bool, wanted: Iterable[str]
) -> dict[str, str]:
    """Look ``wanted`` up in a dictionary's file: ``"word"`` (an entry, lower-cased, is it),
    ``"proper noun"`` (only a capitalised entry is, where capitals mark proper nouns) or
    ``"absent"``.

    The file is read here, not by cpwords: one entry a line, NFC, lower case. ``path`` may
    also be the entries themselves (a Hunspell dictionary's expansion, :func:`entries`).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d) / "fr"
    ...     _ = p.write_text("chat\\nParis\\nÉté\\n", encoding="utf-8")
    ...     sorted(dictionary_status(p, "utf-8", True, ["chat", "paris", "été", "inte"]).items())
    [('chat', 'word'), ('inte', 'absent'), ('paris', 'proper noun'), ('été', 'proper noun')]
    """
    status = dict.fromkeys(wanted, "absent")
    if not isinstance(path, Path):
        _lookup(path, proper_capitals, status)
        return status
    with path.open(encoding=encoding) as f:
        _lookup(f, proper_capitals, status)
    return status


def _lookup(lines: Iterable[str], proper_capitals: bool, status: dict[str, str]) -> None:
    """Mark in ``status`` each of its words that ``lines`` (one entry a line) hold."""
    for line in lines:
        entry = unicodedata.normalize("NFC", line.strip())
        key = entry.lower()
        if key not in status or status[key] == "word":
            continue
        status[key] = "proper noun" if proper_capitals and entry[:1].isupper() else "word"


def entries(d: Dictionary) -> tuple[Path | list[str], str]:
    """What the check reads for ``d``, and how the report names it: a word list's file, or a
    Hunspell dictionary's every form as :func:`cpwords.core.hunspell.expanded_words` expands
    its ``.dic``/``.aff`` (the list cached in the user's cache folder; the program
    ``hunspell -G`` is asked too, :func:`hunspell_accepts`)."""
    if d.aff_path is None:
        return d.path, f"{d.name} ({d.path})"
    from cpwords.core.hunspell import expanded_words

    ref = f"{d.name}: its {d.path.name}/.aff expanded by cpwords.core.hunspell (cached list)"
    return expanded_words(d.path, d.aff_path), ref


def hunspell_accepts(d: Dictionary, words: Iterable[str]) -> set[str] | None:
    """The ``words`` the program ``hunspell -G`` accepts with ``d``'s ``.dic``/``.aff`` (a
    reference sharing no code with cpwords); None without ``hunspell`` or for a word list."""
    if d.aff_path is None or shutil.which("hunspell") is None:
        return None
    proc = subprocess.run(
        ["hunspell", "-d", str(d.path.with_suffix("")), "-i", "utf-8", "-G"],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    return set(proc.stdout.split()) if proc.returncode == 0 else None


def check_table(after: Record, before: Record, langs: Iterable[str]) -> list[str]:
    """Per language: the answer words of every puzzle looked up in the dictionary's file."""
    out = [
        "| language | dictionary (file) | puzzle | answer words | in it | only a proper noun "
        "| outside | before (wordfreq): words | before: outside the dictionary |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for lang in langs:
        d = find_dictionary(lang)
        new, old = after.answers(lang), before.answers(lang)
        wanted = set().union(*new.values(), *old.values())
        source, ref = entries(d)
        st = dictionary_status(source, d.encoding, d.capitals_mark_proper_nouns, wanted)
        for puzzle in PUZZLES:
            words, prev = sorted(new[puzzle]), sorted(old[puzzle])
            bad = [w for w in words if st[w] != "word"]
            proper = sum(st[w] == "proper noun" for w in words)
            prev_bad = [w for w in prev if st[w] != "word"]
            out.append(
                f"| {lang} | {ref} | {puzzle} | {len(words):,} "
                f"| {len(words) - len(bad):,} | {proper} | {_some(bad)} "
                f"| {len(prev):,} | {_some(prev_bad, len(prev))} |"
            )
    return out


def hunspell_note(after: Record, before: Record, langs: Iterable[str]) -> list[str]:
    """For each Hunspell dictionary: the answer words the program ``hunspell -G`` accepts, after
    and before, beside the expansion's verdict (:func:`check_table`)."""
    out = []
    for lang in langs:
        d = find_dictionary(lang)
        new = set().union(*after.answers(lang).values())
        old = set().union(*before.answers(lang).values())
        ok = hunspell_accepts(d, sorted(new | old))
        if d.aff_path is None:
            continue
        if ok is None:
            out.append(f"- {lang}: `hunspell` is not installed here; not asked.")
            continue
        out.append(
            f"- {lang}: `hunspell -d {d.path.with_suffix('')} -G` accepts "
            f"{len(new & ok):,} of the {len(new):,} answer words after "
            f"(rejects {_some(sorted(new - ok))}); before (wordfreq) "
            f"{len(old & ok):,} of {len(old):,} (rejects {_some(sorted(old - ok))})."
        )
    return out


def _some(words: list[str], of: int | None = None, k: int = 6) -> str:
    """``0``, or how many and the first ``k`` of them (``3 of 20: a, b, c``)."""
    if not words:
        return "0" if of != 0 else "-"
    head = ", ".join(f"`{w}`" for w in words[:k]) + (", ..." if len(words) > k else "")
    return f"{len(words)}{f' of {of}' if of else ''}: {head}"


def _chain(r: dict[str, Any] | None) -> str:
    if r is None:
        return "not recorded"
    si = r.get("solver_info") or {}
    seq = " -> ".join(r.get("solution") or [])
    count = si.get("count", "?")
    return f"{r['objective']:.0f} plays ({count:,} chains; {r['size']:,} words): {seq}"


def truncate_table(after: Record, before: Record, langs: Iterable[str]) -> list[str]:
    """The longest chain of each language, before (wordfreq) and after (the dictionary)."""
    new, old = after.truncate(), before.truncate()
    out = ["| language | before: wordfreq's list | after: the dictionary |", "|---|---|---|"]
    for lang in langs:
        out.append(f"| {lang} | {_chain(old.get(lang))} | {_chain(new.get(lang))} |")
    return out


def _lb(run: dict[str, Any] | None) -> str:
    if run is None:
        return "not recorded"
    boxes = run.get("boxes", [])
    ok = sum(bool(b.get("verified")) for b in boxes)
    ex = boxes[0] if boxes else None
    eg = f"{ex['box']}: {'-'.join(w.upper() for w in ex['solution'])}" if ex else "none"
    return f"{len(boxes)} of {run['requested']} ({ok} verified), {run['lexicon']}; {eg}"


def letterboxed_table(after: Record, before: Record, langs: Iterable[str]) -> list[str]:
    """``--generate 10 --unique`` per language: boxes, their brute-force recount, an example."""
    new, old = after.lb_runs(), before.lb_runs()
    out = [
        "| language | before: boxes, list; the first box | after: boxes, list; the first box "
        "| after: every box's one solution |",
        "|---|---|---|---|",
    ]
    for lang in langs:
        sols = ", ".join(
            "-".join(w.upper() for w in b["solution"]) for b in new.get(lang, {}).get("boxes", [])
        )
        out.append(f"| {lang} | {_lb(old.get(lang))} | {_lb(new.get(lang))} | {sols or '-'} |")
    return out


def _unique(run: dict[str, Any] | None) -> str:
    if run is None:
        return "-"
    withheld = run.get("blocklist", {}).get("withheld", 0)
    return (
        f"{run['unique_count']}"
        + (f" (+{withheld})" if withheld else "")
        + (f" of {run['classes']:,}")
    )


def grid_table(after: Record, before: Record, langs: Iterable[str]) -> list[str]:
    """Unique grid puzzles per language and size, before -> after."""
    new, old = after.grid_runs(), before.grid_runs()
    sizes = sorted(
        {(top, length) for (_l, top, length) in new} | {(20000, 2), (50000, 2)},
        key=lambda s: (s[1], s[0]),
    )
    head = " | ".join(f"top {top:,}, {length}-letter suffixes" for top, length in sizes)
    out = [f"| language | {head} |", "|---|" + "---|" * len(sizes)]
    for lang in langs:
        cells = [
            f"{_unique(old.get((lang, top, length)))} -> {_unique(new.get((lang, top, length)))}"
            for top, length in sizes
        ]
        out.append(f"| {lang} | {' | '.join(cells)} |")
    return out


def letterpress_table(after: Record, before: Record, langs: Iterable[str]) -> list[str]:
    """Words each bag spells (the same bags where both runs have them) and the random boards."""
    new, old = after.letterpress(), before.letterpress()
    nb, ob = after.board_runs(), before.board_runs()
    out = [
        "| language | bags | words per bag, before -> after | median before -> after "
        "| random board (seed 0): before | after |",
        "|---|---|---|---|---|---|",
    ]
    for lang in langs:
        prev = {r["instance_spec"]["letters"]: r["objective"] for r in old.get(lang, [])}
        rows = new.get(lang, [])
        same = all(r["instance_spec"]["letters"] in prev for r in rows) and bool(prev)
        per_bag = ", ".join(
            f"{prev[r['instance_spec']['letters']]:,.0f} -> {r['objective']:,.0f}"
            if r["instance_spec"]["letters"] in prev
            else f"{r['objective']:,.0f}"
            for r in rows
        )
        med_old = _median([float(v) for v in prev.values()])
        med_new = _median([float(r["objective"]) for r in rows])
        med = f"{med_old:,.0f} -> {med_new:,.0f}" if prev else f"- -> {med_new:,.0f}"
        out.append(
            f"| {lang} | {'the same' if same else 'drawn from the dictionary'} | {per_bag} "
            f"| {med} | {_board(ob.get((lang, False)))} | {_board(nb.get((lang, False)))} |"
        )
    return out


def _board(run: dict[str, Any] | None) -> str:
    if run is None:
        return "not recorded"
    return f"{run['letters']}: {run['count']:,} words ({', '.join(run['solution'])})"


def _machine(data: dict[str, Any] | None) -> str:
    if not data:
        return "not run"
    m = data["machine"]
    load = ", ".join(f"{x:.1f}" for x in m["loadavg_start"])
    return f"{m['nproc']} cores, shared; load at start {load}; {m['date']}"


def suite_times(after: Record) -> list[str]:
    """The harness's rows: Truncate DP time, grid classes at 20,000 words, Letterpress queries."""
    out = [
        "| puzzle | language | dictionary | words | status | answer | time |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in after.rows:
        spec, si = r["instance_spec"], r.get("solver_info") or {}
        if r["puzzle"] == "truncate":
            answer, lang = f"{r['objective']:.0f} plays", spec["lexicon"][len("lang:") :]
        elif r["puzzle"] == "grid":
            answer = (
                f"{si.get('classes', '?')} classes, {si.get('unique', '?')} unique "
                f"({spec.get('suffix_length', 2)}-letter suffixes)"
            )
            lang = str(spec.get("lang"))
        else:
            answer = f"{spec['letters']}: {r['objective']:,.0f} words"
            lang = spec["lexicon"][len("lang:") :]
        out.append(
            f"| {r['puzzle']} | {lang} | {find_dictionary(lang).name} | {r['size']:,} "
            f"| {r['status']} | {answer} | {r['wall_time']:.3f} s |"
        )
    return out


def _later(after: Record) -> str:
    """When the runs merged in later (those that carry their own machine) were recorded."""
    runs = [
        f"{name} {r['lang']}: {r['machine']['date']}"
        for name, data in (
            ("generate", after.letterboxed),
            ("grid", after.grid),
            ("boards", after.boards),
        )
        for r in (data or {}).get("runs", [])
        if "machine" in r
    ]
    return "; ".join(runs) or "none yet"


def _section(title: str, text: list[str], table: list[str]) -> list[str]:
    return [f"## {title}", "", *text, "", *table, ""]


def report(
    after: Record, before: Record, before_commit: str, langs: Iterable[str] | None = None
) -> str:
    """The markdown report of ``after`` (the dictionaries' run) against ``before`` (wordfreq's,
    the record at ``before_commit``)."""
    langs = tuple(langs or DICT_LANGS)
    lines = [
        "# Every puzzle on the curated dictionaries (issue 30)",
        "",
        f"Languages: {', '.join(langs)}, each on its Debian dictionary (what `--lang` reads; "
        "`cpwords lexicons`); Russian on hunspell-ru, its stems expanded by their affix rules "
        "(cpwords.core.hunspell), recorded after the other eight and merged into their files "
        f"({_later(after)}). The before is the record of issue 20 (`benchmarks/results/"
        f"languages/` at commit {before_commit}, when `--lang` read wordfreq's token lists). "
        "One run each, `nice -n 10`, one task at a "
        "time, on a shared 2-core machine with other jobs beside it: times are noisy, answers "
        "are exact.",
        "",
        "Commands: `cpwords bench benchmarks/suites/languages-dictionaries.toml --out "
        "benchmarks/results/languages-dictionaries/languages-dictionaries.jsonl --jobs 1`; "
        "`python benchmarks/languages.py generate` (then `boards`, `grid`: their runs in "
        "`languages-dictionaries-designs.json`); `python benchmarks/languages.py report "
        f"--before-commit {before_commit} > benchmarks/results/languages-dictionaries/report.md`.",
        "",
    ]
    lines += _section(
        "Every answer word is in the dictionary",
        [
            "Every word the answers show (Truncate's chain; every Letter Boxed box's solutions;",
            "the 24 words of every unique grid puzzle; the ten longest words of every Letterpress",
            "bag and the three of the random board), looked up by this report in the dictionary's",
            "file itself (one entry a line, NFC, lower case), not by cpwords' reader.",
            "A capitalised entry is a proper noun except in German (nouns are capitalised there).",
            "The last two",
            "columns look the wordfreq answers of the record up in the same file. Russian's",
            "dictionary is Hunspell's (stems and affix rules), so its reference is every form the",
            "rules allow, as cpwords.core.hunspell expands them (the list cached in the user's",
            "cache folder: the same code as `--lang ru`'s reader, not an independent file); the",
            "program `hunspell -G` (sharing no code with cpwords) is asked about the same words:",
        ],
        check_table(after, before, langs),
    )
    lines += [*hunspell_note(after, before, langs), ""]
    lines += [
        "What the check does not say. A word the dictionary lists is valid here even where a",
        "player may frown: wfrench lists `int` and `inte` (both on the French chain), and",
        "German keeps every capitalised entry (nouns are capitalised), so a name wngerman lists",
        "(`Lacoste`) is playable. A wordfreq answer outside the dictionary is not always a",
        "non-word: the dictionaries are smaller than the language (wspanish has 86,016 entries",
        "and few inflected forms; wngerman lists few compounds such as `amateurastronomen`);",
        "the record's fragments (`internatio`, `professi`, `ajajaj`), names and English words",
        "are the rest.",
        "",
    ]
    lines += _section(
        "Truncate: the longest chain, before and after",
        [
            "Each chain proven longest by the DP (exhaustive) and re-checked by the harness's",
            "independent checker; `chains` is the exact number of longest chains.",
        ],
        truncate_table(after, before, langs),
    )
    lines += _section(
        "Letter Boxed: `--generate 10 --unique`, before and after",
        [
            f"Machine: {_machine(after.letterboxed)}. Each box has exactly one 2-word solution,",
            "proven by the DP and recounted by the independent brute force over word pairs",
            "(`verified`); letters drawn by the list's own letter frequencies (seed 0).",
        ],
        letterboxed_table(after, before, langs),
    )
    lines += [*_letterboxed_table(after.letterboxed), ""]
    lines += _section(
        "Grid: unique puzzles, before -> after",
        [
            f"Machine: {_machine(after.grid)}. `cpwords grid --unique --count-limit 2 --lang L",
            "--top N -L S`: the dictionary's N commonest words (ranked by wordfreq's Zipf values;",
            "before: wordfreq's N most frequent tokens). A cell: unique puzzles",
            "(+ designs withheld for a blocked word) of all suffix classes.",
            "Each unique puzzle re-verified by the",
            "independent checker and a CP-SAT recount of its full boards (below, `re-verified`).",
            "Recorded on 2026-11-27: the 2-letter designs at 50,000 words ran in two more",
            "processes beside the first (`grid LANG:50000:2 ...`, merged into the file), so the",
            "times of those rows overlap (and the random boards ran beside the first designs).",
            "Russian's three designs ran later, one after the other, alone (`grid ru:20000:2",
            "ru:50000:3 ru:50000:2`; dates in the first paragraph).",
        ],
        grid_table(after, before, langs),
    )
    lines += [*_grid_table(after.grid), ""]
    lines += _section(
        "Letterpress: words per bag and per random board, before -> after",
        [
            "Bags: four of 25 letters per language, each query repeated 21 times (the harness).",
            "French, German, Spanish, Polish, Russian keep the record's bags, so a bag's words",
            "compare directly; the others have none recorded.",
            "Random board: `--random-board --seed 0",
            f"--longest-first --limit 3` (machine: {_machine(after.boards)}), tiles drawn by the",
            "list's letter frequencies, so the dictionary's board differs from wordfreq's.",
        ],
        letterpress_table(after, before, langs),
    )
    lines += [*_boards_table(after.boards), ""]
    lines += _section(
        "The harness's rows",
        [
            "Times are one run each (Letterpress: the median of 21 queries, the index built",
            "once), on the shared machine.",
        ],
        suite_times(after),
    )
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """``generate|grid|boards|compact|report [ARGS]``."""
    cmd, rest = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "generate":  # generate [LANG ...]: only these languages, merged into the file
        generate(DICTIONARIES, only=rest or None)
    elif cmd == "grid":  # grid [LANG:TOP:LETTERS ...]: only these runs, merged into the file
        only = [(a, int(b), int(c)) for a, b, c in (x.split(":") for x in rest)]
        grid(DICTIONARIES, only=only or None)
    elif cmd == "boards":  # boards [LANG ...]: only these languages, merged into the file
        boards(DICTIONARIES, only=rest or None)
    elif cmd == "compact":
        compact(DICTIONARIES.rows, COMPACT_CLASSES)
    elif cmd == "report":  # report [--before-commit COMMIT]
        commit = rest[1] if rest[:1] == ["--before-commit"] and len(rest) > 1 else BEFORE_COMMIT
        print(report(Record.of(DICTIONARIES), Record.at(commit), commit))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
