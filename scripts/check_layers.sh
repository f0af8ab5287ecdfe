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
rank() {
    case "$1" in
    base) echo 0 ;;
    numerics) echo 1 ;;
    constructions/pointsets) echo 2 ;;
    constructions/formats) echo 3 ;;
    constructions/models) echo 4 ;;
    theory/spectra) echo 5 ;;
    theory/certificates) echo 6 ;;
    theory/brackets) echo 7 ;;
    theory/heads) echo 8 ;;
    theory/claims) echo 9 ;;
    sweeps) echo 10 ;;
    api | include) echo 11 ;;
    cli) echo 12 ;;
    *) echo -1 ;;
    esac
}
bad=0
nfiles=0
for f in $(find base numerics constructions theory sweeps api include cli -name '*.[ch]' | sort); do
    nfiles=$((nfiles + 1))
    room=$(dirname "$f")
    r=$(rank "$room")
    if [ "$r" -lt 0 ]; then
        echo "check_layers: $f is in no known room ($room)" >&2
        bad=1
        continue
    fi
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        case "$inc" in */*) ;; *) continue ;; esac   # same-folder private headers
        target=$(dirname "$inc")
        t=$(rank "$target")
        if [ "$t" -lt 0 ]; then
            echo "check_layers: $f includes $inc, in no known room" >&2
            bad=1
        elif [ "$t" -gt "$r" ]; then
            echo "check_layers: $f ($room) includes $inc ($target): points up" >&2
            bad=1
        elif [ "$room" = cli ]; then
            case "$inc" in
            sweeps/sweep_spec.h | sweeps/sweep_result.h | sweeps/sweeps.h | api/api_sweeps.h) continue ;;
            esac
            case "$target" in
            cli | include | base | numerics) ;;
            *) echo "check_layers: $f includes $inc: the CLI calls the public API only (include/attnrank.h)" >&2
               bad=1 ;;
            esac
        fi
    done
done
[ "$nfiles" -gt 0 ] || { echo "check_layers: no sources found" >&2; exit 1; }

# the module graph: one edge "a b" when a file of module a includes module b's header
edges=$(mktemp)
trap 'rm -f "$edges" "$edges.err"' EXIT
for f in $(find base numerics constructions theory sweeps api include cli -name '*.[ch]' | sort); do
    room=$(dirname "$f")
    m=${f%.*}
    m=${m%_impl}
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        case "$inc" in */*) t=${inc%.h} ;; *) t=$room/${inc%.h} ;; esac
        [ -f "$t.h" ] || continue
        t=${t%_impl}
        [ "$t" = "$m" ] || echo "$m $t"
    done
done > "$edges"
if ! tsort "$edges" > /dev/null 2> "$edges.err"; then
    echo "check_layers: include cycle between modules:" >&2
    grep -v 'input contains a loop' "$edges.err" | sed 's/^tsort: /  /' >&2
    bad=1
fi
[ "$bad" -eq 0 ] && echo "check_layers: $nfiles sources, every include points down, no include cycle; cli/ includes only the API, base, numerics and the sweeps' typed interface"
exit "$bad"
