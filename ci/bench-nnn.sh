#!/usr/bin/env bash
# The NxNxN benchmark at every size from 6 to 17 (COUNT random states each
# up to 10x10x10, LARGE_COUNT from 11x11x11 on; one thread), as
# docs/nnn.csv; then the plot docs/nnn.svg (python3).
#   CUBE_TABLES=DIR bash ci/bench-nnn.sh [COUNT [LARGE_COUNT]]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-20}"
large="${2:-5}"
cargo build --release -p solvers --example solve_nnn_bench
out=docs/nnn.csv
echo "n,states,avg_obtm,min_obtm,max_obtm,median_ms,p99_ms,max_ms,peak_mib" > "$out.tmp"
for n in $(seq 6 17); do
  c="$count"
  if [ "$n" -gt 10 ]; then c="$large"; fi
  target/release/examples/solve_nnn_bench "$n" "$c" | tee /dev/stderr | sed -n 's/^csv,//p' >> "$out.tmp"
done
mv "$out.tmp" "$out"
python3 ci/plot_nnn.py "$out" docs/nnn.svg
