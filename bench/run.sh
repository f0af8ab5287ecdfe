#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/run.sh -- run the benchmarks and record their output in bench/results/.
# Usage: sh bench/run.sh [path/to/attnrank]   (called by `make bench`)
# Set BENCH_ONLY=name (bench_bracket, bench_scaling, bench_stream16k, bench_dense, bench_circulant, bench_poly,
# bench_packing, bench_instances, bench_routes, bench_heads, python_overhead, claim_S, verify) to run one.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-build}
bin=${1:-bin/attnrank}
mkdir -p "$here/results"
stamp=$(date -u +%Y-%m-%dT%H:%MZ)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
run() {   # run NAME CMD...: record stdout in results/NAME.tsv
    name=$1; shift
    if [ -n "${BENCH_ONLY:-}" ] && [ "$BENCH_ONLY" != "$name" ]; then return 0; fi
    echo "== $name ($stamp)" >&2
    { echo "# run $stamp on $(nproc) cores, $cpu, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"; "$@";
      echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"; } | tee "$here/results/$name.tsv"
}
# issues #2, #16: certified bracket vs one bare SVD (n = 2000, three runs), and n = 4000 time/memory
run bench_bracket "$build/bench/bench_bracket" 2000 2000 2000 4000
# issue #16: the dense route at size, n = 1000..16000, self- and cross-attention uniform in the
# 3-ball (one process per row, so that the peak memory is the row's); dgesdd up to SCALING_SVD_MAX
scaling() {
    "$build/bench/bench_scaling" header
    for n in ${SCALING_N:-1000 2000 4000 8000 16000}; do
        for kind in self cross; do
            svd=""
            if [ "$n" -le "${SCALING_SVD_MAX:-4000}" ]; then svd=svd; fi
            "$build/bench/bench_scaling" "$kind" "$n" $svd
        done
    done
}
run bench_scaling scaling
# issue #16: 16000 queries x 16000 keys uniform in the 3-ball through `attnrank bracket` (wall time and
# the child's peak resident memory)
stream16k() {
    tmp=$(mktemp -d)
    "$bin" generate --geometry ball --family uniform --d 3 --n 16000 --seed 1 --out "$tmp/Q.npy" >/dev/null
    "$bin" generate --geometry ball --family uniform --d 3 --n 16000 --seed 2 --out "$tmp/K.npy" >/dev/null
    printf 'command\tlower\tupper\tupper_certificate\tstatus\tstreamed\tsketch\tpasses\tseconds\tpeak_MiB\n'
    python3 - "$bin" "$tmp" <<'PY'
import json, resource, subprocess, sys, time
b, tmp = sys.argv[1], sys.argv[2]
cmd = [b, "bracket", "--queries", tmp + "/Q.npy", "--keys", tmp + "/K.npy", "--beta", "20", "--eps", "0.1",
       "--format", "json"]
t0 = time.time()
out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
wall = time.time() - t0
d = json.loads(out)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
print("\t".join(str(x) for x in ["attnrank bracket --queries Q.npy --keys K.npy --beta 20 --eps 0.1", d["lower"],
      d["upper"], d["upper_certificate"], d["status"], d["streamed"], d.get("rsvd_sketch", "-"),
      d.get("rsvd_passes", "-"), "%.1f" % wall, "%.0f" % peak]))
PY
    rm -rf "$tmp"
}
run bench_stream16k stream16k
# issue #24: the dense route against its physical-limit estimate and an uncertified randomized SVD
# given the rank, each timing twice (one process per row); 16000 held and streamed
dense() {
    "$build/bench/bench_dense" header
    for n in ${DENSE_N:-2000 2000 4000 4000 8000 8000}; do "$build/bench/bench_dense" "$n"; done
    for n in ${DENSE_SELF_N:-1000 2000 4000 8000}; do "$build/bench/bench_dense" "$n" self; done
    if [ -z "${DENSE_N:-}" ]; then
        "$build/bench/bench_dense" 16000
        ATTNRANK_STREAM_MIB=1024 "$build/bench/bench_dense" 16000
    fi
}
run bench_dense dense
# issue #3: d = 2 circulant path up to beta = 1e5
run bench_circulant "$build/bench/bench_circulant" 0.1 20160 55440
# issue #3: polynomial certificate on 20000-point S^2 sets, and the continuum column
run bench_poly "$build/bench/bench_poly" 20000 500
# issue #3: packing lower bounds at scale (40 s budget per dimension)
run bench_packing "$build/bench/bench_packing" 40 60000
# issue #3: large spherical instances through `attnrank bracket --engine scale`
instances() {
    printf 'family\td\tn\tbeta\teps\tlower\tupper\tlower_certificate\tupper_certificate\tupper_err\tseconds\n'
    for spec in "fibonacci 3 20000 50 0.1" "fibonacci 3 20000 200 0.1" "uniform 4 12000 50 0.1" "uniform 4 20000 100 0.3"; do
        set -- $spec
        "$bin" bracket --geometry sphere --family "$1" --d "$2" --n "$3" --beta "$4" --eps "$5" --engine scale --format tsv |
            tail -n 1 | awk -F'\t' -v f="$1" '{ printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", f, $6, $4, $7, $8, $1, $2, $9, $10, $11, $12 }'
    done
}
run bench_instances instances
# the route chooser: what `attnrank bracket` gives on instances where routes differ
routes() {
    tmp=$(mktemp -d)
    "$bin" generate --geometry sphere --family fibonacci --d 3 --n 3000 --out "$tmp/F3000.npy" >/dev/null
    "$bin" generate --geometry sphere --family uniform --d 3 --n 400 --seed 1 --out "$tmp/U400.npy" >/dev/null
    printf 'instance	beta	eps	lower	upper	lower_route	upper_route	upper_certificate	routes	seconds\n'
    one() {   # one LABEL BETA EPS ARGS...
        label=$1; beta=$2; eps=$3; shift 3
        "$bin" bracket "$@" --beta "$beta" --eps "$eps" --format json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print("\t".join(str(x) for x in [sys.argv[1], sys.argv[2], sys.argv[3], d["lower"], d["upper"], d["lower_route"],
      d["upper_route"], d["upper_certificate"], d["routes"], d["seconds"]]))' "$label" "$beta" "$eps"
    }
    one "polygon n=20160" 10000 0.1 --geometry sphere --family polygon --d 2 --n 20160
    one "Fibonacci S^2 file n=3000" 50 0.1 --points "$tmp/F3000.npy"
    one "uniform S^2 file n=400 seed 1" 30 0.1 --points "$tmp/U400.npy"
    one "uniform S^2 file n=400 seed 1, --upper svd" 30 0.1 --points "$tmp/U400.npy" --upper svd
    rm -rf "$tmp"
}
run bench_routes routes
# issue #32, item 7: real attention-head shapes, N(0,1) float32 queries and keys, d = 16..128, n = 256..4096
# (cross-attention also 8192), beta 1/sqrt(d), eps 0.1, through the CLI, C and Python doors (the latter two
# up to n = 2048) beside numpy's uncertified SVD rank; about 40 minutes on 2 cores; figure bench_heads.svg
run bench_heads /usr/bin/python3 "$here/bench_heads.py" --bin "$bin" --c-door "$build/bench/bench_heads_c" --out - \
    --svg "$here/results/bench_heads.svg"
# issue #23: a 2000 x 2000 head bracketed from NumPy (python/attnrank) against the CLI, alternating
if [ -z "${BENCH_ONLY:-}" ] || [ "$BENCH_ONLY" = python_overhead ]; then
    echo "== python_overhead ($stamp)" >&2
    sh "$here/python_overhead.sh" "$bin" 3 | tee "$here/results/python_overhead.tsv"
fi
# issue #8: visible dimension of a 64-dim head, and `attnrank head` on 512 tokens
if [ -z "${BENCH_ONLY:-}" ] || [ "$BENCH_ONLY" = head ]; then sh "$here/head_bench.sh" "$bin"; fi
# issue #3: claim-S sweep tables for d = 2..5 and their plot (bench/results/claim_S/)
if [ -z "${BENCH_ONLY:-}" ] || [ "$BENCH_ONLY" = claim_S ]; then
    echo "== claim-S sweeps and plot ($stamp)" >&2
    sh "$here/claim_S_sweeps.sh" "$bin"
fi
# the claim-S part of make verify, timed
if [ -z "${BENCH_ONLY:-}" ] || [ "$BENCH_ONLY" = verify ]; then
    echo "== make verify CLAIM=S ($stamp)" >&2
    t0=$(date +%s.%N)
    { echo "# run $stamp on $(nproc) cores, $cpu"; CK_RUN_SUITE=verify_S "$build/tests/run_verify" 2>/dev/null || true;
      echo "# wall $(echo "$(date +%s.%N) $t0" | awk '{printf "%.1f", $1 - $2}') s"; } \
        | tee "$here/results/verify_claim_S.txt"
fi
