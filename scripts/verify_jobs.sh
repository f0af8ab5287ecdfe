#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# verify_jobs.sh JOBS BIN BUILD [CLAIM] -- `make verify JOBS=N` on one machine:
# the ceil(N/2) shards of claim E's `attnrank calib --model all` and the 2N
# shards of `attnrank verify` (N = 1: one each), N at a time under GNU parallel, each with
# nproc/N BLAS, FLINT and attnrank threads (ATTNRANK_THREADS), into BUILD/verify-shards/jobs<N><CLAIM>
# (emptied first unless RESUME=1, so that a changed build never reuses old
# shards), then make verify's theorem suites (BUILD/tests/run_verify)
# asserted on the merged shard files (ATTNRANK_VERIFY_SHARDS=that directory).
#
# Every argument is checked before anything is created, removed or run
# (exit 2, one line): JOBS a decimal integer in 1..256 without leading
# zeros, CLAIM empty or one of S B R T E, RESUME empty, 0 or 1, BIN an
# executable and BUILD a build directory (it holds tests/run_verify), both
# absolute paths without quotes or control characters.  The shard
# directory is built here from those checked parts, and removed only when
# its parent resolves (cd -P) to BUILD/verify-shards inside the resolved
# BUILD and it is no symbolic link.  The job file holds only values made
# here or checked and single-quoted.
# Exit status: the runner's (non-zero when an asserted row does not pass, or
# a shard is missing); 2 for a refused argument or a missing GNU parallel.
set -u
die() { printf 'make verify: %s\n' "$*" >&2; exit 2; }
# a value as it may be shown in a message (only when made of plain path characters)
shown() {
    case "$1" in
        *[!A-Za-z0-9._/+@-]*) printf '%s' "a value with characters outside [A-Za-z0-9._/+@-]" ;;
        *) printf "'%s'" "$1" ;;
    esac
}
[ $# -eq 3 ] || [ $# -eq 4 ] || die "usage: scripts/verify_jobs.sh JOBS BIN BUILD [CLAIM] (got $# arguments)"
jobs=$1 bin=$2 build=$3 claim=${4:-}
case "$jobs" in
    [1-9] | [1-9][0-9] | 1[0-9][0-9] | 2[0-4][0-9] | 25[0-6]) ;;
    *) die "JOBS must be a decimal integer in 1..256 without leading zeros, got $(shown "$jobs")" ;;
esac
case "$claim" in
    '' | S | B | R | T | E) ;;
    *) die "CLAIM must be empty or one of S B R T E, got $(shown "$claim")" ;;
esac
tier=${ATTNRANK_VERIFY_TIER:-}
case "$tier" in
    '' | default | extended | all) ;;
    *) die "TIER must be empty, default, extended or all, got $(shown "$tier")" ;;
esac
resume=${RESUME:-}
case "$resume" in
    '' | 0 | 1) ;;
    *) die "RESUME must be empty, 0 or 1, got $(shown "$resume")" ;;
esac
for p in "$bin" "$build"; do
    case "$p" in
        /*) ;;
        *) die "BIN and BUILD must be absolute paths, got $(shown "$p")" ;;
    esac
    case "$p" in
        *"'"* | *[[:cntrl:]]*) die "BIN and BUILD may not contain a single quote or a control character" ;;
    esac
done
[ -f "$bin" ] && [ -x "$bin" ] || die "BIN $(shown "$bin") is not an executable file"
rbuild=$(cd -P -- "$build" 2>/dev/null && pwd -P) || die "BUILD $(shown "$build") is not a directory"
case "$rbuild" in
    / | *"'"* | *[[:cntrl:]]*) die "BUILD $(shown "$build") resolves to an unusable directory" ;;
esac
runner=$rbuild/tests/run_verify
[ -f "$runner" ] && [ -x "$runner" ] || die "BUILD $(shown "$build") is not a build directory (no tests/run_verify)"
# the shard directory: a name made here, inside BUILD/verify-shards as resolved
# now; emptied from inside that directory (a subshell's cd), so that no path
# resolved later can lead elsewhere
name=jobs$jobs$claim${tier:+-$tier}
dir=$rbuild/verify-shards/$name
(
    mkdir -p -- "$rbuild/verify-shards" || die "cannot create $rbuild/verify-shards"
    cd -P -- "$rbuild/verify-shards" || die "cannot enter $rbuild/verify-shards"
    [ "$(pwd -P)" = "$rbuild/verify-shards" ] ||
        die "$rbuild/verify-shards resolves outside the build directory (a symbolic link?): refused"
    if [ -L "$name" ]; then die "$dir is a symbolic link: refused"; fi
    command -v parallel >/dev/null 2>&1 || die "JOBS=$jobs: GNU parallel is missing (apt-get install parallel)"
    [ "$resume" = 1 ] || rm -rf -- "./$name"
    mkdir -p -- "./$name" || die "cannot create $dir"
) || exit 2
cpus=$(nproc 2>/dev/null || echo 1)
case "$cpus" in '' | *[!0-9]* | 0*) cpus=1 ;; esac
threads=$((cpus / jobs))
[ "$threads" -ge 1 ] || threads=1
[ "$threads" -le 1024 ] || threads=1024   # attnrank's ranges: OPENBLAS_NUM_THREADS 1..1024,
flint=$threads                            # ATTNRANK_FLINT_THREADS 1..256
[ "$flint" -le 256 ] || flint=256
own=$threads                              # ATTNRANK_THREADS 1..64: each shard's share of attnrank's threads
[ "$own" -le 64 ] || own=64
# the jobs: the shards of claim E's calibration (attnrank calib --model all, as
# verify_E runs it; for CLAIM empty or E) into DIR/calib/, then the shards of
# verify's law rows and claim T (not for CLAIM=E); verify_E
# merges instead of calibrating in one process.  bin and dir hold no single
# quote (checked above), so '...' quotes them whole.
jobfile=$dir/jobs.txt
: > "$jobfile" || die "cannot write $jobfile"
# claim E's calibration: ceil(N/2) shards, listed first (GNU parallel starts jobs in file order:
# the longest single job first).  Each calib shard loads both models and runs their forward
# passes on every input again, so fewer shards cost less CPU: on the quiet Intel cores one shard
# took 194 s, two took 112 + 114 s; on the AMD machine, after the faster forward passes, one shard
# took 67 s (bench/results/verify_costs.txt).
nc=$(( (jobs + 1) / 2 ))
if { [ -z "$claim" ] || [ "$claim" = E ]; } && [ "$tier" != extended ]; then
    mkdir -p -- "$dir/calib"
    k=0
    while [ "$k" -lt "$nc" ]; do
        printf "'%s' calib --model all --shard %s/%s --out '%s'\n" "$bin" "$k" "$nc" \
            "$dir/calib/shard-$k-of-$nc.jsonl" >> "$jobfile"
        k=$((k + 1))
    done
fi
# verify's points go into 2N shards (N = 1: one), so that GNU parallel, which starts
# the next job on whichever slot frees first, evens out the a-priori cost estimates'
# errors (bench/results/verify_costs.txt: with N shards for N slots one slot ran 1.5
# minutes longer than the other).
nv=$jobs
[ "$jobs" -gt 1 ] && nv=$((2 * jobs))
if [ "$claim" != E ]; then
    k=0
    while [ "$k" -lt "$nv" ]; do
        printf "'%s' verify %s%s--shard %s/%s --out '%s'\n" "$bin" "${claim:+--claim $claim }" \
            "${tier:+--tier $tier }" "$k" "$nv" "$dir/shard-$k-of-$nv.jsonl" >> "$jobfile"
        k=$((k + 1))
    done
fi
echo "make verify JOBS=$jobs: $(wc -l < "$jobfile") shards (verify${claim:+ --claim $claim}, calib) under GNU parallel, $jobs at a time, $threads BLAS/FLINT/attnrank thread(s) each, into $dir" >&2
PARALLEL_SHELL=/bin/sh OPENBLAS_NUM_THREADS=$threads ATTNRANK_FLINT_THREADS=$flint ATTNRANK_THREADS=$own \
    parallel --will-cite --halt never -j "$jobs" < "$jobfile" ||
    echo "make verify JOBS=$jobs: a shard failed (its message is above); the merge below reports it" >&2
[ -n "$claim" ] && export CK_RUN_SUITE="verify_$claim"
[ -n "$tier" ] && export ATTNRANK_VERIFY_TIER="$tier"
ATTNRANK_VERIFY_SHARDS=$dir exec "$runner"
