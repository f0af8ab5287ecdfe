#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# claim_S_d6_slurm.sh [BIN] -- the claim-S d = 6 report row (laws table, tier
# extended) computed as a Slurm job array on a one-node cluster
# (scripts/slurm/cluster.sh, as root) and merged: one shard per beta
# (ATTNRANK_SHARDS=4, one CPU each, two at a time on 2 cores), submitted
# with the one sbatch of README 'Sweeps on a cluster'.  Records the merged
# table, the merged JSON and the time per shard in bench/results/slurm/.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/bin/attnrank}
res=$root/bench/results/slurm
skip() { echo "claim_S_d6_slurm: cannot run: $*"; exit 77; }
fail() { echo "claim_S_d6_slurm: FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root"
export PATH=$PATH:/usr/sbin
cluster_keep_dir=claim-S-d6
. "$root/scripts/slurm/cluster.sh"
cluster_start
mkdir -p "$res"
out=$scratch/out
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
(cd "$root" && ATTNRANK_SWEEP="verify --claim S --d 6" ATTNRANK_SHARDS=4 ATTNRANK_OUT="$out" ATTNRANK_BIN="$bin" \
    sbatch --output="$scratch/submit-%j.log" scripts/slurm/sweep.sbatch) || fail "sbatch"
for _ in $(seq 3600); do [ -e "$out/merged.rc" ] && break; sleep 1; done
[ -e "$out/merged.rc" ] || { keep=1; fail "no merge after an hour"; }
wall=$(( $(date +%s) - t0 ))
load1=$(cut -d' ' -f1-3 /proc/loadavg)
"$bin" merge --format json "$out"/shard-*-of-4.jsonl > "$res/claim_S_d6.jsonl"
{
    echo "# claim S, d = 6 (laws table row of tier extended), as a Slurm array of 4 shards on a one-node"
    echo "# cluster (2 CPUs, one CPU per shard), merged: $(date -u +%Y-%m-%dT%H:%MZ); $("$bin" --version)"
    echo "# sbatch to merged result: ${wall} s; load average before ${load0}, after ${load1}"
    echo "# merge exit status: $(cat "$out/merged.rc")"
    cat "$out/merged.txt"
    echo "# time per shard (shard K N host cpus seconds load-average exit), each shard one beta:"
    sort -k2,2n "$out/times.tsv" | sed 's/^/# /'
    for k in 0 1 2 3; do
        grep -o '"point":"[^"]*"' "$out/shard-$k-of-4.jsonl" | sed "s/^/# shard $k: /"
    done
} > "$res/claim_S_d6.txt"
cat "$res/claim_S_d6.txt"
