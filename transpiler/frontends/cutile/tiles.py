"""Tile family: constants (``ct.full/zeros/ones``), casts, shapes, ``ct.mma``, reductions, elementwise math
(``ct.exp`` ... from rules/ir.toml ``[math]``) and the function forms of the arithmetic operators."""

from __future__ import annotations

from ...ir import typing as irtyping
from ...ir.ops import OpKind
from ...ir.types import DType, TileType
from ...ir.values import Value
from ...ir_rules import ir_rules
from .registry import Call, lowers
from .values import DT

_FN_BINOPS = {"ct.add": "+", "ct.sub": "-", "ct.mul": "*", "ct.truediv": "/"}
_REDUCE = {"ct.sum": OpKind.REDUCE_SUM, "ct.max": OpKind.REDUCE_MAX, "ct.min": OpKind.REDUCE_MIN}


def tile(lw, node, what: str) -> Value:
    x = lw.expr(node)
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(node, what)
    return x


@lowers("ct.full", "ct.zeros", "ct.ones")
def full(lw, c: Call):
    pos, kw, fn = c.pos, c.kw, c.fn
    shape_node = pos[0] if pos else kw.get("shape")
    if shape_node is None:
        raise lw.err(c.node, f"{fn} without a shape")
    shape = lw.shape(shape_node)
    fill = {"ct.zeros": 0, "ct.ones": 1}.get(fn)
    if fill is None:
        vnode = pos[1] if len(pos) > 1 else kw.get("fill_value")
        if vnode is None:
            raise lw.err(c.node, "ct.full without a fill value")
        fill = lw.expr(vnode)
    dnode = kw.get("dtype") or (pos[2] if len(pos) > 2 else None)
    dt = lw.expr(dnode) if dnode is not None else None
    if not isinstance(fill, (int, float)) or isinstance(fill, bool):
        raise lw.err(c.node, f"{fn} fill value must be a number")
    if dt is None:
        dt = DT(irtyping.default_dtype(fill))
    if not isinstance(dt, DT) or not isinstance(dt.dtype, DType):
        raise lw.err(c.node, f"{fn} of a generic dtype")
    return lw.const(fill, dt.dtype, c.node, shape, c.hint or "c")


@lowers("ct.astype")
def astype(lw, c: Call):
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "ct.astype(tile, dtype)")
    x, dt = lw.expr(c.pos[0]), lw.expr(c.pos[1])
    if not isinstance(x, Value) or not isinstance(x.type, TileType) or not isinstance(dt, DT):
        raise lw.err(c.node, "ct.astype(tile, dtype)")
    return lw.convert(x, dt.dtype, c.node, c.hint)


@lowers("ct.reshape")
def reshape(lw, c: Call):
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "ct.reshape(tile, shape)")
    x = tile(lw, c.pos[0], "ct.reshape(tile, shape)")
    shape = lw.shape(c.pos[1])
    return lw.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, shape)], c.node, c.hint, shape=shape).result


@lowers("ct.mma")
def mma(lw, c: Call):
    if len(c.pos) != 3 or c.kw:
        raise lw.err(c.node, "ct.mma(tile, tile, acc)")
    a, b, acc = (tile(lw, p, "ct.mma(tile, tile, acc)") for p in c.pos)
    return lw.emit(OpKind.MMA, [a, b, acc], [acc.type], c.node, c.hint).result


@lowers(*_FN_BINOPS)
def binop_fn(lw, c: Call):
    """``ct.add(a, b)`` without math modes is ``a + b``."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, f"{c.fn} with math-mode arguments")
    return lw.binary(_FN_BINOPS[c.fn], lw.expr(c.pos[0]), lw.expr(c.pos[1]), c.node, c.hint)


@lowers(*_REDUCE)
def reduce(lw, c: Call):
    """``ct.sum/max/min(tile, axis=k[, keepdims=True])`` on a float tile: a reduce, then a reshape that
    puts the 1 back for keepdims."""
    pos, kw, node, hint = c.pos, c.kw, c.node, c.hint
    if len(pos) != 1 or not set(kw) <= {"axis", "keepdims"} or "axis" not in kw:
        raise lw.err(node, "reductions other than (tile, axis=k[, keepdims=])")
    x = lw.expr(pos[0])
    axis, keep = lw.expr(kw["axis"]), lw.expr(kw["keepdims"]) if "keepdims" in kw else False
    if not isinstance(x, Value) or not isinstance(x.type, TileType) or not (
            isinstance(x.type.dtype, DType) and x.type.dtype.is_float):
        raise lw.err(node, "a reduction of a non-float tile")
    if not isinstance(axis, int) or isinstance(axis, bool) or not 0 <= axis < len(x.type.shape) \
            or not isinstance(keep, bool):
        raise lw.err(node, "reduction axis / keepdims must be constants")
    shape = tuple(d for i, d in enumerate(x.type.shape) if i != axis)
    red = lw.emit(_REDUCE[c.fn], [x], [TileType(x.type.dtype, shape)], node, (hint or "t") + ("_red" if keep else ""),
                  axis=axis).result
    if not keep:
        return red
    full_shape = tuple(1 if i == axis else d for i, d in enumerate(x.type.shape))
    return lw.emit(OpKind.RESHAPE, [red], [TileType(x.type.dtype, full_shape)], node, hint, shape=full_shape).result


def math(lw, c: Call):
    """A unary float function of rules/ir.toml ``[math]`` (registered for every entry there)."""
    if len(c.pos) != 1 or c.kw:
        raise lw.err(c.node, f"{c.fn}(tile)")
    x = lw.expr(c.pos[0])
    if not isinstance(x, Value) or not isinstance(x.type, TileType) or not (
            isinstance(x.type.dtype, DType) and x.type.dtype.is_float):
        raise lw.err(c.node, f"{c.fn} of a non-float tile")
    name = c.fn.removeprefix("ct.")
    return lw.emit(OpKind.MATH, [x], [x.type], c.node, c.hint or name, fn=name).result


lowers(*ir_rules()["math"])(math)
