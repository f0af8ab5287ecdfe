#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/run_check.sh -- run the Check suites of tests/run_tests side by side
# (called by `make check-run`).
#
# Usage: sh scripts/run_check.sh RUN_TESTS
#
# The suites (`RUN_TESTS --list`) run as separate processes, CHECK_JOBS at a
# time (default: the number of CPUs, at most 256; CHECK_JOBS=1 one after the
# other), the longest first.  Each suite's output is kept and printed whole, in
# the suites' order, after all have run; while they run one line per finished
# suite says its result and time.  The last line is Check's summary over every
# suite ("100%: Checks: N, Failures: 0, Errors: 0"); the exit status is 1 when a
# test failed, a suite did not print its summary (a crash) or a suite exited
# non-zero.  With CK_RUN_SUITE set, RUN_TESTS runs alone, as Check does.
# Environment variables are input: CHECK_JOBS must be a decimal 1..256.
set -eu

rt=${1:?usage: run_check.sh RUN_TESTS}
[ -x "$rt" ] || { echo "run_check.sh: $rt is not an executable test runner" >&2; exit 2; }

if [ -n "${CK_RUN_SUITE:-}" ]; then
    exec "$rt"
fi

jobs=${CHECK_JOBS:-}
if [ -z "$jobs" ]; then
    jobs=$(nproc 2>/dev/null || echo 1)
fi
case $jobs in
    ''|*[!0-9]*) echo "run_check.sh: CHECK_JOBS must be a decimal number of processes (1..256)" >&2; exit 2 ;;
esac
if [ "${#jobs}" -gt 3 ] || [ "$jobs" -lt 1 ] || [ "$jobs" -gt 256 ]; then
    echo "run_check.sh: CHECK_JOBS must be between 1 and 256" >&2
    exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/attnrank-check.XXXXXX") || { echo "run_check.sh: cannot create a log directory" >&2; exit 2; }
trap 'rm -rf "$dir"' EXIT INT TERM

"$rt" --list > "$dir/names" || { echo "run_check.sh: $rt --list failed" >&2; exit 2; }
while IFS= read -r s; do
    case $s in
        ''|*[!a-z0-9_]*) echo "run_check.sh: unexpected suite name from $rt --list" >&2; exit 2 ;;
    esac
done < "$dir/names"

# longest first (measured: bench/results/check_times.txt), then the rest in order
: > "$dir/order"
for s in merge ppocr cert_poly cert_ball merge_forged calib_cli calib route export_heads \
         cert_circulant cli_route ball cli python cert_ball_harmonic sphere; do
    grep -qx "$s" "$dir/names" && echo "$s" >> "$dir/order"
done
grep -vxF -f "$dir/order" "$dir/names" >> "$dir/order" || true

export dir rt
xargs -P "$jobs" -n 1 sh -c '
    s=$1
    t0=$(date +%s.%N)
    rc=0
    CK_RUN_SUITE=$s "$rt" > "$dir/$s.log" 2>&1 || rc=$?
    t1=$(date +%s.%N)
    echo "$rc" > "$dir/$s.rc"
    sum=$(grep -E "^[0-9]+%: Checks: " "$dir/$s.log" | tail -n 1)
    printf "check: %-22s %s (%s s)\n" "$s" "${sum:-no summary, exit $rc}" "$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")"
' sh < "$dir/order"

total=0; fails=0; errs=0; bad=0
while IFS= read -r s; do
    cat "$dir/$s.log"
    rc=$(cat "$dir/$s.rc" 2>/dev/null || echo 1)
    line=$(grep -E "^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+" "$dir/$s.log" | tail -n 1 || true)
    if [ -z "$line" ]; then
        echo "run_check.sh: suite $s printed no summary (exit status $rc)"
        bad=1
        continue
    fi
    n=$(echo "$line" | sed 's/.*Checks: \([0-9]*\),.*/\1/')
    f=$(echo "$line" | sed 's/.*Failures: \([0-9]*\),.*/\1/')
    e=$(echo "$line" | sed 's/.*Errors: \([0-9]*\).*/\1/')
    total=$((total + n)); fails=$((fails + f)); errs=$((errs + e))
    [ "$rc" = 0 ] || bad=1
done < "$dir/names"

pct=0
[ "$total" -gt 0 ] && pct=$(( (total - fails - errs) * 100 / total ))
echo "$pct%: Checks: $total, Failures: $fails, Errors: $errs"
[ "$fails" = 0 ] && [ "$errs" = 0 ] && [ "$bad" = 0 ]
