"""Activation functions of the typed Triton front end: ``tl.sigmoid(x)`` is ``1 / (1 + exp(-x))`` on a float tile
(rules/triton.toml's spelling for the text-model front end, op for op)."""

from __future__ import annotations

from ...ir.ops import OpKind
from .registry import Call, lowers
from .tiles import _is_float, tile


@lowers("tl.sigmoid", "tl.math.sigmoid")
def sigmoid(lw, c: Call):
    if len(c.pos) != 1 or c.kw:
        raise lw.err(c.node, f"{c.fn}(x)")
    x = tile(lw, c.pos[0], f"{c.fn} of a tile")
    if not _is_float(x):
        raise lw.err(c.node, f"{c.fn} of a non-float tile")
    neg = lw.keep_rank(lw.emit(OpKind.NEGF, [x], [x.type], c.node, "neg").result, x)
    e = lw.keep_rank(lw.emit(OpKind.MATH, [neg], [x.type], c.node, "exp_t", fn="exp").result, x)
    return lw.binop("/", 1.0, lw.binop("+", 1.0, e, c.node), c.node, c.hint)
