#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check_lib_symbols.sh -- the library never prints, exits or changes the process.
#
# Usage: sh scripts/check_lib_symbols.sh LIBATTNRANK.a
#
# include/attnrank.h promises that libattnrank computes and returns: it does
# not write to the standard streams, end the process, or change its
# environment or image.  This check lists the undefined symbols of every
# object in the archive (nm -u) and fails (exit 1), naming object and
# symbol, when one references printf, puts, putchar, vprintf, perror, the
# stdout/stderr streams, exit, _exit, abort, setenv, putenv, unsetenv or an
# exec function.  Writing to a FILE* the caller opened (fprintf, fputs) is
# allowed: that is how the library writes the files it is asked to write.
# Exit 2 when the archive is missing or nm fails.
set -eu
lib=${1:?usage: check_lib_symbols.sh LIBATTNRANK.a}
[ -f "$lib" ] || { echo "check_lib_symbols: $lib: no such archive (build the library first)" >&2; exit 2; }
command -v nm > /dev/null 2>&1 || { echo "check_lib_symbols: nm not found (binutils)" >&2; exit 2; }
forbidden='^(printf|puts|putchar|vprintf|perror|stdout|stderr|exit|_exit|_Exit|abort|setenv|putenv|unsetenv|clearenv|execv|execve|execvp|execvpe|execl|execlp|execle|fexecve|system|popen)$'
out=$(nm -u -A "$lib" 2>/dev/null) || { echo "check_lib_symbols: nm failed on $lib" >&2; exit 2; }
bad=$(printf '%s\n' "$out" | awk -v re="$forbidden" '{ sym = $NF; sub(/@.*/, "", sym); if (sym ~ re) { obj = $1; sub(/:$/, "", obj); n = split(obj, p, ":"); print p[n] ": " sym } }' | sort -u)
nobj=$(printf '%s\n' "$out" | awk '{ obj = $1; sub(/:[^:]*$/, "", obj); print obj }' | sort -u | wc -l)
if [ -n "$bad" ]; then
    echo "check_lib_symbols: library objects that print, exit or change the process:" >&2
    printf '%s\n' "$bad" | sed 's/^/  /' >&2
    exit 1
fi
echo "check_lib_symbols: $nobj objects of $lib reference no printing, exit or process call"
