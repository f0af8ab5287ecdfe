#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check_spdx.sh -- every tracked source file (C, headers, shell, Python,
# JavaScript, gnuplot, sbatch, the Makefile and the build's own text inputs)
# carries an "SPDX-License-Identifier:" line within its first three lines.
# The protoc-c bindings constructions/formats/onnx.pb-c.[ch] are exempt: they
# are kept byte-identical to the compiler's output (gen_onnx_pb.sh --check),
# generated from ONNX's onnx.proto (Apache-2.0; README "Licence").
# Usage: sh scripts/check_spdx.sh   (from anywhere; exit 1 naming each file
# that lacks the line, 0 otherwise; outside a git checkout it checks nothing
# and says so).
set -eu
cd "$(dirname "$0")/.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "check_spdx: not a git checkout, nothing to check"
    exit 0
fi
bad=0
n=0
for f in $(git ls-files -- '*.c' '*.h' '*.sh' '*.py' '*.js' '*.gp' '*.sbatch' '*.toml' '*.in' '*.map' \
           '*.supp' 'Makefile' '*.mk' '.ci/run'); do
    case "$f" in
        constructions/formats/onnx.pb-c.c|constructions/formats/onnx.pb-c.h) continue ;;
    esac
    [ -f "$f" ] || continue
    n=$((n + 1))
    if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: '; then
        echo "check_spdx: $f has no SPDX-License-Identifier line in its first 3 lines"
        bad=1
    fi
done
[ "$bad" = 0 ] && echo "check_spdx: all $n source files carry an SPDX line"
exit "$bad"
