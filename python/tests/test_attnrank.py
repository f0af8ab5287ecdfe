# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python package against the CLI: the same instances give the same JSON fields bit for bit
(numbers the CLI rounds for printing compared at its rounding), errors are attnrank.Error
subclasses with the C message, KeyboardInterrupt cancels, torch tensors are accepted."""
import dataclasses
import json
import os
import re
import subprocess
import threading
import time

import numpy as np
import pytest

import attnrank

BIN = os.environ["ATTNRANK_BIN"]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cli_json(*args):
    out = subprocess.run([BIN, *args, "--format", "json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def assert_same_as_cli(r, j, skip=("source",)):
    """Every field of the CLI's JSON line equals the result's: exactly, or at the CLI's own rounding."""
    d = dataclasses.asdict(r) if dataclasses.is_dataclass(r) else r
    rounded = {"log10_n": lambda x: float("%.6f" % x), "enclosure_err": lambda x: float("%.3g" % x),
               "polygon_eta": lambda x: float("%.3g" % x), "tol": lambda x: float("%.6g" % x)}
    for k, v in j.items():
        if k in skip or k.startswith("seconds") or k == "seed":
            continue
        assert k in d, "field %s missing" % k
        mine = d[k]
        if k in rounded and mine is not None:
            mine = rounded[k](mine)
        if isinstance(mine, tuple):
            mine = list(mine)
        if k == "route_plan":       # each route's wall time aside
            mine = [{a: b for a, b in e.items() if a != "seconds"} for e in mine]
            v = [{a: b for a, b in e.items() if a != "seconds"} for e in v]
        if k in ("n", "m") and isinstance(v, str):
            v = int(v)
        if isinstance(v, float):
            assert isinstance(mine, float) and np.float64(mine).tobytes() == np.float64(v).tobytes(), \
                "%s: %r vs CLI %r" % (k, mine, v)
        else:
            assert mine == v, "%s: %r vs CLI %r" % (k, mine, v)


def untimed(r):
    """The result without its wall times (seconds, seconds_enclose, each route's seconds)."""
    plan = tuple({a: b for a, b in e.items() if a != "seconds"} for e in r.route_plan)
    return dataclasses.replace(r, seconds=0, seconds_enclose=0, route_plan=plan)


def json_untimed(text):
    """A JSON line of a bracket without its wall times."""
    j = json.loads(text)
    for k in ("seconds", "seconds_enclose"):
        j.pop(k, None)
    for e in j.get("route_plan", ()):
        e.pop("seconds", None)
    return j


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("attnrank")
    rng = np.random.default_rng(7)
    X = rng.standard_normal((600, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    Q = rng.uniform(-1, 1, (300, 3)).astype(np.float32)
    np.save(d / "X.npy", X)
    np.save(d / "Q.npy", Q)
    (d / "w.txt").write_text("".join("%d\n" % (1 + (i % 5) * 10 ** (i % 25)) for i in range(600)))
    return d, X, Q


def test_version_and_library():
    assert attnrank.version() == "0.2.0"
    assert os.path.exists(attnrank.library_path()) or attnrank.library_path() == "libattnrank.so.0"


def test_bracket_self_attention_same_as_cli(files):
    d, X, _ = files
    r = attnrank.bracket(X, None, 20, 0.1)
    assert_same_as_cli(r, cli_json("bracket", "--points", str(d / "X.npy"), "--beta", "20", "--eps", "0.1"))
    assert r.self_attention and r.status == "certified" and r.lower <= r.upper
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.lower = 0
    same = attnrank.bracket(X, X, 20, 0.1)      # K is Q: self-attention too
    assert untimed(same) == untimed(r)
    # the same points in another array: self-attention by content (one rule in the library, issue 32)
    copy = attnrank.bracket(X, X.copy(), 20, 0.1)
    assert copy.self_attention and untimed(copy) == untimed(r)
    assert json_untimed(copy.json) == json_untimed(r.json)


def test_bracket_cross_float32_multiplicities_same_as_cli(files):
    d, X, Q = files
    w = [int(s) for s in (d / "w.txt").read_text().split()]
    assert max(w) > 2 ** 64                      # decimal strings reach the library
    r = attnrank.bracket(Q, X, 4, 0.15, multiplicities=w)
    j = cli_json("bracket", "--queries", str(d / "Q.npy"), "--keys", str(d / "X.npy"), "--multiplicities",
                 str(d / "w.txt"), "--beta", "4", "--eps", "0.15")
    assert_same_as_cli(r, j)
    assert r.n == sum(w) and not r.self_attention
    r64 = attnrank.bracket(Q, X, 4, 0.15, multiplicities=np.ones(600, dtype=np.uint64))
    assert r64.n == 600


def test_bracket_options_same_as_cli(files):
    d, X, _ = files
    r = attnrank.bracket(X, None, 20, 0.1, engine="dense", upper=["svd"], sketch_seed=5)
    j = cli_json("bracket", "--points", str(d / "X.npy"), "--beta", "20", "--eps", "0.1", "--engine", "dense",
                 "--upper", "svd", "--seed-sketch", "5")
    assert_same_as_cli(r, j, skip=("source", "engine"))
    assert r.upper_certificate == "svd" and r.routes == "dense"


def test_generate_and_structured_bracket_same_as_cli(tmp_path):
    g = attnrank.generate("sphere", "polygon", 2, 800)
    subprocess.run([BIN, "generate", "--geometry", "sphere", "--family", "polygon", "--d", "2", "--n", "800",
                    "--out", str(tmp_path / "P.npy")], check=True, capture_output=True)
    assert np.load(tmp_path / "P.npy").tobytes() == g.points.tobytes()
    r = attnrank.bracket(g.points, None, 300, 0.1)
    j = cli_json("bracket", "--geometry", "sphere", "--family", "polygon", "--d", "2", "--n", "800", "--beta",
                 "300", "--eps", "0.1")
    assert_same_as_cli(r, j)
    assert r.polygon_n == 800 and "circulant" in r.routes
    b = attnrank.generate("ball", "uniform", 3, 400, seed=2, unweighted=True, rho0=0.0, beta=1.0)
    subprocess.run([BIN, "generate", "--geometry", "ball", "--family", "uniform", "--d", "3", "--n", "400",
                    "--seed", "2", "--out", str(tmp_path / "B.npy")], check=True, capture_output=True)
    assert np.load(tmp_path / "B.npy").tobytes() == b.points.tobytes() and b.multiplicities is None
    s = attnrank.generate("ball", "shells", 2, beta=100)
    assert s.multiplicities and min(s.multiplicities) >= 1 and "shells" in s.provenance


def test_head_same_as_cli(files):
    d, X, Q = files
    q = Q[:80].astype(np.float64)
    np.save(d / "hq.npy", q)
    h = attnrank.head(q, X[:120], eps=0.1, tau=(0.05, 0.01))
    np.save(d / "hk.npy", X[:120])
    j = cli_json("head", "--queries", str(d / "hq.npy"), "--keys", str(d / "hk.npy"), "--tau", "0.05,0.01")
    sigma = j.pop("sigma")
    assert list(h.sigma[:len(sigma)]) == [float("%.6g" % s) for s in sigma] or \
        [float("%.6g" % s) for s in h.sigma[:len(sigma)]] == sigma
    assert_same_as_cli(h, j)
    hw = attnrank.head_weights(X[:40], X[40:80], radius=1.0, tau=(0.05,))
    assert hw.mode == "weights" and hw.model_dim == 40


def test_laws():
    L = attnrank.laws()
    assert len(L) > 10 and {l.claim for l in L} >= {"S", "B", "R"}
    row = next(l.index for l in L if l.claim == "R" and l.kind == "report" and l.dim == 1)
    v = attnrank.law_run(row)
    assert v.verdict in ("pass", "fail", "inconclusive") and len(v.points) == len(L[row].betas)


@pytest.mark.parametrize("call,needle", [
    (lambda X: attnrank.bracket(X, None, -1, 0.1), "beta"),
    (lambda X: attnrank.bracket(X, None, float("nan"), 0.1), "beta"),
    (lambda X: attnrank.bracket(X, None, 1, 0.0), "eps"),
    (lambda X: attnrank.bracket(X, None, 1, 1.0), "eps"),
    (lambda X: attnrank.bracket(X, X[:, :2], 1, 0.1), "shape"),
    (lambda X: attnrank.bracket(X[None], None, 1, 0.1), "2-dimensional"),
    (lambda X: attnrank.bracket(np.where(X > 0.9, np.inf, X), None, 1, 0.1), "not finite"),
    (lambda X: attnrank.bracket(np.where(X > 0.9, np.nan, X), None, 1, 0.1), "not finite"),
    (lambda X: attnrank.bracket(X[:0], None, 1, 0.1), "shape 0"),
    (lambda X: attnrank.bracket(X, None, 1, 0.1, multiplicities=[1, 2]), "multiplicities"),
    (lambda X: attnrank.bracket(X, None, 1, 0.1, multiplicities=[0] * len(X)), "multiplicit"),
    (lambda X: attnrank.bracket(X, None, 1, 0.1, engine="fast"), "engine"),
    (lambda X: attnrank.bracket(X, None, 1, 0.1, prec=7), "prec"),
    (lambda X: attnrank.head(X, X, tau=(3.0,)), "tau"),
    (lambda X: attnrank.generate("sphere", "cube", 3, 10), "unknown family"),
])
def test_errors(files, call, needle):
    _, X, _ = files
    with pytest.raises(attnrank.InvalidInput) as e:
        call(X)
    assert needle in str(e.value) and "\n" not in str(e.value) and e.value.status == 1
    assert isinstance(e.value, attnrank.Error) and isinstance(e.value, ValueError)


def test_memory_limit(files):
    _, X, _ = files
    with pytest.raises(attnrank.OutOfMemory):
        attnrank.bracket(X, None, 20, 0.1, memory_limit_gb=1e-6)


def test_keyboard_interrupt_cancels():
    """A KeyboardInterrupt in the waiting thread raises the flag; the call stops and re-raises."""
    import _thread
    X = attnrank.generate("sphere", "uniform", 3, 3000, seed=3).points
    t0 = time.time()
    threading.Timer(0.3, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        attnrank.bracket(X, None, 30, 0.1, engine="dense")
    assert time.time() - t0 < 20


def test_gil_released():
    """Another Python thread runs while a bracket computes."""
    X = attnrank.generate("sphere", "uniform", 3, 1000, seed=4).points
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    attnrank.bracket(X, None, 20, 0.1, engine="dense")
    stop.set()
    t.join()
    assert len(ticks) >= 3


def test_two_python_threads_same_results(files):
    _, X, _ = files
    one = attnrank.bracket(X, None, 20, 0.1)
    out = [None, None]

    def job(i):
        out[i] = attnrank.bracket(X, None, 20, 0.1)

    ts = [threading.Thread(target=job, args=(i,)) for i in range(2)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    for r in out:
        assert (r.lower, r.upper, r.upper_err_bound, r.lower_invnorm_bound) == \
            (one.lower, one.upper, one.upper_err_bound, one.lower_invnorm_bound)


def test_library_env_validation(tmp_path):
    code = "import attnrank"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for bad, needle in ((str(tmp_path), "not a regular file"), (str(tmp_path / "none.so"), "No such file"),
                        ("a\nb", "one line")):
        env["ATTNRANK_LIBRARY"] = bad
        p = subprocess.run(["/usr/bin/python3", "-c", code], env=env, capture_output=True, text=True)
        assert p.returncode != 0 and "ImportError" in p.stderr and needle in p.stderr
    env["ATTNRANK_LIBRARY"] = attnrank.library_path()
    p = subprocess.run(["/usr/bin/python3", "-c", code + "; print(attnrank.library_path())"], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == os.path.abspath(attnrank.library_path())


def test_torch_tensor_input(files):
    torch = pytest.importorskip("torch")
    _, X, _ = files
    t = torch.tensor(X, requires_grad=True)
    r = attnrank.bracket(t.detach().cpu(), None, 20, 0.1)
    assert (r.lower, r.upper) == (attnrank.bracket(X, None, 20, 0.1).lower, attnrank.bracket(X, None, 20, 0.1).upper)


def test_bracket_json_same_text_as_cli(files):
    """The library formats the JSON for every door: Python's Bracket.json is the CLI's line, byte for byte
    once the wall times are removed (the source line given alike)."""
    d, X, Q = files
    src = "points %s" % (d / "X.npy")
    r = attnrank.bracket(X, None, 20, 0.1, source=src)
    out = subprocess.run([BIN, "bracket", "--points", str(d / "X.npy"), "--beta", "20", "--eps", "0.1", "--format",
                          "json"], check=True, capture_output=True, text=True).stdout.strip()
    times = re.compile(r'"(seconds|seconds_enclose)":[0-9.]+|"seconds":(null|[0-9.]+)')
    assert times.sub("", out) == times.sub("", r.json)


def test_same_bracket_under_address_space_limit(tmp_path):
    """Under an address-space limit (prlimit --as, common on clusters) the library still holds OpenBLAS to
    one thread inside a call (issue 32: it left OpenBLAS on its own threads there, and a 2048 x 2 cross head
    got another bracket from Python than from the CLI): the CLI, and Python with and without the limit, give
    the same JSON, times aside."""
    import shutil
    import sys
    if not shutil.which("prlimit"):
        pytest.skip("prlimit (util-linux) is not installed")
    rng = np.random.default_rng(4)
    np.save(tmp_path / "q.npy", rng.standard_normal((2048, 2)))
    np.save(tmp_path / "k.npy", rng.standard_normal((2048, 2)))
    src = "queries %s keys %s" % (tmp_path / "q.npy", tmp_path / "k.npy")
    code = ("import attnrank, numpy as np, sys; r = attnrank.bracket(np.load(sys.argv[1]), np.load(sys.argv[2]), 4, "
            "0.02, source=sys.argv[3]); print(r.json)")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    lim = ["prlimit", "--as=6442450944"]
    outs = []
    for pre in ([], lim):
        outs.append(subprocess.run(pre + [sys.executable, "-c", code, str(tmp_path / "q.npy"), str(tmp_path / "k.npy"),
                                          src], check=True, capture_output=True, text=True, env=env).stdout)
        outs.append(subprocess.run(pre + [BIN, "bracket", "--queries", str(tmp_path / "q.npy"), "--keys",
                                          str(tmp_path / "k.npy"), "--beta", "4", "--eps", "0.02", "--format", "json"],
                                   check=True, capture_output=True, text=True).stdout)
    first = json_untimed(outs[0])
    for o in outs[1:]:
        assert json_untimed(o) == first


def test_memory_limit_streams_as_the_variable(tmp_path):
    """memory_limit_gb= acts exactly as ATTNRANK_MAX_ALLOC_GB (issue 32: it never selected the streamed
    route and raised OutOfMemory instead): a 1200 x 1200 cross head (11 MiB image) under 0.005 GiB is
    streamed, in row blocks sized to the limit, and gives the CLI's JSON under the variable."""
    rng = np.random.default_rng(9)
    Q, K = rng.standard_normal((1200, 3)), rng.standard_normal((1200, 3))
    np.save(tmp_path / "q.npy", Q)
    np.save(tmp_path / "k.npy", K)
    src = "queries %s keys %s" % (tmp_path / "q.npy", tmp_path / "k.npy")
    r = attnrank.bracket(Q, K, 2, 0.1, memory_limit_gb=0.005, source=src)
    assert r.streamed and r.status == "certified"
    env = dict(os.environ, ATTNRANK_MAX_ALLOC_GB="0.005")
    out = subprocess.run([BIN, "bracket", "--queries", str(tmp_path / "q.npy"), "--keys", str(tmp_path / "k.npy"),
                          "--beta", "2", "--eps", "0.1", "--format", "json"], check=True, capture_output=True,
                         text=True, env=env).stdout
    assert json_untimed(out) == json_untimed(r.json)
    held = attnrank.bracket(Q, K, 2, 0.1)
    assert not held.streamed


def test_import_clean_type_hints_and_repr():
    """The package imports under `python3 -X dev -W error` (no warning of any kind), every name of __all__
    exists and its type hints resolve, __version__ is the library's version, and a Head's repr summarises its
    singular values (it printed all of them: 13 000 characters for 500 points)."""
    import sys
    code = ("import typing, attnrank\n"
            "for n in attnrank.__all__:\n"
            "    o = getattr(attnrank, n)\n"
            "    if callable(o) and not isinstance(o, type):\n"
            "        typing.get_type_hints(o)\n"
            "assert attnrank.__version__ == attnrank.version(), (attnrank.__version__, attnrank.version())\n"
            "assert not {'np', 'ctypes', 'json', 'threading'} & set(attnrank.__all__)\n"
            "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    p = subprocess.run([sys.executable, "-X", "dev", "-W", "error", "-c", code], capture_output=True, text=True,
                       env=env)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr
    X = np.random.default_rng(3).standard_normal((500, 4))
    h = attnrank.head(X, X[::-1].copy(), 0.1)
    assert len(h.sigma) >= 4 and len(repr(h)) < 2000 and "values]" in repr(h), repr(h)[:300]
