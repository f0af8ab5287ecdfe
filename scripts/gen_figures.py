#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/gen_figures.py -- the generated parts of the documentation, from bench/results/.

Usage: python3 scripts/gen_figures.py        (from anywhere; Python 3 standard library only)

Writes
  * README.md, between the lines <!-- verdicts:begin --> and <!-- verdicts:end -->: the verdict
    table of the last `make verify` run, read from bench/results/verify_all.txt (one row per law
    row of the laws table: claim, d, predicted exponent, fitted exponents of both ends, the
    observed rank/law range against the declared band, the verdict and the time; claims T and E,
    which have no law row, with their suites' outcome from Check's summary line);
  * doc/performance.md, between <!-- heads:begin --> and <!-- heads:end -->: the attention-head
    table (bench/results/bench_heads.tsv, the CLI rows: time and bracket of self- and
    cross-attention per head dimension and token count, their ratio, the doors' agreement);
  * doc/c-api-reference.md: every exported function of include/attnrank.h with the comment
    that states its contract;
  * bench/README.md: every bench/results/*.tsv file with what it measures, the command that
    produces it, its leading '#' comment lines (machine, date, load as recorded), its column
    names and, where the file has one clear column, that column's range over the file's rows;
    then every figure (.svg, .png) under bench/results/.

Nothing is invented: every number printed is read from the files.  A file is rewritten only when
its text changes, so a second run changes nothing (idempotent).  Exit status 1 when README.md
lacks the markers or verify_all.txt has no row.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
BEGIN, END = "<!-- verdicts:begin -->", "<!-- verdicts:end -->"

# what each result file measures, the command that writes it, and its summary column (or None)
TSV = {
    "bench_bracket.tsv": (
        "The certified bracket of a 2000-point Fibonacci S^2 set (beta 20, eps 0.1, every route) against one "
        "bare LAPACK `dgesdd` of the same matrix in the same process (three runs), then a 4000-point instance "
        "(time, peak memory).",
        "BENCH_ONLY=bench_bracket make bench   # build/bench/bench_bracket 2000 2000 2000 4000", "ratio"),
    "bench_circulant.tsv": (
        "The d = 2 circulant route on regular polygons (n = 20160, 55440) up to beta = 1e5: the bracket, "
        "the LP and projection upper ends, the circulant-block lower end and their times.",
        "BENCH_ONLY=bench_circulant make bench   # build/bench/bench_circulant 0.1 20160 55440", "seconds"),
    "bench_dense.tsv": (
        "The dense route on cross- and self-attention uniform in the 3-ball (beta 20, eps 0.1), n = 1000 to "
        "16000, held and streamed: both ends, the time against a physical-limit estimate (forming A plus the "
        "certifying products at the measured dgemm rate) and against an uncertified randomized SVD given "
        "the rank.",
        "BENCH_ONLY=bench_dense make bench   # build/bench/bench_dense N [self]", "t_bracket"),
    "bench_dense_before_after.tsv": (
        "The dense route's lower ends and times at two versions of the lower search (block test matrices "
        "without and with growth over the certified factors' rows), cross and self, 1000 to 16000 points.",
        "recorded by hand from bench/bench_scaling.c and bench/bench_dense.c runs (see its comments)", None),
    "bench_head.tsv": (
        "`attnrank head` on 64-dimensional heads with a planted low-dimensional visible part, with and "
        "without noise: r, r_exact, the tolerance, r(0.05) with its certified eta, the time.",
        "BENCH_ONLY=head make bench   # sh bench/head_bench.sh bin/attnrank", "seconds"),
    "bench_heads.tsv": (
        "Certified brackets at real attention-head shapes: N(0,1) float32 queries and keys, d = 16 to 128, "
        "n = 256 to 4096 (cross-attention also 8192), beta 1/sqrt(d), eps 0.1, through the CLI, C and "
        "Python doors, beside numpy's uncertified SVD rank (figure bench_heads.svg).",
        "BENCH_ONLY=bench_heads make bench   # /usr/bin/python3 bench/bench_heads.py", None),
    "bench_heads_2048_issue35.tsv": (
        "Issue 35's check of real head shapes after the thread changes: d = 64 and 128, 2048 tokens, self "
        "and cross, through the CLI, C and Python doors (the same brackets as bench_heads.tsv).",
        "/usr/bin/python3 bench/bench_heads.py --d 64,128 --n 2048 --svd-max-n 0 "
        "--out bench/results/bench_heads_2048_issue35.tsv", "wall_s"),
    "bench_heads_2048_ball.tsv": (
        "The same check after the ball certificates and the blocked inverse norm (m >= 1024) came in: "
        "the same brackets and doors as bench_heads_2048_issue35.tsv; the self-attention heads, whose "
        "lower ends are inverse norms of 1723 and 2048 rows, are faster on 2 threads.",
        "/usr/bin/python3 bench/bench_heads.py --d 64,128 --n 2048 --svd-max-n 0 "
        "--out bench/results/bench_heads_2048_ball.tsv", "wall_s"),
    "bench_instances.tsv": (
        "Large spherical instances through `attnrank bracket --engine scale`: Fibonacci S^2 sets of 20000 "
        "points, uniform S^3 sets of 12000 and 20000 points.",
        "BENCH_ONLY=bench_instances make bench", "seconds"),
    "bench_issue32_before_after.tsv": (
        "The same head-shaped and ball instances through two attnrank binaries (an older build and the "
        "current one), alternating: time, bracket and certificates of each.",
        "python3 bench/before_after.py --base OLD/bin/attnrank --new bin/attnrank", None),
    "bench_packing.tsv": (
        "Cap-packing lower bounds at scale, d = 2 to 5 (greedy random caps certified by diagonal dominance "
        "with a rigorous tail), 40 s per dimension; fitted slopes against (d-1)/2.",
        "BENCH_ONLY=bench_packing make bench   # build/bench/bench_packing 40 60000", "certified"),
    "bench_packing_zonal.tsv": (
        "The zonal-code packing search against the greedy random packing: certified sizes and times at the "
        "claim-S law points.",
        "recorded by hand (see its comments)", None),
    "bench_poly.tsv": (
        "The polynomial upper certificate on 20000-point S^2 sets and on the continuum: degree L, rank, "
        "certified error, time.",
        "BENCH_ONLY=bench_poly make bench   # build/bench/bench_poly 20000 500", "seconds"),
    "bench_routes.tsv": (
        "What the route chooser (`attnrank bracket`) gives where routes differ: a regular 20160-gon, a "
        "3000-point Fibonacci file, a 400-point uniform S^2 file with and without `--upper svd`.",
        "BENCH_ONLY=bench_routes make bench", "seconds"),
    "bench_scaling.tsv": (
        "The dense route from 1000 to 16000 points, self- and cross-attention uniform in the 3-ball "
        "(beta 20, eps 0.1): time and peak memory of each stage, against one dgesdd up to 4000 points.",
        "BENCH_ONLY=bench_scaling make bench   # build/bench/bench_scaling KIND N [svd]", "t_total"),
    "bench_stream16k.tsv": (
        "16000 queries x 16000 keys uniform in the 3-ball (beta 20, eps 0.1) through `attnrank bracket`, "
        "the matrix streamed in row blocks: bracket, sketch, passes, wall time, peak memory.",
        "BENCH_ONLY=bench_stream16k make bench", "seconds"),
    "lower_dual_bound.tsv": (
        "Uncertified diagnostics of the lower certificate's reach on the dense route's rows: a dual bound, "
        "the block, reweighted least-norm and Douglas-Rachford test matrices, per row-set size k.",
        "/usr/bin/python3 bench/lower_dual_bound.py", None),
    "python_overhead.tsv": (
        "One 2000 x 2000 head (queries and keys 2000 x 64 N(0,1), beta 1/8, eps 0.1) bracketed from NumPy "
        "(python/attnrank) and by the CLI, alternating, three runs each.",
        "BENCH_ONLY=python_overhead make bench   # sh bench/python_overhead.sh bin/attnrank 3", "wall_s"),
}

CLAIM_ORDER = "SBRTE"


def write_if_changed(path, text):
    old = None
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            old = f.read()
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print("gen_figures: wrote %s" % os.path.relpath(path, ROOT))
    else:
        print("gen_figures: %s unchanged" % os.path.relpath(path, ROOT))


def cell(s):
    return s.replace("|", "\\|")


# ---- the verdict table (bench/results/verify_all.txt)

ROW = re.compile(r"^([SBR])\s+(\d+)\s+(\S+)\s+(1\+beta|beta)\s+\[\s*([-\d.e+]+),\s*([-\d.e+]+)\]\s+in\s+"
                 r"\[([^\]]+)\]\s+(\S+)\s+([\d.]+)s\s*$")
SAT = re.compile(r"^([SBR])\s+(\d+)\s+saturation in n at beta = (\S+)\s+(\S+)\s+([\d.]+)s\s*$")
FIT = re.compile(r"^\s+fit_lower (\S+) \+- (\S+)\s+fit_upper (\S+) \+- (\S+)\s+\(tol (\S+), eps (\S+), (.*), "
                 r"upper: (\S+)\)\s*$")
NOROW = re.compile(r"^([TE])\s+no law row; its own suite asserts it: (.*)$")
SUMMARY = re.compile(r"^(\d+)%: Checks: (\d+), Failures: (\d+), Errors: (\d+)\s*$")
STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z")


def row_label(scope):
    """A short name of a law row from its scope line (the line the table prints under the fits)."""
    s = scope.strip()
    while True:
        t = re.sub(r"\s*\([^()]*\)", "", s)
        if t == s:
            break
        s = t
    if not s.startswith("lower:"):
        if ": " in s:
            p = s.split(": ")
            s = p[0] + ": " + p[1] if p[0] in ("beyond the paper's check", "contrast") else p[0]
        s = s.split("; ")[0]
    return s


def verdict_table():
    path = os.path.join(RESULTS, "verify_all.txt")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    rows, norows, summary, stamp = [], {}, None, None
    for i, line in enumerate(lines):
        if line.startswith("#") and stamp is None:
            m = STAMP.search(line)
            stamp = m.group(0) if m else None
        m = ROW.match(line)
        if m:
            fit = FIT.match(lines[i + 1]) if i + 1 < len(lines) else None
            scope = lines[i + 2] if fit and i + 2 < len(lines) else ""
            rows.append({"claim": m.group(1), "d": m.group(2), "pred": m.group(3), "var": m.group(4),
                         "lo": m.group(5), "hi": m.group(6), "band": m.group(7), "verdict": m.group(8),
                         "time": m.group(9), "fit": fit, "label": row_label(scope)})
            continue
        m = SAT.match(line)
        if m:
            rows.append({"claim": m.group(1), "d": m.group(2),
                         "pred": "min{n, (1+beta)^((d-1)/2)} at beta = %s" % m.group(3), "var": "n", "lo": None,
                         "hi": None, "band": None, "verdict": m.group(4), "time": m.group(5), "fit": None,
                         "label": "saturation in n"})
            continue
        m = NOROW.match(line)
        if m:
            norows[m.group(1)] = m.group(2)
            continue
        m = SUMMARY.match(line)
        if m:
            summary = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    if not rows:
        sys.exit("gen_figures: no law row found in %s" % path)
    rows.sort(key=lambda r: CLAIM_ORDER.index(r["claim"]))   # stable: the file's order within a claim
    out = ["| claim | d | row | law exponent | fitted lower | fitted upper | upper end of | rank/law (band) "
           "| verdict | time |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        f = r["fit"]
        if r["band"] is None:
            law, fl, fu, src, ratio = r["pred"], "", "", "instance", ""
        else:
            law = "%s in %s" % (r["pred"], r["var"])
            if f:
                law += " (tol %s)" % f.group(5)
                fl = "%s +- %s" % (f.group(1), f.group(2))
                fu = "%s +- %s" % (f.group(3), f.group(4)) if float(f.group(3)) != 0 else "none"
                src = f.group(8)
            else:
                fl = fu = src = ""
            ratio = "[%s, %s] in [%s]" % (r["lo"], r["hi"], r["band"])
        verdict = r["verdict"]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s s |" % (
            r["claim"], r["d"], cell(r["label"]), cell(law), fl, fu, src, cell(ratio), cell(verdict), r["time"]))
    for c in "TE":
        if c in norows:
            outcome = "see the file"
            if summary is not None and summary[1] == 0 and summary[2] == 0:
                outcome = "pass (its suite)"
            out.append("| %s | | %s | no law row: `tests/verify/verify_%s.c` asserts it | | | | | %s | |"
                       % (c, cell(row_label(norows[c])), c, outcome))
    note = "From `bench/results/verify_all.txt`"
    if stamp:
        note += " (recorded %s)" % stamp
    if summary is not None:
        note += "; Check's summary: %d checks, %d failures, %d errors" % summary
    note += ". eps = 0.1 in every row."
    return "\n".join(out) + "\n\n" + note + "\n"


def update_readme(table):
    path = os.path.join(ROOT, "README.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    a, b = text.find(BEGIN), text.find(END)
    if a < 0 or b < a:
        sys.exit("gen_figures: README.md lacks the lines %s and %s" % (BEGIN, END))
    new = text[:a + len(BEGIN)] + "\n" + table + text[b:]
    write_if_changed(path, new)


# ---- bench/README.md

def read_tsv(path):
    """(leading comment lines, the first later comment line about the load at the end, column names,
    data rows: the lines with as many fields as the column line)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    lead, later, cols, rows = [], [], None, []
    for line in lines:
        if line.startswith("#"):
            if cols is None:
                lead.append(line)
            elif "at the end" in line and not later:
                later.append(line)      # the first run's closing line (later runs' follow in the file)
            continue
        if not line.strip():
            continue
        fields = line.split("\t")
        if cols is None:
            cols = fields
        elif len(fields) == len(cols):
            rows.append(fields)
    return lead, later, cols or [], rows


def number(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return v if v == v else None


def column_range(cols, rows, name):
    if name is None or name not in cols:
        return None
    j = cols.index(name)
    vals = [v for v in (number(r[j]) for r in rows) if v is not None]
    if not vals:
        return None
    return "`%s` from %g to %g over %d rows" % (name, min(vals), max(vals), len(vals))


def bench_readme():
    out = ["# Benchmark results", "",
           "This file is generated by `python3 scripts/gen_figures.py` from the files of "
           "[`results/`](results/); edit the script, not this file. `make bench` reruns every benchmark "
           "and rewrites the files (`BENCH_ONLY=NAME make bench` one of them; `bench/run.sh` lists the "
           "names). Each file records in its `#` lines where and when it ran; times depend on the machine "
           "and on its load, which the files record as well.", ""]
    files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(RESULTS, "*.tsv")))
    for name in files:
        lead, later, cols, rows = read_tsv(os.path.join(RESULTS, name))
        what, cmd, col = TSV.get(name, ("(not described in scripts/gen_figures.py yet)", "(unknown)", None))
        out += ["## [%s](results/%s)" % (name, name), "", what, "", "Produced by: `%s`" % cmd, ""]
        if lead or later:
            out += ["Recorded:", "", "```text"] + lead + later + ["```", ""]
        if cols:
            out += ["Columns (%d data rows): %s" % (len(rows), ", ".join("`%s`" % c for c in cols)), ""]
        rng = column_range(cols, rows, col)
        if rng:
            out += ["Summary: %s." % rng, ""]
    figs = sorted(os.path.relpath(p, os.path.join(ROOT, "bench"))
                  for ext in ("svg", "png") for p in glob.glob(os.path.join(RESULTS, "**", "*." + ext), recursive=True))
    if figs:
        out += ["## Figures", ""]
        out += ["- [%s](%s)" % (p, p) for p in figs]
        out.append("")
    write_if_changed(os.path.join(ROOT, "bench", "README.md"), "\n".join(out))


# ---- doc/performance.md: the attention-head table

HEADS_BEGIN, HEADS_END = "<!-- heads:begin -->", "<!-- heads:end -->"


def heads_table():
    """Markdown table of bench/results/bench_heads.tsv's CLI rows: per (d, n) the wall time and
    bracket of self- and cross-attention, self/cross and whether the C and Python doors agreed."""
    lead, later, cols, rows = read_tsv(os.path.join(RESULTS, "bench_heads.tsv"))
    need = ("d", "n", "kind", "door", "wall_s", "lower", "upper", "doors_agree")
    if not rows or any(c not in cols for c in need):
        sys.exit("gen_figures: bench/results/bench_heads.tsv has no rows or lacks a column of %s" % (need,))
    ix = {c: cols.index(c) for c in cols}
    cells = {}
    for r in rows:
        if r[ix["door"]] != "cli" or number(r[ix["wall_s"]]) is None:
            continue
        cells[(int(r[ix["d"]]), int(r[ix["n"]]), r[ix["kind"]])] = r
    date = next((l for l in lead if l.startswith("# date:")), "# date: (not recorded)")[2:]
    machine = next((l for l in lead if l.startswith("# machine:")), "# machine: (not recorded)")[2:]
    out = ["Generated by `python3 scripts/gen_figures.py` from `bench/results/bench_heads.tsv` (%s; %s)." %
           (date, machine), "",
           "| d | tokens | self-attention | cross-attention | self / cross | C, Python doors |",
           "|---|---|---|---|---|---|"]

    def show(r):
        if r is None:
            return ""
        t = float(r[ix["wall_s"]])
        return "%.*f s [%s, %s]" % (2 if t < 1 else 1, t, r[ix["lower"]], r[ix["upper"]])

    for d, n in sorted({(k[0], k[1]) for k in cells}):
        sr, cr = cells.get((d, n, "self")), cells.get((d, n, "cross"))
        ratio = ""
        if sr is not None and cr is not None and float(cr[ix["wall_s"]]) > 0:
            ratio = "%.2f" % (float(sr[ix["wall_s"]]) / float(cr[ix["wall_s"]]))
        agree = sorted({r[ix["doors_agree"]] for r in (sr, cr) if r is not None})
        agree = {"yes": "same bracket", "no": "DIFFER"}.get("/".join(agree), "not run" if agree == ["-"] else "/".join(agree))
        out.append("| %d | %d | %s | %s | %s | %s |" % (d, n, show(sr), show(cr), ratio, agree))
    return "\n".join(out) + "\n"


def update_performance(table):
    path = os.path.join(ROOT, "doc", "performance.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    a, b = text.find(HEADS_BEGIN), text.find(HEADS_END)
    if a < 0 or b < a:
        sys.exit("gen_figures: doc/performance.md lacks the lines %s and %s" % (HEADS_BEGIN, HEADS_END))
    write_if_changed(path, text[:a + len(HEADS_BEGIN)] + "\n" + table + text[b:])


# ---- doc/c-api-reference.md: every exported function of include/attnrank.h with its contract

def c_api_reference():
    """Markdown: each ATTNRANK_EXPORT declaration of include/attnrank.h, in the header's order,
    with the comment block directly above it (a comment shared by consecutive declarations is
    shown once, before the first)."""
    with open(os.path.join(ROOT, "include", "attnrank.h"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = ["# C API reference", "",
           "Generated by `python3 scripts/gen_figures.py` from "
           "[`include/attnrank.h`](../include/attnrank.h): every exported function, in the header's "
           "order, with the contract its comment states. Edit the header, not this page; "
           "[c-api.md](c-api.md) is the guide.", ""]
    comment, comment_end, shown = [], -2, -1
    i, count = 0, 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("/*"):
            start = i
            while "*/" not in lines[i]:
                i += 1
            comment, comment_end = lines[start:i + 1], i
            i += 1
            continue
        if line.startswith("ATTNRANK_EXPORT"):
            start = i
            while ";" not in lines[i]:
                i += 1
            decl = " ".join(l.strip() for l in lines[start:i + 1]).replace("ATTNRANK_EXPORT ", "")
            name = re.search(r"(attnrank_[A-Za-z0-9_]+)\s*\(", decl)
            name = name.group(1) if name else decl
            out += ["## `%s`" % name, "", "```c-norun", decl, "```", ""]
            # the comment directly above (or above the run of declarations it introduces)
            if comment and comment_end != shown and comment_end >= start - 1 - 0:
                text = "\n".join(re.sub(r"^\s*(/\*+|\*/|\*)\s?", "", l).replace("*/", "").rstrip()
                                 for l in comment).strip()
                out += ["```text", text, "```", ""]
                shown = comment_end
            elif comment_end == shown:
                out += ["(see the comment of the function above)", ""]
            count += 1
            i += 1
            continue
        if line.strip() and not line.startswith("ATTNRANK_EXPORT"):
            comment_end = -2 if comment_end != i - 1 or line.strip() == "" else comment_end
        i += 1
    if count == 0:
        sys.exit("gen_figures: include/attnrank.h declares no ATTNRANK_EXPORT function")
    write_if_changed(os.path.join(ROOT, "doc", "c-api-reference.md"), "\n".join(out))


def main():
    update_readme(verdict_table())
    bench_readme()
    update_performance(heads_table())
    c_api_reference()


if __name__ == "__main__":
    main()
