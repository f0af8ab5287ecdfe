# SPDX-License-Identifier: GPL-3.0-or-later
"""_lib.py -- loading libattnrank.so.0 and the ctypes mirror of include/attnrank.h.

The library is looked for, in this order:
  1. ATTNRANK_LIBRARY, when set: the path of the library file itself (an
     existing regular file, no newline or NUL in the name, that loads and is
     libattnrank of API major API_VERSION_MAJOR; anything else -- a text file,
     another shared library -- is an ImportError naming the variable);
  2. next to the package: attnrank/libattnrank.so.0, then PREFIX/lib/libattnrank.so.0
     when the package is PREFIX/lib/python3/dist-packages/attnrank (as `make
     install PREFIX=...` lays them out);
  3. the source tree's build/lib/libattnrank.so.0 when the package is run
     from python/ of a built repository;
  4. the system loader (`libattnrank.so.0` on LD_LIBRARY_PATH, ld.so.cache).
"""
import ctypes
import os
import stat

API_VERSION_MAJOR = 0
API_VERSION_MIN = 300      # 0.3.0: the size-checked structs (a leading size field in each caller-allocated struct)
NAME_LEN = 64
HEAD_MAX_TAUS = 32
NONE = ctypes.c_size_t(-1).value

_SONAME = "libattnrank.so.0"


def _from_env():
    p = os.environ.get("ATTNRANK_LIBRARY")
    if p is None:
        return None
    if p == "" or "\n" in p or "\0" in p:
        raise ImportError("ATTNRANK_LIBRARY must be the path of libattnrank.so.0 (non-empty, one line)")
    try:
        st = os.stat(p)
    except OSError as e:
        raise ImportError("ATTNRANK_LIBRARY=%r: %s" % (p, e.strerror)) from None
    if not stat.S_ISREG(st.st_mode):
        raise ImportError("ATTNRANK_LIBRARY=%r is not a regular file" % p)
    return os.path.abspath(p)


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, _SONAME)
    parts = here.split(os.sep)
    if len(parts) >= 4 and parts[-2] in ("dist-packages", "site-packages"):
        # PREFIX/lib/python3/dist-packages/attnrank -> PREFIX/lib
        # (and PREFIX/lib/python3.X/site-packages/attnrank, as pip lays it out)
        yield os.path.join(os.sep.join(parts[:-3]), _SONAME)
    yield os.path.join(os.path.dirname(os.path.dirname(here)), "build", "lib", _SONAME)


def _load():
    """(the CDLL, its path, how it was found: a prefix for ImportError messages)."""
    p = _from_env()
    if p is not None:
        what = "ATTNRANK_LIBRARY=%r" % p
        try:
            return ctypes.CDLL(p), p, what
        except OSError as e:
            raise ImportError("%s cannot be loaded as a shared library (%s); it must be the path of %s"
                              % (what, e, _SONAME)) from None
    for c in _candidates():
        if os.path.isfile(c):
            try:
                return ctypes.CDLL(c), os.path.realpath(c), "attnrank: %s" % c
            except OSError as e:
                raise ImportError("attnrank: cannot load %s (%s); rebuild or reinstall it, or set "
                                  "ATTNRANK_LIBRARY to the path of %s" % (c, e, _SONAME)) from None
    try:
        return ctypes.CDLL(_SONAME), _SONAME, "attnrank: %s" % _SONAME
    except OSError as e:
        raise ImportError("attnrank: cannot load %s (%s); install it (make install PREFIX=...) or set "
                          "ATTNRANK_LIBRARY to its path" % (_SONAME, e)) from None


lib, path, _found = _load()

c_size = ctypes.c_size_t
c_dbl = ctypes.c_double
c_int = ctypes.c_int
PROGRESS_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)


def _chars(n):
    return ctypes.c_char * n


def _sized_init(self, *args, **kw):
    """__init__ of the size-checked structs (include/attnrank.h): zeroed, size = ctypes.sizeof, as
    ATTNRANK_INIT does in C."""
    ctypes.Structure.__init__(self, *args, **kw)
    self.size = ctypes.sizeof(self)


class Options(ctypes.Structure):
    __init__ = _sized_init
    _fields_ = [("size", c_size),      # the sizeof of the mirror (_sized_init)
                ("engine", c_int), ("upper", ctypes.c_uint), ("prec", ctypes.c_long), ("threads", c_int),
                ("sketch_seed", ctypes.c_uint64), ("progress", PROGRESS_FN), ("progress_ctx", ctypes.c_void_p),
                ("cancel", ctypes.POINTER(c_int)), ("memory_limit_gb", c_dbl)]


class BracketResult(ctypes.Structure):
    __init__ = _sized_init
    _fields_ = [("size", c_size),      # the sizeof of the mirror (_sized_init)
                ("lower", c_size), ("upper", c_size), ("status", _chars(16)), ("routes", _chars(96)),
                ("lower_route", _chars(16)), ("upper_route", _chars(16)),
                ("lower_certificate", _chars(NAME_LEN)), ("upper_certificate", _chars(NAME_LEN)),
                ("lower_invnorm_bound", c_dbl), ("upper_err_bound", c_dbl),
                ("n", ctypes.c_char_p), ("m", ctypes.c_char_p), ("log10_n", c_dbl),
                ("distinct_keys", c_size), ("distinct_queries", c_size), ("d", c_size), ("self_attention", c_int),
                ("beta", c_dbl), ("eps", c_dbl), ("enclosure_err", c_dbl), ("prec", ctypes.c_long),
                ("enclosure", _chars(8)), ("streamed", c_int), ("rsvd_run", c_int),
                ("rsvd_rank", c_size), ("rsym_rank", c_size), ("rsvd_sketch", c_size), ("rsvd_passes", c_size),
                ("rsvd_power", c_int), ("rsvd_seed", ctypes.c_uint64), ("polygon_n", c_size),
                ("polygon_eta", c_dbl), ("poly_degree", c_size), ("seconds", c_dbl), ("seconds_enclose", c_dbl),
                ("log10_max_multiplicity", c_dbl), ("cluster_centres", c_size), ("cluster_delta", c_dbl),
                ("cluster_max_r", c_dbl), ("tensor_points_per_axis", c_size), ("tensor_rank", c_size),
                ("tensor_capped", c_int), ("tensor_ratio", c_dbl), ("dense_run", c_int),
                ("seconds_generate", c_dbl),
                # since API 0.2 (issue 32)
                ("engine", _chars(8)), ("route_plan", ctypes.c_char_p), ("lower_budget_flops", c_dbl),
                ("lower_spent_flops", c_dbl), ("lower_cut", c_int), ("logit_bias", c_int)]


class HeadResult(ctypes.Structure):
    __init__ = _sized_init
    _fields_ = [("size", c_size),      # the sizeof of the mirror (_sized_init)
                ("r", c_size), ("r_exact", ctypes.c_long), ("tol", c_dbl), ("tol_safety", c_dbl),
                ("ntau", c_size), ("tau", c_dbl * HEAD_MAX_TAUS), ("r_tau", c_size * HEAD_MAX_TAUS),
                ("eta", c_dbl * HEAD_MAX_TAUS), ("upper_via", c_size * HEAD_MAX_TAUS),
                ("lower", c_size), ("upper", c_size), ("status", _chars(16)), ("lower_route", _chars(16)),
                ("upper_route", _chars(16)), ("head_dim", c_size), ("m", c_size), ("distinct_keys", c_size),
                ("n", ctypes.c_char_p), ("beta", c_dbl), ("eps", c_dbl), ("direct_lower", c_size),
                ("direct_upper", c_size), ("direct_status", _chars(16)),
                ("direct_lower_certificate", _chars(NAME_LEN)), ("direct_upper_certificate", _chars(NAME_LEN)),
                ("visible_lower", c_size), ("visible_upper", c_size), ("visible_eta", c_dbl),
                ("visible_status", _chars(32)), ("nsigma", c_size), ("sigma", ctypes.POINTER(c_dbl)),
                ("seconds", c_dbl), ("model_dim", c_size), ("radius", c_dbl)]


class BallSpec(ctypes.Structure):
    __init__ = _sized_init
    _fields_ = [("size", c_size),      # the sizeof of the mirror (_sized_init)
                ("family", _chars(16)), ("d", c_size), ("beta", c_dbl), ("rho0", c_dbl), ("npoints", c_size),
                ("seed", ctypes.c_uint64), ("unweighted", c_int), ("m0", c_dbl)]


class Law(ctypes.Structure):
    __init__ = _sized_init
    _fields_ = [("size", c_size),      # the sizeof of the mirror (_sized_init)
                ("claim", _chars(4)), ("dim", c_int), ("variable", _chars(16)), ("predicted", c_dbl),
                ("tol", c_dbl), ("eps", c_dbl), ("band_lo", c_dbl), ("band_hi", c_dbl), ("nbetas", c_size),
                ("betas", c_dbl * 32), ("nns", c_size), ("ns", c_dbl * 32), ("family", _chars(32)),
                ("kind", _chars(16)), ("tier", _chars(16)), ("upper_source", _chars(16)), ("asserted", c_int),
                ("scope", _chars(512))]


class LawPoint(ctypes.Structure):
    _fields_ = [("beta", c_dbl), ("n", c_size), ("log10_n", c_dbl), ("lower", c_size), ("upper", c_size),
                ("continuum", c_size), ("lower_method", _chars(48)), ("upper_method", _chars(48)),
                ("continuum_method", _chars(48)), ("upper_fitted", c_size), ("status", _chars(16)),
                ("seconds", c_dbl)]


class LawVerdict(ctypes.Structure):
    __init__ = _sized_init
    _fields_ = [("size", c_size),      # the sizeof of the mirror (_sized_init)
                ("row", c_size), ("verdict", _chars(16)), ("reason", _chars(256)), ("fit_lower", c_dbl),
                ("fit_upper", c_dbl), ("band_min", c_dbl), ("band_max", c_dbl), ("npts", c_size),
                ("pts", LawPoint * 32), ("seconds", c_dbl)]


P = ctypes.POINTER
c_void = ctypes.c_void_p
dptr = P(c_dbl)
_protos = {
    "attnrank_version": (ctypes.c_char_p, []),
    "attnrank_api_version": (c_int, []),
    "attnrank_version_json": (ctypes.c_char_p, []),
    "attnrank_version_line": (ctypes.c_char_p, []),
    "attnrank_error_message": (ctypes.c_char_p, []),
    "attnrank_check_environment": (c_int, []),
    "attnrank_thread_cleanup": (None, []),
    "attnrank_points_new": (c_int, [dptr, c_size, c_size, P(ctypes.c_uint64), P(ctypes.c_char_p), ctypes.c_char_p,
                                    P(c_void)]),
    "attnrank_points_free": (None, [c_void]),
    "attnrank_points_count": (c_size, [c_void]),
    "attnrank_points_dim": (c_size, [c_void]),
    "attnrank_points_coords": (dptr, [c_void]),
    "attnrank_points_weighted": (c_int, [c_void]),
    "attnrank_points_weight": (c_int, [c_void, c_size, ctypes.c_char_p, c_size, P(c_size)]),
    "attnrank_points_provenance": (ctypes.c_char_p, [c_void]),
    "attnrank_sphere_generate": (c_int, [ctypes.c_char_p, c_size, c_size, c_dbl, c_dbl, ctypes.c_uint64,
                                         P(c_void)]),
    "attnrank_ball_spec_default_sized": (c_int, [P(BallSpec), c_size, ctypes.c_char_p, c_size, c_dbl]),
    "attnrank_ball_generate": (c_int, [P(BallSpec), P(c_void)]),
    "attnrank_bracket": (c_int, [c_void, c_void, c_dbl, c_dbl, P(Options), P(BracketResult)]),
    "attnrank_bracket_arrays": (c_int, [dptr, c_size, dptr, c_size, c_size, P(ctypes.c_uint64),
                                        P(ctypes.c_char_p), c_dbl, c_dbl, P(Options), P(BracketResult)]),
    "attnrank_bracket_ball": (c_int, [P(BallSpec), c_dbl, P(Options), P(BracketResult), P(c_void)]),
    "attnrank_bracket_biased": (c_int, [c_void, c_void, dptr, c_dbl, c_dbl, P(Options), P(BracketResult)]),
    "attnrank_bracket_clear": (None, [P(BracketResult)]),
    "attnrank_bracket_json": (c_int, [P(BracketResult), ctypes.c_char_p, P(ctypes.c_uint64), P(c_void)]),
    "attnrank_free": (None, [c_void]),
    "attnrank_head": (c_int, [c_void, c_void, c_dbl, c_dbl, dptr, c_size, c_size, P(Options), P(HeadResult)]),
    "attnrank_head_weights": (c_int, [dptr, dptr, c_size, c_size, c_dbl, c_dbl, dptr, c_size, P(Options),
                                      P(HeadResult)]),
    "attnrank_head_clear": (None, [P(HeadResult)]),
    "attnrank_laws_count": (c_size, []),
    "attnrank_law_get": (c_int, [c_size, P(Law)]),
    "attnrank_law_run": (c_int, [c_size, P(Options), P(LawVerdict)]),
}
# attnrank_version and attnrank_api_version first: a library without them is not libattnrank at all
for _name in ["attnrank_version", "attnrank_api_version"] + list(_protos):
    _res, _args = _protos[_name]
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        raise ImportError("%s is not %s (it has no symbol %s)" % (_found, _SONAME, _name)) from None
    _f.restype = _res
    _f.argtypes = _args

_api = lib.attnrank_api_version()
if _api // 10000 != API_VERSION_MAJOR or _api < API_VERSION_MIN:
    raise ImportError("%s has API version %d, this package needs major %d from %d on (the result structs it "
                      "mirrors)" % (_found, _api, API_VERSION_MAJOR, API_VERSION_MIN))
