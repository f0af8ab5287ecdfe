"""attnrank.torch -- certified brackets of every attention head of a PyTorch model, in process.

`attention_brackets(model, inputs, eps)` hooks the attention modules the way
scripts/export_heads.py does (torch.nn.MultiheadAttention, and modules with
separate q/k projections -- q_proj/k_proj or query/key -- and a head count),
runs the model in float64 on each input, and brackets each head's attention
rowsoftmax(scale Q K^T) with attnrank.bracket: one result per (layer, head,
input), with no file written.  The Q, K of a head are exactly the arrays
export_heads.py writes, so each bracket equals `attnrank bracket --queries
q/L<l>_H<h>_I<i>.npy --keys k/... --beta scale` on its export.  Needs torch.
"""
import dataclasses
import math
from typing import Any, List, Optional, Sequence

import numpy as np
import torch

from . import Bracket, bracket

HEAD_ATTRS = ("num_heads", "n_heads", "num_attention_heads")


def _heads_of(mod):
    for a in HEAD_ATTRS:
        v = getattr(mod, a, None)
        if isinstance(v, int) and v > 0:
            return v
    return None


def _projections(mod):
    for qn, kn in (("q_proj", "k_proj"), ("query", "key")):
        q, k = getattr(mod, qn, None), getattr(mod, kn, None)
        if isinstance(q, torch.nn.Linear) and isinstance(k, torch.nn.Linear):
            return q, k
    return None


def find_attention(model):
    """[(name, module, kind)] in the order of model.named_modules() (as export_heads.py)."""
    found = []
    for name, mod in model.named_modules():
        if isinstance(mod, torch.nn.MultiheadAttention):
            found.append((name, mod, "mha"))
        elif _projections(mod) is not None and _heads_of(mod) is not None:
            found.append((name, mod, "proj"))
    return found


def _mha_qk(mod, x):
    e = mod.embed_dim
    if mod._qkv_same_embed_dim:
        wq, wk = mod.in_proj_weight[:e], mod.in_proj_weight[e:2 * e]
    else:
        wq, wk = mod.q_proj_weight, mod.k_proj_weight
    bq = mod.in_proj_bias[:e] if mod.in_proj_bias is not None else None
    bk = mod.in_proj_bias[e:2 * e] if mod.in_proj_bias is not None else None
    return torch.nn.functional.linear(x, wq, bq), torch.nn.functional.linear(x, wk, bk)


def _sequence(t, batch_first):
    if t.dim() == 2:
        return t
    if t.dim() == 3:
        b = t.shape[0] if batch_first else t.shape[1]
        if b != 1:
            raise ValueError("attention_brackets: one sequence per input (batch size 1), got %d" % b)
        return t[0] if batch_first else t[:, 0]
    raise ValueError("attention_brackets: attention input of %d dimensions" % t.dim())


def layer_meta(mod, kind):
    """(heads, head_dim, scale) of an attention module (as export_heads.py)."""
    heads = mod.num_heads if kind == "mha" else _heads_of(mod)
    width = mod.embed_dim if kind == "mha" else _projections(mod)[0].out_features
    if width % heads:
        raise ValueError("attention_brackets: width %d is not a multiple of %d heads" % (width, heads))
    dh = width // heads
    scale = getattr(mod, "scaling", None) if kind == "proj" else None
    return heads, dh, float(scale) if isinstance(scale, (int, float)) else 1.0 / math.sqrt(dh)


class _Capture:
    def __init__(self, found):
        self.found = found
        self.qk = [None] * len(found)
        self.handles = [m.register_forward_pre_hook(self._hook(i)) for i, (_, m, _) in enumerate(found)]

    def _hook(self, i):
        def hook(mod, args):
            if not args:
                raise ValueError("attention_brackets: %s was called without positional inputs" % self.found[i][0])
            if self.found[i][2] == "mha":
                if len(args) >= 2 and args[1] is not args[0] and not torch.equal(args[0], args[1]):
                    raise ValueError("attention_brackets: %s is cross-attention (only self-attention is handled)"
                                     % self.found[i][0])
                q, k = _mha_qk(mod, _sequence(args[0], mod.batch_first))
            else:
                x = _sequence(args[0], True)
                qp, kp = _projections(mod)
                q, k = qp(x), kp(x)
            self.qk[i] = (q.detach().double().cpu().numpy(), k.detach().double().cpu().numpy())
        return hook

    def close(self):
        for h in self.handles:
            h.remove()


@dataclasses.dataclass(frozen=True)
class HeadBracket:
    """The bracket of head `head` of attention layer `layer` (module `module`) on input `input`."""
    layer: int
    head: int
    input: int
    module: str
    scale: float
    positions: int
    bracket: Bracket


def _to_double(x):
    return x.double() if torch.is_tensor(x) and x.is_floating_point() else x


def capture_heads(model, inputs: Sequence[Any]):
    """[(input, layer, name, heads, head_dim, scale, Q, K)] of every attention module on every input
    (the model is converted to float64 in place, as export_heads.py does)."""
    model = model.double()
    found = find_attention(model)
    if not found:
        raise ValueError("attention_brackets: no attention module (nn.MultiheadAttention or q/k projections) found")
    meta = [layer_meta(m, kind) for _, m, kind in found]
    model.eval()
    out = []
    for i, inp in enumerate(inputs):
        args = tuple(_to_double(x) for x in (inp if isinstance(inp, tuple) else (inp,)))
        cap = _Capture(found)
        try:
            # grad mode on: keeps nn.TransformerEncoder off its fused inference path, which bypasses the hooks
            with torch.enable_grad():
                model(*args)
        finally:
            cap.close()
        for l, qk in enumerate(cap.qk):
            if qk is None:
                raise ValueError("attention_brackets: input %d did not reach %s" % (i, found[l][0]))
            heads, dh, scale = meta[l]
            out.append((i, l, found[l][0], heads, dh, scale, qk[0], qk[1]))
    return out


def attention_brackets(model, inputs: Sequence[Any], eps: float = 0.1, *, layers: Optional[Sequence[int]] = None,
                       heads: Optional[Sequence[int]] = None, **options) -> List[HeadBracket]:
    """Certified eps-rank brackets of every head's attention matrix, one per (layer, head, input), in
    the order input, layer, head.  inputs: argument tuples (or single tensors) for model(*args), one
    sequence each (batch size 1); layers/heads select a subset; options go to attnrank.bracket."""
    res = []
    for i, l, name, nh, dh, scale, q, k in capture_heads(model, inputs):
        if layers is not None and l not in layers:
            continue
        for h in range(nh):
            if heads is not None and h not in heads:
                continue
            Q = np.ascontiguousarray(q[:, h * dh:(h + 1) * dh])
            K = np.ascontiguousarray(k[:, h * dh:(h + 1) * dh])
            b = bracket(Q, K, scale, eps, source="layer %d head %d input %d" % (l, h, i), **options)
            res.append(HeadBracket(layer=l, head=h, input=i, module=name, scale=scale, positions=Q.shape[0],
                                   bracket=b))
    return res
