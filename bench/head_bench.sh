#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/head_bench.sh -- issue #8 figures: the visible dimension of a 64-dim
# head (bench_head) and the wall time of `attnrank head` on its 512-token
# instances.  Usage: sh bench/head_bench.sh [path/to/attnrank]
# Output: bench/results/bench_head.tsv (called by bench/run.sh; BUILD as there).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
bin=${1:-bin/attnrank}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out="$here/results/bench_head.tsv"
{
    echo "# run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores (shared machine: wall times are contended)"
    "$build/bench/bench_head" "$tmp"
    echo
    printf 'command\tinstance\tr\tr_exact\tr_tau(0.05)\teta\tlower\tupper\twall_seconds\n'
    for inst in head3 head3_noise; do
        t0=$(date +%s.%N)
        json=$("$bin" head --queries "$tmp/${inst}_Q.npy" --keys "$tmp/${inst}_K.npy" --eps 0.1 --tau 0.05 --format json)
        t1=$(date +%s.%N)
        get() { printf '%s' "$json" | tr ',' '\n' | sed -n "s/^[{]*\"$1\":\([^}]*\).*/\1/p" | head -n 1; }   # first occurrence
        printf 'attnrank head\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\n' "$inst" "$(get r)" "$(get r_exact)" "$(get r_tau)" \
            "$(get eta)" "$(get lower)" "$(get upper)" "$(echo "$t1 - $t0" | bc -l)"
    done
} | tee "$out"
