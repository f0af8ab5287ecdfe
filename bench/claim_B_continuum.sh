#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/claim_B_continuum.sh -- the shells-continuum upper certificate of claim B
# (proofs-notes/claim-B.md section 8): its rank against the dense SVD route of
# weighted lattices where both run, its cost per point, and how the rank moves
# with the radial spacing.  Writes bench/results/claim_B_continuum.md.
# Usage: sh bench/claim_B_continuum.sh [attnrank]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-bin/attnrank}
out="$here/results/claim_B_continuum.md"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
load=$(cut -d' ' -f1-3 /proc/loadavg)
json() {   # json KEY: the value of KEY in the JSON line on stdin
    python3 -c 'import json,sys; d=json.loads(sys.stdin.readline()); print(d[sys.argv[1]])' "$1"
}
cont() {   # cont D BETA HS: "rank seconds-of-the-certificate" of the shells continuum
    "$bin" scale --claim B --d "$1" --beta "$2:$2:1" --eps 0.1 --rho0 0 --continuum --hs "$3" --no-sphere \
        --format json 2>/dev/null | python3 -c '
import json, re, sys
d = json.loads(sys.stdin.readline())
m = re.search(r"continuum: (\d+) spheres, h sqrt\(beta\) = ([0-9.]+), err ([0-9.]+) \(([0-9.]+) s\)", d["note"])
print(d["continuum"], m.group(1), m.group(2), m.group(3), m.group(4), d["lower"], d["lower_certificate"])'
}
{
    echo "# Claim B: the shells-continuum upper certificate"
    echo
    echo "Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $cpu; load average at start: $load"
    echo "(eps = 0.1, full ball rho0 = 0, Gaussian multiplicities; \`sh bench/claim_B_continuum.sh\` reruns it)."
    echo
    echo "## Against the dense route of weighted lattices (same ball, same eps)"
    echo
    echo "The lattice bracket is \`attnrank bracket --geometry ball --family dense --npoints 2000 --rho0 0\`"
    echo "(dense SVD / eigen certificates of about 2000 distinct points); the continuum is"
    echo "the shells continuum at radial spacing 0.5 kernel widths."
    echo
    echo "| d | beta | lattice upper (2000 points) | lattice h sqrt(beta) | continuum rank | continuum / lattice |"
    echo "|---|---|---|---|---|---|"
    for spec in "2 30" "2 60" "2 100" "3 20" "3 40" "3 60"; do
        set -- $spec
        lat=$("$bin" bracket --geometry ball --family dense --d "$1" --beta "$2" --eps 0.1 --rho0 0 --npoints 2000 \
              --format json 2>/dev/null | json upper)
        if [ "$1" = 2 ]; then h=$(python3 -c "import math; print('%.2f' % (math.sqrt(math.pi/2000)*math.sqrt($2)))")
        else h=$(python3 -c "import math; print('%.2f' % ((4*math.pi/3/2000)**(1/3)*math.sqrt($2)))"); fi
        set -- $1 $2 $(cont "$1" "$2" 0.5)
        echo "| $1 | $2 | $lat | $h | $3 | $(python3 -c "print('%.2f' % ($3/$lat))") |"
    done
    echo
    echo "## Cost per point and the law's window"
    echo
    echo "| d | beta | spheres Q | h sqrt(beta) | continuum rank | certified err | certificate seconds | shells lower (certificate) | continuum / lower |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for spec in "3 100" "3 160" "3 250" "3 400" "3 600" "2 100" "2 200" "2 500" "2 1000" "4 20" "4 40" "4 80"; do
        set -- $spec
        set -- $1 $2 $(cont "$1" "$2" 0.5)
        echo "| $1 | $2 | $4 | $5 | $3 | $6 | $7 | $8 ($9) | $(python3 -c "print('%.2f' % ($3/$8))") |"
    done
    echo
    echo "## Radial spacing: how far the shells continuum is from the fully continuous ball"
    echo
    echo "| d | beta | h sqrt(beta) requested | spheres Q | continuum rank |"
    echo "|---|---|---|---|---|"
    for spec in "3 60 1.0" "3 60 0.5" "3 60 0.35" "3 60 0.25" "3 60 0.15" "3 250 0.5" "3 250 0.25" "2 100 0.5" "2 100 0.25" "2 100 0.15"; do
        set -- $spec
        set -- $1 $2 $3 $(cont "$1" "$2" "$3")
        echo "| $1 | $2 | $3 | $5 | $4 |"
    done
} > "$out"
cat "$out"
