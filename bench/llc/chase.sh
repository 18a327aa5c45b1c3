#!/bin/bash
# chase.sh - builds and runs bench/llc/chase.c: what the last-level cache
# holds for a random chase, for independent random loads, and what a chase
# over one line per page costs (the TLB). docs/cli/calibrate.md and
# docs/results.md (session 9) quote it. Takes about a minute.
#
# usage: bench/llc/chase.sh [CC]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cc=${1:-${CC:-cc}}
bin=$(mktemp)
trap 'rm -f "$bin"' EXIT
"$cc" -O2 -std=c11 -o "$bin" "$here/chase.c"
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%dT%H:%MZ)"
"$bin"
