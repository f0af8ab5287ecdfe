#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/python_overhead.sh -- the bracket of a 2000 x 2000 attention head from NumPy
# (python/attnrank through libattnrank.so) against `attnrank bracket` on the same
# matrices (.npy files), side by side in one run, alternating, REPS times each
# (default 3).  The head: queries and keys 2000 x 64, i.i.d. N(0, 1) entries
# (seed 1), beta 1/sqrt(64), eps 0.1, cross-attention.  Wall time of each whole
# process (interpreter, numpy import and library load included for Python; file
# reads included for the CLI) and the bracket's own `seconds`; the two results
# must agree field by field.  Usage: sh bench/python_overhead.sh [BIN] [REPS]
set -eu
bin=${1:-bin/attnrank}
reps=${2:-3}
py=/usr/bin/python3
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PYTHONPATH="$here/python" $py -c "
import numpy as np
g = np.random.default_rng(1)
np.save('$tmp/Q.npy', g.standard_normal((2000, 64)))
np.save('$tmp/K.npy', g.standard_normal((2000, 64)))"
now() { date +%s.%N; }
echo "# $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
printf "run\tclient\twall_s\tbracket_s\tlower\tupper\n"
for r in $(seq 1 "$reps"); do
    t0=$(now)
    "$bin" bracket --queries "$tmp/Q.npy" --keys "$tmp/K.npy" --beta 0.125 --eps 0.1 --format json > "$tmp/cli.json"
    t1=$(now)
    PYTHONPATH="$here/python" $py -c "
import json, attnrank, numpy as np
r = attnrank.bracket(np.load('$tmp/Q.npy'), np.load('$tmp/K.npy'), 0.125, 0.1)
j = json.load(open('$tmp/cli.json'))
bad = [k for k in ('lower', 'upper', 'status', 'lower_certificate', 'upper_certificate', 'upper_err_bound',
                   'lower_invnorm_bound', 'routes') if getattr(r, k) != j[k]]
assert not bad, bad
open('$tmp/py.txt', 'w').write('%.3f\t%d\t%d' % (r.seconds, r.lower, r.upper))"
    t2=$(now)
    cs=$($py -c "import json; j = json.load(open('$tmp/cli.json')); print('%.3f\t%d\t%d' % (j['seconds'], j['lower'], j['upper']))")
    printf "%s\tcli\t%.3f\t%s\n" "$r" "$(awk "BEGIN{print $t1 - $t0}")" "$cs"
    printf "%s\tpython\t%.3f\t%s\n" "$r" "$(awk "BEGIN{print $t2 - $t1}")" "$(cat "$tmp/py.txt")"
done
echo "# load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
