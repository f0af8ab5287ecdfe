#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check_layers.sh -- the layers point down only.
#
# Every project #include of a library or CLI source must name a room of the
# same rank or lower in this order (README "How it is built"):
#
#   numerics < constructions/pointsets < constructions/formats
#            < constructions/models < theory/spectra < theory/certificates
#            < theory/brackets < theory/heads < theory/claims < sweeps
#            < api (with include, the public header) < cli
#
# numerics knows nothing of the paper; constructions never computes a rank;
# theory owns the inequalities; sweeps runs, shards and merges the sweeps;
# api is the public C API (include/attnrank.h) over all of them.  The CLI is
# a client of the API: a file in cli/ may include only cli/, include/ and
# numerics/ headers (status, parse, args, envvar, version, text output), and
# for the sweeps their typed interface: sweeps/sweep_spec.h (the specs it
# fills from its options), sweeps/sweep_result.h (the results it prints),
# sweeps/sweeps.h (the run) and api/api_sweeps.h
# (the sweeps run at the boundary); never theory/, constructions/, the rest
# of sweeps/ or api/.
# Prints each offending include and exits 1; exits 0 when every include
# points down or sideways.  Usage: sh scripts/check_layers.sh
set -eu
cd "$(dirname "$0")/.."
rank() {
    case "$1" in
    numerics) echo 0 ;;
    constructions/pointsets) echo 1 ;;
    constructions/formats) echo 2 ;;
    constructions/models) echo 3 ;;
    theory/spectra) echo 4 ;;
    theory/certificates) echo 5 ;;
    theory/brackets) echo 6 ;;
    theory/heads) echo 7 ;;
    theory/claims) echo 8 ;;
    sweeps) echo 9 ;;
    api | include) echo 10 ;;
    cli) echo 11 ;;
    *) echo -1 ;;
    esac
}
bad=0
nfiles=0
for f in $(find numerics constructions theory sweeps api include cli -name '*.[ch]' | sort); do
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
            cli | include | numerics) ;;
            *) echo "check_layers: $f includes $inc: the CLI calls the public API only (include/attnrank.h)" >&2
               bad=1 ;;
            esac
        fi
    done
done
[ "$nfiles" -gt 0 ] || { echo "check_layers: no sources found" >&2; exit 1; }
[ "$bad" -eq 0 ] && echo "check_layers: $nfiles sources, every include points down; cli/ includes only the API, numerics and the sweeps' typed interface"
exit "$bad"
