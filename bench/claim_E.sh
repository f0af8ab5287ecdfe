#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/claim_E.sh -- claim E on the two real models and on a user's model:
#   calib.tsv              `attnrank calib --model all --format tsv` (USE lite 8 heads x 72 sentences,
#                          PP-OCRv4 16 heads x 24 text lines, 4 scales each), with its wall time
#   calib.json             the same run as JSON lines (the per-setting counts of inputs where an
#                          uncertified measure lies outside the certified bracket; BENCH_JSON=0 skips it)
#   ppocr_vs_onnxruntime.txt  the C recogniser against onnxruntime on every text line (the Check suite
#                          `ppocr`, which prints the maximal relative errors of h, q, k and attention)
#   user_model.tsv         scripts/export_heads.py --demo (a random 4-layer nn.TransformerEncoder) and
#                          `attnrank calib --manifest` on it, each with its wall time
#   claim_E.svg/.png       mean certified upper end against the mean reduction 1 - r(0.1)/dh per setting
# Needs `make calib-data`, `make build/tests/run_tests` and python3-torch.
# Usage: sh bench/claim_E.sh [attnrank]     PLOT_ONLY=1 redraws the plot from calib.tsv.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-bin/attnrank}
out="$here/results/claim_E"
mkdir -p "$out"
stamp=$(date -u +%Y-%m-%dT%H:%MZ)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
head="# run $stamp on $(nproc) cores, $cpu"
now() { date +%s.%N; }
if [ -z "${PLOT_ONLY:-}" ]; then
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    t0=$(now)
    "$bin" calib --model all --format tsv > "$out/calib.tsv.tmp"
    t1=$(now)
    { echo "$head; load average at start $load (other jobs share the machine)"; cat "$out/calib.tsv.tmp";
      echo "# wall seconds (whole command, both models, model loads and forward passes included) $(echo "$t1 - $t0" | bc)"; } > "$out/calib.tsv"
    rm -f "$out/calib.tsv.tmp"
    [ "${BENCH_JSON:-1}" = 0 ] || "$bin" calib --model all --format json > "$out/calib.json"

    load=$(cut -d' ' -f1-3 /proc/loadavg)
    { echo "$head; load average at start $load"; echo "# CK_RUN_SUITE=ppocr build/tests/run_tests";
      (cd "$root" && CK_RUN_SUITE=ppocr build/tests/run_tests 2>&1); } > "$out/ppocr_vs_onnxruntime.txt"

    tmp=$(mktemp -d)
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    t0=$(now)
    /usr/bin/python3 "$root/scripts/export_heads.py" --demo "$tmp" --layers 4 --inputs 6 --check > "$tmp/export.log"
    t1=$(now)
    "$bin" calib --manifest "$tmp/manifest.json" --format tsv > "$tmp/calib.tsv"
    t2=$(now)
    { echo "$head; load average at start $load"
      echo "# /usr/bin/python3 scripts/export_heads.py --demo DIR --layers 4 --inputs 6 --check: $(echo "$t1 - $t0" | bc) s"
      sed 's/^/# /' "$tmp/export.log"
      echo "# attnrank calib --manifest DIR/manifest.json --format tsv: $(echo "$t2 - $t1" | bc) s"
      cat "$tmp/calib.tsv"; } > "$out/user_model.tsv"
    rm -rf "$tmp"
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
set title "claim E: USE lite (72 sentences) and PP-OCRv4 (24 text lines)"
set grid
f = "$out/calib.tsv"
plot f every ::1 using (strcol(1) eq "use-lite" && \$2 == 0 ? \$10 : 1/0):13 with points pt 7 ps 1.2 title "USE lite layer 0 (dh 64)", \
     f every ::1 using (strcol(1) eq "use-lite" && \$2 == 1 ? \$10 : 1/0):13 with points pt 5 ps 1.2 title "USE lite layer 1 (dh 128)", \
     f every ::1 using (strcol(1) eq "pp-ocrv4" && \$2 == 0 ? \$10 : 1/0):13 with points pt 9 ps 1.2 title "PP-OCRv4 block 0 (dh 15)", \
     f every ::1 using (strcol(1) eq "pp-ocrv4" && \$2 == 1 ? \$10 : 1/0):13 with points pt 11 ps 1.2 title "PP-OCRv4 block 1 (dh 15)"
GP
}
plot "svg size 900,520" "$out/claim_E.svg"
plot "pngcairo size 900,520" "$out/claim_E.png" 2>/dev/null || rm -f "$out/claim_E.png"
