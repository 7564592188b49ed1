#!/usr/bin/env bash
# Build benchmarks: per catalog table, build seconds, states/s, expansions/s and
# peak memory (max RSS of the process building that one table). Not a test.
#   ci/bench.sh [ID...]        (default: every dense table of the catalog)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q --bin tablegen
bin=target/release/tablegen
out=$(mktemp -d)
ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
  mapfile -t ids < <($bin list --json | python3 -c 'import json,sys; [print(t["id"]) for t in json.load(sys.stdin)]')
fi
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
printf '%-22s %10s %8s %14s %16s %10s %10s\n' id states seconds "states/s" "expansions/s" "peak MiB" bytes
for id in "${ids[@]}"; do
  /usr/bin/time -f '%M' -o "$out/rss" $bin --tables "$out" build "$id" --json > "$out/json"
  python3 - "$out/json" "$out/rss" <<'PY'
import json, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
rss = int(open(sys.argv[2]).read().split()[-1]) / 1024
print(f'{j["id"]:<22} {j["states"]:>10} {j["seconds"]:>8.3f} {j["states_per_second"]:>14.3e} {j["expansions_per_second"]:>16.3e} {rss:>10.1f} {j["bytes"]:>10}')
PY
done
rm -rf "$out"
