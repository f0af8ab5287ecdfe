# SPDX-License-Identifier: GPL-3.0-or-later
"""attnrank.torch -- certified brackets of every attention head of a PyTorch model, in process.

`attention_brackets(model, inputs, eps)` hooks the attention modules
(torch.nn.MultiheadAttention, and modules with separate q/k projections --
q_proj/k_proj or query/key -- and a head count; find_attention, layer_meta and
self_attention_qk here, which scripts/export_heads.py uses too),
runs the model in float64 on each input, and brackets each head's attention
rowsoftmax(scale Q K^T) with attnrank.bracket: one result per (layer, head,
input), with no file written.  The Q, K of a head are exactly the arrays
export_heads.py writes, so each bracket equals `attnrank bracket --queries
q/L<l>_H<h>_I<i>.npy --keys k/... --beta scale` on its export.  Needs torch.

The matrix certified is the model's own attention: each module's forward is
wrapped for the call, so its positional and keyword arguments are read through
its signature.  nn.MultiheadAttention's attn_mask (bool: True masks an entry;
float: added to the logits; (L, S) or per head), key_padding_mask and
is_causal become the head's logit bias (masked entries exactly 0,
attnrank.bracket(logit_bias=...)), and a key different from the query is
cross-attention.  What the capture cannot see is refused with a ValueError
naming the module and the argument: an argument it does not model (for the
q_proj/k_proj modules: anything but the input, unless None or its default --
masks, encoder states, position embeddings), rotary embeddings applied after
the projections, an internal mask buffer or causal flag.

find_attention, layer_meta and self_attention_qk need only torch: export_heads.py
loads this file on its own when the package cannot load libattnrank.
"""
import dataclasses
import inspect
import math
from typing import Any, List, Optional, Sequence

import numpy as np
import torch

if __package__:   # attnrank.torch (not this file loaded alone by scripts/export_heads.py)
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
    """[(name, module, kind)] of the attention modules of model, in the order of model.named_modules():
    kind "mha" for torch.nn.MultiheadAttention, "proj" for a module with nn.Linear attributes q_proj and
    k_proj (or query and key) and a positive integer head count (num_heads, n_heads or num_attention_heads)."""
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


def _sequence(t, batch_first, caller="attention_brackets"):
    """positions x embed of a (L, E), (1, L, E) or (L, 1, E) tensor."""
    if t.dim() == 2:
        return t
    if t.dim() == 3:
        b = t.shape[0] if batch_first else t.shape[1]
        if b != 1:
            raise ValueError("%s: one sequence per input (batch size 1), got %d" % (caller, b))
        return t[0] if batch_first else t[:, 0]
    raise ValueError("%s: attention input of %d dimensions" % (caller, t.dim()))


def self_attention_qk(mod, kind, x, caller="attention_brackets"):
    """(Q, K): the query and key projections (positions x width tensors, biases included) of the attention
    module mod of kind `kind` (as find_attention returns it) for self-attention on its input x: positions x
    width, or one sequence of batch size 1 (batch first for "proj" modules, as mod.batch_first says for
    nn.MultiheadAttention).  Head h is columns h * head_dim to (h + 1) * head_dim (layer_meta).  A ValueError
    (its message prefixed with caller) for a batch of several sequences or an input of another shape."""
    if kind == "mha":
        return _mha_qk(mod, _sequence(x, mod.batch_first, caller))
    qp, kp = _projections(mod)
    xs = _sequence(x, True, caller)
    return qp(xs), kp(xs)


def layer_meta(mod, kind, caller="attention_brackets"):
    """(heads, head_dim, scale) of the attention module mod of kind `kind` (as find_attention returns it):
    its head count, its width divided by it, and its logit scale (the module's own `scaling` attribute for
    a "proj" module that has one, else 1/sqrt(head_dim)); each head's attention is rowsoftmax(scale Q K^T).
    A ValueError (its message prefixed with caller) when the width is not a multiple of the head count."""
    heads = mod.num_heads if kind == "mha" else _heads_of(mod)
    width = mod.embed_dim if kind == "mha" else _projections(mod)[0].out_features
    if width % heads:
        raise ValueError("%s: width %d is not a multiple of %d heads" % (caller, width, heads))
    dh = width // heads
    scale = getattr(mod, "scaling", None) if kind == "proj" else None
    return heads, dh, float(scale) if isinstance(scale, (int, float)) else 1.0 / math.sqrt(dh)


# The arguments of nn.MultiheadAttention.forward the capture models (torch 1.13 and 2.x).
_MHA_ARGS = {"query", "key", "value", "key_padding_mask", "need_weights", "attn_mask", "average_attn_weights",
             "is_causal"}
# Attributes that mean a module applies rotary position embeddings after its projections.
_ROTARY_ATTRS = ("rotary_emb", "rotary", "rope", "rotary_embedding", "rotary_embeddings", "rotary_pos_emb")


def _float_mask(m, name, what):
    """A mask tensor as float64 numpy: bool True -> -inf (masked out, as nn.MultiheadAttention reads it),
    a float mask as it is (added to the logits)."""
    if m.dtype == torch.bool:
        return np.where(m.detach().cpu().numpy(), -np.inf, 0.0)
    if not m.is_floating_point():
        raise ValueError("attention_brackets: %s: %s has dtype %s (bool or floating point masks only)"
                         % (name, what, m.dtype))
    return m.detach().double().cpu().numpy()


def _mha_bias(name, mod, named, L, S):
    """The logit bias (heads x L x S float64, or None) of nn.MultiheadAttention's masks for batch size 1:
    attn_mask (L x S, or heads x L x S), key_padding_mask (1 x S), is_causal (without attn_mask: the
    causal mask).  Bool True masks an entry (-inf), a float mask is added."""
    h = mod.num_heads
    bias = np.zeros((h, L, S))
    used = False
    am = named.get("attn_mask")
    if am is not None:
        a = _float_mask(am, name, "attn_mask")
        if a.shape == (L, S):
            bias += a[None, :, :]
        elif a.shape == (h, L, S):
            bias += a
        else:
            raise ValueError("attention_brackets: %s: attn_mask of shape %s (expected (%d, %d) or (%d, %d, %d) for "
                             "one sequence)" % (name, tuple(a.shape), L, S, h, L, S))
        used = True
    elif named.get("is_causal"):
        if L != S:
            raise ValueError("attention_brackets: %s: is_causal with %d queries and %d keys" % (name, L, S))
        bias += np.triu(np.full((L, S), -np.inf), 1)[None, :, :]
        used = True
    kpm = named.get("key_padding_mask")
    if kpm is not None:
        kp = _float_mask(kpm, name, "key_padding_mask")
        if kp.shape not in ((1, S), (S,)):
            raise ValueError("attention_brackets: %s: key_padding_mask of shape %s (expected (1, %d))"
                             % (name, tuple(kp.shape), S))
        bias += kp.reshape(1, 1, S)
        used = True
    return bias if used else None


def _refuse_hidden(name, mod):
    """ValueError for what a projection module may do after its q/k projections that the capture cannot see:
    rotary embeddings, an internal mask or causal flag."""
    for a in _ROTARY_ATTRS:
        if getattr(mod, a, None) is not None:
            raise ValueError("attention_brackets: %s applies rotary position embeddings after its projections "
                             "(attribute %r): the captured q_proj/k_proj outputs are not the logits' factors"
                             % (name, a))
    if getattr(mod, "is_causal", False) is True or getattr(mod, "causal", False) is True:
        raise ValueError("attention_brackets: %s masks its attention internally (causal): the capture cannot "
                         "see the mask; export the masked attention (Q, K and the bias) explicitly" % name)
    for bname, _ in mod.named_buffers(recurse=False):
        if "mask" in bname.lower() or "causal" in bname.lower():
            raise ValueError("attention_brackets: %s has a mask buffer %r the capture cannot model" % (name, bname))


class _Capture:
    """Wraps each attention module's forward for one model call and records, from its arguments (positional
    and keyword, through the forward's own signature), the head's Q, K and logit bias."""

    def __init__(self, found):
        self.found = found
        self.qk = [None] * len(found)
        self.saved = []
        for i, (name, mod, kind) in enumerate(found):
            orig = mod.forward
            had = "forward" in mod.__dict__
            sig = inspect.signature(orig)

            def wrapper(*args, _i=i, _orig=orig, _sig=sig, **kwargs):
                self._record(_i, _sig, args, kwargs)
                return _orig(*args, **kwargs)
            mod.forward = wrapper
            self.saved.append((mod, orig, had))

    def _record(self, i, sig, args, kwargs):
        name, mod, kind = self.found[i]
        try:
            named = sig.bind(*args, **kwargs).arguments
        except TypeError as e:
            raise ValueError("attention_brackets: %s: %s" % (name, e)) from None
        if kind == "mha":
            for a in named:
                if a not in _MHA_ARGS:
                    raise ValueError("attention_brackets: %s: argument %r is not modelled" % (name, a))
            x, y = named["query"], named.get("key", named["query"])
            xs, ys = _sequence(x, mod.batch_first), _sequence(y, mod.batch_first)
            q, _ = _mha_qk(mod, xs)
            _, k = _mha_qk(mod, ys)
            bias = _mha_bias(name, mod, named, xs.shape[0], ys.shape[0])
        else:
            _refuse_hidden(name, mod)
            params = list(sig.parameters)
            if not params or params[0] not in named:
                raise ValueError("attention_brackets: %s was called without its input" % name)
            for a, v in named.items():
                if a == params[0]:
                    continue
                dflt = sig.parameters[a].default
                if v is None or v is False or (dflt is not inspect.Parameter.empty and v is dflt):
                    continue
                raise ValueError("attention_brackets: %s: argument %r is not modelled (a mask, encoder states or "
                                 "position embeddings change the attention the capture would certify)" % (name, a))
            q, k = self_attention_qk(mod, kind, named[params[0]])
            bias = None
        self.qk[i] = (q.detach().double().cpu().numpy(), k.detach().double().cpu().numpy(), bias)

    def close(self):
        for mod, orig, had in self.saved:
            if had:
                mod.forward = orig
            else:
                del mod.forward


@dataclasses.dataclass(frozen=True)
class HeadBracket:
    """The bracket of head `head` of attention layer `layer` (module `module`) on input `input`."""
    layer: int
    head: int
    input: int
    module: str
    scale: float
    positions: int
    bracket: "Bracket"


def _to_double(x):
    return x.double() if torch.is_tensor(x) and x.is_floating_point() else x


def capture_heads(model, inputs: Sequence[Any]):
    """[(input, layer, name, heads, head_dim, scale, Q, K, bias)] of every attention module on every input
    (the model is converted to float64 in place, as export_heads.py does); bias: None, or the logit bias of
    the module's masks per head (heads x positions x keys: -inf masked, a float mask added)."""
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
            out.append((i, l, found[l][0], heads, dh, scale, qk[0], qk[1], qk[2]))
    return out


def attention_brackets(model, inputs: Sequence[Any], eps: float = 0.1, *, layers: Optional[Sequence[int]] = None,
                       heads: Optional[Sequence[int]] = None, **options) -> List[HeadBracket]:
    """Certified eps-rank brackets of every head's attention matrix, one per (layer, head, input), in
    the order input, layer, head.  inputs: argument tuples (or single tensors) for model(*args), one
    sequence each (batch size 1); layers/heads select a subset; options go to attnrank.bracket."""
    res = []
    for i, l, name, nh, dh, scale, q, k, bias in capture_heads(model, inputs):
        if layers is not None and l not in layers:
            continue
        for h in range(nh):
            if heads is not None and h not in heads:
                continue
            Q = np.ascontiguousarray(q[:, h * dh:(h + 1) * dh])
            K = np.ascontiguousarray(k[:, h * dh:(h + 1) * dh])
            bh = None if bias is None else np.ascontiguousarray(bias[h])
            b = bracket(Q, K, scale, eps, source="layer %d head %d input %d" % (l, h, i), logit_bias=bh, **options)
            res.append(HeadBracket(layer=l, head=h, input=i, module=name, scale=scale, positions=Q.shape[0],
                                   bracket=b))
    return res
