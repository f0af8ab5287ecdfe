#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/claim_B_sweeps.sh -- claim-B sweeps (ball with Gaussian multiplicities)
# and the sphere-vs-ball chart recorded in bench/results/claim_B/.
# Usage: sh bench/claim_B_sweeps.sh [attnrank]   (needs gnuplot for the chart)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-bin/attnrank}
out="$here/results/claim_B"
mkdir -p "$out"
# full disk (rho0 = 0): lower ends and the circle packing on the same grid
"$bin" scale --claim B --d 2 --beta 100:10000:5 --eps 0.1 --rho0 0 --format tsv > "$out/d2_disk.tsv"
# the abstract's annulus |x|^2 in [3/4, 1]
"$bin" scale --claim B --d 2 --beta 300:10000:4 --eps 0.1 --format tsv > "$out/d2_annulus.tsv"
# upper ends: dense weighted disk (2000 distinct points)
"$bin" scale --claim B --d 2 --beta 50:200:4 --eps 0.1 --rho0 0 --upper --npoints 2000 --no-sphere \
    --format tsv > "$out/d2_disk_upper.tsv"
# unweighted disk: the law does not appear
"$bin" scale --claim B --d 2 --beta 50:200:4 --eps 0.1 --rho0 0 --upper --npoints 2000 --no-sphere \
    --unweighted --format tsv > "$out/d2_disk_unweighted.tsv"
# d = 3 full ball and shell
"$bin" scale --claim B --d 3 --beta 100:1000:3 --eps 0.1 --rho0 0 --format tsv > "$out/d3_ball.tsv"
"$bin" scale --claim B --d 3 --beta 10:100:4 --eps 0.1 --rho0 0 --upper --npoints 2000 --no-sphere \
    --format tsv > "$out/d3_ball_upper.tsv"
if command -v gnuplot > /dev/null 2>&1; then
    cat > "$out/claim_B.gp" <<GP
set terminal svg size 1100,600 dynamic noenhanced
set output "$out/claim_B.svg"
set logscale xy
set key outside right
set grid
set xlabel "beta"
set ylabel "certified bound on rank_eps"
set title "sphere vs ball (d = 2, eps = 0.1): circle packings ~ sqrt(beta), weighted disk ~ beta"
plot "$out/d2_disk.tsv" using 1:2 with linespoints pt 7 title "disk, Gaussian multiplicities: lower", \
     "$out/d2_annulus.tsv" using 1:2 with linespoints pt 5 title "annulus |x|^2 in [3/4,1]: lower", \
     "$out/d2_disk_upper.tsv" using 1:3 with linespoints pt 6 title "weighted disk lattice: upper", \
     "$out/d2_disk_unweighted.tsv" using 1:3 with linespoints pt 4 title "unweighted disk lattice: upper", \
     "$out/d2_disk.tsv" using 1:4 with linespoints pt 9 title "circle packing (sphere S^1): lower", \
     x title "beta" dt 2, 4.5*sqrt(x) title "4.5 sqrt(beta)" dt 3
set terminal pngcairo size 1100,600 noenhanced
set output "$out/claim_B.png"
replot
GP
    gnuplot "$out/claim_B.gp"
fi
