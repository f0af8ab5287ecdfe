#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench_threads.py -- scaling of the dense bracket with attnrank's thread count (issue 35).

Cross-attention brackets, n queries and n keys uniform in the unit 3-ball (`attnrank generate`,
seeds 1 and 2), beta 20, eps 0.1, through `attnrank bracket --threads T --progress` (stage
messages with times, ATTNRANK_PROGRESS_AFTER=0).  For each n the thread counts 1, 2 and all
(nproc) run alternately, REPS rounds, in one process each, on the same BLAS core; the fastest
run of each count is kept.  Stages, from the progress messages' time stamps (0.1 s resolution):

  enclose   forming A (the enclosure, softmax rows)
  lower0    the first lower end (block test matrices on farthest-point rows)
  sketch    the randomized sketches: products with A and their TSQR factorisations (the CLI's
            progress does not separate the two)
  certify   the certifying pass (residual passes over A, every candidate rank)
  lower1    the lower ends after the upper end (peeling, growth, weighted, nets)
  total     the whole bracket (the CLI's own time line)

For each stage: the time at 1 and 2 threads, the speed-up, the serial fraction
f = 2 t2 / t1 - 1 (Amdahl: t(T) = t1 (f + (1 - f) / T)), and the predictions for 16 and 64
threads from f.  Every run's bracket, upper error bound and lower certificate must be the same
for every thread count (the script exits 1 otherwise).  The machine's load (uptime) is printed
before and after: rerun on a quiet machine for numbers to report.

--base OTHER_BINARY: the same runs of a baseline binary (e.g. the code before a change) alternate
with --bin's, in the same rounds; its whole-bracket times at 1 and 2 threads are printed beside
--bin's, and its brackets and certified numbers must be the same as --bin's (exit 1 otherwise).

Usage: bench/bench_threads.py [--bin bin/attnrank] [--base BIN] [--n 8000 16000] [--reps 2] [--out FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

STAGES = ["enclose", "lower0", "sketch", "certify", "lower1"]


def stage_of(msg, seen_upper):
    if msg.startswith("enclosure"):
        return "enclose"
    if msg.startswith("rsvd:") or msg.startswith("rsym:"):
        return "sketch"
    if msg.startswith("upper:"):
        return "certify"
    if msg.startswith("lower:"):
        return "lower1" if seen_upper else "lower0"
    return None


def run_once(binary, qk, threads):
    env = dict(os.environ, ATTNRANK_PROGRESS_AFTER="0")
    cmd = [binary, "bracket", "--queries", qk[0], "--keys", qk[1], "--beta", "20", "--eps", "0.1",
           "--threads", str(threads), "--progress", "--format", "json"]
    t0 = time.time()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode != 0:
        said = [l for l in p.stderr.splitlines() if "(running)" not in l]
        sys.exit("bench_threads: %s exited %d after %.0f s: %s" % (" ".join(cmd), p.returncode, wall,
                                                                  " | ".join(said[-6:])))
    d = json.loads(p.stdout)
    marks = []
    for line in p.stderr.splitlines():
        m = re.match(r"\[bracket\s+([0-9.]+) s\] (.*)", line)
        if m:
            marks.append((float(m.group(1)), m.group(2)))
    total = float(d.get("seconds", wall))
    times = dict.fromkeys(STAGES, 0.0)
    seen_upper = False
    for i, (t, msg) in enumerate(marks):
        st = stage_of(msg, seen_upper)
        seen_upper = seen_upper or st in ("sketch", "certify")
        end = marks[i + 1][0] if i + 1 < len(marks) else total
        if st:
            times[st] += max(0.0, end - t)
    times["total"] = total
    key = tuple(json.dumps(d.get(f)) for f in ("lower", "upper", "status", "upper_certificate", "upper_err_bound",
                                               "lower_certificate", "lower_invnorm_bound", "enclosure_err",
                                               "rsvd_rank", "rsvd_sketch", "rsvd_passes"))
    return times, key, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="bin/attnrank")
    ap.add_argument("--base", default=None, help="a baseline binary, run alternately with --bin")
    ap.add_argument("--n", type=int, nargs="+", default=[8000, 16000])
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    allt = os.cpu_count() or 1
    try:
        allt = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    allt = min(allt, 64)
    counts = [1, 2] + ([allt] if allt > 2 else [])
    lines = []

    def out(s):
        print(s, flush=True)
        lines.append(s)

    core = subprocess.run([a.bin, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    out("# bench_threads.py %s" % time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()))
    out("# %s" % (core[0] if core else a.bin))
    if a.base:
        bcore = subprocess.run([a.base, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
        out("# baseline (--base, alternating with it): %s" % (bcore[0] if bcore else a.base))
    out("# %d CPUs usable; uptime at the start: %s" % (allt, subprocess.run(["uptime"], capture_output=True,
                                                                             text=True).stdout.strip()))
    out("# runs alternate %s threads, %d rounds; fastest run of each kept; times in seconds" % (counts, a.reps))
    out("n\tstage\tt1\tt2\tt%s\tspeedup2\tserial_frac\tpred16\tpred64" % ("all" if allt > 2 else "all(=2)"))
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for n in a.n:
            qk = (os.path.join(tmp, "Q%d.npy" % n), os.path.join(tmp, "K%d.npy" % n))
            for path, seed in zip(qk, (1, 2)):
                subprocess.run([a.bin, "generate", "--geometry", "ball", "--family", "uniform", "--d", "3", "--n",
                                str(n), "--seed", str(seed), "--out", path], check=True, capture_output=True)
            best = {}
            base = {}
            keys = {}
            for _ in range(a.reps):
                for t in counts:
                    times, key, _ = run_once(a.bin, qk, t)
                    keys.setdefault(key, []).append(t)
                    if t not in best or times["total"] < best[t]["total"]:
                        best[t] = times
                    if a.base:
                        btimes, bkey, _ = run_once(a.base, qk, t)
                        keys.setdefault(bkey, []).append("base %d" % t)
                        if t not in base or btimes["total"] < base[t]["total"]:
                            base[t] = btimes
            if len(keys) != 1:
                ok = False
                out("# n=%d: DIFFERENT brackets or certified numbers across thread counts: %s" % (n, keys))
            else:
                k = next(iter(keys))
                out("# n=%d: bracket [%s, %s] (upper %s, err %s; lower %s, invnorm %s), identical for every run and "
                    "thread count" % (n, k[0], k[1], k[3], k[4], k[5], k[6]))
            for st in STAGES + ["total"]:
                t1, t2, ta = best[1][st], best[2][st], best[counts[-1]][st]
                if t1 > 0:
                    f = min(1.0, max(0.0, 2 * t2 / t1 - 1))
                    sp = "%.2f" % (t1 / t2 if t2 > 0 else float("inf"))
                    p16, p64 = t1 * (f + (1 - f) / 16), t1 * (f + (1 - f) / 64)
                    out("%d\t%s\t%.1f\t%.1f\t%.1f\t%s\t%.2f\t%.1f\t%.1f" % (n, st, t1, t2, ta, sp, f, p16, p64))
                else:
                    out("%d\t%s\t%.1f\t%.1f\t%.1f\t-\t-\t-\t-" % (n, st, t1, t2, ta))
            out("# n=%d: --threads 2 / --threads 1 = %.2f (target <= 0.6)" % (n, best[2]["total"] / best[1]["total"]))
            if a.base:
                for st in STAGES + ["total"]:
                    out("# n=%d base %s: %s" % (n, st, "  ".join("t%d %.1f" % (t, base[t][st]) for t in counts)))
                out("# n=%d: the baseline's --threads 2 / --threads 1 = %.2f; --bin / base at 1 thread %.2f, at 2 "
                    "threads %.2f" % (n, base[2]["total"] / base[1]["total"], best[1]["total"] / base[1]["total"],
                                      best[2]["total"] / base[2]["total"]))
    out("# uptime at the end: %s" % subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
