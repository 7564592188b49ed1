#!/usr/bin/env bash
# Start-up benchmark: the whole `cubesolve solve` process on a 2-move
# scramble (so that loading is nearly all of it), best of N runs per puzzle,
# tables already built and their full checks recorded (`tablegen verify
# --all` runs first, so that a table committed to the repository is not
# hashed at every open, as one built or installed is not); and, apart, the
# peak memory of that process. Not a test: run it on an idle machine.
#   ci/bench-startup.sh [--runs N] [--tables DIR] [--against BIN] [--hash-tables] [PUZZLE...]
#   (default puzzles: 2x2x2 3x3x3 4x4x4 5x5x5 6x6x6 7x7x7; default runs: 10)
# --against BIN: another cubesolve (an older build) run in turn with this
# one, each run of one followed by one of the other, so that a noisy
# machine's drift falls on both; its rows are marked "(against)".
# --hash-tables: this build hashes every table in full at every open, as
# with no record of a check (`cubesolve --hash-tables`).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10
tables=()
puzzles=()
against=
ours=()
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=$2; shift ;;
    --tables) tables=(--tables "$2"); shift ;;
    --against) against=$2; shift ;;
    --hash-tables) ours=(--hash-tables) ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench-startup.sh: unknown option $1" >&2; exit 2 ;;
    *) puzzles+=("$1") ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench-startup.sh: --runs must be a positive integer, not '$runs'" >&2; exit 2; }
[ ${#puzzles[@]} -gt 0 ] || puzzles=(2x2x2 3x3x3 4x4x4 5x5x5 6x6x6 7x7x7)
[ -z "$against" ] || [ -x "$against" ] || { echo "bench-startup.sh: --against $against is not an executable" >&2; exit 2; }
cargo build --release -q --bin cubesolve --bin tablegen
bins=(target/release/cubesolve)
[ -z "$against" ] || bins+=("$against")
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf '%-22s %12s %12s %10s\n' puzzle "best ms" "median ms" "peak MiB"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A first run of each builds any missing table; it is not counted.
for p in "${puzzles[@]}"; do
  for b in "${bins[@]}"; do
    "$b" "${tables[@]}" solve --puzzle "$p" --scramble "R U" > /dev/null
  done
done
target/release/tablegen "${tables[@]}" verify --all > /dev/null
for p in "${puzzles[@]}"; do
  for k in "${!bins[@]}"; do : > "$work/times-$k"; done
  for _ in $(seq "$runs"); do
    for k in "${!bins[@]}"; do
      s=$(date +%s%N)
      extra=()
      [ "$k" != 0 ] || extra=("${ours[@]}")
      /usr/bin/time -f '%M' -o "$work/rss-$k" "${bins[$k]}" "${tables[@]}" "${extra[@]}" solve --puzzle "$p" --scramble "R U" > /dev/null
      echo $(( ($(date +%s%N) - s) / 1000 )) >> "$work/times-$k"
    done
  done
  for k in "${!bins[@]}"; do
    name=$p
    [ "$k" = 0 ] || name="$p (against)"
    sort -n "$work/times-$k" | python3 -c '
import sys
name, kib = sys.argv[1], int(open(sys.argv[2]).read().split()[-1])
t = [int(x) for x in sys.stdin]
print(f"{name:<22} {t[0] / 1000:>12.1f} {t[len(t) // 2] / 1000:>12.1f} {kib / 1024:>10.0f}")
' "$name" "$work/rss-$k"
  done
done
