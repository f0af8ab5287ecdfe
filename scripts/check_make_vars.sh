#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check_make_vars.sh -- the checks of the make variables a user sets (command
# line or environment), run by mk/config.mk once per make, before anything
# expands them: make would expand their text (a $(shell ...) inside runs) and
# the recipes paste values into shell commands.
#
# Usage: sh scripts/check_make_vars.sh [--verify] [--check] [--fuzz] [--install]
#                                      [NAME=VALUE]...
#   --verify   the goals include verify or verify-run
#   --check    the goals include check or check-run
#   --fuzz     the goals include fuzz, fuzz-smoke or fuzz-run
#   --install  the goals include install
#   NAME=VALUE one argument per variable the user set (its raw text, as make's
#              $(value NAME) gives it; mk/config.mk turns a newline into a tab,
#              which every check treats alike); a variable not given is unset.
#
# Every value is data: it is only compared, never evaluated.  The first value
# refused ends the run: one line on stderr naming the variable and what it must
# be, exit 2.  Nothing is printed and the exit status is 0 when every value is
# accepted.  The checks, in this order:
#   always     SAN and WERROR empty, 0 or 1; BUILD and BIN paths of
#              [A-Za-z0-9._/+@-] only; TEST_SRC a space-separated list of such
#              paths (or only blanks)
#   --verify   CLAIM empty or one of S B R T E; JOBS empty or a decimal integer
#              in 1..256 without leading zeros; VERIFY_FORMAT empty, text or
#              json; RESUME empty, 0 or 1; TIER empty, default, extended or all
#   --check    CHECK_JOBS empty or a decimal integer in 1..256 without leading
#              zeros
#   --fuzz     FUZZ_SECONDS, when set, a positive decimal integer without
#              leading zeros
#   --install  PREFIX and DESTDIR paths of [A-Za-z0-9._/+@-] only; PREFIX, when
#              set, non-empty and absolute; DESTDIR empty or absolute
# (tests/scripts/test_check_make_vars.sh runs every case.)
set -u
LC_ALL=C
export LC_ALL

PATHCHARS='[A-Za-z0-9._/+@-]'

refuse() {
    printf '%s\n' "$1" >&2
    exit 2
}

# is_path VALUE: VALUE is non-empty and made of [A-Za-z0-9._/+@-] only
is_path() {
    case $1 in
        '' | *[!A-Za-z0-9._/+@-]*) return 1 ;;
    esac
    return 0
}

# show VALUE: the value as a message may show it (only when made of path characters)
show() {
    if is_path "$1"; then
        printf "'%s'" "$1"
    else
        printf 'a value with characters outside %s' "$PATHCHARS"
    fi
}

# ---- the arguments: which goal groups, and the variables the user set
g_verify=0 g_check=0 g_fuzz=0 g_install=0
set_SAN=0 set_WERROR=0 set_BUILD=0 set_BIN=0 set_TEST_SRC=0 set_CLAIM=0 set_JOBS=0 set_VERIFY_FORMAT=0
set_RESUME=0 set_TIER=0 set_CHECK_JOBS=0 set_FUZZ_SECONDS=0 set_PREFIX=0 set_DESTDIR=0
SAN= WERROR= BUILD= BIN= TEST_SRC= CLAIM= JOBS= VERIFY_FORMAT= RESUME= TIER= CHECK_JOBS= FUZZ_SECONDS=
PREFIX= DESTDIR=

for arg in "$@"; do
    case $arg in
        --verify) g_verify=1; continue ;;
        --check) g_check=1; continue ;;
        --fuzz) g_fuzz=1; continue ;;
        --install) g_install=1; continue ;;
        *=*) ;;
        *) refuse "check_make_vars.sh: unexpected argument (expected --GROUP or NAME=VALUE)" ;;
    esac
    val=${arg#*=}
    case ${arg%%=*} in
        SAN) SAN=$val; set_SAN=1 ;;
        WERROR) WERROR=$val; set_WERROR=1 ;;
        BUILD) BUILD=$val; set_BUILD=1 ;;
        BIN) BIN=$val; set_BIN=1 ;;
        TEST_SRC) TEST_SRC=$val; set_TEST_SRC=1 ;;
        CLAIM) CLAIM=$val; set_CLAIM=1 ;;
        JOBS) JOBS=$val; set_JOBS=1 ;;
        VERIFY_FORMAT) VERIFY_FORMAT=$val; set_VERIFY_FORMAT=1 ;;
        RESUME) RESUME=$val; set_RESUME=1 ;;
        TIER) TIER=$val; set_TIER=1 ;;
        CHECK_JOBS) CHECK_JOBS=$val; set_CHECK_JOBS=1 ;;
        FUZZ_SECONDS) FUZZ_SECONDS=$val; set_FUZZ_SECONDS=1 ;;
        PREFIX) PREFIX=$val; set_PREFIX=1 ;;
        DESTDIR) DESTDIR=$val; set_DESTDIR=1 ;;
        *) refuse "check_make_vars.sh: unexpected variable name (expected one of the variables it checks)" ;;
    esac
done

# ---- the checks, one helper per kind

# check_01 NAME VALUE: empty, 0 or 1
check_01() {
    case $2 in
        '' | 0 | 1) ;;
        *) refuse "$1 must be empty, 0 or 1, got $(show "$2")" ;;
    esac
}

# check_jobs NAME VALUE: empty or a decimal integer in 1..256 without leading zeros
check_jobs() {
    case $2 in
        '' | [1-9] | [1-9][0-9] | 1[0-9][0-9] | 2[0-4][0-9] | 25[0-6]) ;;
        *) refuse "$1 must be empty or a decimal integer in 1..256 without leading zeros, got $(show "$2")" ;;
    esac
}

# check_path NAME SET VALUE: when set and not empty, a path of path characters only
check_path() {
    if [ "$2" = 1 ] && [ -n "$3" ] && ! is_path "$3"; then
        refuse "$1 must be a path of the characters $PATHCHARS only (no blanks, quotes or shell metacharacters)"
    fi
}

# check_list NAME SET VALUE: when set and not only white space, paths of path
# characters separated by spaces (a tab or a newline is not a separator)
check_list() {
    [ "$2" = 1 ] || return 0
    case $3 in
        *[![:space:]]*) ;;
        *) return 0 ;;
    esac
    case $3 in
        *[!A-Za-z0-9._/+@\ -]*)
            refuse "$1 must be paths of the characters $PATHCHARS separated by spaces" ;;
    esac
}

check_01 SAN "$SAN"
check_01 WERROR "$WERROR"
check_path BUILD "$set_BUILD" "$BUILD"
check_path BIN "$set_BIN" "$BIN"
check_list TEST_SRC "$set_TEST_SRC" "$TEST_SRC"

if [ "$g_verify" = 1 ]; then
    case $CLAIM in
        '' | S | B | R | T | E) ;;
        *) refuse "CLAIM must be empty or one of S B R T E, got $(show "$CLAIM")" ;;
    esac
    check_jobs JOBS "$JOBS"
    case $VERIFY_FORMAT in
        '' | text | json) ;;
        *) refuse "VERIFY_FORMAT must be empty, text or json, got $(show "$VERIFY_FORMAT")" ;;
    esac
    check_01 RESUME "$RESUME"
    case $TIER in
        '' | default | extended | all) ;;
        *) refuse "TIER must be empty, default, extended or all, got $(show "$TIER")" ;;
    esac
fi

if [ "$g_check" = 1 ]; then
    check_jobs CHECK_JOBS "$CHECK_JOBS"
fi

if [ "$g_fuzz" = 1 ] && [ "$set_FUZZ_SECONDS" = 1 ]; then
    case $FUZZ_SECONDS in
        '' | *[!0-9]* | 0*)
            refuse "FUZZ_SECONDS must be a positive decimal integer without leading zeros, got $(show "$FUZZ_SECONDS")" ;;
    esac
fi

if [ "$g_install" = 1 ]; then
    check_path PREFIX "$set_PREFIX" "$PREFIX"
    check_path DESTDIR "$set_DESTDIR" "$DESTDIR"
    if [ "$set_PREFIX" = 1 ]; then
        [ -n "$PREFIX" ] || refuse "PREFIX must not be empty (it would install into /bin, /lib, ...): give an absolute path, e.g. PREFIX=/usr/local"
        case $PREFIX in
            /*) ;;
            *) refuse "PREFIX must be an absolute path (starting with /; it is written into attnrank.pc), got $(show "$PREFIX")" ;;
        esac
    fi
    if [ "$set_DESTDIR" = 1 ] && [ -n "$DESTDIR" ]; then
        case $DESTDIR in
            /*) ;;
            *) refuse "DESTDIR must be empty or an absolute path (starting with /), got $(show "$DESTDIR")" ;;
        esac
    fi
fi
exit 0
