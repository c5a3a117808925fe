"""Every puzzle in every language (issues 20 and 30): generate Letter Boxed puzzles, design grid
puzzles, draw Letterpress boards, write the report.

    python benchmarks/bench_languages.py [--dictionaries] generate [LANG ...]  # Letter Boxed
    python benchmarks/bench_languages.py [--dictionaries] grid [LANG:TOP:LETTERS ...]  # grid
    python benchmarks/bench_languages.py [--dictionaries] boards [LANG ...]  # Letterpress boards
    cpwords bench benchmarks/suites/languages.toml \\
        --out benchmarks/results/languages/languages.jsonl
    python benchmarks/bench_languages.py compact           # the grid rows' example boards out
    python benchmarks/bench_languages.py report \\
        [--english OLD.jsonl NEW.jsonl] > benchmarks/results/languages/report.md
    python benchmarks/bench_languages.py --dictionaries report \\
        > benchmarks/results/languages-dictionaries/report.md

Without ``--dictionaries`` the commands write the wordfreq-era record of issue 20
(``benchmarks/results/languages/``, files ``languages-*.json``; ``--lang`` read wordfreq's token
lists then); with it, the run of issue 30 on the curated dictionaries in eight languages
(:data:`DICT_LANGS`) into ``benchmarks/results/languages-dictionaries/`` (files
``languages-dictionaries-*.json``, beside the rows of ``suites/languages-dictionaries.toml``),
and ``report`` writes its report with the record as the "before"
(``report_languages_dictionaries.py``).

``grid`` designs unique grid puzzles per language (``cpwords grid --unique``), each one
re-verified by the independent checker and a CP-SAT recount, into ``*-grid.json``; ``boards``
draws one random Letterpress board per language (``cpwords letterpress --random-board``) into
``*-letterpress-boards.json``. Given languages (``generate ru``, ``boards ru``, ``grid
ru:20000:2``), a command runs only those and merges them into its file, the other runs kept
(:func:`merge_runs`). ``generate`` runs ``cpwords letterboxed --generate 10 --unique
--lang L --json`` per language (each box proven by the DP and recounted by the independent
brute force before it is printed; ``verified``) into ``*-letterboxed.json``. ``report``
tabulates them with the suite's rows (Truncate chains, grid classes, Letterpress query times
against English) and, given the rows of ``benchmarks/suites/languages-english.toml`` run by
the code before and after the languages work, the English answers and times side by side.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _machine import machine

from cpwords.bench.results import read_rows

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Target:
    """One recorded run of the scripts: where its files go and which languages it covers."""

    results: Path
    prefix: str
    lb_langs: tuple[str, ...]
    grid_runs: tuple[tuple[str, int, int], ...]
    board_runs: tuple[tuple[str, bool], ...]

    @property
    def generated(self) -> Path:
        return self.results / f"{self.prefix}-letterboxed.json"

    @property
    def grid(self) -> Path:
        return self.results / f"{self.prefix}-grid.json"

    @property
    def boards(self) -> Path:
        return self.results / f"{self.prefix}-letterpress-boards.json"


# Grid designs: nine languages at 20,000 and 50,000 words (2-letter suffixes), and 3-letter
# suffixes at 50,000 words for the three languages whose 20,000-word lists had none.
GRID_LANGS = ("de", "fr", "es", "it", "pt", "nl", "pl", "sv", "ru")
#: The wordfreq-era record (issue 20): ``--lang`` read wordfreq's token lists then.
WORDFREQ = Target(
    HERE / "results" / "languages",
    "languages",
    ("fr", "de", "es", "pl"),
    (
        *((lang, top, 2) for top in (20000, 50000) for lang in GRID_LANGS),
        *((lang, 50000, 3) for lang in ("de", "fr", "es")),
    ),
    (("en", False), ("fr", False), ("fr", True), ("de", False), ("es", False), ("pl", False),
     ("ru", False)),
)  # fmt: skip
#: The languages with a curated dictionary that issue 30 measures (Russian: hunspell-ru, its
#: affix rules expanded by :mod:`cpwords.core.hunspell`; recorded after the other eight, its
#: runs merged into the files: ``generate ru``, ``boards ru``, ``grid ru:20000:2 ...``).
DICT_LANGS = ("fr", "de", "es", "it", "pl", "pt", "sv", "nl", "ru")
#: Every puzzle on the dictionaries (issue 30): ``--dictionaries`` on the command line.
DICTIONARIES = Target(
    HERE / "results" / "languages-dictionaries",
    "languages-dictionaries",
    DICT_LANGS,
    tuple((lang, top, length) for length, top in ((2, 20000), (3, 50000), (2, 50000))
          for lang in DICT_LANGS),
    (*((lang, False) for lang in DICT_LANGS), ("fr", True)),
)  # fmt: skip
RESULTS = WORDFREQ.results


def generate(
    target: Target = WORDFREQ,
    k: int = 10,
    time_limit: float = 1800.0,
    only: list[str] | None = None,
) -> None:
    """Run the generator for each language and store its JSON answers. ``only``: these
    languages, their runs merged into the file's (:func:`merge_runs`)."""
    runs: list[dict[str, Any]] = []
    for lang in only or target.lb_langs:
        cmd = [
            sys.executable, "-m", "cpwords", "letterboxed", "--generate", str(k), "--unique",
            "--lang", lang, "--seed", "0", "--time-limit", str(time_limit), "--json",
        ]  # fmt: skip
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - t0
        out = json.loads(proc.stdout)
        out["command"] = " ".join(["cpwords", *cmd[3:]])
        out["command_wall_time"] = wall
        out["exit_status"] = proc.returncode
        runs.append(out)
        print(f"{lang}: {out.get('found')} boxes in {wall:.1f} s", file=sys.stderr)
    merge_runs(target.generated, machine(), runs, lambda r: r["lang"], merge=only is not None)


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
    host: dict[str, Any],
    runs: list[dict[str, Any]],
    key: Callable[[dict[str, Any]], Hashable],
    merge: bool,
) -> None:
    """Write ``{"machine": host, "runs": runs}`` to ``path``; with ``merge``, into the runs
    already in the file instead, under a lock (several processes may share the work): a run
    with the same ``key`` is replaced in its place, the others are kept, new ones appended;
    the file's machine stays and each merged run records its own (``run["machine"]``)."""
    import fcntl

    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not merge or not path.exists():
            path.write_text(json.dumps({"machine": host, "runs": runs}, indent=1) + "\n")
            return
        data = json.loads(path.read_text(encoding="utf-8"))
        new = {key(r): {**r, "machine": host} for r in runs}
        kept = [new.pop(key(r), r) for r in data["runs"]] + list(new.values())
        data["runs"] = kept
        path.write_text(json.dumps(data, indent=1) + "\n")


def _grid_key(run: dict[str, Any]) -> tuple[str, int, int]:
    return (run["lang"], run["top"], run["suffix_length"])


def grid(
    target: Target = WORDFREQ,
    time_limit: float = 900.0,
    only: list[tuple[str, int, int]] | None = None,
) -> None:
    """Design unique grid puzzles per language and re-verify each one; store the answers (after
    every run, so that an interrupted run keeps the runs it finished). ``only``: these runs
    (language, top, suffix letters), merged into the file's."""
    runs: list[dict[str, Any]] = []
    host = machine()
    for lang, top, length in only or target.grid_runs:
        cmd = [
            sys.executable, "-m", "cpwords", "grid", "--unique", "--count-limit", "2",
            "--lang", lang, "--top", str(top), "-L", str(length), "--limit", "100",
            "--time-limit", str(time_limit), "--json",
        ]  # fmt: skip
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
        merge_runs(target.grid, host, runs, _grid_key, merge=only is not None)


def _grid_table(path: Path = WORDFREQ.grid) -> list[str]:
    if not path.exists():
        return [f"(not run: `python benchmarks/bench_languages.py grid`, {path.name})"]
    data = json.loads(path.read_text())
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


def boards(target: Target = WORDFREQ, seed: int = 0, only: list[str] | None = None) -> None:
    """One random Letterpress board per language (``--random-board``) and the words it spells.
    ``only``: these languages' runs (accents kept), merged into the file's (:func:`merge_runs`)."""
    runs: list[dict[str, Any]] = []
    for lang, fold in [(x, False) for x in only] if only else target.board_runs:
        cmd = [
            sys.executable, "-m", "cpwords", "letterpress", "--random-board", "--seed", str(seed),
            "--lang", lang, *(["--fold-accents"] if fold else []), "--longest-first",
            "--limit", "3", "--time-limit", "900", "--json",
        ]  # fmt: skip
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
    merge_runs(target.boards, machine(), runs, key, merge=only is not None)


def _boards_table(path: Path = WORDFREQ.boards) -> list[str]:
    if not path.exists():
        return [f"(not run: `python benchmarks/bench_languages.py boards`, {path.name})"]
    data = json.loads(path.read_text())
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


def _letterboxed_table(path: Path = WORDFREQ.generated) -> list[str]:
    if not path.exists():
        return [f"(not run: `python benchmarks/bench_languages.py generate`, {path.name})"]
    data = json.loads(path.read_text())
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


def _suite_tables(rows: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    trunc = [r for r in rows if r["puzzle"] == "truncate"]
    if trunc:
        out += [
            "## Truncate: the longest chains",
            "",
            "| list | words | longest chain (plays) | longest chains | one of them | DP time |",
            "|---|---|---|---|---|---|",
        ]
        for r in trunc:
            si = r.get("solver_info") or {}
            seq = r.get("solution") or []
            out.append(
                f"| {r['instance_spec']['lexicon']} | {si.get('words', r['size']):,} "
                f"| {r['objective']:.0f} | {si.get('count', '?'):,} "
                f"| {' -> '.join(seq)} | {r['wall_time']:.2f} s |"
            )
        out += [
            "",
            "wordfreq's lists are frequency lists of running text: the Spanish chain is laughter",
            "(`jajaja...`), the others are real words. Every chain is proven longest by the DP",
            "and re-checked by the independent checker; the counts are exact.",
            "",
        ]
    grid = [r for r in rows if r["puzzle"] == "grid"]
    if grid:
        out += [
            "## Grid: unique puzzles (`--unique`, counts stopped at 2)",
            "",
            "Every suffix class with a full board on the seed's board, one per class of its 8",
            "symmetries, each counted up to 2 completions (enough to tell a unique puzzle).",
            "",
            "### Nine languages, 20,000 and 50,000 words",
            "",
            "`python benchmarks/bench_languages.py grid`: `cpwords grid --unique --count-limit 2",
            "--lang L --top N -L S --json` per row (one run each, one at a time). Each unique",
            "puzzle is re-verified by two paths that share no code with the design: the",
            "independent checker (`grid_problems`) on its answer board, and a recount of its",
            "full boards by CP-SAT (every solution of the board model with the suffixes fixed,",
            "no preprocessing), which must be exactly one (`re-verified`). The design itself",
            "re-solves each one by its forward-checking search. Designs whose answer shows a",
            "blocked word are withheld (counted in brackets).",
            "",
            *_grid_table(),
            "",
            "At 20,000 words only Dutch has a unique puzzle; at 50,000 every language has",
            "some. wordfreq's lists are frequency lists of running text, so a board may show",
            "names and loanwords (the example is the one whose rarest word is the commonest).",
            "The time is the enumeration of the classes (a search over the suffix slots with a",
            "matching at every node), then one count per class; the count step now computes",
            "the board's adjacency once instead of once per class (half its time at 50,000",
            "words, the same classes and counts).",
            "",
            "### The suite's runs (`benchmarks/suites/languages.toml`, the harness)",
            "",
            "| language | top N | suffix letters | status | classes | unique puzzles | time "
            "| unique suffixes |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in grid:
            si = r.get("solver_info") or {}
            spec = r["instance_spec"]
            uniq = si.get("unique_puzzles") or []
            shown = ", ".join(
                u.replace(" ", "-") if isinstance(u, str) else "-".join(u["suffixes"])
                for u in uniq[:3]
            )
            out.append(
                f"| {spec.get('lang', 'en')} | {spec['top']:,} | {spec.get('suffix_length', 2)} "
                f"| {r['status']} "
                f"| {si.get('classes', '?')} | {si.get('unique', '?')} | {r['wall_time']:.1f} s "
                f"| {shown} |"
            )
        out.append("")
    if grid:
        out += [
            "Up to 20,000 words no German, Spanish or French class is a unique puzzle, with",
            "2-letter or 3-letter suffixes; at 50,000 words there are some with either length",
            "(above, and the last three rows here; the harness counts the withheld designs",
            "too). The 50,000-word rows with 3-letter suffixes did not finish in 300 s in the",
            "harness before: its checker of the listed classes normalised the whole lexicon",
            "again for every class's example board (measured: 18 ms a board, about 7 minutes",
            "for German's 24,116 classes); it now normalises it once (`CheckerLexicon`).",
            "",
        ]
    lp = [r for r in rows if r["puzzle"] == "letterpress"]
    if lp:
        by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in lp:
            by_lang[r["instance"].split("-")[1]].append(r)
        en = _median([r["wall_time"] for r in by_lang.get("en", [])])
        out += [
            "## Letterpress: word finding per language",
            "",
            "Four bags of 25 letters per language, drawn (seed 20) by the letter frequencies of",
            "the language's list (what `--lang` reads); each query repeated 21 times (the",
            "median); the ratios are medians over the four bags against English (web2, bags",
            "drawn the same way). A query's time follows the number of words it lists (the",
            "other lists are larger and their bags spell more words): per word found, the",
            "other languages take 0.9 to 1.4 times English's time.",
            "",
            "| language | list | words | letters (columns) | median query | ratio to English "
            "| words found (median) | per 1,000 words found | its ratio to English |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        en_per = _median([r["wall_time"] / max(r["objective"] or 1, 1) for r in by_lang["en"]])
        for lang, rs in by_lang.items():
            q = _median([r["wall_time"] for r in rs])
            found = _median([float(r["objective"] or 0) for r in rs])
            per = _median([r["wall_time"] / max(r["objective"] or 1, 1) for r in rs])
            out.append(
                f"| {lang} | {rs[0]['instance_spec']['lexicon']} | {rs[0]['size']:,} "
                f"| {rs[0].get('solver_info', {}).get('alphabet_size', '?')} | {1000 * q:.2f} ms "
                f"| {q / en:.2f} | {found:,.0f} | {1e6 * per:.3f} ms | {per / en_per:.2f} |"
            )
        out += [
            "",
            "### Random boards (`--random-board`)",
            "",
            "`python benchmarks/bench_languages.py boards`: `cpwords letterpress --random-board",
            "--seed 0 --lang L [--fold-accents] --longest-first --limit 3 --json`; each of the 25",
            "tiles drawn by the letter's share of all the letters of the language's list (web2's",
            "for English, not an English table); the words it spells counted by the index and",
            "recounted by a plain scan (`verified`). Accented letters are 3.0 % of the French",
            "list's letters, so a 25-tile board holds one about half the time (not this seed's;",
            "the tests draw larger boards); with `--fold-accents` it never does. The same seed",
            "draws the same uniform numbers, hence the boards' likeness across languages.",
            "",
            *_boards_table(),
            "",
        ]
    return out


def _english_answers(old_path: str, new_path: str) -> tuple[int, int]:
    """(tasks, tasks with the same status, objective and solution) of two suite runs."""

    def key(r: dict[str, Any]) -> tuple[str, str, str]:
        return (r["puzzle"], r["instance"], r["method"])

    old = {key(r): r for r in read_rows(Path(old_path)) if r.get("status") != "ERROR"}
    new = {key(r): r for r in read_rows(Path(new_path)) if r.get("status") != "ERROR"}
    both = sorted(old.keys() & new.keys())
    same = sum(
        (old[k]["status"], old[k]["objective"], old[k].get("solution"))
        == (new[k]["status"], new[k]["objective"], new[k].get("solution"))
        for k in both
    )
    return len(both), same


def _english_table(argv: list[str]) -> list[str]:
    out = ["## English: before and after", ""]
    if argv[:1] == ["--english"] and len(argv) >= 3:
        n, same = _english_answers(argv[1], argv[2])
        out += [
            "Answers: `benchmarks/suites/languages-english.toml` (the English instances of the",
            f"existing suites) run by the code before and after the languages work: {same} of {n}",
            "tasks give the same status, objective and solution.",
            "",
        ]
    paired = RESULTS / "languages-english.json"
    if not paired.exists():
        return out
    data = json.loads(paired.read_text())
    m = data["machine"]
    out += [
        "Times: `python benchmarks/bench_english_paired.py OLD/src NEW/src`: two worker processes",
        "(the code before and after) take each task in turn, never both at once, so a pair sees",
        "the same load (run one after the other, minutes apart, the same suite gave ratios from",
        "0.37 to 4.1 as the other jobs' load moved). A task's time is the median of 5 rounds, each",
        f"the median of its repeats; {m['seconds']:.0f} s in all, load "
        f"{m['loadavg_start'][0]:.1f} at the start, {m['loadavg_end'][0]:.1f} at the end.",
        "",
        "| tasks | count | same answer | median old | median new | median ratio new/old "
        "| ratio quartiles |",
        "|---|---|---|---|---|---|---|",
    ]
    for g in data["summary"]:
        q = g["ratio_q1_q3"]
        quart = f"{q[0]:.2f} - {q[-1]:.2f}" if len(q) > 1 else "(one task)"
        out.append(
            f"| {g['group']} | {g['tasks']} | {g['same_answer']}/{g['tasks']} "
            f"| {g['median_old_ms']:.2f} ms | {g['median_new_ms']:.2f} ms "
            f"| {g['median_ratio']:.3f} | {quart} |"
        )
    return out


def report(argv: list[str]) -> None:
    lines = [
        "# Every puzzle in every language",
        "",
        "Issue 20's targets. Commands: `python benchmarks/bench_languages.py generate`, "
        "`cpwords bench benchmarks/suites/languages.toml --out "
        "benchmarks/results/languages/languages.jsonl"
        " --jobs 1`, `python benchmarks/bench_languages.py report --english OLD NEW > "
        "benchmarks/results/languages/report.md`. One run each on a shared 2-core machine "
        "(other jobs "
        "ran beside it): times are noisy, answers are exact.",
        "",
        "## Letter Boxed: `--generate 10 --unique` per language",
        "",
        "Each box has exactly one 2-word solution, proven by the DP and recounted by the",
        "independent brute force over word pairs (`verified`); letters drawn by the list's own",
        "letter frequencies.",
        "",
        *_letterboxed_table(),
        "",
    ]
    suite = RESULTS / "languages.jsonl"
    if suite.exists():
        lines += _suite_tables([r for r in read_rows(suite) if r.get("status") != "ERROR"])
    lines += _english_table(argv)
    print("\n".join(lines))


#: A compacted grid row keeps its classes' suffix quadruples up to this many classes.
COMPACT_CLASSES = 20000

#: The dictionaries' record keeps fewer: its grid rows' quadruples held 1.8 MB of its 1.9 MB
#: (the report reads only their ``solver_info``), over the repository's 1 MB for one file.
COMPACT_CLASSES_DICTIONARIES = 1000


def compact(path: Path = WORDFREQ.results / "languages.jsonl", most: int = COMPACT_CLASSES) -> None:
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
                    "the example boards were left out (bench_languages compact)"
                )
        else:
            r["solution"] = None
            r["solution_compacted"] = (
                f"the {len(quads):,} classes were left out (bench_languages compact; more than "
                f"{most:,}); solver_info keeps their number and the unique puzzles"
            )
    tmp = path.with_suffix(".part")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    tmp.replace(path)


def main(argv: list[str]) -> None:
    """``[--dictionaries] generate|grid|boards|compact|report [ARGS]``."""
    target = WORDFREQ
    if argv[:1] == ["--dictionaries"]:
        target, argv = DICTIONARIES, argv[1:]
    cmd, rest = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "generate":  # generate [LANG ...]: only these languages, merged into the file
        generate(target, only=rest or None)
    elif cmd == "grid":  # grid [LANG:TOP:LETTERS ...]: only these runs, merged into the file
        only = [(a, int(b), int(c)) for a, b, c in (x.split(":") for x in rest)]
        grid(target, only=only or None)
    elif cmd == "boards":  # boards [LANG ...]: only these languages, merged into the file
        boards(target, only=rest or None)
    elif cmd == "compact":
        most = COMPACT_CLASSES_DICTIONARIES if target is DICTIONARIES else COMPACT_CLASSES
        compact(target.results / f"{target.prefix}.jsonl", most)
    elif cmd == "report" and target is DICTIONARIES:
        from report_languages_dictionaries import report as dictionaries_report

        print(dictionaries_report(DICTIONARIES, WORDFREQ))
    elif cmd == "report":
        report(rest)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
