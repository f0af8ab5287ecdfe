# SPDX-License-Identifier: GPL-3.0-or-later
# calib_lib.sh -- shell functions shared by the claim-E data steps
# (scripts/calib_data.sh for USE lite, scripts/calib_data_ppocr.sh for
# PP-OCRv4); sourced, never run.  Both read their digests from a committed C
# table of `{ "PATH", "HEX" },` lines (constructions/models/*_pins.c).

# pin_table FILE: "HEX PATH" for every `{ "PATH", "HEX" },` line of FILE
pin_table() {
    sed -n 's/^ *{ *"\([^"]*\)", *"\([0-9a-f]\{64\}\)" *},.*$/\2 \1/p' "$1"
}

# first_bad TABLE PREFIX DIR: the first pinned file PREFIX* of TABLE whose
# copy DIR/<rest> is missing or differs, as one line of text; nothing when
# all match.
first_bad() {
    while read -r want path; do
        case $path in "$2"*) ;; *) continue ;; esac
        f="$3/${path#"$2"}"
        if [ ! -f "$f" ]; then echo "$f: missing"; return 0; fi
        got=$(sha256sum < "$f" | cut -d' ' -f1)
        if [ "$got" != "$want" ]; then echo "$f: sha256 expected $want, got $got"; return 0; fi
    done <<TABLE
$1
TABLE
}

# need_npm WHY WHAT: fail unless npm may run (CALIB_OFFLINE=1 forbids it) and exists
need_npm() {
    if [ "${CALIB_OFFLINE:-0}" = 1 ]; then
        echo "calib-data: $1, and CALIB_OFFLINE=1 forbids running npm" >&2; exit 1
    fi
    if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
        echo "calib-data: $1: npm and node are needed to fetch $2 (Debian: apt-get install npm)" >&2; exit 1
    fi
}
