#!/bin/bash
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
root=$(cd "$(dirname "$0")/../.." && pwd)
t_start=$(date +%s)
skip() { echo "check-slurm: SKIPPED: $*"; exit 77; }
fail() { echo "check-slurm: FAIL: $*"; echo "check-slurm: 0 passed, 1 failed"; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root (the one-node cluster runs its daemons as root)"
for c in slurmctld slurmd sbatch squeue sinfo munge unmunge; do
    command -v $c >/dev/null 2>&1 || [ -x /usr/sbin/$c ] || skip "$c is not installed (apt-get install slurm-wlm munge)"
done
export PATH=$PATH:/usr/sbin
scratch=$(mktemp -d /tmp/attnrank-slurm-XXXXXX)
started_munge=""
cleanup() {
    for p in "$scratch/slurmd.pid" "$scratch/slurmctld.pid"; do
        if [ -s "$p" ]; then
            pid=$(cat "$p")
            kill "$pid" 2>/dev/null
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
        fi
    done
    if [ -n "$started_munge" ]; then
        kill "$started_munge" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$started_munge" 2>/dev/null || break; sleep 0.1; done
    fi
    if [ "${keep:-0}" = 1 ]; then
        mkdir -p "$root/build/check-slurm" && cp -r "$scratch"/* "$root/build/check-slurm/" 2>/dev/null
        echo "check-slurm: logs kept in build/check-slurm/"
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# munge: use a running daemon, else start one (and stop it afterwards)
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    mkdir -p /run/munge && chown munge:munge /run/munge
    [ -e /etc/munge/munge.key ] || mungekey -c >/dev/null 2>&1 || /usr/sbin/create-munge-key -f >/dev/null 2>&1
    runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/attnrank-check.pid 2>"$scratch/munged.err" ||
        skip "munged does not start: $(head -1 "$scratch/munged.err")"
    for _ in $(seq 50); do [ -s /run/munge/attnrank-check.pid ] && break; sleep 0.1; done
    started_munge=$(cat /run/munge/attnrank-check.pid 2>/dev/null)
    munge -n | unmunge >/dev/null 2>&1 || skip "munge does not answer after starting munged"
fi
host=$(hostname -s)
cat > "$scratch/slurm.conf" <<CONF
ClusterName=attnrank-check
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$host CPUs=$(nproc) RealMemory=2000
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$scratch/state" "$scratch/spool"
export SLURM_CONF=$scratch/slurm.conf
slurmctld -f "$SLURM_CONF" || skip "slurmctld does not start"
slurmd -f "$SLURM_CONF" || skip "slurmd does not start"
for _ in $(seq 120); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 0.5
done
sinfo -h -o %T 2>/dev/null | grep -q idle || { keep=1; skip "the node is not idle after 60 s: $(sinfo -h 2>&1 | head -1)"; }
echo "check-slurm: one-node cluster '$host' up in $(( $(date +%s) - t_start )) s (Slurm $(sinfo -V | cut -d' ' -f2))"

norm() { sed -E 's/"seconds":[-+0-9.eE]+/"seconds":0/g' "$1"; }
sweep="verify --claim S --d 3"
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
"$bin" $sweep --format json > "$scratch/one.jsonl" || fail "the one-process run failed"
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
