# SPDX-License-Identifier: GPL-3.0-or-later
"""Argument checks of the Python package (issue 32): integers range-checked before ctypes (which would
wrap them modulo 2^64), multiplicities integral, inputs exact doubles unless round_inputs=True, array
sizes checked from the shape before any copy, paths refused with a clear message, a bad
ATTNRANK_LIBRARY an ImportError naming it, and make install's PREFIX/DESTDIR checks.  Every error
names the Python argument (never a CLI flag) and is one line."""
import os
import pathlib
import shutil
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import attnrank

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
X = np.random.default_rng(11).standard_normal((30, 3))
X /= np.linalg.norm(X, axis=1, keepdims=True)
N = len(X)
LONGDOUBLE_WIDER = np.finfo(np.longdouble).nmant > np.finfo(np.float64).nmant


def refused(call, needle, exc=attnrank.InvalidInput):
    with pytest.raises(exc) as e:
        call()
    msg = str(e.value)
    assert needle in msg, msg
    assert "\n" not in msg and "--" not in msg, msg
    assert isinstance(e.value, attnrank.Error)
    return msg


# ---- integers: Python ints or NumPy integers, in range, never bool/float/str

@pytest.mark.parametrize("call,needle", [
    (lambda: attnrank.law_run(2 ** 64), "law_run: row must be an integer in [0, "),
    (lambda: attnrank.law_run(-1), "law_run: row must be an integer"),
    (lambda: attnrank.law_run(len(attnrank.laws())), "law_run: row must be an integer"),
    (lambda: attnrank.law_run(True), "law_run: row must be an integer"),
    (lambda: attnrank.law_run(0.0), "law_run: row must be an integer"),
    (lambda: attnrank.generate("sphere", "uniform", 3, 2 ** 64 + 10), "generate: n must be an integer in [1, "),
    (lambda: attnrank.generate("sphere", "uniform", -3, 10), "generate: d must be an integer in [1, 4096], got -3"),
    (lambda: attnrank.generate("sphere", "uniform", 3.0, 10), "generate: d must be an integer"),
    (lambda: attnrank.generate("sphere", "uniform", "3", 10), "generate: d must be an integer"),
    (lambda: attnrank.generate("sphere", "uniform", 3, True), "generate: n must be an integer"),
    (lambda: attnrank.generate("sphere", "uniform", 3, 10.0), "generate: n must be an integer"),
    (lambda: attnrank.generate("sphere", "uniform", 3, 10, seed=-1), "generate: seed must be an integer"),
    (lambda: attnrank.generate("sphere", "uniform", 3, 10, seed=2 ** 64), "generate: seed must be an integer"),
    (lambda: attnrank.generate("ball", "uniform", 17, 10, beta=1.0), "generate: d must be an integer in [2, 16]"),
    (lambda: attnrank.generate("ball", "uniform", 3, 2 ** 64 + 5, beta=1.0), "generate: n must be an integer"),
    (lambda: attnrank.generate("ball", "uniform", 3, 10, beta=1.0, unweighted="yes"), "unweighted"),
    (lambda: attnrank.generate("sphere", 3, 3, 10), "generate: family must be a string"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, threads=65), "bracket: threads must be an integer in [0, 64]"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, threads=2 ** 64), "bracket: threads must be an integer"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, threads=2.0), "bracket: threads must be an integer"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, prec=2 ** 64 + 100), "bracket: prec must be 0 or an integer"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, prec=True), "bracket: prec must be 0 or an integer"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, sketch_seed=-1), "bracket: sketch_seed must be an integer"),
    (lambda: attnrank.bracket(X, None, 1, 0.1, sketch_seed=2 ** 64), "bracket: sketch_seed must be an integer"),
    (lambda: attnrank.head(X, X, exact_max=-1), "head: exact_max must be an integer"),
    (lambda: attnrank.head(X, X, exact_max=1.5), "head: exact_max must be an integer"),
])
def test_integers_checked(call, needle):
    refused(call, needle)


def test_numpy_integers_accepted():
    a = attnrank.generate("sphere", "uniform", np.int64(3), np.uint32(40), seed=np.uint64(5))
    b = attnrank.generate("sphere", "uniform", 3, 40, seed=5)
    assert a.points.tobytes() == b.points.tobytes()
    r = attnrank.bracket(X, None, np.int8(2), 0.1, threads=np.int32(1), prec=np.int64(64))
    assert r.prec == 64 and r.lower <= r.upper


# ---- multiplicities

@pytest.mark.parametrize("w,needle", [
    ([2.9] * N, "multiplicities: value 0 is 2.9"),
    (["3"] * N, "multiplicities: value 0 is '3'"),
    ([True] * N, "multiplicities: value 0 is True"),
    (np.full(N, 2.0), "dtype float64"),
    (np.ones(N, dtype=bool), "dtype bool"),
    (np.array([1] * (N - 1) + [0], dtype=np.uint64), "value %d is 0" % (N - 1)),
    ([1] * (N - 1) + [-2 ** 70], "value %d is -%d" % (N - 1, 2 ** 70)),
    ("w.txt", "got a str"),
    (5, "multiplicities: expected a sequence"),
    (np.ones((N, 1), dtype=np.int64), "got an array of shape"),
])
def test_multiplicities_checked(w, needle):
    refused(lambda: attnrank.bracket(X, None, 1, 0.1, multiplicities=w), needle)


def test_multiplicities_integer_forms_agree():
    w = [1 + i % 4 for i in range(N)]
    ref = attnrank.bracket(X, None, 3, 0.1, multiplicities=w)
    assert ref.n == sum(w)
    for form in (np.array(w, dtype=np.int32), np.array(w, dtype=np.uint64), [np.int16(v) for v in w],
                 np.array(w, dtype=object), tuple(w)):
        r = attnrank.bracket(X, None, 3, 0.1, multiplicities=form)
        assert (r.n, r.lower, r.upper, r.upper_err_bound) == (ref.n, ref.lower, ref.upper, ref.upper_err_bound)
    big = [2 ** 70 + i for i in range(N)]                        # beyond uint64: decimal strings
    assert attnrank.bracket(X, None, 3, 0.1, multiplicities=np.array(big, dtype=object)).n == sum(big)


# ---- exact doubles, round_inputs

@pytest.mark.skipif(not LONGDOUBLE_WIDER, reason="longdouble is double here")
def test_longdouble_inexact_refused_unless_round_inputs():
    L = X.astype(np.longdouble)
    L[0, 0] += np.longdouble(2) ** -60
    L[1, 1] += np.longdouble(2) ** -60
    L[2, 2] += np.longdouble(2) ** -60
    msg = refused(lambda: attnrank.bracket(L, None, 2, 0.1), "queries: 3 entries are not exact doubles (longdouble)")
    assert "round_inputs=True" in msg
    refused(lambda: attnrank.bracket(X, L, 2, 0.1), "keys: 3 entries are not exact doubles")
    refused(lambda: attnrank.head(L, X), "queries: 3 entries are not exact doubles")
    msg = refused(lambda: attnrank.head_weights(L, L, 1.0), "WQ: 3 entries are not exact doubles")
    assert "round_inputs" not in msg                  # head_weights has no such flag
    r = attnrank.bracket(L, None, 2, 0.1, round_inputs=True)
    ref = attnrank.bracket(L.astype(np.float64), None, 2, 0.1)
    assert (r.lower, r.upper, r.upper_err_bound) == (ref.lower, ref.upper, ref.upper_err_bound)
    h = attnrank.head(L, X, round_inputs=True)
    assert h.lower <= h.upper
    # exactly representable longdoubles pass unchanged
    r2 = attnrank.bracket(X.astype(np.longdouble), None, 2, 0.1)
    r3 = attnrank.bracket(X, None, 2, 0.1)
    assert (r2.lower, r2.upper, r2.upper_err_bound) == (r3.lower, r3.upper, r3.upper_err_bound)


def test_large_integers_exact_or_refused():
    ok = np.array([[2 ** 60, 0], [0, 1], [3, -2 ** 62]], dtype=np.int64)      # exact doubles
    assert attnrank.bracket(ok, None, 0.0, 0.1).upper >= 1
    bad = ok.copy()
    bad[0, 0] = 2 ** 53 + 1
    msg = refused(lambda: attnrank.bracket(bad, None, 0.0, 0.1), "queries: 1 entry is not an exact double (int64)")
    assert "round_inputs=True" in msg
    assert attnrank.bracket(bad, None, 0.0, 0.1, round_inputs=True).upper >= 1
    u = np.array([[2 ** 64 - 1, 1], [0, 1]], dtype=np.uint64)                 # rounds to 2^64
    refused(lambda: attnrank.bracket(u, None, 0.0, 0.1), "queries: 1 entry is not an exact double (uint64)")
    imin = np.array([[-2 ** 63, 1], [0, 1]], dtype=np.int64)                  # -2^63 is a double
    assert attnrank.bracket(imin, None, 0.0, 0.1).upper >= 1


def test_scalar_beta_eps_exact():
    refused(lambda: attnrank.bracket(X, None, 2 ** 53 + 1, 0.1), "bracket: beta: 9007199254740993 is not an exact")
    assert attnrank.bracket(X, None, 2 ** 53 + 1, 0.1, round_inputs=True).beta == float(2 ** 53)
    if LONGDOUBLE_WIDER:
        e = np.longdouble(1) / 10
        refused(lambda: attnrank.bracket(X, None, 2, e), "bracket: eps:")
        refused(lambda: attnrank.head(X, X, eps=e), "head: eps:")
        assert attnrank.bracket(X, None, 2, e, round_inputs=True).eps == 0.1


@pytest.mark.parametrize("arr,needle", [
    (X.astype(np.complex128), "expected real numbers, got dtype complex128"),
    (X > 0, "expected real numbers, got dtype bool"),
    (X.astype(object), "expected real numbers, got dtype object"),
    (np.zeros((5, 0)), "queries: shape 5 x 0"),
    (np.zeros((0, 3)), "queries: shape 0 x 3"),
    ("X.npy", "queries: expected a 2-dimensional numeric array, got a str (a path? load it with numpy.load first)"),
    (b"X.npy", "got a bytes (a path?"),
    (pathlib.Path("X.npy"), "(a path? load it with numpy.load first)"),
    (["a.npy", "b.npy"], "got a list of str (paths? load them with numpy.load first)"),
    (None, "queries: expected a 2-dimensional numeric array, got a NoneType"),
    ([[1.0, 2.0], [3.0]], "numpy cannot convert"),
])
def test_arrays_checked(arr, needle):
    refused(lambda: attnrank.bracket(arr, None, 1, 0.1), needle)


def test_keys_and_head_arrays_checked():
    refused(lambda: attnrank.bracket(X, "K.npy", 1, 0.1), "keys: expected a 2-dimensional numeric array, got a str")
    refused(lambda: attnrank.head("Q.npy", X), "queries: expected a 2-dimensional numeric array, got a str")
    refused(lambda: attnrank.head_weights(X, X[:, :2], 1.0), "head_weights: WQ is 30 x 3 but WK is 30 x 2")


# ---- sizes from the shape, before any copy

def test_size_refused_before_copy(monkeypatch):
    monkeypatch.delenv("ATTNRANK_MAX_ALLOC_GB", raising=False)
    big = np.broadcast_to(np.zeros(1000), (100000, 1000))     # 800 MB as float64, no memory of its own
    tracemalloc.start()
    try:
        msg = refused(lambda: attnrank.bracket(big, None, 1, 0.1, memory_limit_gb=0.5), "queries: shape 100000 x 1000",
                      attnrank.OutOfMemory)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50e6, peak
    assert "0.5 GiB" in msg and "memory_limit_gb" in msg
    msg = refused(lambda: attnrank.bracket(np.tile(X, (2, 1)), None, 1, 0.1, memory_limit_gb=1.23456e-6),
                  "queries: shape 60 x 3 needs 1440 bytes (1.3411e-06 GiB)",
                  attnrank.OutOfMemory)
    assert "1.23456e-06 GiB" in msg
    huge = np.broadcast_to(np.zeros(4096), (1 << 20, 4096))     # 32 GiB: beyond the default 16 GiB
    msg = refused(lambda: attnrank.head(huge, huge), "queries: shape 1048576 x 4096", attnrank.OutOfMemory)
    assert "16 GiB" in msg
    monkeypatch.setenv("ATTNRANK_MAX_ALLOC_GB", "0.25")
    msg = refused(lambda: attnrank.bracket(big, None, 1, 0.1), "queries: shape 100000 x 1000", attnrank.OutOfMemory)
    assert "0.25 GiB" in msg and "ATTNRANK_MAX_ALLOC_GB" in msg
    refused(lambda: attnrank.head_weights(big, big, 1.0), "WQ: shape 100000 x 1000", attnrank.OutOfMemory)
    for bad in ("1e", " 1", "inf", "0", "1_0"):
        monkeypatch.setenv("ATTNRANK_MAX_ALLOC_GB", bad)
        refused(lambda: attnrank.bracket(big, None, 1, 0.1), "ATTNRANK_MAX_ALLOC_GB=")
    monkeypatch.setenv("ATTNRANK_MAX_ALLOC_GB", "1")
    assert attnrank.bracket(X, None, 1, 0.1).lower >= 1     # a good value: the call runs


# ---- options and reals

@pytest.mark.parametrize("kw,needle", [
    ({"upper": "svd"}, "upper: expected a list or tuple of names"),
    ({"upper": {"svd"}}, "upper: expected a list or tuple of names"),
    ({"progress": 5}, "bracket: progress must be None or a callable"),
    ({"memory_limit_gb": -1}, "bracket: memory_limit_gb must be 0"),
    ({"memory_limit_gb": float("inf")}, "bracket: memory_limit_gb must be 0"),
    ({"memory_limit_gb": 2e6}, "bracket: memory_limit_gb must be 0"),
    ({"memory_limit_gb": "1"}, "bracket: memory_limit_gb must be a real number"),
    ({"engine": ["dense"]}, "engine"),
    ({"round_inputs": 1}, "bracket: round_inputs must be True or False"),
])
def test_options_checked(kw, needle):
    refused(lambda: attnrank.bracket(X, None, 1, 0.1, **kw), needle)


def test_progress_checked_up_front():
    refused(lambda: attnrank.law_run(0, progress="yes"), "law_run: progress must be None or a callable")
    seen = []
    attnrank.bracket(X, None, 20, 0.1, progress=seen.append)
    assert all(isinstance(m, str) for m in seen)


@pytest.mark.parametrize("call,needle", [
    (lambda: attnrank.bracket(X, None, 1, 5e-324), "bracket: eps: 5e-324 is subnormal"),
    (lambda: attnrank.bracket(X, None, 1, float("nan")), "bracket: eps must be a number in (0, 1)"),
    (lambda: attnrank.bracket(X, None, 1, "0.1"), "bracket: eps must be a real number"),
    (lambda: attnrank.bracket(X, None, 1, True), "bracket: eps must be a real number"),
    (lambda: attnrank.bracket(X, None, 5e-324, 0.1), "bracket: beta: 5e-324 is subnormal"),
    (lambda: attnrank.bracket(X, None, float("inf"), 0.1), "bracket: beta must be finite and >= 0, got inf"),
    (lambda: attnrank.bracket(X, None, "1", 0.1), "bracket: beta must be a real number"),
    (lambda: attnrank.bracket(X, None, 1j, 0.1), "bracket: beta must be a real number"),
    (lambda: attnrank.bracket(X, None, 10 ** 400, 0.1), "beyond the largest double"),
    (lambda: attnrank.head(X, X, eps=5e-324), "head: eps: 5e-324 is subnormal"),
    (lambda: attnrank.head(X, X, beta=-1.0), "head: beta must be finite and >= 0"),
    (lambda: attnrank.head(X, X, tau="0.05"), "head: tau: expected a sequence"),
    (lambda: attnrank.head(X, X, tau=0.05), "head: tau: expected a sequence"),
    (lambda: attnrank.head(X, X, tau=["0.05"]), "head: tau must be a real number"),
    (lambda: attnrank.head(X, X, tau=[0.05] * 33), "got 33 values"),
    (lambda: attnrank.head_weights(X, X, "1"), "head_weights: radius must be a real number"),
    (lambda: attnrank.head_weights(X, X, 0.0), "head_weights: radius must be finite and > 0"),
    (lambda: attnrank.generate("sphere", "packing", 3, 10, theta=-1.0), "generate: theta must be finite and > 0"),
    (lambda: attnrank.generate("ball", "uniform", 3, 10, beta=1.0, rho0=1.0), "generate: rho0 must be in [0, 1)"),
    (lambda: attnrank.generate("ball", "uniform", 3, 10, beta=1.0, m0=0.5), "generate: m0 must be finite and >= 1"),
    (lambda: attnrank.generate("ball", "uniform", 3, 10), "generate: the ball families need beta > 0"),
    (lambda: attnrank.generate("sphere", "uniform", 3, 10, beta=5e-324), "generate: beta: 5e-324 is subnormal"),
])
def test_reals_checked(call, needle):
    refused(call, needle)


# ---- ATTNRANK_LIBRARY naming a file that is not the library

def test_library_env_not_the_library(tmp_path):
    import _ctypes
    text = tmp_path / "notes.txt"
    text.write_text("not a library\n" * 100)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for bad, needle in ((str(text), "cannot be loaded as a shared library"),
                        (_ctypes.__file__, "is not libattnrank.so.0 (it has no symbol attnrank_version)")):
        env["ATTNRANK_LIBRARY"] = bad
        p = subprocess.run([sys.executable, "-c", "import attnrank"], env=env, capture_output=True, text=True)
        last = p.stderr.strip().splitlines()[-1]
        assert p.returncode != 0 and last.startswith("ImportError: ATTNRANK_LIBRARY=") and needle in last, p.stderr
        assert "OSError" not in p.stderr and "AttributeError" not in p.stderr, p.stderr


# ---- make install: PREFIX non-empty and absolute, DESTDIR empty or absolute

def _make_n_install(*args):
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "PREFIX",
                                                           "DESTDIR")}
    return subprocess.run(["make", "-n", "-C", REPO, "install", *args], env=env, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@pytest.mark.parametrize("args,needle", [
    (["PREFIX="], "PREFIX must not be empty"),
    (["PREFIX=-x"], "PREFIX must be an absolute path (starting with /"),
    (["PREFIX=usr/local"], "PREFIX must be an absolute path (starting with /"),
    (["PREFIX=./x"], "PREFIX must be an absolute path"),
    (["PREFIX=/opt/a", "DESTDIR=stage"], "DESTDIR must be empty or an absolute path"),
    (["PREFIX=/opt/a", "DESTDIR=-x"], "DESTDIR must be empty or an absolute path"),
    (["PREFIX=/opt/a b"], "PREFIX must be a path of the characters"),
])
def test_make_install_prefix_refused(args, needle):
    p = _make_n_install(*args)
    assert p.returncode == 2 and needle in p.stderr, (p.returncode, p.stderr)
    assert [l for l in p.stderr.splitlines() if "***" in l] == [p.stderr.strip().splitlines()[-1]]
    assert "install -d" not in p.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
@pytest.mark.parametrize("args,dest", [
    (["PREFIX=/opt/attnrank-test"], "'/opt/attnrank-test/bin/attnrank'"),
    (["PREFIX=/opt/attnrank-test", "DESTDIR="], "'/opt/attnrank-test/bin/attnrank'"),
    (["PREFIX=/opt/attnrank-test", "DESTDIR=/tmp/stage"], "'/tmp/stage/opt/attnrank-test/bin/attnrank'"),
])
def test_make_install_prefix_accepted(args, dest):
    p = _make_n_install(*args)
    assert p.returncode == 0 and dest in p.stdout, (p.returncode, p.stderr[-2000:])
