#!/bin/sh
# bench/claim_E.sh -- claim E on the real model: the full calibration table
# (bench/results/claim_E/calib.tsv, with its wall time) and a scatter plot of
# the mean certified upper bound against the effective-dimension reduction
# (claim_E.svg, claim_E.png when gnuplot can write PNG).
# Needs `make calib-data`.  Usage: sh bench/claim_E.sh [attnrank]
# PLOT_ONLY=1 redraws the plot from an existing calib.tsv.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-bin/attnrank}
out="$here/results/claim_E"
mkdir -p "$out"
stamp=$(date -u +%Y-%m-%dT%H:%MZ)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
load=$(cut -d' ' -f1 /proc/loadavg)
if [ -z "${PLOT_ONLY:-}" ]; then
    t0=$(date +%s.%N)
    "$bin" calib --format tsv > "$out/calib.tsv.tmp"
    t1=$(date +%s.%N)
    { echo "# run $stamp on $(nproc) cores, $cpu; load average at start $load"; cat "$out/calib.tsv.tmp";
      echo "# wall seconds (whole command, incl. model load) $(echo "$t1 - $t0" | bc)"; } > "$out/calib.tsv"
    rm -f "$out/calib.tsv.tmp"
fi
command -v gnuplot >/dev/null 2>&1 || { echo "claim_E: gnuplot absent, no plot" >&2; exit 0; }
plot() {   # plot TERMINAL FILE
    gnuplot <<GP
set terminal $1 noenhanced
set output "$2"
set datafile separator "\t"
set key outside right top
set xlabel "mean reduction 1 - r(tau)/dh  (tau = 0.1)"
set ylabel "mean certified upper bound of rank_eps (eps = 0.1)"
set title "claim E on USE lite: 8 heads x 4 scales, 72 sentences"
set grid
plot "$out/calib.tsv" every ::1 using (\$1 == 0 ? \$9 : 1/0):12 with points pt 7 ps 1.2 title "layer 0 (dh 64)", \
     "$out/calib.tsv" every ::1 using (\$1 == 1 ? \$9 : 1/0):12 with points pt 5 ps 1.2 title "layer 1 (dh 128)"
GP
}
plot "svg size 800,500" "$out/claim_E.svg"
plot "pngcairo size 800,500" "$out/claim_E.png" 2>/dev/null || rm -f "$out/claim_E.png"
