#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench_heads.py -- certified eps-rank brackets at the shapes of real attention heads (issue 32, item 7).

What it measures.  For every cell of the grid

    head dimension d in {16, 32, 64, 128}
    tokens n in {256, 512, 1024, 2048, 4096}, and n = 8192 for cross-attention only
    kind "self"  (keys = queries: `attnrank bracket --points X.npy`) or
         "cross" (independent keys: `--queries Q.npy --keys K.npy`)

it draws queries and keys as N(0,1) rows (numpy.random.default_rng([SEED, d, n, 0 for self / 1 for
cross]), SEED = --seed, default 32), stores them as float32 .npy as a real head would be, and brackets
A = rowsoftmax(beta Q K^T) at beta = 1/sqrt(d) (the 1/sqrt(d) scale of attention) and eps = 0.1
through up to three doors, each one process whose wall time this script measures:

    cli     bin/attnrank bracket ... --beta B --eps 0.1 --format json
    c       build/bench/bench_heads_c Q.npy [K.npy] B 0.1       (bench/bench_heads_c.c: the public C API,
            attnrank_npy_read + attnrank_bracket_arrays + attnrank_bracket_json)
    python  attnrank.bracket(Q, K or None, B, 0.1).json in /usr/bin/python3 with PYTHONPATH=python

Every door prints the library's JSON line; the three must give the same bracket (lower, upper,
lower_certificate, upper_certificate, routes).  To bound the run time the c and python doors run only on
cells with n <= 2048 (--all-doors-max-n); above, their rows hold "-".  Beside each cell, numpy's
UNCERTIFIED SVD rank of the same matrix: A formed in float64 (row max subtracted before exp),
np.linalg.svd under OPENBLAS_NUM_THREADS=1 in a subprocess, then the least k with
max_i sum_j |A - U_k S_k V_k^T|_ij <= eps by binary search over k = 1..min(m, n) (the residual in numpy,
as A - U_k S_k V_k^T for k <= min(m,n)/2 and as the tail U_>k S_>k V_>k^T, the same matrix, above).
It is skipped above n = 4096 (--svd-max-n: one dgesdd of 8192 x 8192 on one core takes many minutes).

With --real-heads MANIFEST (heads/manifest.json of scripts/export_heads.py, format "attnrank-heads"
version 1, constructions/formats/heads_manifest.h) every (layer, head, input) of the manifest is also
bracketed through the CLI (its q and k .npy as --queries/--keys, beta = 1/sqrt(head_dim)): kind "real".
The two claim-E models need `make calib-data` (network); without a manifest the header says the
real-head rows were not run and why.  Nothing is downloaded.

The exact command (full grid, about 40 minutes on 2 cores; BENCH_ONLY=bench_heads sh bench/run.sh runs it):

    /usr/bin/python3 bench/bench_heads.py
      -> bench/results/bench_heads.tsv and bench/results/bench_heads.svg

Quick test of the script itself (under a minute): --quick (d in {16, 64}, n in {256, 512}); filters for
reruns: --d 64 --n 2048 --kind self --doors cli; --out PATH (- : stdout; the figure then goes to --svg,
default bench/results/bench_heads.svg, else next to PATH with the suffix .svg).

Columns of the TSV (one row per (d, n, kind, door); "#" lines are the header: command, dates,
machine, load averages, commits, what was skipped):

    d, n             head dimension, tokens (queries = keys = n)
    kind             self | cross | real
    door             cli | c | python
    wall_s           wall time of the door's process, measured here (includes process start-up, reading
                     the .npy, for python the interpreter and numpy import)
    json_s           the JSON's own "seconds" (the bracket inside the library)
    lower, upper     the certified bracket lower <= rank_eps(A) <= upper
    status           certified | inconclusive (the JSON's), or error/timeout (note says why), "-": not run
    routes           the routes that ran (the JSON's "routes")
    lower_route, upper_route, lower_certificate, upper_certificate    the JSON's fields
    lower_cut        the JSON's lower_cut (a lower search stopped at its budget): yes/no
    cut_or_skipped   route_plan entries with decision "cut short" or "skipped": route:decision(reason); ...
    doors_agree      yes/no: every door run on the cell gave the same lower, upper, lower_certificate,
                     upper_certificate and routes; "-": one door only (n > 2048, or filtered)
    svd_s            numpy: SVD + the search for k, seconds (forming A not included); "-": skipped
    svd_k            numpy's uncertified least k with truncation error <= eps
    self_over_cross  cli rows of self cells: wall_s of self / wall_s of cross at the same (d, n)
    within_2x_cross  cli rows: self wall_s <= 2 x cross wall_s (yes for cross rows)
    within_30s       cli rows: wall_s <= 30
    note             errors, disagreements, real-head identity
"""
import argparse
import datetime
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
D_FULL = (16, 32, 64, 128)
N_FULL = (256, 512, 1024, 2048, 4096)
N_CROSS_ONLY = (8192,)
D_QUICK, N_QUICK = (16, 64), (256, 512)
KINDS = ("self", "cross")
DOORS = ("cli", "c", "python")
AGREE_FIELDS = ("lower", "upper", "lower_certificate", "upper_certificate", "routes")
COLUMNS = ("d", "n", "kind", "door", "wall_s", "json_s", "lower", "upper", "status", "routes", "lower_route",
           "upper_route", "lower_certificate", "upper_certificate", "lower_cut", "cut_or_skipped", "doors_agree",
           "svd_s", "svd_k", "self_over_cross", "within_2x_cross", "within_30s", "note")

PY_DOOR = r"""
import sys
import numpy as np
import attnrank
a = sys.argv[1:]
Q = np.load(a[0])
K = np.load(a[1]) if len(a) == 4 else None
print(attnrank.bracket(Q, K, float(a[-2]), float(a[-1])).json)
"""

# numpy's uncertified eps-rank: run in its own process so that OPENBLAS_NUM_THREADS=1 takes effect
PY_SVD = r"""
import json, sys, time
import numpy as np
a = sys.argv[1:]
beta, eps = float(a[-2]), float(a[-1])
q = np.load(a[0]).astype(np.float64)
k = np.load(a[1]).astype(np.float64) if len(a) == 4 else q
L = beta * (q @ k.T)
L -= L.max(axis=1, keepdims=True)
A = np.exp(L)
A /= A.sum(axis=1, keepdims=True)
t0 = time.perf_counter()
U, S, Vt = np.linalg.svd(A, compute_uv=True, full_matrices=False)
t1 = time.perf_counter()
r = S.size

def err(j):   # max_i sum_j |A - U_j S_j V_j^T|_ij
    if j <= r // 2:
        R = A - (U[:, :j] * S[:j]) @ Vt[:j]
    else:
        R = (U[:, j:] * S[j:]) @ Vt[j:]
    return float(np.abs(R).sum(axis=1).max())

lo, hi = 1, r        # err(r) = 0 <= eps
while lo < hi:
    mid = (lo + hi) // 2
    if err(mid) <= eps:
        hi = mid
    else:
        lo = mid + 1
t2 = time.perf_counter()
print(json.dumps({"k": lo, "svd_s": t1 - t0, "search_s": t2 - t1}))
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def nproc():
    try:
        return len(os.sched_getaffinity(0))   # what `nproc` prints
    except (AttributeError, OSError):
        return os.cpu_count() or 0


def ints(s):
    try:
        return tuple(int(x) for x in s.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError("a comma-separated list of integers, got %r" % s)


def names(allowed):
    def parse(s):
        v = tuple(x.strip() for x in s.split(",") if x.strip())
        bad = [x for x in v if x not in allowed]
        if bad or not v:
            raise argparse.ArgumentTypeError("a comma-separated list of %s, got %r" % ("/".join(allowed), s))
        return v
    return parse


def clean(s):
    return " ".join(str(s).split())   # no tabs or newlines in a TSV field


def run_proc(cmd, env=None, timeout=None):
    """(wall seconds, the last stdout line parsed as JSON or None, error text or "")."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, None, "timeout after %g s" % timeout
    wall = time.perf_counter() - t0
    lines = [x for x in p.stdout.splitlines() if x.strip()]
    if p.returncode != 0 or not lines:
        err = (p.stderr.strip().splitlines() or ["no output"])[-1]
        return wall, None, "exit %d: %s" % (p.returncode, err)
    try:
        return wall, json.loads(lines[-1]), ""
    except ValueError as e:
        return wall, None, "unparsable output (%s)" % e


def door_cmd(door, args, files, beta, eps):
    b, e = repr(beta), repr(eps)
    if door == "cli":
        src = ["--points", files[0]] if len(files) == 1 else ["--queries", files[0], "--keys", files[1]]
        return [args.bin, "bracket"] + src + ["--beta", b, "--eps", e, "--format", "json"]
    if door == "c":
        return [args.c_door] + files + [b, e]
    return [sys.executable, "-c", PY_DOOR] + files + [b, e]


def compact_plan(j):
    out = []
    for p in j.get("route_plan") or []:
        if p.get("decision") in ("cut short", "skipped"):
            out.append("%s:%s(%s)" % (p.get("route"), p.get("decision"), clean(p.get("reason") or "")))
    return "; ".join(out) or "-"


def row_of(d, n, kind, door):
    r = {c: "-" for c in COLUMNS}
    r.update(d=d, n=n, kind=kind, door=door)
    return r


def fill(r, wall, j, err):
    r["wall_s"] = "%.3f" % wall
    if j is None:
        r["status"] = "timeout" if err.startswith("timeout") else "error"
        r["note"] = clean(err)
        return
    r["json_s"] = j.get("seconds", "-")
    for f in ("lower", "upper", "status", "routes", "lower_route", "upper_route", "lower_certificate",
              "upper_certificate"):
        r[f] = j.get(f, "-")
    r["lower_cut"] = "yes" if j.get("lower_cut") else "no"
    r["cut_or_skipped"] = compact_plan(j)


def bracket_cell(args, d, n, kind, files, beta, env_py, doors):
    """Rows of one cell, one per door in args.doors (doors not run: "-")."""
    rows, got = [], {}
    for door in args.doors:
        r = row_of(d, n, kind, door)
        rows.append(r)
        if door not in doors:
            r["note"] = "not run (n > %d: CLI only)" % args.all_doors_max_n
            continue
        env = env_py if door == "python" else None
        wall, j, err = run_proc(door_cmd(door, args, files, beta, args.eps), env=env, timeout=args.timeout)
        fill(r, wall, j, err)
        got[door] = (j, r)
        if j is not None:
            for key in ("commit", "blas_core"):
                args.seen.setdefault(key, {}).setdefault(door, j.get(key, "?"))
        log("  %-6s d=%-3d n=%-5d %-5s [%s, %s] %s  %s s%s" % (door, d, n, kind, r["lower"], r["upper"], r["status"],
                                                           r["wall_s"], "  " + r["note"] if r["note"] != "-" else ""))
    if len(got) >= 2:
        ok = [(door, j) for door, (j, _) in got.items() if j is not None]
        notes = []
        if len(ok) < len(got):
            notes.append("a door failed")
        if ok:
            ref_door, ref = ok[0]
            for door, j in ok[1:]:
                diff = [f for f in AGREE_FIELDS if j.get(f) != ref.get(f)]
                if diff:
                    notes.append("%s differs from %s in %s" % (door, ref_door, ",".join(
                        "%s %s vs %s" % (f, j.get(f), ref.get(f)) for f in diff)))
        agree = "no" if notes else "yes"
        for door, (_, r) in got.items():
            r["doors_agree"] = agree
            if notes:
                r["note"] = "; ".join(x for x in ([r["note"]] if r["note"] != "-" else []) + notes)
    return rows


def numpy_rank(args, n, files, beta):
    if n > args.svd_max_n:
        return "-", "-"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    _, j, err = run_proc([sys.executable, "-c", PY_SVD] + files + [repr(beta), repr(args.eps)], env=env,
                         timeout=args.timeout)
    if j is None:
        log("  numpy  svd failed: " + err)
        return "error", "-"
    log("  numpy  svd k=%d  %.2f s (+ search %.2f s)" % (j["k"], j["svd_s"], j["search_s"]))
    return "%.3f" % (j["svd_s"] + j["search_s"]), str(j["k"])


def write_cell_data(work, d, n, kind, seed):
    rng = np.random.default_rng([seed, d, n, KINDS.index(kind)])
    if kind == "self":
        paths = [os.path.join(work, "d%d_n%d_self_X.npy" % (d, n))]
        np.save(paths[0], rng.standard_normal((n, d)).astype(np.float32))
    else:
        paths = [os.path.join(work, "d%d_n%d_cross_%s.npy" % (d, n, s)) for s in ("Q", "K")]
        np.save(paths[0], rng.standard_normal((n, d)).astype(np.float32))
        np.save(paths[1], rng.standard_normal((n, d)).astype(np.float32))
    return paths


def cross_ratios(rows):
    """self_over_cross, within_2x_cross and within_30s of the cli rows."""
    cross = {(r["d"], r["n"]): r for r in rows if r["door"] == "cli" and r["kind"] == "cross"}
    for r in rows:
        if r["door"] != "cli" or r["wall_s"] == "-" or r["kind"] not in KINDS:
            if r["door"] == "cli" and r["kind"] == "real" and r["wall_s"] != "-":
                r["within_30s"] = "yes" if float(r["wall_s"]) <= 30 else "no"
            continue
        r["within_30s"] = "yes" if float(r["wall_s"]) <= 30 else "no"
        if r["kind"] == "cross":
            r["within_2x_cross"] = "yes"
            continue
        c = cross.get((r["d"], r["n"]))
        failed = ("error", "timeout")
        if c is not None and c["wall_s"] != "-" and float(c["wall_s"]) > 0 and r["status"] not in failed \
                and c["status"] not in failed:
            ratio = float(r["wall_s"]) / float(c["wall_s"])
            r["self_over_cross"] = "%.2f" % ratio
            r["within_2x_cross"] = "yes" if ratio <= 2 else "no"


def real_head_rows(args, manifest):
    """Rows of a heads manifest's (layer, head, input) through the CLI, or (None, why)."""
    try:
        with open(manifest) as f:
            M = json.load(f)
    except (OSError, ValueError) as e:
        return None, "%s: %s" % (manifest, e)
    if not isinstance(M, dict) or M.get("format") != "attnrank-heads" or M.get("version") != 1:
        return None, "%s: not an attnrank-heads version 1 manifest" % manifest
    base = os.path.dirname(os.path.abspath(manifest))
    rows = []
    files = M.get("files") or []
    if args.real_heads_max:
        files = files[:args.real_heads_max]
    for e in files:
        try:
            layer = M["layers"][e["layer"]]
            dh, scale = int(layer["head_dim"]), float(layer["scale"])
            n = int(M["inputs"][e["input"]]["positions"])
            q, k = os.path.join(base, e["q"]), os.path.join(base, e["k"])
        except (KeyError, IndexError, TypeError, ValueError) as x:
            return None, "%s: malformed entry %r (%s)" % (manifest, e, x)
        beta = 1.0 / math.sqrt(dh)
        r = row_of(dh, n, "real", "cli")
        wall, j, err = run_proc(door_cmd("cli", args, [q, k], beta, args.eps), timeout=args.timeout)
        fill(r, wall, j, err)
        note = "model=%s layer=%d head=%d input=%d" % (clean(M.get("model", "?")), e["layer"], e["head"], e["input"])
        if abs(scale - beta) > 1e-12 * beta:
            note += " (manifest scale %r, run at 1/sqrt(dh))" % scale
        r["note"] = note if r["note"] == "-" else note + "; " + r["note"]
        log("  real   %s: [%s, %s] %s s" % (note, r["lower"], r["upper"], r["wall_s"]))
        rows.append(r)
    return rows, ""


def gnuplot_figure(tsv, svg, series, ds, title):
    """CLI wall time against n, log-log, one colour per d, self solid and cross dashed; series: the
    (d, kind) pairs that have cli rows (a filter that selects nothing makes no datablock)."""
    gp = ['set datafile separator "\\t"',
          'sel(k, d) = strcol(4) eq "cli" && strcol(3) eq k && strcol(1) eq d && strcol(5) ne "-"']
    plots = []
    for d, kind in series:
        dt = 1 if kind == "self" else 2
        gp += ["set table $%s%d" % (kind, d),
               'plot "%s" using 2:5 with table if (sel("%s", "%d"))' % (tsv, kind, d)]
        plots.append('$%s%d using 1:2 with linespoints lc %d dt %d pt 7 ps 0.6 title "d = %d, %s"'
                     % (kind, d, ds.index(d) + 1, dt, d, kind))
    gp += ["unset table",
           "set terminal svg size 900,600 dynamic enhanced font 'Arial,12'",
           'set output "%s"' % svg,
           'set title "%s" noenhanced' % title.replace('"', "'"),
           "set logscale xy", "set xlabel 'n (tokens)'", "set ylabel 'attnrank bracket wall time (s)'",
           "set grid", "set key top left", "set xtics (256, 512, 1024, 2048, 4096, 8192)",
           "plot " + ", \\\n     ".join(plots)]
    return "\n".join(gp) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring (sed -n 2,68p bench/bench_heads.py) for the columns.")
    ap.add_argument("--d", type=ints, help="head dimensions (default 16,32,64,128)")
    ap.add_argument("--n", type=ints, help="token counts (default 256,...,4096, and 8192 for cross)")
    ap.add_argument("--kind", type=names(KINDS), default=KINDS, help="self,cross (default both)")
    ap.add_argument("--doors", type=names(DOORS), default=DOORS, help="cli,c,python (default all three)")
    ap.add_argument("--quick", action="store_true", help="d in {16, 64}, n in {256, 512}: tests the script")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "bench_heads.tsv"),
                    help="the TSV (default bench/results/bench_heads.tsv; - : stdout)")
    ap.add_argument("--svg", help="the figure (default: next to --out with the suffix .svg)")
    ap.add_argument("--real-heads", action="append", default=[], metavar="MANIFEST",
                    help="heads manifest.json (scripts/export_heads.py); may be given more than once")
    ap.add_argument("--real-heads-max", type=int, default=0, metavar="K",
                    help="at most K files of each manifest (default 0: all)")
    ap.add_argument("--eps", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=32, help="base seed of the cells' generators (default 32)")
    ap.add_argument("--all-doors-max-n", type=int, default=2048, help="c and python doors up to this n (2048)")
    ap.add_argument("--svd-max-n", type=int, default=4096, help="numpy SVD up to this n (4096; 0: never)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per process (default 3600)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin", "attnrank"))
    ap.add_argument("--c-door", default=os.path.join(ROOT, "build", "bench", "bench_heads_c"))
    ap.add_argument("--keep", metavar="DIR", help="write the .npy instances into DIR and keep them")
    args = ap.parse_args()
    args.seen = {}

    ds = args.d or (D_QUICK if args.quick else D_FULL)
    ns_all = args.n or (N_QUICK if args.quick else N_FULL + N_CROSS_ONLY)
    cells = [(d, n, kind) for d in ds for n in ns_all for kind in args.kind
             if not (kind == "self" and n in N_CROSS_ONLY)]
    if not cells:
        sys.exit("bench_heads: no cell in the grid (self-attention stops at n = 4096)")
    # the doors are rebuilt from the tree first: a stale C door once printed an older library's
    # brackets beside the CLI's (make is a no-op when they are current)
    if args.bin == os.path.join(ROOT, "bin", "attnrank") and \
            args.c_door == os.path.join(ROOT, "build", "bench", "bench_heads_c"):
        if subprocess.call(["make", "-s", "-C", ROOT, "bin/attnrank", "build/bench/bench_heads_c",
                            "build/lib/libattnrank.so"]) != 0:
            sys.exit("bench_heads: make of the doors failed")
    for door, path in (("cli", args.bin), ("c", args.c_door)):
        if door in args.doors and not os.access(path, os.X_OK):
            sys.exit("bench_heads: %s door %s not found (make bin/attnrank build/bench/bench_heads_c)" % (door, path))
    if args.out == "-":
        svg = args.svg or os.path.join(ROOT, "bench", "results", "bench_heads.svg")
    else:
        svg = args.svg or os.path.splitext(args.out)[0] + ".svg"
    env_py = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + (
        os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""))

    started = datetime.datetime.now(datetime.timezone.utc)
    load0 = loadavg()
    work = args.keep or tempfile.mkdtemp(prefix="bench_heads.")
    os.makedirs(work, exist_ok=True)
    rows = []
    try:
        for i, (d, n, kind) in enumerate(cells):
            beta = 1.0 / math.sqrt(d)
            log("[%d/%d] d=%d n=%d %s beta=%r eps=%r" % (i + 1, len(cells), d, n, kind, beta, args.eps))
            files = write_cell_data(work, d, n, kind, args.seed)
            doors = set(args.doors) if n <= args.all_doors_max_n else {"cli"} & set(args.doors)
            cell = bracket_cell(args, d, n, kind, files, beta, env_py, doors)
            svd_s, svd_k = numpy_rank(args, n, files, beta)
            for r in cell:
                if r["status"] != "-" or r["door"] in doors:
                    r["svd_s"], r["svd_k"] = svd_s, svd_k
            rows += cell
            if not args.keep:
                for f in files:
                    os.remove(f)
        real_notes = []
        if not args.real_heads:
            real_notes.append("real-head rows not run: --real-heads MANIFEST not given (the two claim-E models' "
                              "heads need `make calib-data`, a network download, not done here)")
        for m in args.real_heads:
            if not os.path.isfile(m):
                real_notes.append("real-head rows of %s not run: no such file (needs `make calib-data`, a network "
                                  "download, and a manifest from scripts/export_heads.py)" % m)
                continue
            got, why = real_head_rows(args, m)
            if got is None:
                real_notes.append("real-head rows of %s not run: %s" % (m, why))
            else:
                rows += got
                real_notes.append("real-head rows: %d from %s (kind real, cli door, beta 1/sqrt(head_dim))"
                                  % (len(got), m))
        for x in real_notes:
            log(x)
        cross_ratios(rows)

        ended = datetime.datetime.now(datetime.timezone.utc)
        seen = args.seen
        def per_door(key):
            v = seen.get(key, {})
            vals = set(v.values())
            if len(vals) <= 1:
                return next(iter(vals), "?")
            return ", ".join("%s %s" % (door, v[door]) for door in DOORS if door in v)
        blas = per_door("blas_core")
        cmd = " ".join(shlex.quote(a) for a in [sys.executable, os.path.relpath(os.path.abspath(sys.argv[0]), ROOT)]
                       + sys.argv[1:])
        head = [
            "bench_heads: certified eps-rank brackets at real attention-head shapes (issue 32, item 7)",
            "command: " + cmd,
            "date: %s (UTC start), %s (end), %.0f s" % (started.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                                        ended.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                                        (ended - started).total_seconds()),
            "machine: %d cores (nproc), %s, blas_core %s; OPENBLAS_NUM_THREADS of the doors: %s"
            % (nproc(), cpu_model(), blas, os.environ.get("OPENBLAS_NUM_THREADS", "unset")),
            "load average: %s at the start, %s at the end" % (load0, loadavg()),
            "attnrank commit: %s" % per_door("commit"),
            "instances: N(0,1) rows as float32 .npy, numpy default_rng([%d, d, n, 0 self / 1 cross]); queries = "
            "keys = n tokens; beta = 1/sqrt(d); eps = %r" % (args.seed, args.eps),
            "doors: cli (bin/attnrank bracket --format json), c (build/bench/bench_heads_c), python "
            "(attnrank.bracket in a subprocess, PYTHONPATH=python); c and python run only for n <= %d, "
            "the cli alone above (their rows hold '-')" % args.all_doors_max_n,
            "svd: numpy's UNCERTIFIED rank (float64 A, np.linalg.svd, OPENBLAS_NUM_THREADS=1, binary search for "
            "the least k with max row-l1 truncation error <= eps); " + (
                "skipped for n > %d (one dgesdd of 8192 x 8192 on one core takes too long)" % args.svd_max_n
                if args.svd_max_n > 0 else "not run (--svd-max-n 0)"),
        ] + real_notes + [
            "columns: see the docstring of bench/bench_heads.py; wall_s is measured around the door's process, "
            "json_s is the library's own seconds",
        ]
        text = "".join("# " + h + "\n" for h in head)
        text += "\t".join(COLUMNS) + "\n"
        text += "".join("\t".join(str(r[c]) for c in COLUMNS) + "\n" for r in rows)
        if args.out == "-":
            tsv = os.path.join(work, "bench_heads.tsv")
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            tsv = args.out
            os.makedirs(os.path.dirname(os.path.abspath(tsv)), exist_ok=True)
        with open(tsv, "w") as f:
            f.write(text)
        if args.out != "-":
            log("wrote " + tsv)

        gnuplot = shutil.which("gnuplot")
        if not gnuplot:
            log("figure not made: gnuplot is not installed (%s not written)" % svg)
        series = sorted({(r["d"], r["kind"]) for r in rows
                         if r["door"] == "cli" and r["kind"] in KINDS and r["status"] not in ("-", "error", "timeout")},
                        key=lambda x: (x[0], KINDS.index(x[1])))
        if gnuplot and not series:
            log("figure not made: no cli row with a time")
        elif gnuplot:
            title = "attnrank bracket (cli) wall time, beta = 1/sqrt(d), eps = %g: %d cores, %s, blas %s" % (
                args.eps, nproc(), cpu_model(), blas)
            gp = os.path.join(work, "bench_heads.gp")
            with open(gp, "w") as f:
                f.write(gnuplot_figure(os.path.abspath(tsv), os.path.abspath(svg), series, sorted(set(ds)), title))
            p = subprocess.run([gnuplot, gp], capture_output=True, text=True)
            if p.returncode != 0 or not os.path.getsize(svg):
                log("figure not made: gnuplot failed: " + clean(p.stderr)[-300:])
                if os.path.isfile(svg) and not os.path.getsize(svg):
                    os.remove(svg)
            else:
                log("wrote " + svg)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
