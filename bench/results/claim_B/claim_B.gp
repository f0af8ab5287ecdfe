# SPDX-License-Identifier: GPL-3.0-or-later
set terminal svg size 1100,600 dynamic noenhanced
set output "/work/wt-ballb/bench/results/claim_B/claim_B.svg"
set logscale xy
set key outside right
set grid
set xlabel "beta"
set ylabel "certified bound on rank_eps"
set title "sphere vs ball (d = 2, eps = 0.1): circle packings ~ sqrt(beta), weighted disk ~ beta"
plot "/work/wt-ballb/bench/results/claim_B/d2_disk.tsv" using 1:2 with linespoints pt 7 title "disk, Gaussian multiplicities: lower",      "/work/wt-ballb/bench/results/claim_B/d2_annulus.tsv" using 1:2 with linespoints pt 5 title "annulus |x|^2 in [3/4,1]: lower",      "/work/wt-ballb/bench/results/claim_B/d2_disk_upper.tsv" using 1:3 with linespoints pt 6 title "weighted disk lattice: upper",      "/work/wt-ballb/bench/results/claim_B/d2_disk_unweighted.tsv" using 1:3 with linespoints pt 4 title "unweighted disk lattice: upper",      "/work/wt-ballb/bench/results/claim_B/d2_disk.tsv" using 1:4 with linespoints pt 9 title "circle packing (sphere S^1): lower",      x title "beta" dt 2, 4.5*sqrt(x) title "4.5 sqrt(beta)" dt 3
set terminal pngcairo size 1100,600 noenhanced
set output "/work/wt-ballb/bench/results/claim_B/claim_B.png"
replot
