#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gen_man.sh -- the man page attnrank(1), each part from its one source, so that the page never
# disagrees with the program or with the CLI reference:
#   NAME, SYNOPSIS     fixed text below
#   DESCRIPTION        the description paragraph of `attnrank --help`
#   COMMANDS           one .SS per command: its `attnrank COMMAND --help`, verbatim (.nf/.fi)
#   ENVIRONMENT, EXIT STATUS, EXAMPLES, FILES
#                      the sections `## Environment`, `## Exit status`, `## Examples` and
#                      `## Files` of doc/cli.md, converted by the awk program below
#   SEE ALSO           the installed manual (PREFIX/share/doc/attnrank/doc/*.md, as `make install`
#                      lays it out) and the source tree's proofs-notes/
#
# Usage: sh scripts/gen_man.sh BIN [CLI_MD] > attnrank.1
#   BIN      the attnrank binary;  CLI_MD  the CLI reference (default: doc/cli.md of this tree)
# Needs sh, sed and awk only.  Exit 2 (nothing usable written) when BIN is not executable, CLI_MD
# lacks one of the four sections, or the commands of `attnrank --help` are not the ones below.
#
# The Markdown understood (the subset doc/cli.md uses in those sections): paragraphs (.PP);
# tables, each row a .TP entry (first cell the tag, second the text, any further cell appended
# as "Header: cell."); "- " bullets (.IP); fenced code blocks of any info string (.nf/.fi,
# indented); `code` (bold, unhyphenated, - as \-); **bold**; [text](link) (the text).  Backslashes
# are escaped and lines starting with . or ' protected everywhere.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh scripts/gen_man.sh BIN [CLI_MD] > attnrank.1" >&2
    exit 2
fi
bin=$1
md=${2:-$(dirname "$0")/../doc/cli.md}
[ -x "$bin" ] || { echo "gen_man.sh: $bin is not an executable" >&2; exit 2; }
[ -r "$md" ] || { echo "gen_man.sh: $md cannot be read" >&2; exit 2; }
commands="bracket head generate funk-hecke scale verify calib merge plot"

# verbatim text for .nf: backslashes doubled, - as \-, lines starting with . or ' protected
esc() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"; }

# the commands that --help lists must be exactly $commands (a new command gets its section)
listed=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | sort | tr '\n' ' ')
ours=$(for c in $commands; do echo "$c"; done | sort | tr '\n' ' ')
if [ "$listed" != "$ours" ]; then
    echo "gen_man.sh: attnrank --help lists the commands '$listed', this script '$ours'" >&2
    exit 2
fi

# section TITLE of $md (its lines up to the next # or ## heading) as troff
md_section() {
    awk -v sec="$1" '
    function repl(s, from, to,    out, i) {          # every `from` in s replaced by `to` (no regex)
        out = ""
        while ((i = index(s, from)) > 0) {
            out = out substr(s, 1, i - 1) to
            s = substr(s, i + length(from))
        }
        return out s
    }
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    function plain(s,    out, i, j) {                # text outside code spans: \ escaped, **bold**
        s = repl(s, "\\", "\\e")
        out = ""
        while ((i = index(s, "**")) > 0 && (j = index(substr(s, i + 2), "**")) > 0) {
            out = out substr(s, 1, i - 1) "\\fB" substr(s, i + 2, j - 1) "\\fR"
            s = substr(s, i + j + 3)
        }
        return out s
    }
    function code(s) {                               # a code span: bold, never hyphenated, - as \-
        s = repl(s, "\\", "\\e")
        s = repl(s, "-", "\\-")
        return "\\fB\\%" s "\\fR"
    }
    function inl(s,    out, i, j, t) {               # one line of Markdown text as troff text
        while (match(s, /\[[^]]*\]\([^)]*\)/)) {     # [text](link) -> text
            t = substr(s, RSTART, RLENGTH)
            t = substr(t, 2, index(t, "](") - 2)
            s = substr(s, 1, RSTART - 1) t substr(s, RSTART + RLENGTH)
        }
        out = ""
        while ((i = index(s, "`")) > 0 && (j = index(substr(s, i + 1), "`")) > 0) {
            out = out plain(substr(s, 1, i - 1)) code(substr(s, i + 1, j - 1))
            s = substr(s, i + j + 1)
        }
        return out plain(s)
    }
    function line(s) {                               # a text line, . and apostrophe protected
        if (s ~ /^[.\047]/)
            s = "\\&" s
        print s
    }
    function cells(s, c,    n, k) {                  # a table row into c[1..n]
        s = trim(s)
        sub(/^\|/, "", s)
        sub(/\|$/, "", s)
        s = repl(s, "\\|", "\001")
        n = split(s, c, "|")
        for (k = 1; k <= n; k++)
            c[k] = trim(repl(c[k], "\001", "|"))
        return n
    }
    function ucfirst(s) { return toupper(substr(s, 1, 1)) substr(s, 2) }
    BEGIN { on = 0; found = 0; fence = 0; mode = ""; nout = 0; bullets = 0 }
    !fence && /^##? / { if (on) exit; if ($0 == "## " sec) { on = 1; found = 1 }; next }
    !on { next }
    fence {
        if ($0 ~ /^```[ \t]*$/) { print ".fi"; print ".RE"; fence = 0; mode = ""; next }
        s = $0
        sub(/[ \t]+$/, "", s)
        if (s == "") { print "\\&"; next }
        s = repl(s, "\\", "\\e")
        line(repl(s, "-", "\\-"))
        nout++
        next
    }
    /^```/ { print ".PP"; print ".RS 4"; print ".nf"; fence = 1; mode = ""; bullets = 0; next }
    /^[ \t]*$/ { mode = ""; next }
    /^### / { print ".SS \"" substr($0, 5) "\""; mode = ""; next }
    /^\|/ {
        if (mode != "table") {                       # the header row
            if (bullets) { print ".PP"; bullets = 0 }   # .IP 2 set the indent that .TP would keep
            cells($0, hdr); mode = "table"; sep = 1; next
        }
        if (sep) { sep = 0; next }                   # the |---|---| line
        n = cells($0, c)
        print ".TP"
        line(c[1] ~ /`/ ? inl(c[1]) : "\\fB" inl(c[1]) "\\fR")
        body = inl(c[2])
        if (n > 2 && body !~ /[.!?]$/)
            body = body "."
        for (k = 3; k <= n; k++)
            body = body " " ucfirst(hdr[k]) ": " inl(c[k]) "."
        line(body)
        nout++
        next
    }
    /^- / { print ".IP \\(bu 2"; line(inl(substr($0, 3))); mode = "list"; bullets = 1; nout++; next }
    {
        if (mode == "") { print ".PP"; mode = "para"; bullets = 0 }
        line(inl(trim($0)))
        nout++
    }
    END {
        if (fence) { printf "gen_man.sh: a code block of section %s is not closed\n", sec > "/dev/stderr"; exit 1 }
        if (!found || !nout) { printf "gen_man.sh: no section \"## %s\" with text\n", sec > "/dev/stderr"; exit 1 }
    }' "$md"
}

# every section first, so that a missing one stops the script before anything is printed
env=$(md_section "Environment") && status=$(md_section "Exit status") &&
    examples=$(md_section "Examples") && files=$(md_section "Files") || exit 2

ver=$("$bin" --version | sed -n '1s/^attnrank \([^ ]*\).*/\1/p')
# the description: the paragraph of `attnrank --help` after its Usage line
desc=$("$bin" --help | awk '/^$/ { p++; next } p == 1' | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/")
[ -n "$desc" ] || { echo "gen_man.sh: attnrank --help has no description paragraph" >&2; exit 2; }

cat <<HEAD
.TH ATTNRANK 1 "" "attnrank $ver" "User Commands"
.nh
.SH NAME
attnrank \- certified eps-rank brackets of softmax attention matrices
.SH SYNOPSIS
.B attnrank
.I COMMAND
.RI [ OPTIONS ]
.br
.B attnrank
.BR \-\-help " | " \-\-version
.SH DESCRIPTION
$desc
.PP
Each command is below under COMMANDS, as
.B attnrank
.I COMMAND
.B \-\-help
prints it.
Results go to standard output; an error is one line on standard error,
.BR "attnrank: ..." ,
with nothing on standard output and a non-zero exit status (EXIT STATUS).
.B \-\-version
prints one line: attnrank's version, its source commit, the versions of
MPFR, GMP, FLINT and Arb, and the BLAS core in use.
.SH COMMANDS
HEAD
for c in $commands; do
    echo ".SS $c"
    echo ".nf"
    "$bin" "$c" --help | esc
    echo ".fi"
done
printf '.SH ENVIRONMENT\n%s\n' "$env"
printf '.SH "EXIT STATUS"\n%s\n' "$status"
printf '.SH EXAMPLES\n%s\n' "$examples"
printf '.SH FILES\n%s\n' "$files"
cat <<'TAIL'
.SH "SEE ALSO"
The manual, in Markdown, installed by
.B make install
under
.IR PREFIX /share/doc/attnrank/doc/
.RI ( PREFIX
is /usr/local by default):
.B cli.md
is the full reference of this command;
TAIL
# the manual's other files, as they are in the tree that doc/cli.md is in
others=""
for f in "$(dirname "$md")"/*.md; do
    b=$(basename "$f")
    [ "$b" = cli.md ] && continue
    others="$others${others:+, }\\fB$(printf '%s' "$b" | sed 's/-/\\-/g')\\fR"
done
[ -n "$others" ] && printf 'the others are %s.\n' "$others"
cat <<'TAIL'
.PP
The proofs behind every certificate are the notes in
.B proofs\-notes/
of the source tree (theory.md lists the numbered statements, one note per
claim or lemma, each naming its tests).
.PP
.BR gnuplot (1),
.BR pkg\-config (1),
.BR python3 (1)
TAIL
