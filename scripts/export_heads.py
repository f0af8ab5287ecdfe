#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""export_heads.py -- write the attention heads of a PyTorch model as .npy
files with a manifest that `attnrank calib --manifest FILE` reads.

For every attention module it finds -- torch.nn.MultiheadAttention, and any
module with separate query/key projections (nn.Linear attributes q_proj and
k_proj, or query and key) and a head count (num_heads, n_heads or
num_attention_heads) -- it hooks the module's forward call, runs the model on
each of the user's inputs, and writes per (layer, head, input)

    q/L<l>_H<h>_I<i>.npy   the head's queries Q (positions x head_dim, float64, bias included)
    k/L<l>_H<h>_I<i>.npy   the head's keys K

where layer l counts the attention modules in the order of model.modules()
(the model is run in float64: its float32 weights promoted exactly, and
floating-point inputs converted, so that the arrays are the model's
attention to double rounding, as attnrank's own models are),
and manifest.json (format "attnrank-heads", version 1; see
constructions/formats/heads_manifest.h) with each layer's head count, head
dimension and logit scale (1/sqrt(head_dim), or the module's own `scaling`),
so that the module's attention of head h is rowsoftmax(scale Q K^T).  Only
self-attention is exported (query and key inputs equal), one sequence per
input (batch size 1; an attention mask is not supported).

--check re-runs every torch.nn.MultiheadAttention on its captured input with
need_weights=True, average_attn_weights=False, and every separate-projection
module whose forward returns weights, and compares those weights with
softmax(scale Q K^T) from the exported arrays (printed; exit 1 above 1e-9
relative).

Usage:
    export_heads.py --factory FILE.py:FUNC OUT_DIR [--name NAME] [--check]
        FUNC() returns (model, inputs): inputs a list of argument tuples (or
        single tensors) for model(*args), each one sequence.
    export_heads.py --demo OUT_DIR [--layers 4] [--inputs 6] [--seed 1] [--check]
        a randomly initialised nn.TransformerEncoder (d_model 64, 4 heads,
        batch_first) on random token sequences of 12..40 positions; no weights
        are downloaded.

Needs Debian's python3-torch (CPU).
"""
import argparse
import importlib.util
import json
import os
import sys

import numpy as np
import torch

# The attention-module discovery and the Q, K projections are attnrank.torch's (python/attnrank/torch.py):
# the package of this checkout's python/ (or an installed one); when the package cannot load libattnrank
# (not built: `make lib`), that module file alone, whose functions used here need only torch.
_PYTHON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python")


def _attnrank_torch():
    """attnrank.torch, or python/attnrank/torch.py loaded alone when the package does not import."""
    if os.path.isfile(os.path.join(_PYTHON, "attnrank", "__init__.py")) and _PYTHON not in sys.path:
        sys.path.insert(0, _PYTHON)
    try:
        import attnrank.torch
        return attnrank.torch
    except ImportError:
        path = os.path.join(_PYTHON, "attnrank", "torch.py")
        if not os.path.isfile(path):
            raise
        spec = importlib.util.spec_from_file_location("attnrank_torch", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod     # as an import does (its dataclass needs it)
        spec.loader.exec_module(mod)
        return mod


attn_torch = _attnrank_torch()


class Capture:
    """Forward pre-hooks that store each attention module's Q and K."""

    def __init__(self, found):
        self.found = found
        self.qk = [None] * len(found)
        self.inputs = [None] * len(found)
        self.handles = [m.register_forward_pre_hook(self._hook(i)) for i, (_, m, _) in enumerate(found)]

    def _hook(self, i):
        def hook(mod, args):
            if not args:
                raise ValueError("export_heads: %s was called without positional inputs" % self.found[i][0])
            kind = self.found[i][2]
            if kind == "mha":
                if len(args) >= 2 and args[1] is not args[0] and not torch.equal(args[0], args[1]):
                    raise ValueError("export_heads: %s is cross-attention (only self-attention is exported)"
                                     % self.found[i][0])
            q, k = attn_torch.self_attention_qk(mod, kind, args[0], caller="export_heads")
            self.qk[i] = (q.detach().double().cpu().numpy(), k.detach().double().cpu().numpy())
            self.inputs[i] = args
        return hook

    def close(self):
        for h in self.handles:
            h.remove()


def _softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def check_weights(found, cap, meta):
    """Max relative error between the modules' own attention weights and softmax(scale Q K^T)."""
    worst = 0.0
    for i, (name, mod, kind) in enumerate(found):
        heads, dh, scale = meta[i]
        q, k = cap.qk[i]
        args = cap.inputs[i]
        with torch.no_grad():
            if kind == "mha":
                _, w = mod(args[0], args[0], args[0], need_weights=True, average_attn_weights=False)
                w = w.double().cpu().numpy().reshape(heads, q.shape[0], k.shape[0])
            else:
                out = mod(*args)
                w = out[1] if isinstance(out, tuple) and len(out) > 1 else None
                if w is None:
                    continue
                w = w.double().cpu().numpy().reshape(heads, q.shape[0], k.shape[0])
        for h in range(heads):
            a = _softmax(scale * q[:, h * dh:(h + 1) * dh] @ k[:, h * dh:(h + 1) * dh].T)
            worst = max(worst, float(np.abs(a - w[h]).max() / np.abs(w[h]).max()))
    return worst


def _to_double(x):
    return x.double() if torch.is_tensor(x) and x.is_floating_point() else x


def export(model, inputs, out_dir, name="model", check=False):
    """Run model (in float64) on each input (a tuple of arguments, or one
    tensor) and write the heads of every attention module under out_dir;
    returns the manifest path and, with check, the worst relative error of
    the weights check."""
    model = model.double()
    found = attn_torch.find_attention(model)
    if not found:
        raise ValueError("export_heads: no attention module (nn.MultiheadAttention or q/k projections) found")
    meta = [attn_torch.layer_meta(m, kind, caller="export_heads") for _, m, kind in found]
    os.makedirs(os.path.join(out_dir, "q"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "k"), exist_ok=True)
    files, inputs_meta, worst = [], [], 0.0
    model.eval()
    for i, inp in enumerate(inputs):
        args = tuple(_to_double(x) for x in (inp if isinstance(inp, tuple) else (inp,)))
        cap = Capture(found)
        try:
            # grad mode on: keeps nn.TransformerEncoder off its fused inference path, which bypasses the hooks
            with torch.enable_grad():
                model(*args)
        finally:
            cap.close()
        missing = [found[j][0] for j in range(len(found)) if cap.qk[j] is None]
        if missing:
            raise ValueError("export_heads: input %d did not reach the attention modules %s" % (i, missing))
        n = cap.qk[0][0].shape[0]
        for l, (q, k) in enumerate(cap.qk):
            if q.shape[0] != n:
                raise ValueError("export_heads: layers see different sequence lengths (%d, %d)" % (n, q.shape[0]))
            heads, dh, _ = meta[l]
            for h in range(heads):
                qf, kf = "q/L%d_H%d_I%d.npy" % (l, h, i), "k/L%d_H%d_I%d.npy" % (l, h, i)
                np.save(os.path.join(out_dir, qf), np.ascontiguousarray(q[:, h * dh:(h + 1) * dh]))
                np.save(os.path.join(out_dir, kf), np.ascontiguousarray(k[:, h * dh:(h + 1) * dh]))
                files.append({"layer": l, "head": h, "input": i, "q": qf, "k": kf})
        inputs_meta.append({"name": "input %d" % i, "positions": n})
        if check:
            worst = max(worst, check_weights(found, cap, meta))
    manifest = {
        "format": "attnrank-heads", "version": 1, "model": name,
        "layers": [{"heads": h, "head_dim": d, "scale": s} for h, d, s in meta],
        "inputs": inputs_meta, "files": files,
    }
    path = os.path.join(out_dir, "manifest.json")
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    return path, worst


def demo(layers=4, ninputs=6, seed=1, d_model=64, heads=4):
    """A randomly initialised transformer encoder and random token inputs."""
    torch.manual_seed(seed)
    vocab = 1000
    emb = torch.nn.Embedding(vocab, d_model)
    enc_layer = torch.nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=128, dropout=0.0, batch_first=True)
    model = torch.nn.Sequential(emb, torch.nn.TransformerEncoder(enc_layer, layers))
    g = torch.Generator().manual_seed(seed + 1)
    inputs = []
    for _ in range(ninputs):
        n = int(torch.randint(12, 41, (1,), generator=g))
        inputs.append(torch.randint(0, vocab, (1, n), generator=g))
    return model, inputs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out_dir")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--factory", help="FILE.py:FUNC returning (model, inputs)")
    src.add_argument("--demo", action="store_true", help="a random nn.TransformerEncoder")
    ap.add_argument("--name", default=None)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--inputs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        if a.demo:
            model, inputs = demo(a.layers, a.inputs, a.seed)
            name = a.name or "random-transformer"
        else:
            file, _, func = a.factory.rpartition(":")
            spec = importlib.util.spec_from_file_location("attnrank_factory", file)
            if not file or not func or spec is None:
                raise ValueError("export_heads: --factory needs FILE.py:FUNC")
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            model, inputs = getattr(mod, func)()
            name = a.name or "model"
        path, worst = export(model, inputs, a.out_dir, name, a.check)
    except (ValueError, OSError, AttributeError) as e:
        sys.exit(str(e).replace("\n", " "))
    print("export_heads: wrote %s" % path)
    if a.check:
        print("export_heads: attention weights reproduced to relative error %.3g" % worst)
        if not worst <= 1e-9:
            sys.exit("export_heads: the exported Q, K do not reproduce the modules' attention weights")


if __name__ == "__main__":
    main()
