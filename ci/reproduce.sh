#!/usr/bin/env bash
# Reproducibility: rebuild every table of at most 5M states in memory and compare
# checksums, definition hashes, sizes and whole-file SHA-256 with
# tables/manifest.json; then verify the committed artifacts (every byte: structure,
# payload checksum, padding; definition hash; SHA-256 against the manifest).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-test}
cargo run -q --profile "$profile" --bin tablegen -- manifest --check 5000000
cargo run -q --profile "$profile" --bin tablegen -- verify --all
