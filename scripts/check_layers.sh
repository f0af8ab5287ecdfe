#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check_layers.sh -- the layers point down only.
#
# Every project #include of a library or CLI source must name a room of the
# same rank or lower in this order (README "How it is built"):
#
#   base < numerics < constructions/pointsets < constructions/formats
#            < constructions/models < theory/spectra < theory/certificates
#            < theory/brackets < theory/heads < theory/claims < sweeps
#            < api (with include, the public header) < cli
#
# base holds what every room needs and nothing mathematical (status and
# errors, the configuration, environment reads, number parsing, paths, file
# input, pins and digests, clocks, version, cancellation, threads); numerics
# holds the mathematical kernels and knows nothing of the paper; constructions never computes a rank;
# theory owns the inequalities; sweeps runs, shards and merges the sweeps;
# api is the public C API (include/attnrank.h) over all of them.  The CLI is
# a client of the API: a file in cli/ may include only cli/, include/, base/
# and numerics/ headers, and for the sweeps their typed interface:
# sweeps/sweep_spec.h (the specs it fills from its options),
# sweeps/sweep_result.h (the results it prints), sweeps/sweeps.h (the run)
# and api/api_sweeps.h (the sweeps run at the boundary); never theory/,
# constructions/, the rest of sweeps/ or api/.
#
# No include cycle between modules (a module is x.c with its x.h and its
# private x_impl.h, shared by the x_*.c files that split it): the graph
# of "module includes another module's header" must sort topologically
# (tsort), else the cycle is printed and the check fails.
# Prints each offending include and exits 1; exits 0 when every include
# points down or sideways.  Usage: sh scripts/check_layers.sh
set -eu
cd "$(dirname "$0")/.."
files=$(find base numerics constructions theory sweeps api include cli -name '*.[ch]' | sort)
[ -n "$files" ] || { echo "check_layers: no sources found" >&2; exit 1; }
nfiles=$(printf '%s\n' "$files" | wc -l)
edges=$(mktemp)
trap 'rm -f "$edges" "$edges.err" "$edges.h"' EXIT
printf '%s\n' $files | grep '\.h$' > "$edges.h" || true
# one pass over every include: "FILE:LINE" from grep, judged in awk (rank(), the CLI's
# allowed list); the module edges go to $edges for tsort
bad=0
# shellcheck disable=SC2086
grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files /dev/null | awk -v edges="$edges" -v hdrs="$edges.h" '
function rank(room) {
    if (room == "base") return 0
    if (room == "numerics") return 1
    if (room == "constructions/pointsets") return 2
    if (room == "constructions/formats") return 3
    if (room == "constructions/models") return 4
    if (room == "theory/spectra") return 5
    if (room == "theory/certificates") return 6
    if (room == "theory/brackets") return 7
    if (room == "theory/heads") return 8
    if (room == "theory/claims") return 9
    if (room == "sweeps") return 10
    if (room == "api" || room == "include") return 11
    if (room == "cli") return 12
    return -1
}
function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
BEGIN { while ((getline h < hdrs) > 0) ishdr[h] = 1; bad = 0 }
{
    f = $0; sub(/:.*/, "", f)
    inc = $0; sub(/^[^:]*:[[:space:]]*#[[:space:]]*include[[:space:]]*"/, "", inc); sub(/".*/, "", inc)
    room = dir(f); r = rank(room)
    if (r < 0) { if (!(f in noroom)) { print "check_layers: " f " is in no known room (" room ")" > "/dev/stderr"; bad = 1 }; noroom[f] = 1; next }
    m = f; sub(/\.[ch]$/, "", m); sub(/_impl$/, "", m)
    if (inc ~ /\//) t = inc; else t = room "/" inc
    sub(/\.h$/, "", t)
    if ((t ".h") in ishdr) { sub(/_impl$/, "", t); if (t != m) print m " " t > edges }
    if (inc !~ /\//) next                       # same-folder private headers
    target = dir(inc); tr = rank(target)
    if (tr < 0) { print "check_layers: " f " includes " inc ", in no known room" > "/dev/stderr"; bad = 1 }
    else if (tr > r) { print "check_layers: " f " (" room ") includes " inc " (" target "): points up" > "/dev/stderr"; bad = 1 }
    else if (room == "cli") {
        if (inc == "sweeps/sweep_spec.h" || inc == "sweeps/sweep_result.h" || inc == "sweeps/sweeps.h" || inc == "api/api_sweeps.h") next
        if (target != "cli" && target != "include" && target != "base" && target != "numerics") {
            print "check_layers: " f " includes " inc ": the CLI calls the public API only (include/attnrank.h)" > "/dev/stderr"; bad = 1
        }
    }
}
END { close(edges); exit bad }' || bad=1
# files in no known room that include nothing
for f in $files; do
    case "${f%/*}" in
    base | numerics | constructions/pointsets | constructions/formats | constructions/models | theory/spectra | \
        theory/certificates | theory/brackets | theory/heads | theory/claims | sweeps | api | include | cli) ;;
    *) grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" ||
           { echo "check_layers: $f is in no known room (${f%/*})" >&2; bad=1; } ;;
    esac
done
touch "$edges"
if ! tsort "$edges" > /dev/null 2> "$edges.err"; then
    echo "check_layers: include cycle between modules:" >&2
    grep -v 'input contains a loop' "$edges.err" | sed 's/^tsort: /  /' >&2
    bad=1
fi
[ "$bad" -eq 0 ] && echo "check_layers: $nfiles sources, every include points down, no include cycle; cli/ includes only the API, base, numerics and the sweeps' typed interface"
exit "$bad"
