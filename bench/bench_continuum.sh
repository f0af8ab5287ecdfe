#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/bench_continuum.sh -- continuum certificate time against beta through
# the old cliff at beta ~ 372 (issue 36 item 1; proofs-notes/polynomial-certificate.md
# section 3): the sphere polynomial continuum (claim S) and the ball shells
# continuum (claim B), eps = 0.1.  Each point is one CLI call; its wall time
# (the whole call, lower end included for claim B) and the certificate are
# printed.  A point that gives no answer within LIMIT seconds prints "timeout".
# Writes to stdout; bench/results/continuum_beta.txt is a recorded run.
# Usage: sh bench/bench_continuum.sh [attnrank] [near|far|all|compare]  (LIMIT=seconds, default 300)
#   near: sphere d = 3, 4, 5 and ball d = 3, 4 at beta = 160 .. 1280
#   far:  sphere d = 6 at beta = 640, 1280, d = 7 at 320, 640 (the points the
#         issue-36 bias analysis allows; the ball in d = 5 has no CLI continuum)
#   compare: sphere d = 5 at 640, 1280, d = 6 at 640, 1280, d = 7 at 320, 640,
#         each point run by the binary BASE (a baseline build; env) and then
#         by attnrank, alternating, so both see the same load
set -eu
bin=${1:-bin/attnrank}
which=${2:-near}
limit=${LIMIT:-300}
echo "# bench/bench_continuum.sh $bin $which (LIMIT=$limit)"
echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# uptime at start: $(uptime)"
point() {   # point CLAIM D BETA: one line "claim d beta wall-seconds certificate"
    t0=$(date +%s.%N)
    if [ "$1" = S ]; then
        set -- "$@" scale --claim S --d "$2" --beta "$3:$3:1" --eps 0.1 --continuum --no-packing --no-instance --format json
    else
        set -- "$@" scale --claim B --d "$2" --beta "$3:$3:1" --eps 0.1 --continuum --no-sphere --format json
    fi
    c=$1 d=$2 b=$3
    shift 3
    res=$(timeout "$limit" "$bin" "$@" 2>&1 | head -1 | python3 -c '
import json, sys
try:
    r = json.loads(sys.stdin.readline())
    print("rank %s  %s  (%s)" % (r["continuum"], r["continuum_certificate"], r["status"]))
except Exception:
    print("no answer")' || true)
    t1=$(date +%s.%N)
    w=$(python3 -c "print('%.1f' % ($t1 - $t0))")
    if python3 -c "import sys; sys.exit(0 if $t1 - $t0 >= $limit else 1)"; then res="timeout ($limit s)"; fi
    printf '%s  d=%s  beta=%-5s  %7s s  %s\n' "$c" "$d" "$b" "$w" "$res"
    echo "#   $bin $*"
}
if [ "$which" = near ] || [ "$which" = all ]; then
    for d in 3 4 5; do
        for b in 160 240 320 400 450 640 1280; do point S "$d" "$b"; done
    done
    for d in 3 4; do
        for b in 160 240 320 400 450 640 1280; do point B "$d" "$b"; done
    done
fi
if [ "$which" = compare ]; then
    base=${BASE:?compare needs BASE=baseline-binary}
    new=$bin
    for db in "5 640" "5 1280" "6 640" "6 1280" "7 320" "7 640"; do
        set -- $db
        bin=$base; point S "$1" "$2"
        bin=$new; point S "$1" "$2"
    done
    echo "# uptime after compare: $(uptime)"
fi
if [ "$which" = far ] || [ "$which" = all ]; then
    for b in 640 1280; do point S 6 "$b"; done
    for b in 320 640; do point S 7 "$b"; done
fi
echo "# uptime at end: $(uptime)"
