#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# cluster.sh -- sourced by scripts/slurm/check.sh and bench/claim_S_d6_slurm.sh:
# a one-node Slurm cluster (Debian 12's slurm-wlm and munge) in a scratch
# directory, as root.  After `. scripts/slurm/cluster.sh; cluster_start`:
# $scratch is the scratch directory, SLURM_CONF is exported, and an EXIT trap
# stops exactly the daemons started here (slurmd and slurmctld by their pid
# files; munged only when no munge daemon answered before), keeping the
# scratch directory's files in $root/build/$cluster_keep_dir (a plain name of
# [A-Za-z0-9._-], else check-slurm) when keep=1; process ids read from the
# pid files are killed only when they are decimal numbers.
# cluster_start calls skip "reason" (defined by the caller) when the cluster
# cannot be started.
cluster_start() {
scratch=$(mktemp -d /tmp/attnrank-slurm-XXXXXX) && [ -d "$scratch" ] || skip "cannot make a scratch directory in /tmp"
started_munge=""
# the directory kept under build/ (a plain name, else the default)
[[ ${cluster_keep_dir:-} =~ ^[A-Za-z0-9._-]+$ && $cluster_keep_dir != .* ]] || cluster_keep_dir=check-slurm
cleanup() {
    for p in "$scratch/slurmd.pid" "$scratch/slurmctld.pid"; do
        if [ -s "$p" ]; then
            pid=$(cat "$p")
            [[ $pid =~ ^[1-9][0-9]*$ ]] || { echo "slurm: $p holds no process id: not killed"; continue; }
            kill "$pid" 2>/dev/null
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null
        fi
    done
    if [[ $started_munge =~ ^[1-9][0-9]*$ ]]; then
        kill "$started_munge" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$started_munge" 2>/dev/null || break; sleep 0.1; done
    fi
    if [ "${keep:-0}" = 1 ]; then
        mkdir -p "$root/build/$cluster_keep_dir" &&
            cp -r "$scratch"/* "$root/build/$cluster_keep_dir/" 2>/dev/null
        echo "slurm: logs kept in build/$cluster_keep_dir/"
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
}
