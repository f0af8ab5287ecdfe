#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""perf_serial.py -- the serial fraction of one attnrank run, read off a perf profile (issue 35).

bench_threads.py derives a serial fraction from two wall times, f = 2 t2 / t1 - 1 (Amdahl).  On a
2-core virtual machine that number also holds what the two threads lose to each other when both
run (shared caches, memory bandwidth, a busy host): a stage that is parallel from end to end still
shows f = 0.1-0.2.  This script measures the other reading, where the time goes: it runs the
command under `perf record` (cpu-clock samples with call graphs, every thread of the process),
cuts the run into windows of W seconds, and calls a window serial when only one thread took
samples in it.  It prints

  samples    all samples, and those in serial windows
  serial     the fraction of samples (CPU time) in serial windows: Amdahl's serial fraction,
             measured where the code runs on one thread (a window where the second thread
             merely waited on the host counts too, so this is an upper estimate on a busy machine)
  owners     the attnrank functions (the first frame in attnrank's own code) that the serial
             windows' samples were in, most first

and the Amdahl predictions t(T)/t(2) for 16 and 64 threads from that fraction.  Run it on a quiet
machine (or stop other jobs with SIGSTOP); the windows are 20 ms by default (perf at 499 Hz gives
about 10 samples per thread per window).

Usage: bench/perf_serial.py [--window 0.02] [--freq 499] -- COMMAND ARGS...
       e.g. bench/perf_serial.py -- bin/attnrank bracket --queries Q.npy --keys K.npy --beta 20 --eps 0.1
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile


def samples_of(data):
    out = subprocess.run(["perf", "script", "-i", data, "-F", "tid,time,ip,sym,dso"], capture_output=True,
                         text=True).stdout
    res, cur = [], None
    for line in out.splitlines():
        if not line.strip():
            if cur:
                res.append(cur)
            cur = None
            continue
        if not line.startswith(("\t", " " * 8)):
            f = line.split()
            try:
                cur = [int(f[0]), float(f[1].rstrip(":")), []]
            except (ValueError, IndexError):
                cur = None
        elif cur is not None:
            f = line.split(None, 1)
            if len(f) > 1:
                cur[2].append(f[1])
    if cur:
        res.append(cur)
    return res


def owner(stack, own):
    for fr in stack:
        if any(o in fr for o in own) and "openblas" not in fr:
            return fr.split("(")[0].strip()
    return stack[0].split("(")[0].strip() if stack else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--window", type=float, default=0.02)
    ap.add_argument("--freq", type=int, default=499)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if not cmd:
        sys.exit("perf_serial: no command (usage: bench/perf_serial.py -- COMMAND ARGS...)")
    if not (a.window > 0 and a.freq > 0):
        sys.exit("perf_serial: --window and --freq must be positive")
    own = [os.path.dirname(os.path.abspath(cmd[0])), "attnrank"]
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        p = subprocess.run(["perf", "record", "-q", "-F", str(a.freq), "--call-graph", "dwarf,16384", "-o", data,
                            "--"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit("perf_serial: %s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[-300:]))
        smp = samples_of(data)
    if not smp:
        sys.exit("perf_serial: no samples (is perf allowed here? kernel.perf_event_paranoid)")
    t0 = min(s[1] for s in smp)
    win = collections.defaultdict(set)
    for tid, t, _ in smp:
        win[int((t - t0) / a.window)].add(tid)
    ser = collections.Counter()
    nser = 0
    for tid, t, st in smp:
        if len(win[int((t - t0) / a.window)]) == 1:
            nser += 1
            ser[owner(st, own)] += 1
    f = nser / len(smp)
    print("# perf_serial.py: %s" % " ".join(cmd))
    print("# windows of %g s, perf at %d Hz; %d windows, %d of them serial" %
          (a.window, a.freq, len(win), sum(1 for w in win.values() if len(w) == 1)))
    print("samples\t%d\tin serial windows\t%d" % (len(smp), nser))
    print("serial\t%.3f" % f)
    for T in (16, 64):
        print("pred%d\t%.2f x the 2-thread time" % (T, (f + (1 - f) / T) / (f + (1 - f) / 2)))
    for k, v in ser.most_common(a.top):
        print("owner\t%d\t%s" % (v, k))


if __name__ == "__main__":
    main()
