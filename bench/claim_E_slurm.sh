#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# claim_E_slurm.sh [BIN] -- claim E's calibration of both models (`attnrank
# calib --model all`, what verify_E runs) as a Slurm job array of 4 shards on
# a one-node cluster (scripts/slurm/cluster.sh, as root; one CPU per shard,
# two at a time on 2 cores), merged as JSON by the dependent merge job, and
# compared with the one-process run: every line equal once the times are
# removed.  Records the time per shard and the comparison in
# bench/results/slurm/claim_E.txt.  Needs `make calib-data`.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/bin/attnrank}
res=$root/bench/results/slurm
skip() { echo "claim_E_slurm: cannot run: $*"; exit 77; }
fail() { echo "claim_E_slurm: FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root"
[ -e "$root/.cache/calib/model/package/dist/model.json" ] || skip "no claim-E cache (make calib-data)"
export PATH=$PATH:/usr/sbin
cluster_keep_dir=claim-E
. "$root/scripts/slurm/cluster.sh"
cluster_start
mkdir -p "$res"
out=$scratch/out
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
(cd "$root" && ATTNRANK_SWEEP="calib --model all" ATTNRANK_SHARDS=4 ATTNRANK_OUT="$out" ATTNRANK_BIN="$bin" \
    ATTNRANK_MERGE_FORMAT=json sbatch --output="$scratch/submit-%j.log" scripts/slurm/sweep.sbatch) || fail "sbatch"
for _ in $(seq 1800); do [ -e "$out/merged.rc" ] && break; sleep 1; done
[ -e "$out/merged.rc" ] || { keep=1; fail "no merge after 30 min"; }
wall=$(( $(date +%s) - t0 ))
load1=$(cut -d' ' -f1-3 /proc/loadavg)
t1=$(date +%s)
(cd "$root" && "$bin" calib --model all --format json) > "$scratch/one.json" 2>/dev/null || fail "one-process calib"
wall1=$(( $(date +%s) - t1 ))
strip() { sed -E 's/,"seconds":[-0-9.e+]+//g' "$1"; }
if cmp -s <(strip "$out/merged.txt") <(strip "$scratch/one.json"); then same="identical"; else same="DIFFERENT"; fi
{
    echo "# claim E, attnrank calib --model all, as a Slurm array of 4 shards on a one-node cluster"
    echo "# (2 CPUs, one CPU per shard), merged (JSON): $(date -u +%Y-%m-%dT%H:%MZ); $("$bin" --version)"
    echo "# sbatch to merged result: ${wall} s; one-process run right after: ${wall1} s;"
    echo "# load average before ${load0}, after the array ${load1}"
    echo "# merge exit status: $(cat "$out/merged.rc"); merged vs one-process JSON without times: ${same}"
    echo "# $(wc -l < "$out/merged.txt") JSON lines; the association lines:"
    grep -o '"summary":"association[^}]*' "$out/merged.txt" | grep '"layer":"all"\|"model":"all"' | sed 's/^/# /'
    echo "# time per shard (shard K N host cpus seconds load-average exit):"
    sort -k2,2n "$out/times.tsv" | sed 's/^/# /'
    for k in 0 1 2 3; do
        echo "# shard $k: $(grep -c '"point"' "$out/shard-$k-of-4.jsonl") settings"
    done
} > "$res/claim_E.txt"
cat "$res/claim_E.txt"
[ "$same" = identical ] || exit 1
