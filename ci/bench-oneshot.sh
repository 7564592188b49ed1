#!/usr/bin/env bash
# One process per state, as a user runs `cubesolve solve`: the same random
# states (`cubesolve scramble --seed`) solved at a time budget, two ways in
# turn, each state first one way then the other, so that a noisy machine's
# drift falls on both. By default the two ways are this build with its
# tables' recorded checks trusted and with `--hash-tables` (every table
# hashed at every open, as before the records): whether the page faults a
# solve now takes inside its budget cost moves. Not a test: run it on an
# idle machine.
#   ci/bench-oneshot.sh [--puzzle P] [--count N] [--first SEED] [--time-budget MS] [--tables DIR]
#   (defaults: 4x4x4, 200 states, seeds from 5001, the solver's default budget)
set -euo pipefail
cd "$(dirname "$0")/.."
puzzle=4x4x4
count=200
first=5001
budget=()
tables=()
while [ $# -gt 0 ]; do
  case $1 in
    --puzzle) puzzle=$2; shift ;;
    --count) count=$2; shift ;;
    --first) first=$2; shift ;;
    --time-budget) budget=(--time-budget "$2"); shift ;;
    --tables) tables=(--tables "$2"); shift ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-oneshot.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
for n in "$count" "$first"; do
  [[ $n =~ ^[0-9]+$ ]] || { echo "bench-oneshot.sh: --count and --first take a number, not '$n'" >&2; exit 2; }
done
cargo build --release -q --bin cubesolve --bin tablegen
bin=target/release/cubesolve
# The first solve builds any missing table; then every table's check is
# recorded (a committed table has no record until it is verified).
"$bin" "${tables[@]}" solve --puzzle "$puzzle" --scramble "R U" > /dev/null
target/release/tablegen "${tables[@]}" verify --all > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
for seed in $(seq "$first" $((first + count - 1))); do
  state=$("$bin" "${tables[@]}" scramble --puzzle "$puzzle" --seed "$seed" | tail -1)
  "$bin" "${tables[@]}" solve --puzzle "$puzzle" --state "$state" --json "${budget[@]}" >> "$work/recorded"
  "$bin" "${tables[@]}" --hash-tables solve --puzzle "$puzzle" --state "$state" --json "${budget[@]}" >> "$work/hashed"
done
for way in recorded hashed; do
  python3 - "$work/$way" "$way" <<'EOF'
import json, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
moves = [r["moves"] for r in runs]
ms = sorted(r["ms"] for r in runs)
print(f"{sys.argv[2]:<9} {len(runs)} states: {sum(moves) / len(moves):.2f} moves, "
      f"process median {ms[len(ms) // 2]:.1f} ms, p90 {ms[int(len(ms) * 0.9)]:.1f} ms "
      "(the JSON ms: from the process's start, tables loaded in it)")
EOF
done
