#!/usr/bin/env bash
# The reduced strength runs that fit on a shared 2-core machine (what docs/bots.md
# reports as provisional): fewer deals, and hard's engine at fixed iteration budgets
# (hard:N is reproducible from the seed; hard itself is cut by wall time).
# Two queues run side by side; each line writes $OUT/NAME.json (the summary).
#   benchmarks/strength-quick.sh            # about an hour on two busy cores
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-benchmarks/results-quick}
PARLOUR=${PARLOUR:-.venv/bin/parlour}
mkdir -p "$OUT"

run() {
  local name=$1 deals=$2; shift 2
  "$PARLOUR" tournament "$@" --games "$deals" --seed 1 --json > "$OUT/$name.json" 2>/dev/null
}

queue_a() {
  run fantan4-heuristic-vs-random 1000 fantan --players 4 --bots heuristic,random
  run fantan4-hard600-vs-heuristic 60 fantan --players 4 --bots hard:600,heuristic
  run fantan4-hard600-none-vs-heuristic 60 fantan --players 4 --bots hard:600:none,heuristic
  run fantan4-hard600-constraints-vs-heuristic 60 fantan --players 4 --bots hard:600:constraints,heuristic
  run fantan6-hard600-vs-heuristic 40 fantan --players 6 --bots hard:600,heuristic
}

queue_b() {
  run fanti2-heuristic-vs-random 1000 fanti --players 2 --bots heuristic,random
  run fanti2-hard-iters-vs-heuristic 100 fanti --players 2 --bots hard:2000,heuristic
  run fanti4-hard600-vs-heuristic 40 fanti --players 4 --bots hard:600,heuristic
  run fantan4-hard-vs-heuristic 25 fantan --players 4 --bots hard,heuristic
}

queue_a & queue_b & wait
