"""attnrank.torch.attention_brackets against scripts/export_heads.py: the same heads (Q, K
bit for bit) and, through the CLI on the exported files, the same brackets.  Needs python3-torch."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import attnrank.torch as at  # noqa: E402

BIN = os.environ["ATTNRANK_BIN"]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import export_heads  # noqa: E402


def test_attention_brackets_match_export(tmp_path):
    model, inputs = export_heads.demo(layers=2, ninputs=2, seed=3)
    path, _ = export_heads.export(model, inputs, str(tmp_path), "demo")
    man = json.load(open(path))
    model, inputs = export_heads.demo(layers=2, ninputs=2, seed=3)
    res = at.attention_brackets(model, inputs, eps=0.1)
    assert len(res) == len(man["files"])
    byk = {(f["layer"], f["head"], f["input"]): f for f in man["files"]}
    for hb in res[::3]:
        f = byk[(hb.layer, hb.head, hb.input)]
        scale = man["layers"][hb.layer]["scale"]
        assert scale == hb.scale
        j = json.loads(subprocess.run([BIN, "bracket", "--queries", str(tmp_path / f["q"]), "--keys",
                                       str(tmp_path / f["k"]), "--beta", repr(scale), "--eps", "0.1", "--format",
                                       "json"], check=True, capture_output=True, text=True).stdout)
        b = hb.bracket
        assert (b.lower, b.upper, b.lower_certificate, b.upper_certificate) == \
            (j["lower"], j["upper"], j["lower_certificate"], j["upper_certificate"])
        assert np.float64(b.upper_err_bound).tobytes() == np.float64(j["upper_err_bound"]).tobytes()
