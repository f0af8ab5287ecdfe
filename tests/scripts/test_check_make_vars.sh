#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# test_check_make_vars.sh -- scripts/check_make_vars.sh, the check of the make
# variables a user sets (run by make check-run): good values pass silently;
# every kind of value it refuses is refused with its one line on stderr, exit 2,
# nothing on stdout, and a value's text never runs.  The same refusals through
# make itself: tests/cli/test_drivers.c (make_validates_variables) and
# python/tests/test_validation.py (make install's PREFIX and DESTDIR).
# Usage: sh tests/scripts/test_check_make_vars.sh   (from anywhere; exit 1 on a
# failure, naming it)
set -u
cd "$(dirname "$0")/../.."
script=scripts/check_make_vars.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/attnrank-mkvars.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
sentinel=$tmp/sentinel
fails=0
n=0

fail() {
    echo "test_check_make_vars: $*"
    fails=$((fails + 1))
}

# ok ARGS...: accepted (exit 0, no output)
ok() {
    n=$((n + 1))
    sh "$script" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" != 0 ] || [ -s "$tmp/out" ] || [ -s "$tmp/err" ]; then
        fail "accepted expected, got exit $rc: $* [$(cat "$tmp/out" "$tmp/err")]"
    fi
}

# refused MESSAGE ARGS...: exit 2, stdout empty, stderr exactly MESSAGE (one line)
refused() {
    n=$((n + 1))
    want=$1
    shift
    sh "$script" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    printf '%s\n' "$want" > "$tmp/want"
    if [ "$rc" != 2 ] || [ -s "$tmp/out" ] || ! cmp -s "$tmp/want" "$tmp/err"; then
        fail "refusal expected: $* -- exit $rc, stdout [$(cat "$tmp/out")], stderr [$(cat "$tmp/err")], wanted [$want]"
    fi
    [ ! -e "$sentinel" ] || fail "a value ran: $*"
}

NL='
'
TAB='	'
OUTSIDE='a value with characters outside [A-Za-z0-9._/+@-]'
M01='must be empty, 0 or 1, got'
MJOBS='must be empty or a decimal integer in 1..256 without leading zeros, got'
MPATH='must be a path of the characters [A-Za-z0-9._/+@-] only (no blanks, quotes or shell metacharacters)'
MLIST='must be paths of the characters [A-Za-z0-9._/+@-] separated by spaces'
MFUZZ='FUZZ_SECONDS must be a positive decimal integer without leading zeros, got'
MPREFIX='PREFIX must be an absolute path (starting with /; it is written into attnrank.pc), got'
MDEST='DESTDIR must be empty or an absolute path (starting with /), got'

# ---- accepted
ok
ok --verify --check --fuzz --install
ok SAN= SAN=0 WERROR=1 BUILD=build-asan BIN=/tmp/x/bin/attnrank+1@v-2_a BUILD=
ok TEST_SRC='tests/cli/test_cli.c  tests/api/test_api.c ' TEST_SRC=' ' TEST_SRC="$TAB$NL"
ok --verify CLAIM=S CLAIM=B CLAIM=R CLAIM=T CLAIM=E CLAIM= JOBS=1 JOBS=9 JOBS=10 JOBS=199 JOBS=249 JOBS=256 \
   VERIFY_FORMAT=text VERIFY_FORMAT=json VERIFY_FORMAT= RESUME=0 RESUME=1 TIER=default TIER=extended TIER=all TIER=
ok --check CHECK_JOBS=1 CHECK_JOBS=256 CHECK_JOBS=
ok --fuzz FUZZ_SECONDS=30 FUZZ_SECONDS=1 FUZZ_SECONDS=123456789012
ok --install PREFIX=/usr/local DESTDIR= DESTDIR=/tmp/stage PREFIX=/
# a group's variables are not checked without its goals
ok CLAIM=x JOBS=0 VERIFY_FORMAT=xml RESUME=2 TIER=x CHECK_JOBS=010 FUZZ_SECONDS=0 PREFIX= DESTDIR=rel
ok --check CLAIM=x FUZZ_SECONDS=x PREFIX=rel
ok --fuzz

# ---- refused: SAN, WERROR, RESUME (empty, 0 or 1)
refused "SAN $M01 '2'" SAN=2
refused "SAN $M01 '01'" SAN=01
refused "WERROR $M01 'yes'" WERROR=yes
refused "WERROR $M01 $OUTSIDE" WERROR=' 1'
refused "WERROR $M01 $OUTSIDE" WERROR="1$NL"
refused "SAN $M01 $OUTSIDE" SAN="1;touch $sentinel"
refused "SAN $M01 $OUTSIDE" SAN="\$(shell touch $sentinel)"
refused "RESUME $M01 'yes'" --verify RESUME=yes
# BUILD, BIN: paths
refused "BUILD $MPATH" BUILD="build;touch $sentinel"
refused "BUILD $MPATH" BUILD=' '
refused "BIN $MPATH" BIN='my bin'
refused "BIN $MPATH" BIN="a'b"
refused "BIN $MPATH" BIN='`touch x`'
refused "BIN $MPATH" BIN="b$TAB"
refused "BIN $MPATH" BIN='é'
# TEST_SRC: a list of paths
refused "TEST_SRC $MLIST" TEST_SRC="tests/cli/test_cli.c;touch $sentinel"
refused "TEST_SRC $MLIST" TEST_SRC="a${TAB}b"
refused "TEST_SRC $MLIST" TEST_SRC="a${NL}b"
refused "TEST_SRC $MLIST" TEST_SRC='a $(x)'
# CLAIM, VERIFY_FORMAT, TIER: one of their words
refused "CLAIM must be empty or one of S B R T E, got 'SB'" --verify CLAIM=SB
refused "CLAIM must be empty or one of S B R T E, got 's'" --verify CLAIM=s
refused "CLAIM must be empty or one of S B R T E, got '/../../../x'" --verify CLAIM=/../../../x
refused "CLAIM must be empty or one of S B R T E, got $OUTSIDE" --verify CLAIM="S; touch $sentinel"
refused "CLAIM must be empty or one of S B R T E, got $OUTSIDE" --verify CLAIM="\$(shell touch $sentinel)"
refused "CLAIM must be empty or one of S B R T E, got $OUTSIDE" --verify CLAIM='S '
refused "VERIFY_FORMAT must be empty, text or json, got 'xml'" --verify VERIFY_FORMAT=xml
refused "TIER must be empty, default, extended or all, got 'al'" --verify TIER=al
# JOBS, CHECK_JOBS: 1..256 without leading zeros
for j in 0 00 010 08 257 300 1000 -1 +1; do
    refused "JOBS $MJOBS '$j'" --verify JOBS=$j
    refused "CHECK_JOBS $MJOBS '$j'" --check CHECK_JOBS=$j
done
refused "JOBS $MJOBS $OUTSIDE" --verify JOBS="1;touch $sentinel"
refused "CHECK_JOBS $MJOBS $OUTSIDE" --check CHECK_JOBS=' 2'
# FUZZ_SECONDS: a positive integer, when set (even empty)
refused "$MFUZZ '0'" --fuzz FUZZ_SECONDS=0
refused "$MFUZZ '030'" --fuzz FUZZ_SECONDS=030
refused "$MFUZZ 'x'" --fuzz FUZZ_SECONDS=x
refused "$MFUZZ $OUTSIDE" --fuzz FUZZ_SECONDS=
refused "$MFUZZ $OUTSIDE" --fuzz FUZZ_SECONDS="30;touch $sentinel"
# PREFIX, DESTDIR
refused "PREFIX $MPATH" --install PREFIX="/usr/local;touch $sentinel"
refused "DESTDIR $MPATH" --install DESTDIR='/tmp/a b'
refused "PREFIX must not be empty (it would install into /bin, /lib, ...): give an absolute path, e.g. PREFIX=/usr/local" \
    --install PREFIX=
refused "$MPREFIX 'usr/local'" --install PREFIX=usr/local
refused "$MDEST 'stage'" --install PREFIX=/usr DESTDIR=stage
# the first refusal in the order of the checks is the one reported
refused "SAN $M01 '2'" --verify --install CLAIM=x PREFIX=rel SAN=2
refused "BUILD $MPATH" --verify BIN='a b' BUILD='a b' CLAIM=x
refused "CLAIM must be empty or one of S B R T E, got 'x'" --verify --check JOBS=0 CLAIM=x CHECK_JOBS=0
refused "PREFIX $MPATH" --install DESTDIR='a b' PREFIX='a b'
refused "DESTDIR $MPATH" --install PREFIX=rel DESTDIR='a b'
# arguments that are neither a group nor a checked variable
refused "check_make_vars.sh: unexpected argument (expected --GROUP or NAME=VALUE)" --all
refused "check_make_vars.sh: unexpected variable name (expected one of the variables it checks)" CC=gcc

if [ "$fails" = 0 ]; then
    echo "test_check_make_vars: all $n cases pass"
fi
[ "$fails" = 0 ]
