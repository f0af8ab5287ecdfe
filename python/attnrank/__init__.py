# SPDX-License-Identifier: GPL-3.0-or-later
"""attnrank -- certified eps-rank brackets of softmax attention matrices.

A thin ctypes binding of libattnrank (include/attnrank.h).  For queries Q
(m x d), keys K (n x d) with positive integer multiplicities w and inverse
temperature beta, A = rowsoftmax(beta Q K^T) (keys weighted by w), and

    rank_eps(A) = min { rank B : max_i sum_j |A_ij - B_ij| <= eps }.

`bracket` returns certified lower <= rank_eps(A) <= upper, the numbers of
`attnrank bracket --format json` on the same instance (the CLI calls the
same C function).  `head` analyses one attention head, `generate` builds the
paper's point sets, `laws` reads the laws table and `law_run` judges one row.

Every call releases the GIL while the C library computes (it runs in a
worker thread); Ctrl-C (KeyboardInterrupt) sets the call's cancellation
flag, the library stops at its next check and the KeyboardInterrupt is
raised.  Failures raise a subclass of attnrank.Error carrying the library's
one-line message.

Arguments are checked in Python before anything reaches the library: sizes,
seeds and counts must be Python ints or NumPy integers (never bool, float or
str) within the documented range of each; real numbers must be int or float
(NumPy scalars included), finite where the library needs it and never
subnormal; arrays must be 2-dimensional numeric arrays (not paths) with at
least one row and one column, and of at most the memory limit in effect
(memory_limit_gb, else ATTNRANK_MAX_ALLOC_GB, else 16 GiB) as float64;
multiplicities must be integers >= 1.  A bad argument raises InvalidInput
naming the Python argument, an array beyond the memory limit OutOfMemory.

Exact inputs: the certificates are about exactly the doubles the library
receives, so arrays (and bracket's and head's beta and eps) are passed
unchanged when every value is an exact double: float16, float32, float64
and integer dtypes up to 32 bits always are; int64 and uint64 values of
magnitude above 2^53 only when they convert exactly; longdouble values only
when exactly representable in float64.  Otherwise the call raises
InvalidInput naming the argument and the number of inexact entries, unless
bracket or head is passed round_inputs=True, which rounds them to the
nearest doubles (the certificates are then about the rounded values).
Complex, bool, string and object arrays are refused.  Which library file is loaded: see attnrank._lib
(ATTNRANK_LIBRARY, next to the package, the system loader);
`library_path()` names it.
"""
import ctypes
import dataclasses
import json
import math
import os
import re
import sys
import threading
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

from . import _lib

__all__ = ["Error", "InvalidInput", "OutOfMemory", "IOFailure", "NumericalFailure", "Cancelled",
           "Bracket", "Head", "Generated", "Law", "LawPoint", "LawVerdict",
           "bracket", "head", "head_weights", "generate", "laws", "law_run", "version", "library_path"]

__version__ = "0.2.0"


class Error(Exception):
    """A failed attnrank call: .status is the C status code, str(e) the library's one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class InvalidInput(Error, ValueError):
    """Bad argument or malformed input (ATTNRANK_EINVAL)."""


class OutOfMemory(Error, MemoryError):
    """An allocation failed or exceeded the memory limit (ATTNRANK_ENOMEM)."""


class IOFailure(Error, OSError):
    """A file could not be read or written (ATTNRANK_EIO)."""


class NumericalFailure(Error):
    """A numerical routine failed (ATTNRANK_ENUMERIC)."""


class Cancelled(Error):
    """The call's cancellation flag was set (ATTNRANK_ECANCELED)."""


# Mirrors of include/attnrank.h, compared with it by scripts/check_python_abi.py (make check): the
# attnrank_status codes (ATTNRANK_EINVAL ...) to their exceptions; attnrank_engine (ATTNRANK_ENGINE_AUTO ...)
# and the ATTNRANK_UPPER_* bits by their names lowercased without the prefix.
_ERRORS = {1: InvalidInput, 2: OutOfMemory, 3: IOFailure, 4: NumericalFailure, 5: Cancelled}
_ENGINES = {"auto": 0, "dense": 1, "scale": 2}
_UPPER_BITS = {"svd": 1, "symeig": 2, "pchol": 4, "rsvd": 8}

# ---- argument checks (before anything reaches ctypes, which would wrap integers modulo 2^64)

_SIZE_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_size_t)) - 1
_U64_MAX = 2 ** 64 - 1
_DBL_MIN = sys.float_info.min
_GIB = 1073741824.0
_MEM_GB_MIN, _MEM_GB_MAX = 1e-6, 1048576.0     # attnrank_options.memory_limit_gb, ATTNRANK_MAX_ALLOC_GB
_MEM_GB_DEFAULT = 16.0
_SPHERE_MAX_D, _SPHERE_MAX_N = 4096, 1 << 26    # attnrank_sphere_generate
_BALL_MIN_D, _BALL_MAX_D, _BALL_MAX_N = 2, 16, 5000000   # attnrank_ball_spec
_ROUND_HINT = "pass round_inputs=True to round them"
_ROUND_HINT_ONE = "pass round_inputs=True to round it"


def _bad(fn: str, msg: str) -> InvalidInput:
    return InvalidInput(1, "%s: %s" % (fn, msg))


def _show(v: Any) -> str:
    r = repr(v)
    if len(r) > 60:
        r = r[:57] + "..."
    return "%s (%s)" % (r, type(v).__name__)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _int(fn: str, name: str, v: Any, lo: int, hi: int) -> int:
    """v as a Python int in [lo, hi]: a Python int or NumPy integer, never bool, float or str."""
    if not _is_int(v):
        raise _bad(fn, "%s must be an integer in [%d, %d], got %s" % (name, lo, hi, _show(v)))
    i = int(v)
    if not lo <= i <= hi:
        raise _bad(fn, "%s must be an integer in [%d, %d], got %d" % (name, lo, hi, i))
    return i


def _flag(fn: str, name: str, v: Any) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise _bad(fn, "%s must be True or False, got %s" % (name, _show(v)))
    return bool(v)


def _real(fn: str, name: str, v: Any, exact: bool = False, hint: str = _ROUND_HINT_ONE) -> float:
    """v (int, float or a NumPy real scalar) as a float; subnormals refused (as the CLI refuses them);
    exact: refuse a value that is not an exact double (a large int, a longdouble)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise _bad(fn, "%s must be a real number, got %s" % (name, _show(v)))
    try:
        with np.errstate(over="ignore"):
            f = float(v)
    except OverflowError:
        raise _bad(fn, "%s: %s is beyond the largest double (about 1.8e308)" % (name, v)) from None
    if exact:
        if isinstance(v, (int, np.integer)):
            ok = int(v) == f
        elif isinstance(v, np.floating) and v.dtype.itemsize > 8:
            ok = math.isnan(f) or np.longdouble(f) == v
        else:
            ok = True
        if not ok:
            raise _bad(fn, "%s: %s is not an exact double (%s); %s" % (name, v, type(v).__name__, hint))
    if f != 0 and abs(f) < _DBL_MIN:
        raise _bad(fn, "%s: %r is subnormal (below 2.2250738585072014e-308, the smallest normal double; "
                       "subnormals are refused: they lose precision and void the rounding bounds)" % (name, f))
    return f


def _eps(fn: str, v: Any, exact: bool) -> float:
    f = _real(fn, "eps", v, exact)
    if not 0 < f < 1:
        raise _bad(fn, "eps must be a number in (0, 1), got %r" % f)
    return f


def _beta(fn: str, v: Any, exact: bool = False) -> float:
    f = _real(fn, "beta", v, exact)
    if not (math.isfinite(f) and f >= 0):
        raise _bad(fn, "beta must be finite and >= 0, got %r" % f)
    return f


def _text(fn: str, name: str, v: Any) -> str:
    if not isinstance(v, str) or "\0" in v:
        raise _bad(fn, "%s must be a string (no NUL), got %s" % (name, _show(v)))
    return v


def _limit_gb(memory_limit_gb: float) -> Tuple[float, str]:
    """The per-allocation limit in effect, in GiB, and where it comes from (as the library reads it)."""
    if memory_limit_gb:
        return memory_limit_gb, "memory_limit_gb"
    s = os.environ.get("ATTNRANK_MAX_ALLOC_GB")
    if s is None:
        return _MEM_GB_DEFAULT, "the default; set memory_limit_gb or ATTNRANK_MAX_ALLOC_GB"
    v = None
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", s):
        v = float(s)
    elif re.fullmatch(r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?", s):
        v = float.fromhex(s)
    if v is None or not (_MEM_GB_MIN <= v <= _MEM_GB_MAX):
        raise InvalidInput(1, "ATTNRANK_MAX_ALLOC_GB=%r: expected a number in [%.10g, %.10g] (or unset it for the "
                              "default %.10g)" % (s, _MEM_GB_MIN, _MEM_GB_MAX, _MEM_GB_DEFAULT))
    return v, "ATTNRANK_MAX_ALLOC_GB"


def _inexact(a: np.ndarray) -> Tuple[int, Optional[np.ndarray]]:
    """(entries of a that are not exact doubles, a as float64 or None when that cast is still to do)."""
    k, size = a.dtype.kind, a.dtype.itemsize
    if k == "f" and size > 8:
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            f = a.astype(np.float64)
            ok = (f.astype(a.dtype) == a) | np.isnan(a)
        return int(a.size - np.count_nonzero(ok)), f
    if k in "iu" and size > 4:
        f = a.astype(np.float64)
        big = (a > 2 ** 53) if k == "u" else ((a > 2 ** 53) | (a < -2 ** 53))
        if not big.any():
            return 0, f
        ab, fb = a[big], f[big]
        top = 2.0 ** (64 if k == "u" else 63)
        fits = fb < top                       # a value rounded up to 2^64 (2^63) does not convert back
        back = np.where(fits, fb, 0.0).astype(a.dtype)
        return int(ab.size - np.count_nonzero(fits & (back == ab))), f
    return 0, None


def _dtype_name(dt: np.dtype) -> str:
    return "longdouble" if dt.kind == "f" and dt.itemsize > 8 else dt.name


def _matrix(x: Any, what: str, fn: str, limit: Tuple[float, str], round_inputs: bool = False,
            hint: str = _ROUND_HINT, accept_1d: bool = True) -> np.ndarray:
    """x as a C-contiguous float64 array, refused (before any copy) when it is not a numeric array of n
    rows (2-dimensional; a 1-dimensional array is n points in dimension 1, as for .npy files, unless
    accept_1d is False) with at least one row and column, or when its float64 copy would exceed limit
    (GiB, source).  The same rules as the .npy readers: float16/32/64 and integer dtypes whose values
    are exact doubles."""
    expected = "%s: expected a 2-dimensional numeric array" % what
    if isinstance(x, (str, bytes, os.PathLike)):
        raise InvalidInput(1, "%s, got a %s (a path? load it with numpy.load first)" % (expected, type(x).__name__))
    if isinstance(x, (list, tuple)) and x and all(isinstance(e, (str, bytes, os.PathLike)) for e in x):
        raise InvalidInput(1, "%s, got a %s of %s (paths? load them with numpy.load first)"
                           % (expected, type(x).__name__, type(x[0]).__name__))
    try:
        a = np.asarray(x)
    except (ValueError, TypeError) as e:
        raise InvalidInput(1, "%s, got a %s numpy cannot convert (%s)" % (expected, type(x).__name__,
                                                                         str(e).splitlines()[0] if str(e) else e))
    if a.ndim == 0:
        raise InvalidInput(1, "%s, got a %s" % (expected, type(x).__name__))
    if a.dtype.kind in "USa":
        raise InvalidInput(1, "%s, got an array of strings (dtype %s)" % (expected, a.dtype))
    if a.dtype.kind not in "iuf":
        raise InvalidInput(1, "%s: expected real numbers, got dtype %s" % (what, a.dtype))
    if a.ndim == 1 and accept_1d:
        a = a.reshape(-1, 1)      # n points in dimension 1, as the .npy readers take a 1-D file
    if a.ndim != 2:
        raise InvalidInput(1, "%s: expected a 2-dimensional array (rows x dimension), got shape %s"
                           % (what, a.shape))
    rows, cols = a.shape
    if rows == 0 or cols == 0:
        raise InvalidInput(1, "%s: shape %d x %d (need at least one row and one column)" % (what, rows, cols))
    gb, source = limit
    need = rows * cols * 8
    if need > int(gb * _GIB):
        raise OutOfMemory(2, "%s: shape %d x %d needs %d bytes (%.6g GiB) as float64, beyond the memory limit of "
                             "%.6g GiB (%s)" % (what, rows, cols, need, need / _GIB, gb, source))
    bad, f = _inexact(a)
    if bad and not round_inputs:
        raise InvalidInput(1, "%s: %d %s (%s); %s" % (what, bad, "entry is not an exact double" if bad == 1 else
                                                      "entries are not exact doubles", _dtype_name(a.dtype), hint))
    return np.ascontiguousarray(a if f is None else f, dtype=np.float64)


def version() -> str:
    """The library's version ("0.2.0")."""
    return _lib.lib.attnrank_version().decode()


def library_path() -> str:
    """The path (or soname) of the libattnrank that was loaded."""
    return _lib.path


_VERSIONS = None


def _versions() -> dict:
    global _VERSIONS
    if _VERSIONS is None:
        _VERSIONS = json.loads("{" + _lib.lib.attnrank_version_json().decode() + "}")
    return _VERSIONS


def _raise(st: int) -> None:
    msg = _lib.lib.attnrank_error_message().decode("utf-8", "replace")
    raise _ERRORS.get(st, Error)(st, msg or "attnrank: status %d" % st)


def _run(fn: Callable[..., int], args: Sequence[Any], opts: "_lib.Options") -> None:
    """fn(*args) in a worker thread (the GIL released meanwhile); KeyboardInterrupt raises the cancel flag."""
    flag = ctypes.c_int(0)
    opts.cancel = ctypes.pointer(flag)
    box = {}

    def work():
        try:
            box["st"] = fn(*args)
            if box["st"]:
                box["msg"] = _lib.lib.attnrank_error_message()   # the worker thread's own message
        finally:
            _lib.lib.attnrank_thread_cleanup()   # its FLINT and GLPK caches die with the thread

    t = threading.Thread(target=work, name="attnrank", daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.05)
    except KeyboardInterrupt:
        flag.value = 1
        t.join()
        raise
    st = box.get("st", 0)
    if st:
        msg = (box.get("msg") or b"").decode("utf-8", "replace")
        raise _ERRORS.get(st, Error)(st, msg or "attnrank: status %d" % st)


def _progress(fn: str, progress: Any) -> None:
    if progress is not None and not callable(progress):
        raise _bad(fn, "progress must be None or a callable taking one str, got %s" % _show(progress))


def _memory_limit(fn: str, v: Any) -> float:
    f = _real(fn, "memory_limit_gb", v)
    if f != 0 and not (_MEM_GB_MIN <= f <= _MEM_GB_MAX):
        raise _bad(fn, "memory_limit_gb must be 0 (ATTNRANK_MAX_ALLOC_GB or 16) or a number in [%g, %g] GiB, "
                       "got %r" % (_MEM_GB_MIN, _MEM_GB_MAX, f))
    return f


def _options(engine: str = "auto", upper: Optional[Sequence[str]] = None, prec: int = 0, threads: int = 0,
             sketch_seed: int = 0, memory_limit_gb: float = 0.0,
             progress: Optional[Callable[[str], None]] = None, fn: str = "bracket") -> "_lib.Options":
    o = _lib.Options()
    if not isinstance(engine, str) or engine not in _ENGINES:
        raise InvalidInput(1, "engine: expected auto, dense or scale, got %r" % (engine,))
    o.engine = _ENGINES[engine]
    if upper is not None and not isinstance(upper, (list, tuple)):
        raise InvalidInput(1, "upper: expected a list or tuple of names (svd, symeig, pchol, rsvd), got %s%s"
                           % (_show(upper), "; write upper=[%r]" % upper if isinstance(upper, str) else ""))
    for u in upper or ():
        if not isinstance(u, str) or u not in _UPPER_BITS:
            raise InvalidInput(1, "upper: unknown construction %r (svd, symeig, pchol, rsvd)" % (u,))
        o.upper |= _UPPER_BITS[u]
    if not (_is_int(prec) and (prec == 0 or 53 <= prec <= 4096)):
        raise _bad(fn, "prec must be 0 or an integer in [53, 4096], got %s"
                   % (int(prec) if _is_int(prec) else _show(prec)))
    o.prec = int(prec)
    o.threads = _int(fn, "threads", threads, 0, 64)
    o.sketch_seed = _int(fn, "sketch_seed", sketch_seed, 0, _U64_MAX)
    o.memory_limit_gb = _memory_limit(fn, memory_limit_gb)
    _progress(fn, progress)
    if progress is not None:
        cb = _lib.PROGRESS_FN(lambda ctx, msg: progress(msg.decode("utf-8", "replace")))
        o.progress = cb
        o._keep = cb          # keeps the callback alive for the call
    return o


def _dptr(a: Optional[np.ndarray]):
    return None if a is None else a.ctypes.data_as(_lib.dptr)


def _weights(w: Optional[Sequence[int]], n: int):
    """(w64 pointer, wdec pointer, keep-alive) for multiplicities w of n keys: integers >= 1 (Python ints of
    any size or NumPy integers; an integer-dtype array), never bool, float or str."""
    if w is None:
        return None, None, None
    expected = "multiplicities: expected a sequence of %d integers >= 1" % n
    if isinstance(w, (str, bytes, os.PathLike)):
        raise InvalidInput(1, "%s, got a %s (a file? read it into a list of ints first)" % (expected, type(w).__name__))
    if not isinstance(w, (list, tuple)) and hasattr(w, "__array__"):
        a = np.asarray(w)
        if a.ndim != 1:
            raise InvalidInput(1, "%s, got an array of shape %s" % (expected, a.shape))
        if a.dtype.kind in "iu":
            if a.size != n:
                raise InvalidInput(1, "multiplicities: %d values for %d keys" % (a.size, n))
            if a.size and a.min() < 1:
                i = int(np.argmax(a < 1))
                raise InvalidInput(1, "multiplicities: value %d is %d; every value must be an integer >= 1"
                                   % (i, a[i]))
            arr = np.ascontiguousarray(a, dtype=np.uint64)
            return arr.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64)), None, arr
        if a.dtype.kind != "O":
            raise InvalidInput(1, "%s, got an array of dtype %s (pass integers: an integer dtype or Python ints)"
                               % (expected, a.dtype))
        vals = a.tolist()
    else:
        try:
            vals = list(w)
        except TypeError:
            raise InvalidInput(1, "%s, got %s" % (expected, _show(w))) from None
    if len(vals) != n:
        raise InvalidInput(1, "multiplicities: %d values for %d keys" % (len(vals), n))
    for i, v in enumerate(vals):
        if not _is_int(v):
            raise InvalidInput(1, "multiplicities: value %d is %s; every value must be an integer >= 1 (an int, "
                                  "not a float, bool or str)" % (i, _show(v)))
        if v < 1:
            raise InvalidInput(1, "multiplicities: value %d is %d; every value must be an integer >= 1" % (i, v))
    vals = [int(v) for v in vals]
    if all(v <= _U64_MAX for v in vals):
        arr = (ctypes.c_uint64 * n)(*vals)
        return arr, None, arr
    arr = (ctypes.c_char_p * n)(*[str(v).encode() for v in vals])
    return None, arr, arr


def _s(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def _short(v: Any) -> str:
    """repr of a field value, arrays and long sequences summarised (first three, last, length)."""
    if isinstance(v, np.ndarray):
        return "array(shape=%s, dtype=%s)" % (v.shape, v.dtype)
    if isinstance(v, (tuple, list)) and len(v) > 6:
        head = ", ".join(_short(x) for x in v[:3])
        return "(%s, ..., %s) [%d values]" % (head, _short(v[-1]), len(v))
    if isinstance(v, dict):
        return "{%s}" % ", ".join("%r: %s" % (k, _short(x)) for k, x in v.items())
    return repr(v)


def _summary_repr(self) -> str:
    """The dataclass repr with long sequences and arrays summarised (a Head's singular values, a route
    plan), fields with repr=False left out."""
    parts = ["%s=%s" % (f.name, _short(getattr(self, f.name))) for f in dataclasses.fields(self) if f.repr]
    return "%s(%s)" % (type(self).__name__, ", ".join(parts))


@dataclasses.dataclass(frozen=True, repr=False)
class Bracket:
    """The fields of `attnrank bracket --format json` (n and m exact ints; times in seconds).
    rsvd_* are None when the randomized certificates did not run, polygon_* when no polygon was
    recognised, seed None for arrays (as for files).  route_plan: every route with the cost model's
    estimate and what the chooser did (dicts route, decision, predicted_seconds, seconds, reason).
    json: the library's JSON line (attnrank_bracket_json), the same text the CLI prints for the
    same matrix and options."""
    __repr__ = _summary_repr
    lower: int
    upper: int
    status: str
    n: int
    log10_n: float
    m: int
    distinct_keys: int
    distinct_queries: int
    d: int
    beta: float
    eps: float
    self_attention: bool
    engine: str
    routes: str
    lower_route: str
    upper_route: str
    seconds: float
    seconds_enclose: float
    lower_certificate: str
    lower_invnorm_bound: float
    upper_certificate: str
    upper_err_bound: float
    enclosure_err: float
    prec: int
    enclosure: str
    streamed: bool
    seed: Optional[int]
    rsvd_rank: Optional[int]
    rsym_rank: Optional[int]
    rsvd_sketch: Optional[int]
    rsvd_power: Optional[int]
    rsvd_seed: Optional[int]
    rsvd_passes: Optional[int]
    polygon_n: Optional[int]
    polygon_eta: Optional[float]
    lower_budget_flops: float
    lower_spent_flops: float
    lower_cut: bool
    logit_bias: bool
    route_plan: Tuple[dict, ...]
    source: str
    attnrank: str
    commit: str
    mpfr: str
    gmp: str
    flint: str
    arb: str
    blas_core: str
    json: str = dataclasses.field(default="", repr=False, compare=False)


def _bracket_json(r: "_lib.BracketResult", source: str) -> str:
    """The library's JSON line of the result (attnrank_bracket_json): what the CLI prints."""
    p = ctypes.c_void_p()
    st = _lib.lib.attnrank_bracket_json(ctypes.byref(r), source.encode(), None, ctypes.byref(p))
    if st:
        _raise(st)
    try:
        return ctypes.string_at(p.value).decode("utf-8", "replace")
    finally:
        _lib.lib.attnrank_free(p)


def _bracket_of(r: "_lib.BracketResult", engine: str, source: str) -> Bracket:
    rs = bool(r.rsvd_run)
    return Bracket(
        lower=r.lower, upper=r.upper, status=_s(r.status), n=int(r.n), log10_n=r.log10_n, m=int(r.m),
        distinct_keys=r.distinct_keys, distinct_queries=r.distinct_queries, d=r.d, beta=r.beta, eps=r.eps,
        self_attention=bool(r.self_attention), engine=engine, routes=_s(r.routes), lower_route=_s(r.lower_route),
        upper_route=_s(r.upper_route), seconds=r.seconds, seconds_enclose=r.seconds_enclose,
        lower_certificate=_s(r.lower_certificate), lower_invnorm_bound=r.lower_invnorm_bound,
        upper_certificate=_s(r.upper_certificate), upper_err_bound=r.upper_err_bound,
        enclosure_err=r.enclosure_err, prec=r.prec, enclosure=_s(r.enclosure), streamed=bool(r.streamed),
        seed=None, rsvd_rank=r.rsvd_rank if rs else None, rsym_rank=r.rsym_rank if rs else None,
        rsvd_sketch=r.rsvd_sketch if rs else None, rsvd_power=r.rsvd_power if rs else None,
        rsvd_seed=r.rsvd_seed if rs else None, rsvd_passes=r.rsvd_passes if rs else None,
        polygon_n=r.polygon_n or None, polygon_eta=r.polygon_eta if r.polygon_n else None,
        lower_budget_flops=r.lower_budget_flops, lower_spent_flops=r.lower_spent_flops, lower_cut=bool(r.lower_cut),
        logit_bias=bool(r.logit_bias),
        route_plan=tuple(json.loads(r.route_plan.decode())) if r.route_plan else (), source=source,
        **_versions(), json=_bracket_json(r, source))


def bracket(Q: Any, K: Any, beta: float, eps: float, multiplicities: Optional[Sequence[int]] = None, *,
            engine: str = "auto", upper: Optional[Sequence[str]] = None, prec: int = 0, threads: int = 0,
            sketch_seed: int = 0, memory_limit_gb: float = 0.0,
            progress: Optional[Callable[[str], None]] = None, source: str = "arrays",
            round_inputs: bool = False, logit_bias: Any = None) -> Bracket:
    """Certified bracket lower <= rank_eps(A) <= upper of A = rowsoftmax(beta Q K^T).

    Q: queries (m x d), K: keys (n x d), or None (or Q itself) for self-attention on Q; 2-dimensional
    NumPy arrays or anything with __array__ (a torch.Tensor after .detach().cpu()), at least one row
    and one column, passed as float64.  Inputs must be exact doubles: float16, float32, float64 and
    small integer dtypes are; int64/uint64 values above 2^53 in magnitude that do not convert exactly
    and longdouble values not exactly representable in float64 are refused (InvalidInput naming the
    argument and the number of such entries), as are complex, bool and string arrays, unless
    round_inputs=True, which rounds them to the nearest doubles (beta and eps likewise: a Python
    int or longdouble that is not an exact double is refused unless round_inputs=True).
    multiplicities: n integers >= 1 of any size on the keys (Python ints or NumPy integers, or an
    integer-dtype array; never float, bool or str; None: all 1).  beta finite >= 0, 0 < eps < 1
    (neither subnormal).  engine "auto" | "dense" | "scale", upper a list or tuple of names among
    svd, symeig, pchol, rsvd, prec (0, or 53..4096: Arb enclosure), threads (0..64; 0: the CPUs the
    process may use, or ATTNRANK_THREADS; any count gives the same numbers), sketch_seed
    (0..2^64-1), memory_limit_gb (0, or 1e-6..1048576 GiB per call), progress (None or a callable,
    called with each stage message) are the CLI's options.  Raises InvalidInput (bad arguments,
    shapes, NaN/Inf, eps outside (0, 1), negative beta), OutOfMemory (also before any copy, when Q or K
    as float64 exceeds memory_limit_gb, else ATTNRANK_MAX_ALLOC_GB, else 16 GiB), NumericalFailure,
    Cancelled.

    logit_bias: None, or an m x n float array added to the logits, the attention a model computes
    with a mask: A_ij ~ w_j exp(beta q_i.k_j + b_ij); -inf masks an entry (exactly 0), a finite value
    is added exactly; every row needs a finite entry (attnrank_bracket_biased; only the dense route
    applies; attnrank.torch builds it from a module's masks)."""
    fn = "bracket"
    round_inputs = _flag(fn, "round_inputs", round_inputs)
    beta, eps = _beta(fn, beta, not round_inputs), _eps(fn, eps, not round_inputs)
    _text(fn, "source", source)
    o = _options(engine, upper, prec, threads, sketch_seed, memory_limit_gb, progress, fn)
    limit = _limit_gb(o.memory_limit_gb)
    q = _matrix(Q, "queries", fn, limit, round_inputs)
    self_att = K is None or K is Q
    k = q if self_att else _matrix(K, "keys", fn, limit, round_inputs)
    if k.shape[1] != q.shape[1]:
        raise InvalidInput(1, "shape mismatch: queries have %d columns, keys have %d" % (q.shape[1], k.shape[1]))
    r = _lib.BracketResult()
    if logit_bias is not None:
        b = _matrix(logit_bias, "logit_bias", fn, limit, round_inputs, accept_1d=False)
        if b.shape != (q.shape[0], k.shape[0]):
            raise InvalidInput(1, "logit_bias: shape %d x %d, the instance has %d queries and %d keys"
                               % (b.shape + (q.shape[0], k.shape[0])))
        pq = _points(q, None if not self_att else multiplicities)
        try:
            pk = None if self_att else _points(k, multiplicities)
            try:
                _run(_lib.lib.attnrank_bracket_biased, (pq, pk, _dptr(b), beta, eps, ctypes.byref(o),
                                                        ctypes.byref(r)), o)
            finally:
                if pk is not None:
                    _lib.lib.attnrank_points_free(pk)
        finally:
            _lib.lib.attnrank_points_free(pq)
    else:
        w64, wdec, keep = _weights(multiplicities, k.shape[0])
        _run(_lib.lib.attnrank_bracket_arrays,
             (_dptr(q), q.shape[0], None if self_att else _dptr(k), k.shape[0], q.shape[1], w64, wdec, beta,
              eps, ctypes.byref(o), ctypes.byref(r)), o)
        del keep
    try:
        return _bracket_of(r, engine, source)
    finally:
        _lib.lib.attnrank_bracket_clear(ctypes.byref(r))


@dataclasses.dataclass(frozen=True, repr=False)
class Head:
    """The fields of `attnrank head --format json` (instance mode; mode "weights" for head_weights):
    r, r_exact (None: not computed), tol, r(tau) and eta per tau in `taus` (dicts tau, r, eta,
    upper_via; None where no rank is certified), the best bracket, the direct and the visible
    brackets, all singular values in `sigma`."""
    __repr__ = _summary_repr
    mode: str
    r: int
    r_exact: Optional[int]
    tol: float
    tol_safety: float
    r_tau: Optional[int]
    eta: Optional[float]
    lower: int
    upper: int
    status: str
    lower_route: str
    upper_route: str
    head_dim: int
    m: int
    distinct_keys: int
    n: int
    beta: float
    eps: float
    direct: dict
    visible: dict
    taus: Tuple[dict, ...]
    sigma: Tuple[float, ...]
    seconds: float
    source: str
    attnrank: str
    commit: str
    mpfr: str
    gmp: str
    flint: str
    arb: str
    blas_core: str
    model_dim: Optional[int] = None
    radius: Optional[float] = None


def _none(v: int) -> Optional[int]:
    return None if v == _lib.NONE else v


def _fnone(x: float) -> Optional[float]:
    return x if np.isfinite(x) else None


def _taus(fn: str, tau: Sequence[float]) -> Tuple[np.ndarray, int]:
    expected = "tau: expected a sequence of 1 to %d numbers, each in (0, 2)" % _lib.HEAD_MAX_TAUS
    if isinstance(tau, (str, bytes)):
        raise _bad(fn, "%s, got %s" % (expected, _show(tau)))
    try:
        vals = list(tau)
    except TypeError:
        raise _bad(fn, "%s, got %s" % (expected, _show(tau))) from None
    if not 1 <= len(vals) <= _lib.HEAD_MAX_TAUS:
        raise _bad(fn, "%s, got %d values" % (expected, len(vals)))
    for v in vals:
        f = _real(fn, "tau", v)
        if not 0 < f < 2:
            raise _bad(fn, "tau: each value must satisfy 0 < tau < 2, got %r" % f)
    t = np.ascontiguousarray(np.array([float(v) for v in vals], dtype=np.float64))
    return t, t.size


def _head_of(h: "_lib.HeadResult", mode: str) -> Head:
    taus = tuple({"tau": h.tau[t], "r": _none(h.r_tau[t]), "eta": _fnone(h.eta[t]),
                  **({"upper_via": _none(h.upper_via[t])} if mode == "instance" else {})} for t in range(h.ntau))
    return Head(mode=mode, r=h.r, r_exact=None if h.r_exact < 0 else h.r_exact, tol=h.tol, tol_safety=h.tol_safety,
                r_tau=_none(h.r_tau[0]), eta=_fnone(h.eta[0]), lower=h.lower, upper=h.upper, status=_s(h.status),
                lower_route=_s(h.lower_route), upper_route=_s(h.upper_route), head_dim=h.head_dim, m=h.m,
                distinct_keys=h.distinct_keys, n=int(h.n) if h.n else 0, beta=h.beta, eps=h.eps,
                direct={"lower": h.direct_lower, "upper": h.direct_upper, "status": _s(h.direct_status),
                        "lower_certificate": _s(h.direct_lower_certificate),
                        "upper_certificate": _s(h.direct_upper_certificate)},
                visible={"k": h.r, "lower": h.visible_lower, "upper": h.visible_upper,
                         "eta": _fnone(h.visible_eta), "status": _s(h.visible_status)},
                taus=taus, sigma=tuple(h.sigma[k] for k in range(h.nsigma)), seconds=h.seconds,
                source="arrays", **_versions(), model_dim=h.model_dim if mode == "weights" else None,
                radius=h.radius if mode == "weights" else None)


def _points(x: np.ndarray, w: Optional[Sequence[int]]):
    w64, wdec, keep = _weights(w, x.shape[0])
    p = ctypes.c_void_p()
    st = _lib.lib.attnrank_points_new(_dptr(x), x.shape[0], x.shape[1], w64, wdec, b"arrays", ctypes.byref(p))
    if st:
        _raise(st)
    return p


def head(Q: Any, K: Any, eps: float = 0.1, tau: Sequence[float] = (0.05,), *, beta: Optional[float] = None,
         multiplicities: Optional[Sequence[int]] = None, exact_max: int = 0, round_inputs: bool = False) -> Head:
    """`attnrank head`: visible dimension r, r_exact, r(tau) with certified eta, and the certified
    bracket of the head with queries Q (m x dh) and keys K (n x dh); beta None: 1/sqrt(dh), else finite
    >= 0; 0 < eps < 1; 1 to 32 values tau, each in (0, 2); exact_max (an integer >= 0): r_exact only when
    m n dh <= exact_max (0: 2^24; 1: never).  Q, K, multiplicities and the exactness rule (round_inputs)
    as for bracket: values that are not exact doubles (int64/uint64 beyond 2^53 that do not convert
    exactly, longdouble not representable in float64, a beta or eps likewise) are refused unless
    round_inputs=True, which rounds them to the nearest doubles."""
    fn = "head"
    round_inputs = _flag(fn, "round_inputs", round_inputs)
    eps = _eps(fn, eps, not round_inputs)
    beta = float("nan") if beta is None else _beta(fn, beta, not round_inputs)
    exact_max = _int(fn, "exact_max", exact_max, 0, _SIZE_MAX)
    t, nt = _taus(fn, tau)
    limit = _limit_gb(0.0)
    q, k = _matrix(Q, "queries", fn, limit, round_inputs), _matrix(K, "keys", fn, limit, round_inputs)
    pq = _points(q, None)
    try:
        pk = _points(k, multiplicities)
        try:
            o = _options(fn=fn)
            h = _lib.HeadResult()
            _run(_lib.lib.attnrank_head, (pq, pk, beta, eps, _dptr(t), nt, exact_max, ctypes.byref(o),
                                         ctypes.byref(h)), o)
            try:
                return _head_of(h, "instance")
            finally:
                _lib.lib.attnrank_head_clear(ctypes.byref(h))
        finally:
            _lib.lib.attnrank_points_free(pk)
    finally:
        _lib.lib.attnrank_points_free(pq)


def head_weights(WQ: Any, WK: Any, radius: float, tau: Sequence[float] = (0.05,), *,
                 beta: Optional[float] = None) -> Head:
    """Weights-only mode of `attnrank head`: r, r_exact and r(tau) of beta WQ WK^T (dmodel x dh each)
    for inputs of norm <= radius (finite, > 0); beta None: 1/sqrt(dh), else finite >= 0; tau as for
    head.  WQ and WK must hold exact doubles (the rule of bracket, without a rounding flag: round
    them with numpy.asarray(W, dtype=numpy.float64) first)."""
    fn = "head_weights"
    radius = _real(fn, "radius", radius)
    if not (math.isfinite(radius) and radius > 0):
        raise _bad(fn, "radius must be finite and > 0, got %r" % radius)
    beta = float("nan") if beta is None else _beta(fn, beta)
    t, nt = _taus(fn, tau)
    limit = _limit_gb(0.0)
    hint = "round them first: numpy.asarray(W, dtype=numpy.float64)"
    wq, wk = (_matrix(WQ, "WQ", fn, limit, False, hint, accept_1d=False),
              _matrix(WK, "WK", fn, limit, False, hint, accept_1d=False))
    if wq.shape != wk.shape:
        raise _bad(fn, "WQ is %d x %d but WK is %d x %d (both must be dmodel x dh)" % (wq.shape + wk.shape))
    o = _options(fn=fn)
    h = _lib.HeadResult()
    _run(_lib.lib.attnrank_head_weights, (_dptr(wq), _dptr(wk), wq.shape[0], wq.shape[1], beta, radius, _dptr(t),
                                         nt, ctypes.byref(o), ctypes.byref(h)), o)
    try:
        return _head_of(h, "weights")
    finally:
        _lib.lib.attnrank_head_clear(ctypes.byref(h))


@dataclasses.dataclass(frozen=True, repr=False)
class Generated:
    """A generated point set: points (n x d float64, the exact doubles of the CLI's instance),
    multiplicities (exact ints, or None when all are 1) and the provenance line."""
    __repr__ = _summary_repr
    points: np.ndarray
    multiplicities: Optional[Tuple[int, ...]]
    provenance: str


def _generated(p) -> Generated:
    n, d = _lib.lib.attnrank_points_count(p), _lib.lib.attnrank_points_dim(p)
    x = np.ctypeslib.as_array(_lib.lib.attnrank_points_coords(p), shape=(n, d)).copy()
    w = None
    if _lib.lib.attnrank_points_weighted(p):
        need = _lib.c_size(0)
        buf = ctypes.create_string_buffer(64)
        vals = []
        for i in range(n):
            if _lib.lib.attnrank_points_weight(p, i, buf, len(buf), ctypes.byref(need)):
                buf = ctypes.create_string_buffer(need.value)
                if _lib.lib.attnrank_points_weight(p, i, buf, len(buf), None):
                    _raise(1)
            vals.append(int(buf.value))
        w = tuple(vals)
    return Generated(points=x, multiplicities=w, provenance=_s(_lib.lib.attnrank_points_provenance(p)))


def generate(geometry: str, family: str, d: int, n: Optional[int] = None, *, seed: int = 1,
             theta: Optional[float] = None, beta: float = 0.0, rho0: Optional[float] = None,
             unweighted: bool = False, m0: float = 1.0) -> Generated:
    """`attnrank generate` and the instances of `bracket --geometry`: geometry "sphere" (family polygon,
    fibonacci, packing or uniform; n points, theta the packing separation, default 3/sqrt(1+beta)) or
    "ball" (family shells, dense or uniform in B^d at beta > 0 with Gaussian multiplicities; n the
    dense/uniform size, default 2000; rho0 default sqrt(3)/2).  d: 1..4096 (sphere) or 2..16 (ball);
    n: 1..2^26 (sphere) or 1..5000000 (ball); seed: 0..2^64-1 (ints, never bool or float); beta
    finite >= 0 (ball: > 0); theta finite > 0; rho0 in [0, 1); m0 finite >= 1; unweighted a bool."""
    fn = "generate"
    p = ctypes.c_void_p()
    if not isinstance(geometry, str) or geometry not in ("sphere", "ball"):
        raise InvalidInput(1, "generate: geometry must be 'sphere' or 'ball', got %r" % (geometry,))
    family = _text(fn, "family", family)
    seed = _int(fn, "seed", seed, 0, _U64_MAX)
    beta = _beta(fn, beta)
    unweighted = _flag(fn, "unweighted", unweighted)
    m0 = _real(fn, "m0", m0)
    if not (math.isfinite(m0) and m0 >= 1):
        raise _bad(fn, "m0 must be finite and >= 1, got %r" % m0)
    if theta is not None:
        theta = _real(fn, "theta", theta)
        if not (math.isfinite(theta) and theta > 0):
            raise _bad(fn, "theta must be finite and > 0 (or None: 3/sqrt(1+beta)), got %r" % theta)
    if rho0 is not None:
        rho0 = _real(fn, "rho0", rho0)
        if not 0 <= rho0 < 1:
            raise _bad(fn, "rho0 must be in [0, 1) (or None: sqrt(3)/2), got %r" % rho0)
    if geometry == "sphere":
        d = _int(fn, "d", d, 1, _SPHERE_MAX_D)
        if n is None:
            raise InvalidInput(1, "generate: the sphere families need n")
        n = _int(fn, "n", n, 1, _SPHERE_MAX_N)
        st = _lib.lib.attnrank_sphere_generate(family.encode(), d, n, float("nan") if theta is None else theta,
                                               beta, seed, ctypes.byref(p))
    else:
        d = _int(fn, "d", d, _BALL_MIN_D, _BALL_MAX_D)
        if n is not None:
            n = _int(fn, "n", n, 1, _BALL_MAX_N)
        if not beta > 0:
            raise _bad(fn, "the ball families need beta > 0, got %r" % beta)
        s = _lib.BallSpec()
        st = _lib.lib.attnrank_ball_spec_default_sized(ctypes.byref(s), ctypes.sizeof(s), family.encode(), d, beta)
        if st == 0:
            if n is not None:
                s.npoints = n
            if rho0 is not None:
                s.rho0 = rho0
            s.seed, s.unweighted, s.m0 = seed, int(unweighted), m0
            st = _lib.lib.attnrank_ball_generate(ctypes.byref(s), ctypes.byref(p))
    if st:
        _raise(st)
    try:
        return _generated(p)
    finally:
        _lib.lib.attnrank_points_free(p)


@dataclasses.dataclass(frozen=True)
class Law:
    """One row of the laws table (theory/claims/laws.c), read-only."""
    index: int
    claim: str
    dim: int
    variable: str
    predicted: float
    tol: float
    eps: float
    band: Tuple[float, float]
    betas: Tuple[float, ...]
    ns: Tuple[float, ...]
    family: str
    kind: str
    tier: str
    upper_source: str
    asserted: bool
    scope: str


def laws() -> Tuple[Law, ...]:
    """The laws table: predicted exponents, tolerances, fit windows, Theta bands."""
    out = []
    for i in range(_lib.lib.attnrank_laws_count()):
        L = _lib.Law()
        st = _lib.lib.attnrank_law_get(i, ctypes.byref(L))
        if st:
            _raise(st)
        out.append(Law(index=i, claim=_s(L.claim), dim=L.dim, variable=_s(L.variable), predicted=L.predicted,
                       tol=L.tol, eps=L.eps, band=(L.band_lo, L.band_hi), betas=tuple(L.betas[:L.nbetas]),
                       ns=tuple(L.ns[:L.nns]), family=_s(L.family), kind=_s(L.kind), tier=_s(L.tier),
                       upper_source=_s(L.upper_source), asserted=bool(L.asserted), scope=_s(L.scope)))
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class LawPoint:
    """One point of a law row's sweep: n (the instance's size), upper, continuum and upper_fitted are
    None where nothing was computed (null in `attnrank verify --format json`)."""
    beta: float
    n: Optional[int]
    log10_n: float
    lower: int
    upper: Optional[int]
    continuum: Optional[int]
    lower_method: str
    upper_method: str
    continuum_method: str
    upper_fitted: Optional[int]
    status: str
    seconds: float


@dataclasses.dataclass(frozen=True, repr=False)
class LawVerdict:
    """One row's sweep, fits and verdict ("pass", "fail" or "inconclusive"), as `attnrank verify`."""
    __repr__ = _summary_repr
    row: int
    verdict: str
    reason: str
    fit_lower: float
    fit_upper: float
    band_min: float
    band_max: float
    points: Tuple[LawPoint, ...]
    seconds: float


def law_run(row: int, progress: Optional[Callable[[str], None]] = None) -> LawVerdict:
    """Run row `row` (an integer in [0, len(laws()) - 1]) of laws() through the route chooser and judge
    it (seconds to minutes); progress None or a callable taking each message."""
    fn = "law_run"
    row = _int(fn, "row", row, 0, _lib.lib.attnrank_laws_count() - 1)
    o = _options(progress=progress, fn=fn)
    v = _lib.LawVerdict()
    _run(_lib.lib.attnrank_law_run, (row, ctypes.byref(o), ctypes.byref(v)), o)
    pts = tuple(LawPoint(beta=p.beta, n=p.n or None, log10_n=p.log10_n, lower=p.lower, upper=p.upper or None,
                         continuum=p.continuum or None, lower_method=_s(p.lower_method),
                         upper_method=_s(p.upper_method), continuum_method=_s(p.continuum_method),
                         upper_fitted=p.upper_fitted or None,
                         status=_s(p.status), seconds=p.seconds) for p in v.pts[:v.npts])
    return LawVerdict(row=v.row, verdict=_s(v.verdict), reason=_s(v.reason), fit_lower=v.fit_lower,
                      fit_upper=v.fit_upper, band_min=v.band_min, band_max=v.band_max, points=pts,
                      seconds=v.seconds)
