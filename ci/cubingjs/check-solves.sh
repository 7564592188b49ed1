#!/usr/bin/env bash
# Installs the pinned cubing.js and runs check-solves.mjs with the given options
# (a relative --bin or --tables is taken from the directory it is run in).
set -euo pipefail
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin | --tables)
      [ $# -ge 2 ] || { echo "check-solves.sh: $1 needs a value" >&2; exit 2; }
      args+=("$1" "$(realpath -m -- "$2")")
      shift 2
      ;;
    *)
      args+=("$1")
      shift
      ;;
  esac
done
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error >/dev/null
node check-solves.mjs "${args[@]}"
