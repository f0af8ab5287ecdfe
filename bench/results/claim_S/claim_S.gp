# SPDX-License-Identifier: GPL-3.0-or-later
set terminal svg size 1150,650 dynamic font 'Helvetica,13'
set output 'bench/results/claim_S/claim_S.svg'
set logscale xy
set grid
set key outside right top
set xlabel '1 + beta'
set ylabel 'certified eps-rank bracket'
set title 'claim S: certified eps-rank (eps = 0.1) vs (1+beta), slopes (d-1)/2'
plot \
  'bench/results/claim_S/claim_S.dat' index 0 using 1:2 with linespoints pt 7 lc rgb '#1b9e77' title 'd=2 lower', \
  'bench/results/claim_S/claim_S.dat' index 0 using 1:3 with linespoints pt 6 lc rgb '#1b9e77' title 'd=2 upper (instance)', \
  'bench/results/claim_S/claim_S.dat' index 0 using 1:(4.4861999871745137*$1**0.5) with lines dt 2 lc rgb '#1b9e77' title 'slope 0.5', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:2 with linespoints pt 7 lc rgb '#d95f02' title 'd=3 lower', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:3 with linespoints pt 6 lc rgb '#d95f02' title 'd=3 upper (instance)', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:4 with linespoints pt 2 dt 3 lc rgb '#d95f02' title 'd=3 upper (continuum)', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:(2.4842978439947139*$1**1) with lines dt 2 lc rgb '#d95f02' title 'slope 1', \
  'bench/results/claim_S/claim_S.dat' index 2 using 1:2 with linespoints pt 7 lc rgb '#7570b3' title 'd=4 lower', \
  'bench/results/claim_S/claim_S.dat' index 2 using 1:4 with linespoints pt 2 dt 3 lc rgb '#7570b3' title 'd=4 upper (continuum)', \
  'bench/results/claim_S/claim_S.dat' index 2 using 1:(1.4523144680515498*$1**1.5) with lines dt 2 lc rgb '#7570b3' title 'slope 1.5', \
  'bench/results/claim_S/claim_S.dat' index 3 using 1:2 with linespoints pt 7 lc rgb '#e7298a' title 'd=5 lower', \
  'bench/results/claim_S/claim_S.dat' index 3 using 1:4 with linespoints pt 2 dt 3 lc rgb '#e7298a' title 'd=5 upper (continuum)', \
  'bench/results/claim_S/claim_S.dat' index 3 using 1:(0.73012287778631868*$1**2) with lines dt 2 lc rgb '#e7298a' title 'slope 2'
unset output
set terminal pngcairo size 1150,650 font 'Helvetica,11'
set output 'bench/results/claim_S/claim_S.png'
set logscale xy
set grid
set key outside right top
set xlabel '1 + beta'
set ylabel 'certified eps-rank bracket'
set title 'claim S: certified eps-rank (eps = 0.1) vs (1+beta), slopes (d-1)/2'
plot \
  'bench/results/claim_S/claim_S.dat' index 0 using 1:2 with linespoints pt 7 lc rgb '#1b9e77' title 'd=2 lower', \
  'bench/results/claim_S/claim_S.dat' index 0 using 1:3 with linespoints pt 6 lc rgb '#1b9e77' title 'd=2 upper (instance)', \
  'bench/results/claim_S/claim_S.dat' index 0 using 1:(4.4861999871745137*$1**0.5) with lines dt 2 lc rgb '#1b9e77' title 'slope 0.5', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:2 with linespoints pt 7 lc rgb '#d95f02' title 'd=3 lower', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:3 with linespoints pt 6 lc rgb '#d95f02' title 'd=3 upper (instance)', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:4 with linespoints pt 2 dt 3 lc rgb '#d95f02' title 'd=3 upper (continuum)', \
  'bench/results/claim_S/claim_S.dat' index 1 using 1:(2.4842978439947139*$1**1) with lines dt 2 lc rgb '#d95f02' title 'slope 1', \
  'bench/results/claim_S/claim_S.dat' index 2 using 1:2 with linespoints pt 7 lc rgb '#7570b3' title 'd=4 lower', \
  'bench/results/claim_S/claim_S.dat' index 2 using 1:4 with linespoints pt 2 dt 3 lc rgb '#7570b3' title 'd=4 upper (continuum)', \
  'bench/results/claim_S/claim_S.dat' index 2 using 1:(1.4523144680515498*$1**1.5) with lines dt 2 lc rgb '#7570b3' title 'slope 1.5', \
  'bench/results/claim_S/claim_S.dat' index 3 using 1:2 with linespoints pt 7 lc rgb '#e7298a' title 'd=5 lower', \
  'bench/results/claim_S/claim_S.dat' index 3 using 1:4 with linespoints pt 2 dt 3 lc rgb '#e7298a' title 'd=5 upper (continuum)', \
  'bench/results/claim_S/claim_S.dat' index 3 using 1:(0.73012287778631868*$1**2) with lines dt 2 lc rgb '#e7298a' title 'slope 2'
unset output
