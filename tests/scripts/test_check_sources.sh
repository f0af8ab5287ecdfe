#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_check_sources.sh -- the two source checks of make check-run can fail:
# scripts/check_lib_symbols.sh refuses an archive whose object calls printf,
# exit, abort, setenv or an exec function, or touches stdout/stderr (exit 1, the
# object and symbol named), accepts one that writes only to a FILE* it is given
# (exit 0), and says exit 2 for a missing archive; scripts/check_layers.sh
# refuses an include that points up, a CLI include of theory/, and an include
# cycle between modules (on a copy of the tree with one planted include).
# Usage: sh tests/scripts/test_check_sources.sh   (exit 1 on a failure, naming it)
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/attnrank-srcchk.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
n=0
fail() {
    echo "test_check_sources: $*"
    fails=$((fails + 1))
}
CC=${CC:-cc}

# ---- check_lib_symbols.sh ----
# lib_case NAME EXPECTED_RC GREP C-SOURCE: an archive of one object from C-SOURCE
lib_case() {
    n=$((n + 1))
    printf '%s\n' "$4" > "$tmp/$1.c"
    if ! $CC -c -o "$tmp/$1.o" "$tmp/$1.c" 2> "$tmp/cc.err"; then
        fail "$1: the test object does not compile: $(head -1 "$tmp/cc.err")"
        return
    fi
    rm -f "$tmp/$1.a"
    ar rcs "$tmp/$1.a" "$tmp/$1.o"
    sh scripts/check_lib_symbols.sh "$tmp/$1.a" > "$tmp/out" 2>&1
    rc=$?
    [ "$rc" = "$2" ] || fail "$1: exit $rc, expected $2: $(cat "$tmp/out")"
    [ -z "$3" ] || grep -q "$3" "$tmp/out" || fail "$1: output does not name '$3': $(cat "$tmp/out")"
}
lib_case clean 0 "reference no printing" '#include <stdio.h>
int w(FILE *f, int x) { return fprintf(f, "%d\n", x); }'
lib_case printf 1 "printf.o: printf" '#include <stdio.h>
int w(int x, int y) { return printf("%d %d\n", x, y); }'
lib_case stdout 1 "stdout.o: stdout" '#include <stdio.h>
int w(int x) { return fprintf(stdout, "%d\n", x); }'
lib_case stderr 1 "stderr.o: stderr" '#include <stdio.h>
int w(int x) { return fputc(x, stderr); }'
lib_case exit 1 "exit.o: exit" '#include <stdlib.h>
void w(int x) { if (x) exit(x); }'
lib_case abort 1 "abort.o: abort" '#include <stdlib.h>
void w(int x) { if (x) abort(); }'
lib_case setenv 1 "setenv.o: setenv" '#include <stdlib.h>
int w(const char *v) { return setenv("X", v, 1); }'
lib_case execv 1 "execv.o: execv" '#include <unistd.h>
int w(char **a) { return execv("/proc/self/exe", a); }'
n=$((n + 1))
sh scripts/check_lib_symbols.sh "$tmp/no-such.a" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "missing archive: exit $rc, expected 2"

# ---- check_layers.sh, on a copy of the sources ----
copy() {
    rm -rf "$tmp/tree"
    mkdir -p "$tmp/tree/scripts"
    cp scripts/check_layers.sh "$tmp/tree/scripts/"
    (cd "$root" && tar cf - base numerics constructions theory sweeps api include cli) | (cd "$tmp/tree" && tar xf -)
}
# layers_case NAME GREP FILE INCLUDE: FILE gets '#include "INCLUDE"' appended; the check must fail naming GREP
layers_case() {
    n=$((n + 1))
    copy
    printf '#include "%s"\n' "$4" >> "$tmp/tree/$3"
    sh "$tmp/tree/scripts/check_layers.sh" > "$tmp/out" 2>&1
    rc=$?
    [ "$rc" = 1 ] || fail "check_layers $1: exit $rc, expected 1"
    grep -q "$2" "$tmp/out" || fail "check_layers $1: output does not name '$2': $(cat "$tmp/out")"
}
n=$((n + 1))
copy
sh "$tmp/tree/scripts/check_layers.sh" > "$tmp/out" 2>&1 || fail "check_layers on the unchanged copy: $(cat "$tmp/out")"
layers_case up "points up" numerics/kdtree.c theory/claims/laws.h
layers_case cli "the CLI calls the public API only" cli/table.c theory/claims/laws.h
n=$((n + 1))
copy
mkdir -p "$tmp/tree/theory/misc"
printf '#include "base/status.h"\n' > "$tmp/tree/theory/misc/x.c"
sh "$tmp/tree/scripts/check_layers.sh" > "$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "theory/misc/x.c is in no known room" "$tmp/out" ||
    fail "check_layers room: exit $rc: $(cat "$tmp/out")"
# base/status.c includes base/config.h, so config including status closes a cycle
grep -q '#include "base/config.h"' base/status.c ||
    fail "check_layers cycle: base/status.c no longer includes base/config.h; plant another cycle"
layers_case cycle "include cycle" base/config.c base/status.h

[ "$fails" -eq 0 ] || { echo "test_check_sources: $fails of $n cases failed"; exit 1; }
echo "test_check_sources: $n cases passed (check_lib_symbols.sh, check_layers.sh)"
