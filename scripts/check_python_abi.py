#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""check_python_abi.py -- the Python package's hand-written mirrors of include/attnrank.h
checked against the header, as the C compiler lays it out.

python/attnrank/_lib.py copies the result and option structs as ctypes.Structure
classes and a few #defines; python/attnrank/__init__.py copies the status codes,
the engine enum and the upper-construction bits.  Nothing else ties them to the
header, so this script:

  1. reads the header's typedef structs (their fields, in order), typedef enums
     and #defines;
  2. writes a C program into a temporary directory that prints, compiled against
     include/attnrank.h ($CC, default cc), for every mirrored struct its sizeof and
     _Alignof and for every field its offsetof, sizeof and class (floating,
     integer, other: pointer or struct; arrays: element size, class and count),
     and the value of every enum constant and mirrored #define;
  3. imports the package (python/ of this source tree, which loads the shared
     library: --library, else $ATTNRANK_LIBRARY, else build/lib/libattnrank.so.0)
     and compares ctypes.sizeof / alignment / each Field's offset and size / the
     field types and the constants with the C program's numbers.

The size-checked structs (a leading `size_t size`, include/attnrank.h) are
also checked for the mirror's constructor: a new instance must carry
size == ctypes.sizeof of its class, as ATTNRANK_INIT sets it in C (the
library refuses a struct whose size is too small).

Every mismatch is printed on its own line ("attnrank_bracket_result.engine
(BracketResult): C offset 496, Python 488") and the exit status is 1; 0 when
everything matches (one summary line), 2 when the check cannot run (no
compiler, no library, a header it cannot read).

Usage: scripts/check_python_abi.py [--library PATH] [--keep DIR]
  --keep DIR  write the generated C program and its output into DIR (kept)
"""
import argparse
import ctypes
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "attnrank.h")

# The ctypes classes of attnrank._lib and the typedef they mirror.  Every ctypes.Structure
# subclass of _lib must be listed (a new mirror is then checked too).
STRUCTS = {
    "Options": "attnrank_options",
    "BracketResult": "attnrank_bracket_result",
    "HeadResult": "attnrank_head_result",
    "BallSpec": "attnrank_ball_spec",
    "Law": "attnrank_law",
    "LawPoint": "attnrank_law_point",
    "LawVerdict": "attnrank_law_verdict",
}
# #defines of the header mirrored by _lib (Python name -> C name); API_VERSION_MIN is checked apart.
DEFINES = {
    "API_VERSION_MAJOR": "ATTNRANK_API_VERSION_MAJOR",
    "NAME_LEN": "ATTNRANK_NAME_LEN",
    "HEAD_MAX_TAUS": "ATTNRANK_HEAD_MAX_TAUS",
    "NONE": "ATTNRANK_NONE",
}
# enums mirrored by attnrank/__init__.py: the dict, the C enum and the prefix dropped from its constants'
# names (lowercased) to give the dict's keys
NAMED_ENUMS = [("_ENGINES", "attnrank_engine", "ATTNRANK_ENGINE_")]
UPPER_PREFIX = "ATTNRANK_UPPER_"     # #define bits, mirrored by attnrank._UPPER_BITS


class Unreadable(Exception):
    """The check cannot run (exit 2)."""


def strip_comments(src):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", src, flags=re.S)


def parse_header(path):
    """(structs, enums, defines): structs {typedef: [(field, declared type, is_array)]} of the typedef
    structs; enums {typedef: [constant]}; defines [(name)] of the #defines with a value."""
    try:
        with open(path) as f:
            raw = f.read()
    except OSError as e:
        raise Unreadable("cannot read %s: %s" % (path, e.strerror))
    defines = [m.group(1) for m in re.finditer(r"^\s*#\s*define\s+(ATTNRANK_\w+)[ \t]+\S", raw, re.M)]
    src = strip_comments(re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", raw, flags=re.M))
    structs = {}
    for m in re.finditer(r"typedef\s+struct\s*(\w+\s*)?\{([^{}]*)\}\s*(\w+)\s*;", src):
        fields = []
        for decl in m.group(2).split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            parts = [p.strip() for p in decl.split(",")]
            first = re.match(r"^(.*?)([\s*]+)(\w+)\s*((\[[^\]]*\])*)$", parts[0])
            if not first or "(" in decl:
                raise Unreadable("%s: cannot read the declaration %r of %s" % (path, decl, m.group(3)))
            base = first.group(1).replace("const", "").replace("volatile", "").strip()
            stars0 = first.group(2).count("*")
            decls = [(stars0, first.group(3), first.group(4))]
            for p in parts[1:]:
                d = re.match(r"^(\**)\s*(\w+)\s*((\[[^\]]*\])*)$", p)
                if not d:
                    raise Unreadable("%s: cannot read the declarator %r in %r" % (path, p, decl))
                decls.append((d.group(1).count("*"), d.group(2), d.group(3)))
            for stars, name, dims in decls:
                if dims.count("[") > 1:
                    raise Unreadable("%s: %s.%s: arrays of more than one dimension are not handled"
                                     % (path, m.group(3), name))
                fields.append((name, base + " *" * stars if stars else base, bool(dims)))
        structs[m.group(3)] = fields
    enums = {}
    for m in re.finditer(r"typedef\s+enum\s*(\w+\s*)?\{([^{}]*)\}\s*(\w+)\s*;", src):
        enums[m.group(3)] = [c.split("=")[0].strip() for c in m.group(2).split(",") if c.strip()]
    return structs, enums, defines


C_PRELUDE = r"""/* generated by scripts/check_python_abi.py */
#include <stddef.h>
#include <stdio.h>
#include "attnrank.h"

/* f: floating, i: integer (enums included; signedness not compared), o: other (pointer, struct) */
#define KIND(x) _Generic((x), float: 'f', double: 'f', long double: 'f', _Bool: 'i', char: 'i', \
    signed char: 'i', unsigned char: 'i', short: 'i', unsigned short: 'i', int: 'i', unsigned: 'i', \
    long: 'i', unsigned long: 'i', long long: 'i', unsigned long long: 'i', default: 'o')
#define STRUCT(S) printf("struct %s %zu %zu\n", #S, sizeof(S), _Alignof(S))
#define FIELD(S, f) printf("field %s %s %zu %zu %c\n", #S, #f, offsetof(S, f), sizeof(((S *)0)->f), \
    KIND(((S *)0)->f))
#define ARRAY(S, f) printf("field %s %s %zu %zu a %zu %c %zu\n", #S, #f, offsetof(S, f), sizeof(((S *)0)->f), \
    sizeof(((S *)0)->f[0]), KIND(((S *)0)->f[0]), sizeof(((S *)0)->f) / sizeof(((S *)0)->f[0]))
#define CONST(c) printf("const %s %llu\n", #c, (unsigned long long)(c))

int main(void)
{
"""


def c_program(structs, consts):
    lines = [C_PRELUDE]
    for cname in sorted(structs):
        lines.append("    STRUCT(%s);\n" % cname)
        for name, _, is_array in structs[cname]:
            lines.append("    %s(%s, %s);\n" % ("ARRAY" if is_array else "FIELD", cname, name))
    for c in consts:
        lines.append("    CONST(%s);\n" % c)
    lines.append("    return 0;\n}\n")
    return "".join(lines)


def run_c(src, workdir):
    cc = shlex.split(os.environ.get("CC") or "cc")
    c_file, exe = os.path.join(workdir, "abi.c"), os.path.join(workdir, "abi")
    with open(c_file, "w") as f:
        f.write(src)
    cmd = cc + ["-std=c11", "-Wall", "-Werror", "-I", os.path.join(ROOT, "include"), "-o", exe, c_file]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise Unreadable("cannot run the C compiler %s: %s" % (cc[0], e.strerror))
    if r.returncode != 0:
        raise Unreadable("%s failed (exit status %d):\n%s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    r = subprocess.run([exe], capture_output=True, text=True)
    if r.returncode != 0:
        raise Unreadable("%s: exit status %d" % (exe, r.returncode))
    with open(os.path.join(workdir, "abi.txt"), "w") as f:
        f.write(r.stdout)
    structs, fields, consts = {}, {}, {}
    for line in r.stdout.splitlines():
        w = line.split()
        if w[0] == "struct":
            structs[w[1]] = (int(w[2]), int(w[3]))
        elif w[0] == "field":
            info = {"offset": int(w[3]), "size": int(w[4]), "kind": w[5]}
            if w[5] == "a":
                info.update(elem_size=int(w[6]), elem_kind=w[7], count=int(w[8]))
            fields[(w[1], w[2])] = info
        elif w[0] == "const":
            consts[w[1]] = int(w[2])
    return structs, fields, consts


def py_kind(t):
    """The C program's class of ctypes type t: f, i, o (pointer, function pointer, struct) or a (array)."""
    if issubclass(t, ctypes.Array):
        return "a"
    if issubclass(t, ctypes._SimpleCData):
        code = t._type_
        if code in "fdg":
            return "f"
        if code in "bBhHiIlLqQ?c":
            return "i"
    return "o"


def import_package(library):
    sys.path.insert(0, os.path.join(ROOT, "python"))
    os.environ["ATTNRANK_LIBRARY"] = library
    try:
        import attnrank
        from attnrank import _lib
    except ImportError as e:
        raise Unreadable("cannot import the attnrank package of %s/python with ATTNRANK_LIBRARY=%s: %s"
                         % (ROOT, library, e))
    if os.path.dirname(os.path.abspath(attnrank.__file__)) != os.path.join(ROOT, "python", "attnrank"):
        raise Unreadable("imported attnrank from %s, not this source tree's python/" % attnrank.__file__)
    return attnrank, _lib


def compare(hdr, cout, pkg, lib):
    """[mismatch lines], (structs, fields, constants) compared."""
    h_structs, h_enums, h_defines = hdr
    c_structs, c_fields, c_consts = cout
    bad = []
    nfields = 0
    mirrored = {n for n, v in vars(lib).items()
                if isinstance(v, type) and issubclass(v, ctypes.Structure) and v.__module__ == lib.__name__}
    for n in sorted(mirrored - set(STRUCTS)):
        bad.append("attnrank._lib.%s: a ctypes.Structure that check_python_abi.py does not map to a C struct "
                   "(add it to STRUCTS)" % n)
    by_c = {c: p for p, c in STRUCTS.items()}
    for pname, cname in STRUCTS.items():
        cls = getattr(lib, pname, None)
        if cls is None:
            bad.append("attnrank._lib.%s: missing (mirror of %s)" % (pname, cname))
            continue
        if cname not in h_structs:
            bad.append("%s (%s): no such typedef struct in include/attnrank.h" % (cname, pname))
            continue
        where = "%s (%s)" % (cname, pname)
        size, align = c_structs[cname]
        if ctypes.sizeof(cls) != size:
            bad.append("%s: C sizeof %d, Python %d" % (where, size, ctypes.sizeof(cls)))
        if ctypes.alignment(cls) != align:
            bad.append("%s: C alignment %d, Python %d" % (where, align, ctypes.alignment(cls)))
        py_fields = [(f[0], f[1]) for f in cls._fields_]
        py_names = [f[0] for f in py_fields]
        c_names = [f[0] for f in h_structs[cname]]
        for n in c_names:
            if n not in py_names:
                bad.append("%s.%s (%s): in attnrank.h (C offset %d), not in Python"
                           % (cname, n, pname, c_fields[(cname, n)]["offset"]))
        for n in py_names:
            if n not in c_names:
                bad.append("%s.%s (%s): in Python (offset %d), not in attnrank.h"
                           % (cname, n, pname, getattr(cls, n).offset))
        common_c = [n for n in c_names if n in py_names]
        common_p = [n for n in py_names if n in c_names]
        if common_c != common_p:
            bad.append("%s: fields in another order: C %s, Python %s" % (where, ", ".join(common_c),
                                                                         ", ".join(common_p)))
        if c_names and c_names[0] == "size":           # a size-checked struct: its constructor sets size
            try:
                made = cls().size
            except Exception as e:                   # noqa: BLE001 -- any failure is a mismatch to report
                made = "an error (%s)" % e
            if made != ctypes.sizeof(cls):
                bad.append("%s: a new instance has size %s, not ctypes.sizeof %d (set it in __init__, as "
                           "ATTNRANK_INIT does)" % (where, made, ctypes.sizeof(cls)))
        ctype_of = dict(py_fields)
        decl = {n: t for n, t, _ in h_structs[cname]}
        for n in common_c:
            nfields += 1
            c, t, f = c_fields[(cname, n)], ctype_of[n], getattr(cls, n)
            at = "%s.%s (%s)" % (cname, n, pname)
            if f.offset != c["offset"]:
                bad.append("%s: C offset %d, Python %d" % (at, c["offset"], f.offset))
            if f.size != c["size"]:
                bad.append("%s: C size %d, Python %d" % (at, c["size"], f.size))
            pk = py_kind(t)
            if c["kind"] == "a" or pk == "a":
                if c["kind"] != pk:
                    bad.append("%s: C %s, Python %s" % (at, "an array" if c["kind"] == "a" else "not an array",
                                                        t.__name__))
                    continue
                et = t._type_
                if t._length_ != c["count"]:
                    bad.append("%s: C %d elements, Python %d" % (at, c["count"], t._length_))
                if ctypes.sizeof(et) != c["elem_size"]:
                    bad.append("%s: C element size %d, Python %d" % (at, c["elem_size"], ctypes.sizeof(et)))
                if py_kind(et) != c["elem_kind"]:
                    bad.append("%s: C element class %s, Python %s (%s)" % (at, c["elem_kind"], py_kind(et),
                                                                           et.__name__))
                t = et
            elif pk != c["kind"]:
                bad.append("%s: C class %s (%s), Python %s (%s)" % (at, c["kind"], decl[n], pk, t.__name__))
            # a field of a mirrored struct type is that struct's class
            base = decl[n]
            if base in by_c and t is not getattr(lib, by_c[base], None):
                bad.append("%s: C type %s, Python %s (not %s)" % (at, base, t.__name__, by_c[base]))

    nconst = 0

    def const(what, c_value, py_value):
        nonlocal nconst
        nconst += 1
        if c_value != py_value:
            bad.append("%s: C %s, Python %s" % (what, c_value, py_value))

    for pyname, cname in DEFINES.items():
        if cname not in c_consts:
            bad.append("%s: no such #define in include/attnrank.h (mirrored by attnrank._lib.%s)" % (cname, pyname))
        else:
            const("%s (attnrank._lib.%s)" % (cname, pyname), c_consts[cname], getattr(lib, pyname, None))
    api = c_consts.get("ATTNRANK_API_VERSION")
    nconst += 1
    if api is None:
        bad.append("ATTNRANK_API_VERSION: no such #define in include/attnrank.h")
    elif not (lib.API_VERSION_MIN // 10000 == api // 10000 and lib.API_VERSION_MIN <= api):
        bad.append("ATTNRANK_API_VERSION (attnrank._lib.API_VERSION_MIN): C %d, Python needs from %d on "
                   "(the same major, at most the header's)" % (api, lib.API_VERSION_MIN))
    # status codes: every one but ATTNRANK_OK raises the exception class whose docstring names it
    errors = getattr(pkg, "_ERRORS", {})
    status = h_enums.get("attnrank_status", [])
    if not status:
        bad.append("attnrank_status: no such typedef enum in include/attnrank.h")
    for c in status:
        if c == "ATTNRANK_OK":
            const("ATTNRANK_OK (the package reads a status 0 as success)", c_consts[c], 0)
            if c_consts[c] in errors:
                bad.append("ATTNRANK_OK: its value %d is a key of attnrank._ERRORS" % c_consts[c])
            continue
        named = [cls for cls in errors.values() if re.search(r"\b%s\b" % c, cls.__doc__ or "")]
        if len(named) != 1:
            bad.append("%s: %s exception class of attnrank names it in its docstring (attnrank._ERRORS)"
                       % (c, "no" if not named else "more than one"))
            continue
        code = [k for k, v in errors.items() if v is named[0]]
        const("%s (attnrank._ERRORS -> %s)" % (c, named[0].__name__), c_consts[c], code[0])
    for k, v in errors.items():
        if not any(re.search(r"\b%s\b" % c, v.__doc__ or "") for c in status):
            bad.append("attnrank._ERRORS[%r] = %s: its docstring names no attnrank_status constant" % (k, v.__name__))
    # named enums and the upper bits: the dicts hold exactly the constants, by name
    groups = [(d, [c for c in h_enums.get(e, [])], p) for d, e, p in NAMED_ENUMS]
    groups.append(("_UPPER_BITS", [c for c in h_defines if c.startswith(UPPER_PREFIX)], UPPER_PREFIX))
    for dname, consts, prefix in groups:
        d = getattr(pkg, dname, None)
        if not isinstance(d, dict) or not consts:
            bad.append("attnrank.%s: %s" % (dname, "missing" if not isinstance(d, dict) else
                                            "no %s* constants in include/attnrank.h" % prefix))
            continue
        keys = {c[len(prefix):].lower(): c for c in consts}
        for k, c in keys.items():
            if k not in d:
                bad.append("%s: not in attnrank.%s (key %r)" % (c, dname, k))
            else:
                const("%s (attnrank.%s[%r])" % (c, dname, k), c_consts[c], d[k])
        for k in d:
            if k not in keys:
                bad.append("attnrank.%s[%r]: no %s%s in include/attnrank.h" % (dname, k, prefix, k.upper()))
    return bad, (len(STRUCTS), nfields, nconst)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--library", help="libattnrank.so.0 to load (default $ATTNRANK_LIBRARY, else "
                                      "build/lib/libattnrank.so.0)")
    ap.add_argument("--keep", metavar="DIR", help="keep the generated C program and its output in DIR")
    a = ap.parse_args()
    lib_path = a.library or os.environ.get("ATTNRANK_LIBRARY") or os.path.join(ROOT, "build", "lib",
                                                                                 "libattnrank.so.0")
    try:
        hdr = parse_header(HEADER)
        h_structs, h_enums, h_defines = hdr
        structs = {c: h_structs[c] for c in STRUCTS.values() if c in h_structs}
        consts = [c for e in sorted(h_enums) for c in h_enums[e]]
        consts += [c for c in h_defines if c in DEFINES.values() or c.startswith(UPPER_PREFIX) or
                   c in ("ATTNRANK_API_VERSION", "ATTNRANK_API_VERSION_MAJOR")]
        consts = list(dict.fromkeys(consts))
        src = c_program(structs, consts)
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            cout = run_c(src, a.keep)
        else:
            with tempfile.TemporaryDirectory(prefix="attnrank-abi.") as d:
                cout = run_c(src, d)
        if not os.path.isfile(lib_path):
            raise Unreadable("no library %s (build it: make lib; or pass --library)" % lib_path)
        pkg, lib = import_package(lib_path)
    except Unreadable as e:
        print("check_python_abi: %s" % e, file=sys.stderr)
        return 2
    bad, (ns, nf, nc) = compare(hdr, cout, pkg, lib)
    for line in bad:
        print("check_python_abi: " + line)
    if bad:
        print("check_python_abi: %d mismatch%s between python/attnrank and include/attnrank.h"
              % (len(bad), "es" if len(bad) > 1 else ""))
        return 1
    print("check_python_abi: %d structs (%d fields) and %d constants of python/attnrank match include/attnrank.h"
          % (ns, nf, nc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
