#!/usr/bin/env bash
# Issue 23 (reliability): the runs behind benchmarks/results/reliability/report.md, one at a time.
#   bash benchmarks/reliability.sh [PART...]     (parts: kill compare limits ctrlc bench)
# Each run is one JSON line of benchmarks/reliability.py (wall time, exit status, peak memory
# of the process tree, processes left), appended to benchmarks/results/reliability/reliability.jsonl.
# Needs ../shared/data (ENABLE); web2 comes from the english-words package.
set -uo pipefail
cd "$(dirname "$0")/.."
CPW=${CPW:-.venv/bin/cpwords}
PY=${PY:-.venv/bin/python}
OUT=${OUT:-benchmarks/results/reliability/reliability.jsonl}
TMP=${TMP:-/tmp/cpwords-reliability}
ENABLE=${ENABLE:-/work/shared/data/enable1.txt}
mkdir -p "$TMP"
run() { $PY benchmarks/reliability.py run --cap-gb 10 "$@" >> "$OUT"; tail -n 1 "$OUT" | cut -c1-200; }
data() {
    $PY - "$TMP" <<'PY'
import sys
from pathlib import Path
from cpwords.core.sources import lexicon_words, sample_words
from cpwords.wordsnake.spec import random_strings
tmp = Path(sys.argv[1])
if not (tmp / "web2.txt").exists():
    (tmp / "web2.txt").write_text("\n".join(lexicon_words("web2")) + "\n")
(tmp / "enable20k.txt").write_text("\n".join(sample_words("enable1", 20000, 1, Path("."))) + "\n")
(tmp / "abc3000.txt").write_text("\n".join(random_strings("abc", 3000, 0)) + "\n")
PY
}
parts=${*:-kill compare limits ctrlc bench}
data
for part in $parts; do case $part in
kill)  # the process tree after SIGTERM / SIGKILL of a default solve of ENABLE
    for sig in TERM KILL; do for at in 1 4 8; do
        run --label "snake enable1 SIG$sig at $at s" --signal $sig --at $at --timeout 120 -- \
            $CPW snake "$ENABLE"
    done; done ;;
compare)  # every heuristic's gap to the proven optimum, whole dictionaries
    for f in "$ENABLE" "$TMP/web2.txt"; do
        run --label "compare $(basename "$f") --time-limit 30" --timeout 600 \
            --stdout "$TMP/compare-$(basename "$f").json" -- \
            $CPW snake "$f" --compare --time-limit 30 --json
    done ;;
limits)  # every method's wall time against --time-limit 5 and 30
    methods=${METHODS:-$($PY -c "from cpwords.wordsnake.spec import METHOD_NAMES as m; print(' '.join(x for x in m if x not in ('exact', 'lkh')))")}
    for f in enable20k abc3000; do for limit in 5 30; do for m in $methods; do
        run --label "$f $m --time-limit $limit" --timeout 300 --stdout "$TMP/last.json" -- \
            $CPW snake "$TMP/$f.txt" --method "$m" --time-limit $limit --json
    done; done; done ;;
ctrlc)  # Ctrl-C (SIGINT) at 3 s in every mode: the best answer so far within 2 s
    run --label "ctrl-c solve enable1" --signal INT --at 3 --timeout 120 -- $CPW snake "$ENABLE"
    run --label "ctrl-c --compare enable1" --signal INT --at 3 --timeout 120 -- \
        $CPW snake "$ENABLE" --compare
    for m in layered local greedy cpsat-routes mip mip-scip cpsat naive ortools-routing; do
        run --label "ctrl-c --method $m enable20k" --signal INT --at 3 --timeout 120 -- \
            $CPW snake "$TMP/enable20k.txt" --method "$m"
    done
    run --label "ctrl-c --method cpsat-routes abc3000" --signal INT --at 3 --timeout 120 -- \
        $CPW snake "$TMP/abc3000.txt" --method cpsat-routes
    run --label "ctrl-c --export-model enable20k" --signal INT --at 3 --timeout 120 -- \
        $CPW snake "$TMP/enable20k.txt" --export-model "$TMP/model.lp" ;;
bench)  # Ctrl-C in cpwords bench with each executor
    for ex in "--executor serial" "-j 2 --executor process" "-j 2 --executor process --isolate" \
              "-j 2 --executor dask"; do
        rm -f "$TMP/bench.jsonl"
        run --label "ctrl-c bench $ex" --signal INT --at 3 --timeout 120 -- \
            $CPW bench benchmarks/reliability/ctrl-c.toml --out "$TMP/bench.jsonl" $ex -q
        # rows: method, status, wall time (a task stopped by Ctrl-C must have none)
        $PY -c "import json,sys; [print('  row', r['method'], r['status'], round(r.get('wall_time') or 0, 1)) for r in map(json.loads, open(sys.argv[1]))]" "$TMP/bench.jsonl" 2>/dev/null | tee -a "$TMP/bench-rows.txt"
    done ;;
esac; done
