#!/bin/sh
# bench/run.sh -- run the benchmarks and record their output in bench/results/.
# Usage: sh bench/run.sh [path/to/attnrank]   (called by `make bench`)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
mkdir -p "$here/results"
stamp=$(date -u +%Y-%m-%dT%H:%MZ)
out="$here/results/bench_bracket.tsv"
echo "== bench_bracket (issue #2 figures), $stamp" >&2
{ echo "# run $stamp on $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')";
  "$build/bench/bench_bracket" 2000 4000; } | tee "$out"
