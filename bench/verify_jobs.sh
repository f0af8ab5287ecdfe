#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# verify_jobs.sh -- issue 17's figure: `make verify` in one process against
# `make verify JOBS=N` (N shards side by side under GNU parallel, nproc/N
# BLAS threads each, then the theorem suites on the merged shard files), run
# back to back in the same session on this machine.  Writes
# bench/results/verify_jobs.txt: wall times, their ratio, the load average
# around each run and each run's Check summary line.
# Usage: sh bench/verify_jobs.sh [N]   (default 2)
set -u
cd "$(dirname "$0")/.."
n=${1:-2}
out=bench/results/verify_jobs.txt
make --no-print-directory bin/attnrank build/tests/run_verify >/dev/null || exit 1
run() {   # label, make arguments...
    label=$1; shift
    l0=$(cut -d' ' -f1-3 /proc/loadavg)
    t0=$(date +%s.%N)
    make --no-print-directory verify "$@" > "/tmp/attnrank_verify_$label.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    l1=$(cut -d' ' -f1-3 /proc/loadavg)
    s=$(grep -E '^[0-9]+%: Checks' "/tmp/attnrank_verify_$label.log" | tail -1)
    w=$(echo "$t1 - $t0" | bc)
    printf '%s\t%s s\texit %s\tload before %s, after %s\t%s\n' "$label" "$w" "$rc" "$l0" "$l1" "$s"
    eval "wall_$label=$w"
}
{
    echo "# bench/verify_jobs.sh $n, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), commit $(git rev-parse --short HEAD)"
    run one
    run jobs JOBS="$n"
    echo "ratio JOBS=$n / one process: $(echo "scale=3; $wall_jobs / $wall_one" | bc)"
} | tee "$out"
