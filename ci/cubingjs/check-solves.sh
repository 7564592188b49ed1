#!/usr/bin/env bash
# Installs the pinned cubing.js and runs check-solves.mjs with the given options.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
node check-solves.mjs "$@"
