#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/before_after.py -- the same instances through two attnrank binaries, side by side.

Usage:
    python3 bench/before_after.py --base OLD/bin/attnrank --new bin/attnrank [--out FILE] [--timeout S]

Runs each instance of INSTANCES (issue 32's cases: real-shaped self- and cross-attention heads,
the ball route's d = 8..16 sets, the 4096-point d = 2 set above the dense size, claim-style sphere
and ball instances) through `bracket --format json` of both binaries, one after the other (the two
runs of an instance alternate, so that a change of machine load falls on both), and writes one
TSV row per instance: wall time, bracket and certificates of each, the routes of the new one.
Inputs are drawn here with numpy (fixed seeds) into a temporary directory.  An old binary that
does not finish within --timeout seconds (default 300) is recorded as "timeout" (the issue's
hangs).  Columns: name, base_s, base_bracket, base_certs, new_s, new_bracket, new_certs,
new_routes, speedup.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np


def instances(tmp):
    """(name, args) of every instance; the .npy files written into tmp."""
    out = []

    def save(name, a):
        p = os.path.join(tmp, name + ".npy")
        np.save(p, a)
        return p

    for n in (512, 1024, 2048):
        rng = np.random.default_rng([64, n])
        x = save("self64_%d" % n, rng.standard_normal((n, 64)).astype(np.float32))
        k = save("key64_%d" % n, rng.standard_normal((n, 64)).astype(np.float32))
        out.append(("self d=64 n=%d beta 1/8" % n, ["--points", x, "--beta", "0.125", "--eps", "0.1"]))
        out.append(("cross d=64 n=%d beta 1/8" % n, ["--queries", x, "--keys", k, "--beta", "0.125", "--eps", "0.1"]))
        out.append(("queries=keys d=64 n=%d" % n, ["--queries", x, "--keys", x, "--beta", "0.125", "--eps", "0.1"]))
    rng = np.random.default_rng(7)
    x = save("self128_2048", rng.standard_normal((2048, 128)).astype(np.float32))
    out.append(("self d=128 n=2048 beta 1/sqrt(128)", ["--points", x, "--beta", repr(1 / np.sqrt(128)), "--eps",
                                                      "0.1"]))
    for d, n in ((8, 500), (12, 500), (16, 500), (10, 2000)):
        rng = np.random.default_rng([3, d, n])
        x = save("ball%d_%d" % (d, n), 0.3 * rng.standard_normal((n, d)))
        out.append(("0.3 N(0,1) d=%d n=%d beta 1" % (d, n), ["--points", x, "--beta", "1", "--eps", "0.1"]))
    rng = np.random.default_rng(5)
    x = save("tiny2_4096", 0.05 * rng.standard_normal((4096, 2)))
    out.append(("0.05 N(0,1) d=2 n=4096 eps 0.5", ["--points", x, "--beta", "1", "--eps", "0.5"]))
    out.append(("sphere fibonacci n=2000 beta 50", ["--geometry", "sphere", "--family", "fibonacci", "--d", "3",
                                                    "--n", "2000", "--beta", "50", "--eps", "0.1"]))
    out.append(("ball dense d=3 rho0 0 beta 60", ["--geometry", "ball", "--family", "dense", "--d", "3", "--rho0",
                                                  "0", "--beta", "60", "--eps", "0.1"]))
    out.append(("ball shells d=2 rho0 0 beta 200", ["--geometry", "ball", "--family", "shells", "--d", "2", "--rho0",
                                                    "0", "--beta", "200", "--eps", "0.1"]))
    return out


def run(binary, args, timeout):
    t0 = time.time()
    try:
        p = subprocess.run([binary, "bracket", *args, "--format", "json"], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.time() - t0, None, "timeout"
    wall = time.time() - t0
    if p.returncode != 0:
        return wall, None, "exit %d: %s" % (p.returncode, p.stderr.strip().splitlines()[-1] if p.stderr else "")
    return wall, json.loads(p.stdout), ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--out", default="-")
    ap.add_argument("--timeout", type=float, default=300.0)
    a = ap.parse_args()
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    out.write("# python3 bench/before_after.py --base %s --new %s --timeout %g\n" % (a.base, a.new, a.timeout))
    out.write("# %s UTC, %d cores, %s, load %s at the start\n"
              % (time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), os.cpu_count(), cpu,
                 open("/proc/loadavg").read().split()[:3]))
    out.write("name\tbase_s\tbase_bracket\tbase_certs\tnew_s\tnew_bracket\tnew_certs\tnew_routes\tspeedup\n")
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in instances(tmp):
            row = [name]
            res = []
            for b in (a.base, a.new):
                wall, j, err = run(b, args, a.timeout)
                res.append((wall, j, err))
                if j:
                    row += ["%.2f" % wall, "[%d, %d]" % (j["lower"], j["upper"]),
                            "%s/%s" % (j.get("lower_certificate", "?"), j.get("upper_certificate", "?"))]
                else:
                    row += [">%.0f" % wall if err == "timeout" else "%.2f" % wall, err, "-"]
            j = res[1][1]
            row.append(j.get("routes", "?") if j else "-")
            row.append("%.1fx" % (res[0][0] / res[1][0]) if res[1][1] else "-")
            out.write("\t".join(row) + "\n")
            out.flush()
    out.write("# load %s at the end\n" % open("/proc/loadavg").read().split()[:3])


if __name__ == "__main__":
    main()
