#!/bin/sh
# verify_jobs.sh JOBS BIN RUNNER DIR [CLAIM] -- `make verify JOBS=N` on one machine:
# the N shards of `attnrank verify` side by side under GNU parallel, each with
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
echo "make verify JOBS=$jobs: $jobs shards of '${bin##*/} verify${claim:+ --claim $claim}' under GNU parallel, $threads BLAS/FLINT thread(s) each, into $dir" >&2
seq 0 $((jobs - 1)) | OPENBLAS_NUM_THREADS=$threads ATTNRANK_FLINT_THREADS=$threads \
    parallel --will-cite --halt never -j "$jobs" \
    "$bin" verify ${claim:+--claim "$claim"} --shard "{}/$jobs" --out "$dir/shard-{}-of-$jobs.jsonl" ||
    echo "make verify JOBS=$jobs: a shard failed (its message is above); the merge below reports it" >&2
[ -n "$claim" ] && export CK_RUN_SUITE="verify_$claim"
ATTNRANK_VERIFY_SHARDS=$dir exec "$runner"
