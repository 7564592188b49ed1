#!/usr/bin/env bash
# The soak: every slow check at full size, run before a change to a solver or
# a table is called done (CI runs a sample of each). Thousands of random
# 4x4x4 and 5x5x5 states, every NxNxN from 6 to 17 solved and 8 to 33
# reduced, the full-size tables cross-checked by second methods (the
# Domino, 4x4x4-wings-pair, the 5x5x5 pairing tables), the timely engine on
# large tables in and out of core and with a process killed and resumed.
# Needs about 2 GB of memory; prints each step's minutes and the whole log to
# target/soak.log. Release profile: `SOAK_PROFILE=test` to use the test one.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never CUBE_SOAK=1
profile=${SOAK_PROFILE:-release}
log=target/soak.log
mkdir -p target
: > "$log"
step() { echo "== [$((SECONDS / 60)) min] $*" | tee -a "$log"; }
step "every ignored test at full size ($profile profile)"
cargo test --profile "$profile" --workspace -- --ignored --nocapture 2>&1 | tee -a "$log" |
  grep -E "^(test |test result|.*states, .* moves on average)" || true
if grep -q "FAILED\|test result: FAILED\|panicked" "$log"; then
  step "failed: see $log"
  exit 1
fi
step "cubesolve checked in cubing.js at larger counts"
cargo build --profile "$profile" -q --bin cubesolve
bin="$PWD/target/$([ "$profile" = test ] && echo debug || echo "$profile")/cubesolve"
for spec in "222,pyram 1000" "333 1000" "444 200" "555 100" "666,777 20" "40x40x40 3"; do
  set -- $spec
  bash ci/cubingjs/check-solves.sh --bin "$bin" --tables "$PWD/target/test-tables" --puzzles "$1" --count "$2" 2>&1 | tee -a "$log" | tail -n 2
done
step "done"
