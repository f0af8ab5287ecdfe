#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""layout_metrics.py -- the library-boundary figures of issue 34, measured.

Prints, for the working tree (run from anywhere; `make` first so that the
library objects exist under build/):

  rooms         source lines per room (folder) of the library and the CLI
  largest file  and the ten longest functions (lines from the opening line
                to the closing brace at column 0)
  strcmp names  strcmp/strncmp calls in the library that compare a route,
                certificate-method, status or law-kind name (a string
                literal from the name tables, or a field called method,
                status, kind, route, *_route)
  getenv below  environment reads (getenv, env_size, env_size_opt, env_real,
   api/         env_flag, env_guard) in numerics/ (envvar.c itself aside),
                constructions/, theory/ and sweeps/
  include       cycles among source modules (x.c and x.h are one module; an
   cycles       edge for every project #include)
  process calls library objects whose undefined symbols name printf, puts,
                putchar, vprintf, exit, _exit, abort, setenv, putenv,
                unsetenv, an exec function, stdout or stderr (nm -u over build/<room>/*.o)
  Makefile      lines of Makefile and mk/*.mk

Usage: python3 scripts/layout_metrics.py [--build DIR]
Exit 0 always (it measures; the gates live in their own checks)."""

import argparse
import os
import re
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LIB_ROOMS = ["base", "numerics", "constructions", "theory", "sweeps", "api"]
NAMES = {"trivial", "certified", "inconclusive", "rsvd", "rsym", "symeig", "svd",
         "diagdom", "invnorm", "polynomial", "ball", "scale", "dense", "tensor-cheb",
         "saturation", "continuum", "exponent", "report", "packed", "extended",
         "default", "all", "stream", "nets", "blocks", "grow", "weighted", "shells"}
PROCESS_SYMS = {"printf", "puts", "putchar", "vprintf", "exit", "_exit", "abort",
                "setenv", "putenv", "unsetenv", "execv", "execve", "execvp", "execl",
                "stdout", "stderr"}
ENV_READ = re.compile(r"\b(getenv|secure_getenv|env_size_opt|env_size|env_real|env_flag|env_guard)\s*\(")


def sources(rooms, exts=(".c", ".h")):
    out = []
    for room in rooms:
        top = os.path.join(ROOT, room)
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith(exts):
                    out.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    return sorted(out)


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as fh:
        return fh.read()


def functions(path):
    """(name, lines) for every function definition with its body at column 0."""
    lines = read(path).split("\n")
    out, start, name = [], None, None
    for i, line in enumerate(lines):
        if start is None and line[:1].isalpha() and not line.startswith(("typedef", "struct", "enum", "union", "static const", "const")):
            j, head = i, line
            while "(" not in head and j + 1 < len(lines) and j < i + 3:
                j += 1
                head += lines[j]
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", head)
            if m and (line.rstrip().endswith("{") or (i + 1 < len(lines) and lines[i + 1].startswith("{")) or
                      (")" in line and not line.rstrip().endswith(";"))):
                start, name = i, m.group(1)
        if start is not None and line.startswith("}"):
            out.append((name, i - start + 1))
            start = None
        if start is not None and line.rstrip().endswith(";") and not line.startswith((" ", "\t")) and i == start:
            start = None
    return out


def strcmp_names(files):
    hits = []
    for f in files:
        if not f.endswith(".c"):
            continue
        for n, line in enumerate(read(f).split("\n"), 1):
            if "strcmp(" not in line:
                continue
            lits = set(re.findall(r'"([^"]*)"', line))
            field = re.search(r"\b(method|status|kind|route|\w+_route)\b", line)
            if lits & NAMES or field:
                hits.append(f"{f}:{n}")
    return hits


def env_reads(files):
    hits = []
    for f in files:
        if not f.endswith(".c") or f.endswith("envvar.c"):
            continue
        for n, line in enumerate(read(f).split("\n"), 1):
            s = line.strip()
            if s.startswith(("/*", "*", "//")):
                continue
            if ENV_READ.search(line):
                hits.append(f"{f}:{n}")
    return hits


def module(path):
    """x.c, x.h and the private header x_impl.h are one module."""
    m = os.path.splitext(path)[0]
    return m[:-5] if m.endswith("_impl") else m


def include_cycles(files):
    graph = defaultdict(set)
    known = {module(f) for f in files}
    for f in files:
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', read(f), re.M):
            target = module(inc if "/" in inc else os.path.join(os.path.dirname(f), inc))
            if target in known and target != module(f):
                graph[module(f)].add(target)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))

    for v in sorted(known):
        if v not in index:
            strong(v)
    return sorted(comps)


def process_objects(build, files):
    hits = {}
    for f in files:
        if not f.endswith(".c"):
            continue
        obj = os.path.join(ROOT, build, os.path.splitext(f)[0] + ".o")
        if not os.path.exists(obj):
            continue
        out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True).stdout
        syms = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
        bad = sorted(s for s in syms if s in PROCESS_SYMS or s.lstrip("_") in PROCESS_SYMS)
        if bad:
            hits[f] = bad
    return hits


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--list", action="store_true", help="print every hit, not only the counts")
    a = ap.parse_args()
    lib = sources([r for r in LIB_ROOMS if os.path.isdir(os.path.join(ROOT, r))])
    cli = sources(["cli"])
    print("rooms (lines of .c and .h):")
    per = defaultdict(int)
    for f in lib + cli:
        per[os.path.dirname(f)] += read(f).count("\n")
    for room in sorted(per):
        print(f"  {room:28s} {per[room]:6d}")
    print(f"  {'library total':28s} {sum(v for k, v in per.items() if not k.startswith('cli')):6d}")
    sizes = sorted(((read(f).count(chr(10)), f) for f in lib + cli), reverse=True)
    print(f"largest file: {sizes[0][1]} ({sizes[0][0]} lines)")
    funcs = sorted(((n, name, f) for f in lib + cli if f.endswith(".c") for name, n in functions(f)), reverse=True)
    print("longest functions:")
    for n, name, f in funcs[:10]:
        print(f"  {n:4d}  {name}  ({f})")
    print(f"functions over 120 lines: {sum(1 for n, _, _ in funcs if n > 120)}")
    s = strcmp_names(lib)
    print(f"strcmp on route/method/status/kind names in the library: {len(s)}")
    e = env_reads(sources(["base", "numerics", "constructions", "theory", "sweeps"]))
    print(f"environment reads below api/: {len(e)}")
    c = include_cycles(lib + cli)
    print(f"include cycles: {len(c)}" + ("".join("\n  " + " <-> ".join(x) for x in c)))
    p = process_objects(a.build, lib)
    print(f"library objects referencing printf/puts/exit/abort/setenv/exec/stdout/stderr: {len(p)}")
    for f, syms in sorted(p.items()):
        print(f"  {f}: {' '.join(syms)}")
    mk = ["Makefile"] + sorted(os.path.join("mk", x) for x in os.listdir(os.path.join(ROOT, "mk"))) \
        if os.path.isdir(os.path.join(ROOT, "mk")) else ["Makefile"]
    print(f"Makefile lines: {sum(read(x).count(chr(10)) for x in mk)} ({len(mk)} files)")
    if a.list:
        print("strcmp hits:\n  " + "\n  ".join(s))
        print("environment reads:\n  " + "\n  ".join(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
