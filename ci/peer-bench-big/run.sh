#!/usr/bin/env bash
# Side by side: cubesolve's 4x4x4 or 5x5x5 reduction against a public Java
# solver (TPR-4x4x4-Solver, cube555) on the same random states; every
# solution of both sides replayed on an independent facelet model; one
# Markdown table. See README.md here.
#   ci/peer-bench-big/run.sh 4x4x4|5x5x5 --peer PEER_CHECKOUT [--count N]
#       [--seed S] [--bin CUBESOLVE] [--out DIR] [--threads N]
#       [--time-budget MS] [--target-length N [--target-time MS]] [--batch]
#       [--ours-only]
# --target-length, --target-time: passed to cubesolve solve (4x4x4).
# --batch: ours in one process for every state (cubesolve solve --states),
# as the peer runs in one JVM; each state timed on its own.
# --ours-only: run cubesolve again and keep the peer's results of an earlier
# run in OUT (refused unless the states are the same).
set -euo pipefail

usage() {
  sed -n '6,14s/^# \{0,1\}//p' "$0" >&2
  exit 2
}
die() {
  echo "run.sh: $*" >&2
  exit 1
}
abspath() {
  case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac
}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

[ $# -ge 1 ] || usage
puzzle=$1
shift
case $puzzle in
  4x4x4)
    peer_name=TPR-4x4x4-Solver driver=DriveTPR jars=(twophase.jar) package=cs.threephase n=4 ;;
  5x5x5)
    peer_name=cube555 driver=Drive555 jars=(lib/twophase.jar) package=cs.cube555 n=5 ;;
  -h | --help) usage ;;
  *) die "the puzzle is 4x4x4 or 5x5x5, not '$puzzle'" ;;
esac

peer="" count=200 seed=1 bin=$root/target/release/cubesolve out=$root/target/peer-bench-big
ours_only=0 ours_args=() bin_given=0 batch=0
while [ $# -gt 0 ]; do
  if [ "$1" = --ours-only ]; then
    ours_only=1
    shift
    continue
  fi
  if [ "$1" = --batch ]; then
    batch=1
    shift
    continue
  fi
  [ $# -ge 2 ] || die "$1 needs a value"
  case $1 in
    --peer) peer=$(abspath "$2") ;;
    --count) count=$2 ;;
    --seed) seed=$2 ;;
    --bin) bin=$(abspath "$2") bin_given=1 ;;
    --out) out=$(abspath "$2") ;;
    --threads) ours_args+=(--threads "$2") ;;
    --time-budget) ours_args+=(--time-budget "$2") ;;
    --target-length) ours_args+=(--target-length "$2") ;;
    --target-time) ours_args+=(--target-time "$2") ;;
    *) die "unknown option $1" ;;
  esac
  shift 2
done
[ -n "$peer" ] || die "--peer PATH is required: a checkout of $peer_name"
[[ $count =~ ^[1-9][0-9]*$ ]] || die "--count must be a positive integer, not '$count'"
[[ $seed =~ ^[0-9]+$ ]] || die "--seed must be a non-negative integer, not '$seed'"
grep -qs "^package $package;" "$peer/src/Search.java" \
  || die "$peer does not look like a checkout of $peer_name (no src/Search.java of package $package)"
classpath=""
for jar in "${jars[@]}"; do
  [ -f "$peer/$jar" ] || die "$peer has no $jar (the peer ships it in its repository)"
  classpath+=":$peer/$jar"
done
# Without --bin, this checkout's cubesolve, built now (a binary left from
# an earlier build would measure that build).
if [ "$bin_given" = 0 ]; then
  (cd "$root" && cargo build --release -q --bin cubesolve) || die "cargo build --release --bin cubesolve failed"
fi
[ -x "$bin" ] || die "no cubesolve at $bin (pass --bin an executable)"
for tool in java javac python3; do
  command -v "$tool" >/dev/null || die "$tool not found"
done

work=$out/$puzzle
mkdir -p "$work/peer-tables"
if [ "$ours_only" = 1 ]; then
  [ -s "$work/peer.tsv" ] && [ -s "$work/states.tsv" ] \
    || die "--ours-only needs an earlier run's peer results and states in $work"
  mv "$work/states.tsv" "$work/states.before"
  rm -f "$work"/ours*.jsonl "$work"/ours*.measure "$work"/ours.batch "$work"/ours-tables.txt "$work"/table.md
else
  rm -f "$work"/*.tsv "$work"/*.jsonl "$work"/*.measure "$work"/ours.batch "$work"/ours-tables.txt "$work"/table.md
fi
log=$work/log.txt
: >"$log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
note() { echo "run.sh: $*" >&2; }
measure() { python3 "$here/measure.py" "$@"; }

fixture=$root/tablegen/tests/fixtures/cubingjs-notation.json
if [ -f "$fixture" ]; then
  python3 "$here/replay.py" --fixture "$fixture" || die "the replay model disagrees with cubing.js ($fixture)"
fi

if [ "$ours_only" = 0 ]; then
note "building $peer_name and $driver.java with javac"
if ! javac -nowarn -encoding UTF-8 -d "$tmp/classes" -cp "${classpath#:}" \
  "$peer"/src/*.java "$here/$driver.java" >"$tmp/javac.log" 2>&1; then
  cat "$tmp/javac.log" >&2
  die "javac failed on $peer/src and $driver.java"
fi
classpath=$tmp/classes$classpath
fi
# The driver runs in the peer's table directory: the peer keeps its tables in its working directory.
peer_driver() {
  (cd "$work/peer-tables" && measure "$1" -- nice -n 10 java -cp "$classpath" "$driver")
}

note "$count random states: cubesolve scramble --puzzle $puzzle --seed $seed..$((seed + count - 1))"
for ((k = seed; k < seed + count; k++)); do
  nice -n 10 "$bin" scramble --puzzle "$puzzle" --seed "$k" >"$tmp/scramble" 2>>"$log" \
    || die "cubesolve scramble --seed $k failed (see $log)"
  printf '%s\t%s\n' "$k" "$(head -n 2 "$tmp/scramble" | paste -s -d '\t')" >>"$work/states.tsv"
done
cut -f 3 "$work/states.tsv" >"$tmp/states"
if [ "$ours_only" = 1 ]; then
  # The states (seed and facelets), not the scrambles: a scramble is made by
  # solving, so it changes with the solver.
  cmp -s <(cut -f 1,3 "$work/states.tsv") <(cut -f 1,3 "$work/states.before") \
    || die "--ours-only: the states differ from the earlier run's (other --seed or --count)"
  rm -f "$work/states.before"
fi

# Ours: one process per state, after three that only load (a solved cube).
solved=$(python3 -c "print(''.join(f * $n * $n for f in 'URFDLB'))")
note "cubesolve: start-up (3 solved-cube solves) and $count solves"
for _ in 1 2 3; do
  measure "$work/ours-startup.measure" -- nice -n 10 "$bin" solve --puzzle "$puzzle" --state "$solved" --json "${ours_args[@]}" \
    >>"$work/ours-startup.jsonl" 2>>"$log" || die "cubesolve cannot solve the solved $puzzle (see $log)"
done
# The tables it reads: the files it opens (strace), else all 3x3x3-* and PUZZLE-* files by name.
if command -v strace >/dev/null \
  && strace -f -qq -e trace=openat -o "$tmp/strace" "$bin" solve --puzzle "$puzzle" --state "$solved" --json \
    >/dev/null 2>>"$log"; then
  grep -v ' = -1 ' "$tmp/strace" | sed -n 's/.*openat([^"]*"\([^"]*\.tbl\)".*/\1/p' | sort -u \
    | while read -r f; do abspath "$f"; done >"$work/ours-tables.txt"
else
  shopt -s nullglob
  dir=${CUBE_TABLES:-$root/tables}
  tables=("$dir"/3x3x3-*.tbl "$dir/$puzzle"-*.tbl)
  shopt -u nullglob
  printf '%s\n' "# glob" "${tables[@]}" >"$work/ours-tables.txt"
fi
if [ "$batch" = 1 ]; then
  # One process for every state, as the peer's one JVM: the tables loaded
  # once; each JSON line's "ms" is that state's own solve.
  measure "$work/ours.measure" -- nice -n 10 "$bin" solve --puzzle "$puzzle" --states "$tmp/states" --json "${ours_args[@]}" \
    >"$work/ours.jsonl" 2>>"$log" || note "cubesolve solve --states stopped early (see $log)"
  touch "$work/ours.batch"
else
  i=0
  while read -r state; do
    i=$((i + 1))
    if measure "$work/ours.measure" -- nice -n 10 "$bin" solve --puzzle "$puzzle" --state "$state" --json "${ours_args[@]}" \
      >"$tmp/solve.json" 2>>"$log" && [ -s "$tmp/solve.json" ]; then
      cat "$tmp/solve.json" >>"$work/ours.jsonl"
    else
      echo "{\"error\": \"cubesolve solve failed on state $i (see log.txt)\"}" >>"$work/ours.jsonl"
    fi
  done <"$tmp/states"
fi

# The peer: its tables built once (kept in OUT), three start-ups, one JVM for all states.
if [ "$ours_only" = 1 ]; then
  note "$peer_name: its results of the earlier run on the same states"
elif [ -z "$(ls -A "$work/peer-tables")" ]; then
  note "$peer_name: building its tables (first run; kept in $work/peer-tables)"
  peer_driver "$work/peer-build.measure" </dev/null >/dev/null 2>>"$log" \
    || die "$peer_name failed to build its tables (see $log)"
fi
if [ "$ours_only" = 0 ]; then
  note "$peer_name: start-up (3 runs) and $count solves"
  for _ in 1 2 3; do
    peer_driver "$work/peer-startup.measure" </dev/null >/dev/null 2>>"$log" \
      || die "$peer_name failed to start (see $log)"
  done
  peer_driver "$work/peer.measure" <"$tmp/states" >"$work/peer.tsv" 2>>"$log" \
    || die "$peer_name's driver failed (see $log)"
fi

python3 "$here/report.py" "$puzzle" "$work" "$peer_name" | tee "$work/table.md"
