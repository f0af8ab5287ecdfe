#!/bin/sh
# verify_jobs.sh JOBS BIN RUNNER DIR [CLAIM] -- `make verify JOBS=N` on one machine:
# the N shards of `attnrank verify` and the N shards of claim E's
# `attnrank calib --model all`, N at a time under GNU parallel, each with
# nproc/N BLAS and FLINT threads, into DIR (emptied first unless RESUME=1,
# so that a changed build never reuses old shards), then make verify's
# theorem suites (RUNNER) asserted on the merged shard files
# (ATTNRANK_VERIFY_SHARDS=DIR).  Exit status: the runner's (non-zero when an
# asserted row does not pass, or a shard is missing).
set -u
jobs=$1 bin=$2 runner=$3 dir=$4 claim=${5:-}
case "$jobs" in ''|*[!0-9]*|0) echo "make verify: JOBS must be a positive integer, got '$jobs'" >&2; exit 2 ;; esac
command -v parallel >/dev/null 2>&1 || { echo "make verify JOBS=$jobs: GNU parallel is missing (apt-get install parallel)" >&2; exit 2; }
[ "${RESUME:-0}" = 1 ] || rm -rf "$dir"
mkdir -p "$dir"
cpus=$(nproc 2>/dev/null || echo 1)
threads=$((cpus / jobs))
[ "$threads" -ge 1 ] || threads=1
# the jobs: N shards of verify's law rows and claim T (not for CLAIM=E),
# then N shards of claim E's calibration (attnrank calib --model all, as
# verify_E runs it; for CLAIM empty or E) into DIR/calib/, which verify_E
# merges instead of calibrating in one process
case "$bin$dir" in *"'"*) echo "make verify JOBS=$jobs: the paths may not contain a single quote" >&2; exit 2 ;; esac
jobfile=$dir/jobs.txt
: > "$jobfile"
if [ "$claim" != E ]; then
    k=0
    while [ $k -lt "$jobs" ]; do
        echo "'$bin' verify ${claim:+--claim $claim }--shard $k/$jobs --out '$dir/shard-$k-of-$jobs.jsonl'" >> "$jobfile"
        k=$((k + 1))
    done
fi
if [ -z "$claim" ] || [ "$claim" = E ]; then
    mkdir -p "$dir/calib"
    k=0
    while [ $k -lt "$jobs" ]; do
        echo "'$bin' calib --model all --shard $k/$jobs --out '$dir/calib/shard-$k-of-$jobs.jsonl'" >> "$jobfile"
        k=$((k + 1))
    done
fi
echo "make verify JOBS=$jobs: $(wc -l < "$jobfile") shards (verify${claim:+ --claim $claim}, calib) under GNU parallel, $jobs at a time, $threads BLAS/FLINT thread(s) each, into $dir" >&2
OPENBLAS_NUM_THREADS=$threads ATTNRANK_FLINT_THREADS=$threads \
    parallel --will-cite --halt never -j "$jobs" < "$jobfile" ||
    echo "make verify JOBS=$jobs: a shard failed (its message is above); the merge below reports it" >&2
[ -n "$claim" ] && export CK_RUN_SUITE="verify_$claim"
ATTNRANK_VERIFY_SHARDS=$dir exec "$runner"
