#!/usr/bin/env bash
# The timely engine against the in-memory BFS on one dense table (default:
# domino): seconds, states/s and peak memory of each process, for the
# in-memory engine, timely with 1 process x 2 workers, 2 processes x 1
# worker over localhost TCP, and out of core (1 worker) with a memory limit
# of an eighth of the in-memory build's peak; the tables must be
# byte-identical. Not a test.
#   ci/bench-timely.sh [ID]
set -euo pipefail
cd "$(dirname "$0")/.."
id="${1:-domino}"
cargo build --release -q --bin tablegen
bin="$PWD/target/release/tablegen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$(port)" "$(port)" > "$work/hosts"
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
# run LABEL DIR ARGS...: one build, its JSON line and its peak RSS.
run() {
  local label=$1 dir=$2
  shift 2
  /usr/bin/time -f '%M' -o "$work/$label.rss" "$bin" --tables "$dir" build "$id" --json "$@" > "$work/$label.json"
}
report() {
  python3 - "$@" <<'PY'
import json, sys
label, base = sys.argv[1], (float(sys.argv[2]) if sys.argv[2] else None)
j = json.loads(open(f"{sys.argv[3]}/{label}.json").read().strip().splitlines()[-1])
rss = [int(open(f"{sys.argv[3]}/{r}.rss").read().split()[-1]) / 1024 for r in sys.argv[4:]]
ratio = f"{j['seconds'] / base:.2f}" if base else "1.00"
print(f"{label:<14} {j['seconds']:>8.2f} {j['states_per_second'] / 1e6:>10.1f} {ratio:>6}   {' + '.join(f'{r:.0f}' for r in rss)}")
PY
}
printf '%-14s %8s %10s %6s   %s\n' engine seconds "M states/s" ratio "peak MiB per process"
run memory "$work/memory"
base=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["seconds"])' "$work/memory.json")
report memory "" "$work" memory
run timely-1x2 "$work/t12" --workers 2
report timely-1x2 "$base" "$work" timely-1x2
run timely-2x1-p1 "$work/t21" --processes 2 --process 1 --hosts "$work/hosts" &
p1=$!
run timely-2x1 "$work/t21" --processes 2 --process 0 --hosts "$work/hosts"
wait "$p1"
report timely-2x1 "$base" "$work" timely-2x1 timely-2x1-p1
limit=$(( $(tail -1 "$work/memory.rss") * 1024 / 8 ))
run out-of-core "$work/ooc" --memory-limit "$limit"
report out-of-core "$base" "$work" out-of-core
echo "out-of-core memory limit: $limit bytes (an eighth of the in-memory peak)"
for d in t12 t21 ooc; do
  cmp "$work/memory/$id.tbl" "$work/$d/$id.tbl"
done
echo "tables byte-identical: yes"
