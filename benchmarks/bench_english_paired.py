"""English before and after the languages work, timed in pairs (issue 20's "nothing slower").

    git archive OLD_COMMIT src | tar -x -C /tmp/old
    python benchmarks/bench_english_paired.py /tmp/old/src src \
        > benchmarks/results/languages/languages-english.json

Two worker processes, one per version of the code (``PYTHONPATH``), take the same tasks in turn:
old, new, old, new..., never both at once, so a pair of timings sees the same load on a shared
machine (timing the two versions one after the other, minutes apart, does not: the load of the
other jobs moves in between). Each task runs ``REPEATS`` times in its worker, which answers the
median time and a digest of the answer; the whole list of tasks is run ``ROUNDS`` times, and a
task's time is the median over the rounds. Tasks: the Letter Boxed DP on every 4th NYT puzzle
of 2024 with the day's word list, and with ENABLE; Letterpress queries of the seed's four bags on
the Letterpress list and ENABLE (index built before the clock); the Truncate DP on the Truncate
list, web2 and ENABLE (DAG included); the grid's matching enumeration on wordfreq's 1,000 to
10,000 English words. Needs ../shared/data.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPEATS = 5
ROUNDS = 5
SEED_BAGS = [
    "ovrkqlwislrecrtgmvpfprzey",
    "abcdefghifghijklmnopqrstuvxyz",
    "odidwocswkbafvydehsbiviez",
    "rtlyifebuzkxndovzyzodelap",
]

WORKER = r"""
import hashlib, json, statistics, sys, time
from functools import lru_cache

@lru_cache(maxsize=None)
def nyt():
    return [json.loads(l) for l in open(DATA + "/letterboxed/nyt-2024.jsonl")]

@lru_cache(maxsize=None)
def lexicon(name):
    from cpwords.core.sources import lexicon_words
    from cpwords.core.lexicon import lexicon_from_words
    return lexicon_from_words(lexicon_words(name), name)

@lru_cache(maxsize=None)
def lb_solver(key):
    from cpwords.letterboxed.models.dp import LetterBoxedSolver
    kind, i = key
    words = sorted(set(nyt()[i]["dictionary"])) if kind == "day" else lexicon("enable1")
    return LetterBoxedSolver(words)

@lru_cache(maxsize=None)
def lp_index(name):
    from cpwords.letterpress.models.index import build_letterpress_index
    return build_letterpress_index(lexicon(name))

def run(task):
    kind = task["kind"]
    if kind == "letterboxed":
        from cpwords.letterboxed.rules import parse_box
        s = lb_solver((task["lexicon"], task["i"] if task["lexicon"] == "day" else 0))
        box = parse_box(nyt()[task["i"]]["sides"])
        f = lambda: s.solve(box)
        answer = lambda r: (r.status.value, r.objective, r.solution)
        wall = lambda r: r.wall_time
    elif kind == "letterpress":
        index = lp_index(task["lexicon"])
        f = lambda: (time.perf_counter(), index.query(task["letters"]), time.perf_counter())
        answer = lambda r: r[1]
        wall = lambda r: r[2] - r[0]
    elif kind == "truncate":
        from cpwords.truncate.models.dp import truncate_dp
        lex = lexicon(task["lexicon"])
        f = lambda: truncate_dp(lex)
        answer = lambda r: (r.objective, r.solution.sequence, r.solution.count)
        wall = lambda r: r.wall_time
    else:
        from cpwords.grid.models.listing import enumerate_quadruples
        from cpwords.grid.rules import default_board, common_tokens
        tokens = common_tokens(task["top"])
        board = default_board()
        f = lambda: (time.perf_counter(), enumerate_quadruples(board, tokens), time.perf_counter())
        answer = lambda r: sorted(r[1].suffix_set())
        wall = lambda r: r[2] - r[0]
    f()  # warm: caches, lazy imports
    walls, out = [], None
    for _ in range(task["repeats"]):
        r = f()
        walls.append(wall(r))
        out = answer(r)
    digest = hashlib.sha256(json.dumps(out, default=str).encode()).hexdigest()[:16]
    return {"wall_time": statistics.median(walls), "answer": digest}

for line in sys.stdin:
    print(json.dumps(run(json.loads(line))), flush=True)
"""


def tasks(data: str) -> list[dict[str, Any]]:
    n = len(Path(f"{data}/letterboxed/nyt-2024.jsonl").read_text().splitlines())
    out: list[dict[str, Any]] = []
    out += [{"kind": "letterboxed", "lexicon": "day", "i": i} for i in range(0, n, 4)]
    out += [{"kind": "letterboxed", "lexicon": "enable1", "i": i} for i in range(0, n, 8)]
    for lex in ("letterpress", "enable1"):
        out += [{"kind": "letterpress", "lexicon": lex, "letters": b} for b in SEED_BAGS]
    out += [{"kind": "truncate", "lexicon": lex} for lex in ("truncate", "web2", "enable1")]
    out += [{"kind": "grid", "top": top} for top in (1000, 2000, 5000, 10000)]
    for t in out:
        t["repeats"] = 21 if t["kind"] in ("letterpress", "truncate") else REPEATS
    return out


def main(old_src: str, new_src: str) -> None:
    data = str(Path(__file__).resolve().parents[2] / "shared" / "data")
    data = os.environ.get("CPWORDS_DATA", data)
    code = f"DATA = {data!r}\n" + WORKER
    workers = {}
    for name, src in (("old", old_src), ("new", new_src)):
        env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
        workers[name] = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, env=env,
        )  # fmt: skip
    rows = [dict(task, rounds=[]) for task in tasks(data)]
    load0 = os.getloadavg()
    t0 = time.time()
    for rnd in range(ROUNDS):
        for k, row in enumerate(rows):
            task = {key: v for key, v in row.items() if key != "rounds"}
            pair: dict[str, Any] = {}
            order = ("old", "new") if (k + rnd) % 2 == 0 else ("new", "old")  # alternate
            for name in order:
                w = workers[name]
                assert w.stdin is not None and w.stdout is not None
                w.stdin.write(json.dumps(task) + "\n")
                w.stdin.flush()
                pair[name] = json.loads(w.stdout.readline())
            row["rounds"].append(pair)
        print(f"round {rnd + 1} of {ROUNDS} done", file=sys.stderr)
    for row in rows:  # per task: the median of its rounds' times; one answer digest per side
        for name in ("old", "new"):
            answers = {p[name]["answer"] for p in row["rounds"]}
            row[name] = {
                "wall_time": statistics.median(p[name]["wall_time"] for p in row["rounds"]),
                "answer": answers.pop() if len(answers) == 1 else "varies",
            }
    for w in workers.values():
        assert w.stdin is not None
        w.stdin.close()
        w.wait()
    summary = summarise(rows)
    info = {"loadavg_start": load0, "loadavg_end": os.getloadavg(), "seconds": time.time() - t0}
    print(json.dumps({"machine": info, "summary": summary, "rows": rows}, indent=1))


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(f"{r['kind']} ({r.get('lexicon', 'wordfreq')})", []).append(r)
    out = []
    for name, rs in groups.items():
        ratios = [r["new"]["wall_time"] / r["old"]["wall_time"] for r in rs]
        out.append(
            {
                "group": name,
                "tasks": len(rs),
                "same_answer": sum(r["new"]["answer"] == r["old"]["answer"] for r in rs),
                "median_old_ms": 1000 * statistics.median(r["old"]["wall_time"] for r in rs),
                "median_new_ms": 1000 * statistics.median(r["new"]["wall_time"] for r in rs),
                "median_ratio": statistics.median(ratios),
                "ratio_q1_q3": statistics.quantiles(ratios, n=4)[::2] if len(rs) > 1 else ratios,
            }
        )
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
