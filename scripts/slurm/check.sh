#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check.sh BIN -- make check-slurm: the Slurm scripts against a real one-node
# Slurm cluster (Debian 12's slurm-wlm and munge), not a mock.
#
# As root, in a scratch directory: starts munged (unless a munge daemon
# already answers), slurmctld and slurmd from a minimal slurm.conf (SLURM_CONF;
# ports 16817/16818), submits scripts/slurm/sweep.sbatch for a small sharded
# verify (claim S d = 3: two exponent rows and the saturation row, as 3
# shards), waits for the dependent merge, compares the merged JSON with the
# one-process run (every number but the times), resubmits (every shard must
# be skipped as complete) and compares again; then stops exactly the daemons
# it started (their pid files), also on failure or interruption.
# Exit: 0 pass, 1 fail, 77 skipped (not root, or the daemons cannot start:
# the reason is printed).
set -uo pipefail
bin=${1:?usage: check.sh BIN}
[[ $bin != *[[:cntrl:]]* && -x $bin ]] || { echo "check-slurm: FAIL: BIN is not an executable (or holds a control character)"; exit 1; }
root=$(cd "$(dirname "$0")/../.." && pwd)
t_start=$(date +%s)
skip() { echo "check-slurm: SKIPPED: $*"; exit 77; }
fail() { echo "check-slurm: FAIL: $*"; echo "check-slurm: 0 passed, 1 failed"; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root (the one-node cluster runs its daemons as root)"
for c in slurmctld slurmd sbatch squeue sinfo munge unmunge; do
    command -v $c >/dev/null 2>&1 || [ -x /usr/sbin/$c ] || skip "$c is not installed (apt-get install slurm-wlm munge)"
done
export PATH=$PATH:/usr/sbin
. "$root/scripts/slurm/cluster.sh"
cluster_start
echo "check-slurm: one-node cluster '$host' up in $(( $(date +%s) - t_start )) s (Slurm $(sinfo -V | cut -d' ' -f2))"

norm() { sed -E 's/"seconds":[-+0-9.eE]+/"seconds":0/g' "$1"; }
sweep_words=(verify --claim S --d 3)
sweep="${sweep_words[*]}"
out=$scratch/out
submit() {
    rm -f "$out/merged.rc"
    (cd "$root" && ATTNRANK_SWEEP="$sweep" ATTNRANK_SHARDS=3 ATTNRANK_OUT="$out" ATTNRANK_BIN="$bin" \
        ATTNRANK_MERGE_FORMAT=json sbatch --output="$scratch/submit-%j.log" scripts/slurm/sweep.sbatch) ||
        { keep=1; fail "sbatch refused the sweep"; }
    for _ in $(seq 480); do [ -e "$out/merged.rc" ] && break; sleep 0.5; done
    [ -e "$out/merged.rc" ] || { keep=1; fail "no merge result after 240 s: $(squeue -h 2>&1 | head -3)"; }
}
t0=$(date +%s)
submit
t_array=$(( $(date +%s) - t0 ))
rc=$(cat "$out/merged.rc")
[ "$rc" = 0 ] || { keep=1; fail "merge exit $rc: $(cat "$out/merged.err")"; }
[ "$(grep -c '^shard' "$out/times.tsv")" = 3 ] || { keep=1; fail "not 3 shard tasks ran: $(cat "$out/times.tsv")"; }
echo "check-slurm: array of 3 shards + merge in ${t_array} s; per shard (K N host cpus seconds load exit):"
sed 's/^/    /' "$out/times.tsv"
t0=$(date +%s)
"$bin" "${sweep_words[@]}" --format json > "$scratch/one.jsonl" || fail "the one-process run failed"
echo "check-slurm: one-process run in $(( $(date +%s) - t0 )) s"
norm "$scratch/one.jsonl" > "$scratch/one.norm"
norm "$out/merged.txt" > "$scratch/merged.norm"
cmp -s "$scratch/one.norm" "$scratch/merged.norm" ||
    { keep=1; diff "$scratch/one.norm" "$scratch/merged.norm" | head -5; fail "merged output differs from the one-process run"; }
grep -q '"verdict":"pass"' "$scratch/merged.norm" || fail "no passing row in the merged output"
# resubmission: every shard complete, so skipped; the same merge
cp "$out/merged.txt" "$scratch/merged1.txt"
t0=$(date +%s)
submit
t_resub=$(( $(date +%s) - t0 ))
[ "$(cat "$out/merged.rc")" = 0 ] || { keep=1; fail "second merge exit $(cat "$out/merged.rc")"; }
skipped=$(cat "$out"/slurm-shard-*.log | grep -c "is complete .*skipped")
[ "$skipped" = 3 ] || { keep=1; fail "resubmission recomputed shards ($skipped of 3 skipped)"; }
cmp -s "$scratch/merged1.txt" "$out/merged.txt" || fail "the resubmitted merge differs"
echo "check-slurm: resubmitted: 3 of 3 shards skipped as complete, same merge, in ${t_resub} s"
echo "check-slurm: whole tier in $(( $(date +%s) - t_start )) s"
echo "check-slurm: 4 passed, 0 failed"
exit 0
