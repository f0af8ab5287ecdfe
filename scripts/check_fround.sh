#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check_fround.sh -- the rounding mode changes only in numerics/fround.c.
#
# GCC moves arithmetic across fesetround() even with -frounding-math (GCC bug
# 34678), so every directed-rounding computation goes through
# numerics/fround.h.  This check fails (exit 1) if any other library, CLI or
# bench source calls fesetround, or if any other built object references it.
# Usage: sh scripts/check_fround.sh [BUILD_DIR]   (default: build)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
bad=0
for f in $(find numerics theory constructions cli bench -name '*.[ch]' 2>/dev/null); do
    case "$f" in numerics/fround.c|numerics/fround.h) continue ;; esac
    if grep -n 'fesetround *(' "$f"; then
        echo "check_fround: $f calls fesetround (use numerics/fround.h)" >&2
        bad=1
    fi
done
nobj=0
for o in $(find "$build/numerics" "$build/theory" "$build/constructions" "$build/cli" -name '*.o' 2>/dev/null); do
    nobj=$((nobj + 1))
    case "$o" in */numerics/fround.o) continue ;; esac
    if nm -u "$o" | grep -qw fesetround; then
        echo "check_fround: $o references fesetround" >&2
        bad=1
    fi
done
if [ "$nobj" -eq 0 ]; then
    echo "check_fround: no objects under $build (build first)" >&2
    exit 1
fi
[ "$bad" -eq 0 ] && echo "check_fround: only numerics/fround.c changes the rounding mode ($nobj objects)"
exit "$bad"
