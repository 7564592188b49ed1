#!/usr/bin/env bash
# Side by side: our optimal 3x3x3 solver (`solve_optimal_bench`, the large
# tables unless --tables-size says small or huge) and nissy-core's H48 optimal solver, on the same random states,
# both on every core, every solution of both replayed on the independent
# facelet model of ci/peer-bench-big/replay.py, and the optimal lengths of
# the two compared state by state (they must be equal: both prove them).
#
#   bash ci/peer-bench-optimal/run.sh --peer DIR [--count N] [--solver h48h7]
#        [--limit SECS] [--out DIR] [--ours-only] [--tables-size large|huge|small]
#
# DIR is a checkout of sebastianotronto/nissy-core (public C; nothing of it
# is kept in this repository). Our driver, drive_nissy.c, is compiled with
# its src/nissy.c; nissy's table for the solver is made on the first run
# (h48h7: 3.5 GiB) and kept in OUT/nissy-tables. The states are
# `cubesolve scramble --puzzle 3x3x3 --seed 1..N`: nissy gets the
# scrambles, ours the facelet states they give.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
peer="" count=20 solver=h48h7 limit=900 out="" ours_only=0 size=large
die() { echo "peer-bench-optimal: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --peer) peer="${2:-}"; shift 2 ;;
    --count) count="${2:-}"; shift 2 ;;
    --solver) solver="${2:-}"; shift 2 ;;
    --limit) limit="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    --ours-only) ours_only=1; shift ;;
    --tables-size) size="${2:-}"; shift 2 ;;
    *) die "unknown argument '$1' (see the comment at the top of $0)" ;;
  esac
done
if [ "$ours_only" = 0 ]; then
  [ -n "$peer" ] || die "--peer DIR (a checkout of nissy-core) is required"
  [ -f "$peer/src/nissy.c" ] || die "$peer does not look like a checkout of nissy-core (no src/nissy.c)"
fi
[[ "$count" =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] || die "--count must be a positive number"
case "$size" in small|large|huge) ;; *) die "--tables-size must be small, large or huge" ;; esac
for tool in python3 cargo; do
  command -v "$tool" >/dev/null || die "$tool is not installed"
done
out="${out:-$root/target/peer-bench-optimal}"
mkdir -p "$out/nissy-tables"
threads="$(nproc)"
note() { echo "peer-bench-optimal: $*" >&2; }

note "building ours"
(cd "$root" && cargo build --release -q -p cubesolve -p solvers --example solve_optimal_bench)
bin="$root/target/release"

note "states: cubesolve scramble --puzzle 3x3x3 --seed 1..$count"
: >"$out/scrambles.new"
: >"$out/states.new"
for seed in $(seq 1 "$count"); do
  "$bin/cubesolve" scramble --puzzle 3x3x3 --seed "$seed" >"$out/one.txt"
  sed -n 1p "$out/one.txt" >>"$out/scrambles.new"
  sed -n 2p "$out/one.txt" >>"$out/states.new"
done
rm -f "$out/one.txt"

if [ "$ours_only" = 1 ]; then
  # nissy's results of an earlier run in OUT, on the same states.
  [ -f "$out/nissy.tsv" ] && cmp -s "$out/states.new" "$out/states.txt" \
    || die "--ours-only needs an earlier run's nissy.tsv in $out on the same --count"
  rm -f "$out/states.new" "$out/scrambles.new"
else
  mv "$out/states.new" "$out/states.txt"
  mv "$out/scrambles.new" "$out/scrambles.txt"
  command -v cc >/dev/null || die "cc is not installed"
  note "building nissy-core's library with our driver ($threads threads)"
  arch_flags=""
  grep -qw avx2 /proc/cpuinfo 2>/dev/null && arch_flags="-mavx2 -DAVX2" || arch_flags="-DPORTABLE"
  cc -O3 -std=c11 -D_POSIX_C_SOURCE=199309L -pthread $arch_flags -DTHREADS="$threads" \
    -I"$peer/src" "$here/drive_nissy.c" "$peer/src/nissy.c" -o "$out/drive_nissy" -lm \
    >"$out/cc.log" 2>&1 || { cat "$out/cc.log" >&2; die "nissy-core did not build (above)"; }
  note "nissy $solver (its table is made on the first run)"
  "$out/drive_nissy" "$solver" "$out/nissy-tables/$solver.bin" "$out/scrambles.txt" "$threads" \
    >"$out/nissy.tsv"
fi

note "ours ($size tables; each state up to $limit s)"
"$bin/examples/solve_optimal_bench" --states "$out/states.txt" --limit "$limit" \
  --tables-size "$size" >"$out/ours.log"

python3 "$here/report.py" "$out" "$solver" "$size" | tee "$out/table.md"
