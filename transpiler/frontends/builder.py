"""The language-independent IR builder both front ends lower through.

A front end (frontends/cutile/, and the Triton one) subclasses :class:`Builder` and supplies ``loc(node)`` (a
source position for any syntax node) and ``err(node, what)`` (its diagnostic). The builder appends typed ops to
the current block and implements what cuTile Python and Triton share once, on the IR: constants, i32 indices,
Python numbers meeting tiles (ir/typing.py promotion), broadcasting, casts, and the binary operators with
Python's flooring ``//`` / ``%``. It never sees Rust or Python text.
"""

from __future__ import annotations

from .. import errors
from ..ir import typing as irtyping
from ..ir.ops import Block, Op, OpKind
from ..ir.types import BOOL, I32, DType, DTypeChoice, DTypeLike, DTypeParam, ScalarType, Sym, TileType
from ..ir.values import Loc, Value

_FLOAT_KIND = {"+": OpKind.ADDF, "-": OpKind.SUBF, "*": OpKind.MULF, "/": OpKind.DIVF}
_INT_KIND = {"+": OpKind.ADDI, "-": OpKind.SUBI, "*": OpKind.MULI}


class Builder:
    """Appends typed ops to ``self.block``; subclasses provide :meth:`loc` and :meth:`err`."""

    # a runtime scalar (an i32 extent, an f32 parameter) meeting a tile becomes a 0-d tile (``to_tile``) and then
    # promotes and broadcasts like a tile; a front end whose language allows it turns this on (Triton does)
    scalars_meet_tiles = False

    def __init__(self):
        self.block = Block()

    def loc(self, node) -> Loc:
        raise NotImplementedError

    def err(self, node, what: str) -> errors.CtrsError:
        raise NotImplementedError

    def emit(self, kind: OpKind, operands, result_types, node, hint: str = "", **attrs) -> Op:
        results = [Value(t, hint) for t in result_types]
        op = Op(kind, list(operands), results, attrs, self.loc(node))
        self.block.ops.append(op)
        return op

    def const(self, value, dtype: DType, node, shape=None, hint: str = "c") -> Value:
        t = ScalarType(dtype) if shape is None else TileType(dtype, tuple(shape))
        if isinstance(dtype, DType) and dtype.is_float:
            value = float(value)
        elif isinstance(dtype, DType) and dtype != BOOL:
            value = int(value)
        return self.emit(OpKind.CONSTANT, [], [t], node, hint, value=value).result

    def i32(self, v, node) -> Value:
        """An index / loop bound: an i32 Value (Python ints and const symbols become constants)."""
        if isinstance(v, Value) and v.type == ScalarType(I32):
            return v
        if isinstance(v, int) and not isinstance(v, bool):
            return self.const(v, I32, node)
        if isinstance(v, Sym):
            return self.emit(OpKind.CONST_SYM, [], [ScalarType(I32)], node, v.name.lower(), sym=v.name).result
        raise self.err(node, "an index / loop bound must be an i32 value")

    def dim(self, v, node):
        if isinstance(v, Sym) or (isinstance(v, int) and not isinstance(v, bool)):
            return v
        raise self.err(node, "a shape dimension must be an integer or a ct.Constant")

    # -- arithmetic --------------------------------------------------------------------------------
    def tile_of(self, v, like: Value, node) -> Value:
        """A Python number meeting a tile/scalar value: a constant of its dtype (cuTile's promotion)."""
        if isinstance(v, Value):
            return v
        if isinstance(v, Sym):
            v = self.i32(v, node)
            return v
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            try:
                dt = irtyping.literal_dtype(like.type.dtype, v)
            except irtyping.PromotionError as e:
                raise self.err(node, str(e)) from e
            shape = () if isinstance(like.type, TileType) else None  # a 0-d constant, broadcast by unify
            return self.const(v, dt, node, shape)
        raise self.err(node, f"operand {v!r}")

    def binary(self, op: str, a, b, node, hint: str = ""):
        folded = irtyping.fold(op, a, b)
        if folded is not None:
            return folded
        a0, b0 = a, b
        if isinstance(a, Sym) or isinstance(b, Sym):
            a = self.i32(a, node) if isinstance(a, Sym) else a
            b = self.i32(b, node) if isinstance(b, Sym) else b
        if not isinstance(a, Value) and not isinstance(b, Value):
            raise self.err(node, f"operator {op} on {a!r} and {b!r}")
        a = self.tile_of(a, b if isinstance(b, Value) else a, node)
        b = self.tile_of(b, a, node)
        a, b = self.unify(a, b, node)
        dt = a.type.dtype
        if op in ("//", "%"):
            if not all(isinstance(x, Value) and x.type == ScalarType(I32) for x in (a0, b0)):
                raise self.err(node, f"{op} with a constant operand (the reference folds its sign tests)")
            if a.type != ScalarType(I32):
                raise self.err(node, f"{op} on {a.type}")
            return self.floor_divmod(op, a, b, node, hint)
        if isinstance(dt, DType) and dt.kind in ("int", "uint") and op in _INT_KIND:
            kind = _INT_KIND[op]
        elif op in _FLOAT_KIND and (isinstance(dt, DTypeChoice) or isinstance(dt, DTypeParam)
                                    or (isinstance(dt, DType) and dt.is_float)):
            if isinstance(dt, (DTypeParam, DTypeChoice)) and op == "/":
                raise self.err(node, "true division of a dtype-generic tile")
            kind = _FLOAT_KIND[op]
        else:
            raise self.err(node, f"operator {op} on {a.type}")
        if isinstance(a.type, ScalarType) and kind not in _INT_KIND.values():
            raise self.err(node, "float scalar arithmetic")
        return self.emit(kind, [a, b], [a.type], node, hint or "t").result

    def unify(self, a: Value, b: Value, node) -> tuple[Value, Value]:
        ta, tb = a.type, b.type
        if isinstance(ta, ScalarType) != isinstance(tb, ScalarType):
            if not self.scalars_meet_tiles:
                raise self.err(node, "a runtime scalar meeting a tile")
            a = self.to_tile(a, node) if isinstance(ta, ScalarType) else a
            b = self.to_tile(b, node) if isinstance(tb, ScalarType) else b
            ta, tb = a.type, b.type
        try:
            dt = irtyping.promote(ta.dtype, tb.dtype)
        except irtyping.PromotionError as e:
            raise self.err(node, str(e)) from e
        a, b = self.convert(a, dt, node), self.convert(b, dt, node)
        if isinstance(ta, TileType):
            try:
                shape = irtyping.broadcast_shapes(ta.shape, tb.shape)
            except irtyping.PromotionError as e:
                raise self.err(node, str(e)) from e
            a, b = self.broadcast(a, shape, node), self.broadcast(b, shape, node)
        return a, b

    def broadcast(self, v: Value, shape: tuple, node) -> Value:
        if v.type.shape == shape:
            return v
        if len(v.type.shape) < len(shape):
            new = (1,) * (len(shape) - len(v.type.shape)) + tuple(v.type.shape)
            v = self.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, new)], node, (v.hint or "t") + "_r",
                          shape=new).result
        return self.emit(OpKind.BROADCAST, [v], [TileType(v.type.dtype, shape)], node, (v.hint or "t") + "_b",
                         shape=shape).result

    def to_tile(self, v: Value, node) -> Value:
        """A runtime scalar as a 0-d tile of its dtype."""
        return self.emit(OpKind.TO_TILE, [v], [TileType(v.type.dtype, ())], node, (v.hint or "s") + "_tile").result

    def convert(self, v: Value, dt: DTypeLike, node, hint: str = "") -> Value:
        if v.type.dtype == dt:
            return v
        t = TileType(dt, v.type.shape) if isinstance(v.type, TileType) else ScalarType(dt)
        return self.emit(OpKind.CONVERT, [v], [t], node, hint or (v.hint or "t") + "_c").result

    def floor_divmod(self, op: str, a: Value, b: Value, node, hint: str) -> Value:
        """Python's flooring ``//`` / ``%`` on i32, as cuTile Python lowers them (divi rounding to -inf;
        remi plus the sign fix-up)."""
        if op == "//":
            return self.emit(OpKind.DIVI, [a, b], [a.type], node, hint, rounding="negative_inf").result
        b_t = ScalarType(BOOL)
        rem = self.emit(OpKind.REMI, [a, b], [a.type], node, (hint or "m") + "_rem").result
        zero = self.const(0, I32, node)
        rneg = self.emit(OpKind.CMPI, [rem, zero], [b_t], node, (hint or "m") + "_rneg", predicate="lt").result
        bneg = self.emit(OpKind.CMPI, [b, zero], [b_t], node, (hint or "m") + "_bneg", predicate="lt").result
        sgn = self.emit(OpKind.XORI, [rneg, bneg], [b_t], node, (hint or "m") + "_sgn").result
        nz = self.emit(OpKind.CMPI, [rem, zero], [b_t], node, (hint or "m") + "_nz", predicate="ne").result
        fix = self.emit(OpKind.ANDI, [sgn, nz], [b_t], node, (hint or "m") + "_fix").result
        rb = self.emit(OpKind.ADDI, [rem, b], [a.type], node, (hint or "m") + "_rb").result
        return self.emit(OpKind.SELECT, [fix, rb, rem], [a.type], node, hint).result

