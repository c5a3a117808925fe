"""Every puzzle on the curated dictionaries (issue 30): the report, with wordfreq's as the before.

    python benchmarks/bench_languages.py --dictionaries report \\
        > benchmarks/results/languages-dictionaries/report.md

Reads the rows of ``suites/languages-dictionaries.toml`` and the scripts' JSON
(``bench_languages.py --dictionaries generate|grid|boards``) in
``results/languages-dictionaries/``, and the wordfreq-era record in ``results/languages/`` (the
same puzzles when ``--lang`` read wordfreq's token lists). Its check that every answer word is
in the language's dictionary reads the dictionary's file itself (one entry a line, NFC, lower
case; a capitalised entry counts as a proper noun where the source marks them so), sharing
no code with cpwords' reader; it checks the wordfreq answers against the same files.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench_languages import Target, _boards_table, _grid_table, _letterboxed_table

from cpwords.bench.results import read_rows
from cpwords.core.dictionaries import Dictionary, find_dictionary

#: The puzzles whose answers are checked, in the report's order.
PUZZLES = ("truncate", "letterboxed", "grid", "letterpress")


def _lang_of_lexicon(name: str) -> str | None:
    """``lang:fr`` -> ``fr``; anything else (``web2``) -> None."""
    return name.split(":")[1] if name.startswith("lang:") else None


def _load(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


class Record:
    """One recorded run: the harness's rows and the scripts' JSON of a :class:`Target`."""

    def __init__(self, target: Target) -> None:
        path = target.results / f"{target.prefix}.jsonl"
        rows = read_rows(path) if path.exists() else []
        self.rows = [r for r in rows if r.get("status") != "ERROR"]
        self.letterboxed = _load(target.generated)
        self.grid = _load(target.grid)
        self.boards = _load(target.boards)

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


def dictionary_status(path: Path | Iterable[str], encoding: str, proper_capitals: bool,
                      wanted: Iterable[str]) -> dict[str, str]:  # fmt: skip
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
        input="\n".join(words) + "\n", capture_output=True, text=True, check=False,
    )  # fmt: skip
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
    sizes = sorted({(top, length) for (_l, top, length) in new} | {(20000, 2), (50000, 2)},
                   key=lambda s: (s[1], s[0]))  # fmt: skip
    head = " | ".join(f"top {top:,}, {length}-letter suffixes" for top, length in sizes)
    out = [f"| language | {head} |", "|---|" + "---|" * len(sizes)]
    for lang in langs:
        cells = [
            f"{_unique(old.get((lang, top, length)))} -> {_unique(new.get((lang, top, length)))}"
            for top, length in sizes
        ]
        out.append(f"| {lang} | {' | '.join(cells)} |")
    return out


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


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
        for name, data in (("generate", after.letterboxed), ("grid", after.grid),
                           ("boards", after.boards))
        for r in (data or {}).get("runs", []) if "machine" in r
    ]  # fmt: skip
    return "; ".join(runs) or "none yet"


def _section(title: str, text: list[str], table: list[str]) -> list[str]:
    return [f"## {title}", "", *text, "", *table, ""]


def report(target: Target, record: Target, langs: Iterable[str] | None = None) -> str:
    """The markdown report of ``target`` (the dictionaries' run) against ``record`` (wordfreq's)."""
    from bench_languages import DICT_LANGS

    after, before = Record(target), Record(record)
    langs = tuple(langs or DICT_LANGS)
    lines = [
        "# Every puzzle on the curated dictionaries (issue 30)",
        "",
        f"Languages: {', '.join(langs)}, each on its Debian dictionary (what `--lang` reads; "
        "`cpwords lexicons`); Russian on hunspell-ru, its stems expanded by their affix rules "
        "(cpwords.core.hunspell), recorded after the other eight and merged into their files "
        f"({_later(after)}). The before is the record of `benchmarks/results/languages/` "
        "(issue 20, "
        "when `--lang` read wordfreq's token lists). One run each, `nice -n 10`, one task at a "
        "time, on a shared 2-core machine with other jobs beside it: times are noisy, answers "
        "are exact.",
        "",
        "Commands: `cpwords bench benchmarks/suites/languages-dictionaries.toml --out "
        "benchmarks/results/languages-dictionaries/languages-dictionaries.jsonl --jobs 1`; "
        "`python benchmarks/bench_languages.py --dictionaries generate` (then `boards`, `grid`); "
        "`python benchmarks/bench_languages.py --dictionaries report > "
        "benchmarks/results/languages-dictionaries/report.md`.",
        "",
    ]
    lines += _section("Every answer word is in the dictionary", [
        "Every word the answers show (Truncate's chain; every Letter Boxed box's solutions;",
        "the 24 words of every unique grid puzzle; the ten longest words of every Letterpress",
        "bag and the three of the random board), looked up by this report in the dictionary's",
        "file itself (one entry a line, NFC, lower case), not by cpwords' reader. A capitalised",
        "entry is a proper noun except in German (nouns are capitalised there). The last two",
        "columns look the wordfreq answers of the record up in the same file. Russian's",
        "dictionary is Hunspell's (stems and affix rules), so its reference is every form the",
        "rules allow, as cpwords.core.hunspell expands them (the list cached in the user's",
        "cache folder: the same code as `--lang ru`'s reader, not an independent file); the",
        "program `hunspell -G` (sharing no code with cpwords) is asked about the same words:",
    ], check_table(after, before, langs))  # fmt: skip
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
    lines += _section("Truncate: the longest chain, before and after", [
        "Each chain proven longest by the DP (exhaustive) and re-checked by the harness's",
        "independent checker; `chains` is the exact number of longest chains.",
    ], truncate_table(after, before, langs))  # fmt: skip
    lines += _section("Letter Boxed: `--generate 10 --unique`, before and after", [
        f"Machine: {_machine(after.letterboxed)}. Each box has exactly one 2-word solution,",
        "proven by the DP and recounted by the independent brute force over word pairs",
        "(`verified`); letters drawn by the list's own letter frequencies (seed 0).",
    ], letterboxed_table(after, before, langs))  # fmt: skip
    lines += [*_letterboxed_table(target.generated), ""]
    lines += _section("Grid: unique puzzles, before -> after", [
        f"Machine: {_machine(after.grid)}. `cpwords grid --unique --count-limit 2 --lang L",
        "--top N -L S`: the dictionary's N commonest words (ranked by wordfreq's Zipf values;",
        "before: wordfreq's N most frequent tokens). A cell: unique puzzles (+ designs withheld",
        "for a blocked word) of all suffix classes. Each unique puzzle re-verified by the",
        "independent checker and a CP-SAT recount of its full boards (below, `re-verified`).",
        "Recorded on 2026-11-27: the 2-letter designs at 50,000 words ran in two more",
        "processes beside the first (`grid LANG:50000:2 ...`, merged into the file), so the",
        "times of those rows overlap (and the random boards ran beside the first designs).",
        "Russian's three designs ran later, one after the other, alone (`grid ru:20000:2",
        "ru:50000:3 ru:50000:2`; dates in the first paragraph).",
    ], grid_table(after, before, langs))  # fmt: skip
    lines += [*_grid_table(target.grid), ""]
    lines += _section("Letterpress: words per bag and per random board, before -> after", [
        "Bags: four of 25 letters per language, each query repeated 21 times (the harness).",
        "French, German, Spanish, Polish, Russian keep the record's bags, so a bag's words",
        "compare directly; the others have none recorded. Random board: `--random-board --seed 0",
        f"--longest-first --limit 3` (machine: {_machine(after.boards)}), tiles drawn by the",
        "list's letter frequencies, so the dictionary's board differs from wordfreq's.",
    ], letterpress_table(after, before, langs))  # fmt: skip
    lines += [*_boards_table(target.boards), ""]
    lines += _section("The harness's rows", [
        "Times are one run each (Letterpress: the median of 21 queries, the index built",
        "once), on the shared machine.",
    ], suite_times(after))  # fmt: skip
    return "\n".join(lines)
