#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gen_man.sh -- the man page attnrank(1) from the binary's own --help texts
# (attnrank --help and attnrank COMMAND --help), so that the page never
# disagrees with the program.  Usage: sh scripts/gen_man.sh BIN > attnrank.1
set -eu
bin=$1
[ -x "$bin" ] || { echo "gen_man.sh: $bin is not an executable" >&2; exit 2; }
# troff-safe text: backslashes doubled, lines starting with . or ' protected
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
ver=$("$bin" --version | sed -n '1s/^attnrank \([^ ]*\).*/\1/p')
cat <<HEAD
.TH ATTNRANK 1 "" "attnrank $ver" "User Commands"
.SH NAME
attnrank \- certified eps-rank brackets of softmax attention matrices
.SH SYNOPSIS
.B attnrank
.I COMMAND
[\fIOPTIONS\fR]
.SH DESCRIPTION
.nf
HEAD
"$bin" --help | esc
echo ".fi"
for c in bracket head generate funk-hecke scale verify calib merge plot; do
    echo ".SH \"$(echo "$c" | tr a-z A-Z)\""
    echo ".nf"
    "$bin" "$c" --help | esc
    echo ".fi"
done
cat <<'TAIL'
.SH "C API AND PYTHON"
The same computations are a C library: include attnrank.h and link with
`pkg-config --cflags --libs attnrank`; the Python package attnrank
(python/ in the source tree) calls it through ctypes.
.SH "SEE ALSO"
README.md of the source tree.
TAIL
