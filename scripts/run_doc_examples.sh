#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/run_doc_examples.sh -- run every example of README.md and doc/*.md.
#
# Usage: sh scripts/run_doc_examples.sh        (from anywhere; tests/docs/test_doc_examples.c runs it in make check)
#
# Every fenced code block whose info string is exactly
#   sh      runs with `sh -e` (set -e),
#   python  runs with /usr/bin/python3,
#   c       is compiled against the build tree's include/attnrank.h and libattnrank.so.0, then run,
# each in a fresh temporary directory (also its HOME), with a directory first on PATH that holds
# `attnrank` ($ATTNRANK_BIN when set, else the repository's bin/attnrank; the repository's bin/
# follows) and `python3` (/usr/bin/python3), PYTHONPATH=<repo>/python, MPLBACKEND=Agg, and
# ATTNRANK_LIBRARY=$ATTNRANK_TEST_LIBRARY when that is set (make check sets both variables).
# Blocks marked sh-norun, python-norun, text, console (or anything else) are shown, never run.
#
# Skipped with a printed reason: python blocks (and sh blocks that call python3) when
# /usr/bin/python3 cannot import numpy, or when no shared library is there to load (the sanitizer
# build); a python block that imports torch or matplotlib when that module is absent; c blocks
# without a shared library.  The first failing block stops the run: its file, block number (the
# n-th runnable block of the file) and line are named, its output printed, and the exit status
# is 1.  Exit 0: every block that ran succeeded.  Each block is killed after 120 s.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

bin=${ATTNRANK_BIN:-$here/bin/attnrank}
[ -x "$bin" ] || { echo "run_doc_examples: $bin is not executable (run make first)" >&2; exit 2; }
lib=${ATTNRANK_TEST_LIBRARY:-}
if [ -z "$lib" ] && [ -f "$here/build/lib/libattnrank.so.0" ]; then
    lib=$here/build/lib/libattnrank.so.0
fi
py=/usr/bin/python3
if [ -n "$lib" ]; then ATTNRANK_LIBRARY=$lib; export ATTNRANK_LIBRARY; fi
PYTHONPATH=$here/python MPLBACKEND=Agg
export PYTHONPATH MPLBACKEND

work=$(mktemp -d "${TMPDIR:-/tmp}/attnrank-docs.XXXXXX") || { echo "run_doc_examples: no temporary directory" >&2; exit 2; }
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/shim" "$work/blocks"
ln -s "$bin" "$work/shim/attnrank"
[ -x "$py" ] && ln -s "$py" "$work/shim/python3"

# Python and its modules, once
have_numpy=0; have_torch=0; have_mpl=0
if [ -x "$py" ] && "$py" -c 'import numpy' >/dev/null 2>&1; then have_numpy=1; fi
if [ $have_numpy = 1 ] && "$py" -c 'import torch' >/dev/null 2>&1; then have_torch=1; fi
if [ $have_numpy = 1 ] && "$py" -c 'import matplotlib' >/dev/null 2>&1; then have_mpl=1; fi

# extract the blocks: one index line per runnable block (file, number, line, language, path)
: > "$work/blocks/index"
: > "$work/blocks/norun"
t=0
for f in README.md doc/*.md; do
    [ -f "$f" ] || continue
    t=$((t + 1))
    awk -v out="$work/blocks" -v src="$f" -v tag="$t" '
        BEGIN { inb = 0; k = 0 }
        !inb && /^```/ {
            info = substr($0, 4); sub(/[ \t]+$/, "", info); inb = 1; lang = ""
            if (info == "sh" || info == "python" || info == "c") {
                k++; lang = info
                fn = sprintf("%s/%s.%03d.%s", out, tag, k, info)
                printf "" > fn
                printf "%s\t%d\t%d\t%s\t%s\n", src, k, NR, info, fn >> (out "/index")
            } else
                printf "%s\t%d\t%s\n", src, NR, info >> (out "/norun")
            next
        }
        inb && /^```[ \t]*$/ { inb = 0; if (lang != "") close(fn); next }
        inb && lang != "" { print > fn }
        END { if (inb) { printf "run_doc_examples: %s: a code block is not closed\n", src > "/dev/stderr"; exit 1 } }
    ' "$f"
done

nrun=0; nsh=0; npy=0; nc=0; nskip=0
tab=$(printf '\t')
while IFS="$tab" read -r src num line lang blk; do
    skip=""
    case $lang in
        python)
            if [ $have_numpy = 0 ]; then skip="/usr/bin/python3 cannot import numpy (Debian: python3-numpy)"
            elif [ -z "$lib" ]; then skip="no shared library of this build (make lib)"
            elif grep -Eq '^[[:space:]]*(import|from)[[:space:]]+(torch|attnrank\.torch)' "$blk" && [ $have_torch = 0 ]; then
                skip="torch is not installed (Debian: python3-torch)"
            elif grep -Eq '^[[:space:]]*(import|from)[[:space:]]+matplotlib' "$blk" && [ $have_mpl = 0 ]; then
                skip="matplotlib is not installed (Debian: python3-matplotlib)"
            fi ;;
        sh)
            if grep -q 'python3' "$blk" && [ $have_numpy = 0 ]; then
                skip="it calls python3, which cannot import numpy (Debian: python3-numpy)"
            fi ;;
        c)
            if [ -z "$lib" ]; then skip="no shared library of this build (make lib)"; fi ;;
    esac
    if [ -n "$skip" ]; then
        echo "skip $src block $num (line $line, $lang): $skip"
        nskip=$((nskip + 1))
        continue
    fi
    d=$(mktemp -d "$work/run.XXXXXX")
    t0=$(date +%s.%N)
    rc=0
    case $lang in
        sh)
            (cd "$d" && HOME=$d PATH="$work/shim:$here/bin:$PATH" timeout 120 sh -e "$blk" < /dev/null) > "$d.log" 2>&1 || rc=$?
            nsh=$((nsh + 1)) ;;
        python)
            (cd "$d" && HOME=$d PATH="$work/shim:$here/bin:$PATH" timeout 120 "$py" "$blk" < /dev/null) > "$d.log" 2>&1 || rc=$?
            npy=$((npy + 1)) ;;
        c)
            (cd "$d" && ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$here/include" -o prog "$blk" "$lib" \
                -Wl,-rpath,"$(dirname "$lib")" && HOME=$d PATH="$work/shim:$here/bin:$PATH" timeout 120 ./prog < /dev/null) \
                > "$d.log" 2>&1 || rc=$?
            nc=$((nc + 1)) ;;
    esac
    secs=$(echo "$(date +%s.%N) $t0" | awk '{ printf "%.2f", $1 - $2 }')
    nrun=$((nrun + 1))
    if [ $rc != 0 ]; then
        echo "FAIL $src block $num (line $line, $lang): exit status $rc after $secs s; its output:"
        tail -n 60 "$d.log" | sed 's/^/    /'
        echo "run_doc_examples: $src block $num (line $line) failed"
        exit 1
    fi
    echo "ok   $src block $num (line $line, $lang) $secs s"
done < "$work/blocks/index"

nnorun=$(wc -l < "$work/blocks/norun" | tr -d ' ')
echo "run_doc_examples: $nrun examples ran and passed ($nsh sh, $npy python, $nc c), $nskip skipped, $nnorun blocks shown only (sh-norun, python-norun, text, console, ...)"
