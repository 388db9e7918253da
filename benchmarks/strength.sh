#!/usr/bin/env bash
# Strength benchmarks for the bots (issue #3): duplicate deals, seat rotations.
#
#   benchmarks/strength.sh            # the full runs: 1,000 deals per line
#   DEALS=50 WORKERS=2 benchmarks/strength.sh   # what fits on a shared 2-core machine
#
# `hard` is cut at 1 s of wall time per move, so a loaded machine plays it weaker and
# not reproducibly; the `hard:N` lines run hard's engine at a fixed iteration budget
# instead (reproducible from the seed on any machine). Each line writes
# $OUT/NAME/{records.jsonl,summary.json,*.png} and $OUT/NAME.json (the summary).
# Expect hours per full line at 1 s a move on 2 cores; run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
DEALS=${DEALS:-1000}
WORKERS=${WORKERS:-2}
SEED=${SEED:-1}
OUT=${OUT:-benchmarks/results}
PARLOUR=${PARLOUR:-.venv/bin/parlour}
mkdir -p "$OUT"

run() {
  local name=$1; shift
  echo "== $name: $*" >&2
  "$PARLOUR" tournament "$@" --games "$DEALS" --workers "$WORKERS" --seed "$SEED" \
    --out "$OUT/$name" --json > "$OUT/$name.json"
}

# Targets: Fan Tan 4p heuristic vs 3 random >= 50%; hard vs 3 heuristic >= 30%, CI low > 25%.
run fantan4-heuristic-vs-random   fantan --players 4 --bots heuristic,random
run fantan4-hard-vs-heuristic     fantan --players 4 --bots hard,heuristic
# Pass inference on vs off (hard's engine at a fixed budget, so the two are comparable).
run fantan4-infer-full            fantan --players 4 --bots hard:2000,heuristic
run fantan4-infer-constraints     fantan --players 4 --bots hard:2000:constraints,heuristic
run fantan4-infer-none            fantan --players 4 --bots hard:2000:none,heuristic
# Fanti 2p: heuristic vs random >= 80% of games; hard vs heuristic >= 55%, CI low > 50%.
run fanti2-heuristic-vs-random    fanti --players 2 --bots heuristic,random
run fanti2-hard-vs-heuristic      fanti --players 2 --bots hard,heuristic
# Larger tables: hard beats heuristic with a CI lower bound above the fair share.
run fantan6-hard-vs-heuristic     fantan --players 6 --bots hard,heuristic
run fanti4-hard-vs-heuristic      fanti --players 4 --bots hard,heuristic
# ISMCTS against PIMC at the same iteration budget (why hard is PIMC: docs/bots.md).
run fantan4-ismcts-vs-heuristic   fantan --players 4 --bots ismcts:2000,heuristic
run fanti2-ismcts-vs-heuristic    fanti --players 2 --bots ismcts:600,heuristic

for f in "$OUT"/*.json; do
  python3 - "$f" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
b = s["bots"][0]
print(f"{sys.argv[1]}: {b['name']} {b['win_rate']:.1%} "
      f"[{b['ci95'][0]:.1%}, {b['ci95'][1]:.1%}] over {s['deals']} deals "
      f"(fair share {s['fair_share']:.1%})")
PY
done
