# SPDX-License-Identifier: GPL-3.0-or-later
"""attnrank.torch.attention_brackets against scripts/export_heads.py: the same heads (Q, K
bit for bit) and, through the CLI on the exported files, the same brackets.  Needs python3-torch."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import attnrank  # noqa: E402
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


class _Causal(torch.nn.Module):
    """One nn.MultiheadAttention layer called as a decoder calls it: a causal bool attn_mask, by keyword."""

    def __init__(self, d=16, heads=2, kpm=None):
        super().__init__()
        self.mha = torch.nn.MultiheadAttention(d, heads, batch_first=True)
        self.kpm = kpm

    def forward(self, x):
        L = x.shape[1]
        mask = torch.triu(torch.ones(L, L, dtype=torch.bool), 1)
        return self.mha(x, x, x, attn_mask=mask, key_padding_mask=self.kpm, need_weights=False)[0]


def test_causal_mask_is_certified(tmp_path):
    """issue 32: a causal attn_mask used to be dropped (the pre-hook saw positional arguments only) and the
    unmasked softmax was certified [1, 1].  Now the masked matrix is certified: the bracket equals the CLI's on
    the exported Q, K and the causal bias (-inf above the diagonal), the lower end is far above 1, and
    attnrank.bracket on the same arrays without the bias gives the unmasked [1, 1]."""
    torch.manual_seed(0)
    model = _Causal()
    x = 0.05 * torch.randn(1, 40, 16)
    res = at.attention_brackets(model, [x], eps=0.1)
    assert len(res) == 2
    caps = at.capture_heads(_copy_weights(model), [x])
    (_, _, _, nh, dh, scale, q, k, bias), = caps
    assert bias.shape == (2, 40, 40) and np.isneginf(bias[0, 0, 1]) and bias[0, 1, 0] == 0
    for hb in res:
        b = hb.bracket
        assert b.logit_bias and b.status == "certified" and b.lower > 10, b
        Q = np.ascontiguousarray(q[:, hb.head * dh:(hb.head + 1) * dh])
        K = np.ascontiguousarray(k[:, hb.head * dh:(hb.head + 1) * dh])
        np.save(tmp_path / "q.npy", Q)
        np.save(tmp_path / "k.npy", K)
        np.save(tmp_path / "b.npy", bias[hb.head])
        j = json.loads(subprocess.run([BIN, "bracket", "--queries", str(tmp_path / "q.npy"), "--keys",
                                       str(tmp_path / "k.npy"), "--logit-bias", str(tmp_path / "b.npy"), "--beta",
                                       repr(scale), "--eps", "0.1", "--format", "json"], check=True,
                                      capture_output=True, text=True).stdout)
        assert (b.lower, b.upper, b.lower_certificate, b.upper_certificate) == \
            (j["lower"], j["upper"], j["lower_certificate"], j["upper_certificate"])
        plain = attnrank.bracket(Q, K, scale, 0.1)
        assert (plain.lower, plain.upper) == (1, 1)


def _copy_weights(model):
    """A fresh model with the same weights (capture_heads converts the model to float64 in place)."""
    m = _Causal(kpm=model.kpm)
    m.load_state_dict(model.state_dict())
    return m.double()


def test_key_padding_mask_and_refusals():
    """A key_padding_mask masks its keys in every row; arguments the capture cannot model are refused with
    a ValueError naming the module and the argument; rotary embeddings after q_proj/k_proj are refused."""
    torch.manual_seed(1)
    kpm = torch.zeros(1, 30, dtype=torch.bool)
    kpm[0, 25:] = True
    model = _Causal(kpm=kpm)
    (_, _, _, _, _, _, _, _, bias), = at.capture_heads(model, [0.1 * torch.randn(1, 30, 16)])
    assert np.isneginf(bias[:, :, 25:]).all() and np.isneginf(bias[:, 3, 4]).all() and (bias[:, 29, :25] == 0).all()

    class Proj(torch.nn.Module):
        def __init__(self, rotary=False):
            super().__init__()
            self.q_proj, self.k_proj = torch.nn.Linear(8, 8), torch.nn.Linear(8, 8)
            self.num_heads = 2
            if rotary:
                self.rotary_emb = torch.nn.Identity()

        def forward(self, x, attention_mask=None):
            return self.q_proj(x) + self.k_proj(x)

    class Wrap(torch.nn.Module):
        def __init__(self, inner, mask):
            super().__init__()
            self.attn, self.mask = inner, mask

        def forward(self, x):
            return self.attn(x, attention_mask=self.mask)

    x = torch.randn(1, 6, 8)
    assert len(at.attention_brackets(Wrap(Proj(), None), [x], eps=0.2)) == 2          # None: nothing to model
    with pytest.raises(ValueError, match=r"attn: argument 'attention_mask' is not modelled"):
        at.attention_brackets(Wrap(Proj(), torch.zeros(1, 1, 6, 6)), [x], eps=0.2)
    with pytest.raises(ValueError, match=r"attn applies rotary position embeddings.*rotary_emb"):
        at.attention_brackets(Wrap(Proj(rotary=True), None), [x], eps=0.2)
