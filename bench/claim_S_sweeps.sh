#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/claim_S_sweeps.sh -- the claim-S sweep tables (d = 2..5) and the plot
# recorded in bench/results/claim_S/.  Usage: sh bench/claim_S_sweeps.sh [attnrank]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-bin/attnrank}
out="$here/results/claim_S"
mkdir -p "$out"
"$bin" scale --claim S --d 2 --beta 10:100000:9 --eps 0.1 --format tsv > "$out/d2.tsv"
"$bin" scale --claim S --d 3 --beta 10:1000:7 --eps 0.1 --continuum --format tsv > "$out/d3.tsv"
"$bin" scale --claim S --d 4 --beta 10:500:6 --eps 0.1 --no-instance --continuum --format tsv > "$out/d4.tsv"
"$bin" scale --claim S --d 5 --beta 10:100:4 --eps 0.1 --no-instance --continuum --format tsv > "$out/d5.tsv"
"$bin" plot --input "$out/d2.tsv,$out/d3.tsv,$out/d4.tsv,$out/d5.tsv" --out "$out/claim_S" \
    --title "claim S: certified eps-rank (eps = 0.1) vs (1+beta), slopes (d-1)/2"
