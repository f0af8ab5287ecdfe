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
one-line message.  Which library file is loaded: see attnrank._lib
(ATTNRANK_LIBRARY, next to the package, the system loader);
`library_path()` names it.
"""
import ctypes
import dataclasses
import json
import threading
from typing import Any, Callable, Optional, Sequence, Tuple

import numpy as np

from . import _lib

__all__ = ["Error", "InvalidInput", "OutOfMemory", "IOFailure", "NumericalFailure", "Cancelled",
           "Bracket", "Head", "Generated", "Law", "LawPoint", "LawVerdict",
           "bracket", "head", "head_weights", "generate", "laws", "law_run", "version", "library_path"]

__version__ = "0.1.0"


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


_ERRORS = {1: InvalidInput, 2: OutOfMemory, 3: IOFailure, 4: NumericalFailure, 5: Cancelled}


def version() -> str:
    """The library's version ("0.1.0")."""
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


def _options(engine: str = "auto", upper: Optional[Sequence[str]] = None, prec: int = 0, threads: int = 0,
             sketch_seed: int = 0, memory_limit_gb: float = 0.0,
             progress: Optional[Callable[[str], None]] = None) -> "_lib.Options":
    o = _lib.Options()
    engines = {"auto": 0, "dense": 1, "scale": 2}
    if engine not in engines:
        raise InvalidInput(1, "engine: expected auto, dense or scale, got %r" % (engine,))
    o.engine = engines[engine]
    bits = {"svd": 1, "symeig": 2, "pchol": 4, "rsvd": 8}
    for u in upper or ():
        if u not in bits:
            raise InvalidInput(1, "upper: unknown construction %r (svd, symeig, pchol, rsvd)" % (u,))
        o.upper |= bits[u]
    o.prec, o.threads, o.sketch_seed, o.memory_limit_gb = int(prec), int(threads), int(sketch_seed), \
        float(memory_limit_gb)
    if progress is not None:
        cb = _lib.PROGRESS_FN(lambda ctx, msg: progress(msg.decode("utf-8", "replace")))
        o.progress = cb
        o._keep = cb          # keeps the callback alive for the call
    return o


def _matrix(x: Any, what: str) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 2:
        raise InvalidInput(1, "%s: expected a 2-dimensional array (rows x dimension), got shape %s"
                           % (what, a.shape))
    if not (np.issubdtype(a.dtype, np.floating) or np.issubdtype(a.dtype, np.integer)):
        raise InvalidInput(1, "%s: expected real numbers, got dtype %s" % (what, a.dtype))
    return np.ascontiguousarray(a, dtype=np.float64)


def _dptr(a: Optional[np.ndarray]):
    return None if a is None else a.ctypes.data_as(_lib.dptr)


def _weights(w: Optional[Sequence[int]], n: int):
    """(w64 pointer, wdec pointer, keep-alive) for multiplicities w of n keys."""
    if w is None:
        return None, None, None
    vals = [int(v) for v in (w.tolist() if isinstance(w, np.ndarray) else w)]
    if len(vals) != n:
        raise InvalidInput(1, "multiplicities: %d values for %d keys" % (len(vals), n))
    if all(0 <= v < 2 ** 64 for v in vals):
        arr = (ctypes.c_uint64 * n)(*vals)
        return arr, None, arr
    if any(v < 1 for v in vals):
        raise InvalidInput(1, "multiplicities: every value must be >= 1")
    arr = (ctypes.c_char_p * n)(*[str(v).encode() for v in vals])
    return None, arr, arr


def _s(b: bytes) -> str:
    return b.decode("utf-8", "replace")


@dataclasses.dataclass(frozen=True)
class Bracket:
    """The fields of `attnrank bracket --format json` (n and m exact ints; times in seconds).
    rsvd_* are None when the randomized certificates did not run, polygon_* when no polygon was
    recognised, seed None for arrays (as for files)."""
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
    source: str
    attnrank: str
    commit: str
    mpfr: str
    gmp: str
    flint: str
    arb: str
    blas_core: str


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
        polygon_n=r.polygon_n or None, polygon_eta=r.polygon_eta if r.polygon_n else None, source=source,
        **_versions())


def bracket(Q: Any, K: Any, beta: float, eps: float, multiplicities: Optional[Sequence[int]] = None, *,
            engine: str = "auto", upper: Optional[Sequence[str]] = None, prec: int = 0, threads: int = 0,
            sketch_seed: int = 0, memory_limit_gb: float = 0.0,
            progress: Optional[Callable[[str], None]] = None, source: str = "arrays") -> Bracket:
    """Certified bracket lower <= rank_eps(A) <= upper of A = rowsoftmax(beta Q K^T).

    Q: queries (m x d), K: keys (n x d), or None (or Q itself) for self-attention on Q; NumPy arrays
    or anything with __array__ (a torch.Tensor after .detach().cpu()), converted to float64 exactly
    (float32 included).  multiplicities: n positive integers of any size on the keys (None: all 1).
    beta finite >= 0, 0 < eps < 1.  engine "auto" | "dense" | "scale", upper a subset of svd, symeig,
    pchol, rsvd, prec (53..4096: Arb enclosure), threads, sketch_seed, memory_limit_gb (per call),
    progress (called with each stage message) are the CLI's options.  Raises InvalidInput (bad
    shapes, NaN/Inf, eps outside (0, 1), negative beta), OutOfMemory, NumericalFailure, Cancelled."""
    q = _matrix(Q, "queries")
    self_att = K is None or K is Q
    k = q if self_att else _matrix(K, "keys")
    if k.shape[1] != q.shape[1]:
        raise InvalidInput(1, "shape mismatch: queries have %d columns, keys have %d" % (q.shape[1], k.shape[1]))
    w64, wdec, keep = _weights(multiplicities, k.shape[0])
    o = _options(engine, upper, prec, threads, sketch_seed, memory_limit_gb, progress)
    r = _lib.BracketResult()
    _run(_lib.lib.attnrank_bracket_arrays,
         (_dptr(q), q.shape[0], None if self_att else _dptr(k), k.shape[0], q.shape[1], w64, wdec, float(beta),
          float(eps), ctypes.byref(o), ctypes.byref(r)), o)
    del keep
    try:
        return _bracket_of(r, engine, source)
    finally:
        _lib.lib.attnrank_bracket_clear(ctypes.byref(r))


@dataclasses.dataclass(frozen=True)
class Head:
    """The fields of `attnrank head --format json` (instance mode; mode "weights" for head_weights):
    r, r_exact (None: not computed), tol, r(tau) and eta per tau in `taus` (dicts tau, r, eta,
    upper_via; None where no rank is certified), the best bracket, the direct and the visible
    brackets, all singular values in `sigma`."""
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


def _taus(tau: Sequence[float]) -> Tuple[np.ndarray, int]:
    t = np.ascontiguousarray(np.asarray(list(tau), dtype=np.float64))
    if t.ndim != 1 or t.size == 0:
        raise InvalidInput(1, "tau: expected a non-empty sequence of numbers")
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
         multiplicities: Optional[Sequence[int]] = None, exact_max: int = 0) -> Head:
    """`attnrank head`: visible dimension r, r_exact, r(tau) with certified eta, and the certified
    bracket of the head with queries Q (m x dh) and keys K (n x dh); beta None: 1/sqrt(dh); each tau in
    (0, 2); exact_max: r_exact only when m n dh <= exact_max (0: 2^24; 1: never)."""
    q, k = _matrix(Q, "queries"), _matrix(K, "keys")
    t, nt = _taus(tau)
    pq = _points(q, None)
    try:
        pk = _points(k, multiplicities)
        try:
            o = _options()
            h = _lib.HeadResult()
            _run(_lib.lib.attnrank_head, (pq, pk, float("nan") if beta is None else float(beta), float(eps),
                                         _dptr(t), nt, int(exact_max), ctypes.byref(o), ctypes.byref(h)), o)
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
    for inputs of norm <= radius."""
    wq, wk = _matrix(WQ, "wq"), _matrix(WK, "wk")
    if wq.shape != wk.shape:
        raise InvalidInput(1, "--wq is %d x %d but --wk is %d x %d (both must be dmodel x dh)"
                           % (wq.shape + wk.shape))
    t, nt = _taus(tau)
    o = _options()
    h = _lib.HeadResult()
    _run(_lib.lib.attnrank_head_weights, (_dptr(wq), _dptr(wk), wq.shape[0], wq.shape[1],
                                         float("nan") if beta is None else float(beta), float(radius), _dptr(t),
                                         nt, ctypes.byref(o), ctypes.byref(h)), o)
    try:
        return _head_of(h, "weights")
    finally:
        _lib.lib.attnrank_head_clear(ctypes.byref(h))


@dataclasses.dataclass(frozen=True)
class Generated:
    """A generated point set: points (n x d float64, the exact doubles of the CLI's instance),
    multiplicities (exact ints, or None when all are 1) and the provenance line."""
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
    dense/uniform size, default 2000; rho0 default sqrt(3)/2)."""
    p = ctypes.c_void_p()
    if geometry == "sphere":
        if n is None:
            raise InvalidInput(1, "generate: the sphere families need n")
        st = _lib.lib.attnrank_sphere_generate(family.encode(), int(d), int(n),
                                               float("nan") if theta is None else float(theta), float(beta),
                                               int(seed), ctypes.byref(p))
    elif geometry == "ball":
        s = _lib.BallSpec()
        st = _lib.lib.attnrank_ball_spec_default(ctypes.byref(s), family.encode(), int(d), float(beta))
        if st == 0:
            if n is not None:
                s.npoints = int(n)
            if rho0 is not None:
                s.rho0 = float(rho0)
            s.seed, s.unweighted, s.m0 = int(seed), int(bool(unweighted)), float(m0)
            st = _lib.lib.attnrank_ball_generate(ctypes.byref(s), ctypes.byref(p))
    else:
        raise InvalidInput(1, "generate: geometry must be 'sphere' or 'ball', got %r" % (geometry,))
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
    beta: float
    n: int
    log10_n: float
    lower: int
    upper: int
    continuum: int
    lower_method: str
    upper_method: str
    continuum_method: str
    upper_fitted: int
    status: str
    seconds: float


@dataclasses.dataclass(frozen=True)
class LawVerdict:
    """One row's sweep, fits and verdict ("pass", "fail" or "inconclusive"), as `attnrank verify`."""
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
    """Run row `row` of laws() through the route chooser and judge it (seconds to minutes)."""
    o = _options(progress=progress)
    v = _lib.LawVerdict()
    _run(_lib.lib.attnrank_law_run, (int(row), ctypes.byref(o), ctypes.byref(v)), o)
    pts = tuple(LawPoint(beta=p.beta, n=p.n, log10_n=p.log10_n, lower=p.lower, upper=p.upper,
                         continuum=p.continuum, lower_method=_s(p.lower_method), upper_method=_s(p.upper_method),
                         continuum_method=_s(p.continuum_method), upper_fitted=p.upper_fitted,
                         status=_s(p.status), seconds=p.seconds) for p in v.pts[:v.npts])
    return LawVerdict(row=v.row, verdict=_s(v.verdict), reason=_s(v.reason), fit_lower=v.fit_lower,
                      fit_upper=v.fit_upper, band_min=v.band_min, band_max=v.band_max, points=pts,
                      seconds=v.seconds)
