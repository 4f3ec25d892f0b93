"""The language-independent IR builder both front ends lower through.

A front end (frontends/cutile/, and the Triton one) subclasses :class:`Builder` and supplies ``loc(node)`` (a
source position for any syntax node) and ``err(node, what)`` (its diagnostic). The builder appends typed ops to
the current block and implements what cuTile Python and Triton share once, on the IR: constants, i32 indices,
Python numbers meeting tiles (ir/typing.py promotion), broadcasting, casts, and the binary operators with
Python's flooring ``//`` / ``%``. It never sees Rust or Python text.
"""

from __future__ import annotations

import math

import libcst as cst

from .. import errors
from ..ir import typing as irtyping
from ..ir.floatexpr import FloatExpr
from ..ir.ops import Block, Generic, Op, OpKind
from ..ir.types import BOOL, F32, I32, I64, DType, DTypeChoice, DTypeLike, DTypeParam, ScalarType, Sym, TileType
from ..ir.values import Loc, Value
from . import derived

_FLOAT_KIND = {"+": OpKind.ADDF, "-": OpKind.SUBF, "*": OpKind.MULF, "/": OpKind.DIVF, "**": OpKind.POWF}
_INT_KIND = {"+": OpKind.ADDI, "-": OpKind.SUBI, "*": OpKind.MULI, "&": OpKind.ANDI, "|": OpKind.ORI,
             "^": OpKind.XORI, "<<": OpKind.SHLI, ">>": OpKind.SHRI}
_BOOL_KIND = {"&": OpKind.ANDI, "|": OpKind.ORI, "^": OpKind.XORI}
# comparison operators -> the predicate attribute of cmpi / cmpf
PREDICATES = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}


_SYMBOL = {pred: sym for sym, pred in PREDICATES.items()}  # lt -> <
_NAME_OPS = {"+": "PLUS", "-": "MINUS", "*": "X", "/": "DIV", "==": "EQ", "!=": "NE", "<": "LT", "<=": "LE",
             ">": "GT", ">=": "GE"}


def _float_generic_name(e: FloatExpr) -> str:
    """A Rust-style name spelling a compile-time float expression (``RATE_GE_1``, ``C1_DIV_1_MINUS_RATE_F16``)."""
    def spell(x: FloatExpr) -> str:
        if x.op in ("sym", "isym"):
            return x.args[0]
        if x.op == "num":
            v = x.args[0]
            text = str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else repr(float(v))
            return text.replace("-", "NEG").replace(".", "P").replace("+", "").upper()
        if x.op == "neg":
            return "NEG_" + spell(x.args[0])
        if x.op == "round":
            return f"{spell(x.args[1])}_{x.args[0].upper()}"
        return f"{spell(x.args[0])}_{_NAME_OPS[x.op]}_{spell(x.args[1])}"

    name = spell(e)
    if not name[0].isalpha():
        name = "C" + name
    return name if len(name) <= 40 else f"FLOAT_CONST_{name[-24:].lstrip('_')}"


class Builder:
    """Appends typed ops to ``self.block``; subclasses provide :meth:`loc` and :meth:`err`."""

    # a runtime scalar (an i32 extent, an f32 parameter) meeting a tile becomes a 0-d tile (``to_tile``) and then
    # promotes and broadcasts like a tile; a front end whose language allows it turns this on (Triton does)
    scalars_meet_tiles = False

    def __init__(self):
        self.block = Block()
        # ids of Values that are loosely typed like a Python number (ir/typing.py): a cuTile ct.Constant[float]
        # parameter, a Python float of the launch the port carries as a value (:meth:`loosely_typed`)
        self.loose: set[int] = set()
        # loosely typed values computed from ct.Constant[float] parameters and literals only -> their expression
        # (ir/floatexpr.py): Python arithmetic at compile time in the reference, a host-computed const generic here
        self.float_exprs: dict[int, FloatExpr] = {}

    def loc(self, node) -> Loc:
        raise NotImplementedError

    def display(self, node):
        """A number literal, or a tuple / list display of expressions (``self.expr`` of each element)."""
        if isinstance(node, cst.Integer):
            return int(node.value, 0)
        if isinstance(node, cst.Float):
            return float(node.value)
        return tuple(self.expr(e.value) for e in node.elements)

    def bind(self, name: str, v) -> None:
        """``name = v`` in the front end's environment (``self.env``); an unnamed value takes the name as hint."""
        if isinstance(v, Value) and not v.hint:
            v.hint = name
        self.env[name] = v

    def err(self, node, what: str) -> errors.CtrsError:
        raise NotImplementedError

    def emit(self, kind: OpKind, operands, result_types, node, hint: str = "", **attrs) -> Op:
        results = [Value(t, hint) for t in result_types]
        op = Op(kind, list(operands), results, attrs, self.loc(node))
        self.block.ops.append(op)
        return op

    def const(self, value, dtype: DType, node, shape=None, hint: str = "c") -> Value:
        t = ScalarType(dtype) if shape is None else TileType(dtype, tuple(shape))
        if isinstance(dtype, DType) and dtype.is_float and isinstance(value, float) and math.isnan(value):
            # NaN has no Rust literal the crate's constant() takes: the bits of f32's quiet NaN (0x7FC00000, the
            # one LLVM / Triton emit for float("nan")) as an i32 constant, bitcast, converted to a narrower float
            bits = self.const(0x7FC00000, I32, node, shape, hint)
            ft = ScalarType(F32) if shape is None else TileType(F32, tuple(shape))
            nan = self.emit(OpKind.BITCAST, [bits], [ft], node, hint).result
            return nan if dtype == F32 else self.emit(OpKind.CONVERT, [nan], [t], node, hint).result
        if isinstance(dtype, DType) and dtype.is_float:
            value = float(value)
        elif isinstance(dtype, DType) and dtype != BOOL:
            value = int(value)
        return self.emit(OpKind.CONSTANT, [], [t], node, hint, value=value).result

    def scalar_0d(self, v, node):
        """A 0-d tile (``ct.minimum(hi, N)``, ``ct.cdiv`` of one, a scalar ``ct.gather`` / ``tl.load``) as the scalar
        it is (Tile IR has no other scalar: tile_to_scalar is a cast, no op); anything else unchanged."""
        if isinstance(v, Value) and isinstance(v.type, TileType) and v.type.shape == ():
            return self.emit(OpKind.RESHAPE, [v], [ScalarType(v.type.dtype)], node, (v.hint or "t") + "_s",
                             shape=()).result
        return v

    def i32(self, v, node) -> Value:
        """An index / loop bound: an i32 Value (Python ints and const symbols become constants; a 0-d i32 tile, a
        loop bound ``ct.cdiv(ct.minimum(..), T)`` or a loaded ``n_end``, is the scalar it is)."""
        if isinstance(v, Value) and v.type == TileType(I32, ()):
            v = self.scalar_0d(v, node)
        if isinstance(v, Value) and v.type == ScalarType(I32):
            return v
        if isinstance(v, int) and not isinstance(v, bool):
            return self.const(v, I32, node)
        if isinstance(v, Sym):
            return self.emit(OpKind.CONST_SYM, [], [ScalarType(I32)], node, v.name.lower(), sym=v.name).result
        e = self.err(node, "an index / loop bound must be an i32 value")
        if isinstance(v, Value):  # a scalar read from an array of a dtype variable (an index table): per dtype
            e.__cause__ = irtyping.depends_on([v.type], "an index / loop bound of a dtype variable", I32)
        raise e

    def _wide_int(self, v, node):
        """``v`` as an i64 scalar when it is an i64 scalar or 0-d tile (a length read from an int64 index array,
        arithmetic of one), else None."""
        if isinstance(v, Value) and v.type in (TileType(I64, ()), ScalarType(I64)):
            return self.scalar_0d(v, node)
        return None

    def tile_index(self, v, node) -> Value:
        """A tile index (``ct.load`` / ``ct.store`` ``index=``): an i32 value (:meth:`i32`), or an i64 one narrowed
        to i32 as cuTile Python narrows it for an array whose extents fit i32 (``trunci`` at the view access,
        _ir2bytecode.py index_tuple): a convert marked ``no_wrap`` (cutile 0.5.0 writes trunci only with an
        overflow flag: ``no_signed_wrap``; every index of a tile inside such an array fits i32; docs/ir.md "Integer
        widths")."""
        wide = self._wide_int(v, node)
        if wide is None:
            return self.i32(v, node)
        return self.emit(OpKind.CONVERT, [wide], [ScalarType(I32)], node, (wide.hint or "i") + "_i32",
                         no_wrap=True).result

    def loop_bounds(self, bounds, node) -> list[Value]:
        """``range(start, stop, step)``'s bounds as cuTile Python types them (core_ops.py range_): the bounds, the
        step and the induction variable share the promotion of i32 with every bound's dtype: i32, or i64 when a
        bound is an i64 value (Python ints and ct.Constants are then i64 constants / widened, an i32 value is
        widened with exti); a bound of any other type is :meth:`i32`'s diagnostic."""
        if not any(self._wide_int(b, node) is not None for b in bounds if isinstance(b, Value)):
            return [self.i32(b, node) for b in bounds]
        out = []
        for b in bounds:
            wide = self._wide_int(b, node)
            if wide is not None:
                out.append(wide)
            elif isinstance(b, int) and not isinstance(b, bool):
                out.append(self.const(b, I64, node))
            else:
                out.append(self.convert(self.i32(b, node), I64, node))
        return out

    def loop_type_change(self, node, name: str, before: Value, after) -> errors.CtrsError:
        """``name`` changes type in a loop body: refused, or lowered per dtype when a dtype variable is involved
        (``acc = ct.load(A, ..)`` then ``acc -= f32_tile``: f32 in the loop exactly when A is f32)."""
        e = self.err(node, f"'{name}' changes type in the loop body")
        if isinstance(after, Value):
            e.__cause__ = irtyping.depends_on([before.type, after.type], f"'{name}' changes type in the loop body")
        return e

    def dim(self, v, node):
        """A shape dimension: a literal, a const generic, or an integer expression of const generics (``N * N``,
        ``BLOCK // 2``: a derived const generic the host computes, frontends/derived.py)."""
        if isinstance(v, Sym) or (isinstance(v, int) and not isinstance(v, bool)):
            return v
        e = self.const_expr_of(v) if isinstance(v, Value) else None
        if derived.is_dim_expr(e):
            return derived.derived_generic(self, e, node)
        raise self.err(node, "a shape dimension must be an integer or a ct.Constant")

    def const_expr_of(self, v: Value):
        """The :class:`~ctrs.ir.constexpr.ConstExpr` a scalar computed from const generics alone stands for (the
        front end records them as it lowers arithmetic), or None."""
        return None

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

    def operands(self, a, b, node) -> tuple[Value, Value]:
        """Two operands of a binary op as Values of one dtype and shape: const symbols are i32, Python numbers
        are loosely typed constants (ir/typing.py), then :meth:`unify` promotes and broadcasts."""
        a = self.i32(a, node) if isinstance(a, Sym) else a
        b = self.i32(b, node) if isinstance(b, Sym) else b
        if not isinstance(a, Value) and not isinstance(b, Value):
            raise self.err(node, f"an operation on {a!r} and {b!r} that is not a compile-time constant")
        a, b = self.loosely_typed(a, b, node), self.loosely_typed(b, a, node)
        a = self.tile_of(a, b if isinstance(b, Value) else a, node)
        b = self.tile_of(b, a, node)
        return self.unify(a, b, node)

    def loosely_typed(self, v, other, node):
        """``v`` converted to the dtype a Python number takes when it meets ``other`` when ``v`` is a loosely typed
        value (:attr:`loose`): cuTile Python's ct.Constant[float] is a Python float in the kernel, so ``w + SHIFT``
        on an f16 tile adds in f16 (``literal_dtype``: f16 / bf16 / f32 / f64 keep theirs, an integer or bool
        operand makes it f32); anything else unchanged. Meeting a dtype variable, the result is that variable's
        dtype: lowered per dtype (the f32 value is converted to a concrete one)."""
        if not (isinstance(v, Value) and v.id in self.loose and isinstance(other, Value)
                and other.id not in self.loose):
            return v
        dt = other.type.dtype
        if isinstance(dt, (DTypeParam, DTypeChoice)):
            e = self.err(node, f"a loosely typed constant meeting a tile of the dtype variable {dt}")
            e.__cause__ = irtyping.depends_on([other.type], "a ct.Constant[float] meeting a tile")
            raise e
        dt = irtyping.literal_dtype(dt, 0.0)
        folded = None if getattr(self, "_float_operands", False) else self.float_const(v, dt, node)
        return folded if folded is not None else self.convert(v, dt, node)

    # -- compile-time float expressions (ir/floatexpr.py) -----------------------------------------------
    def float_expr_of(self, v):
        """``v`` as a compile-time float expression: a Python number, a ct.Constant[int] symbol, or a value
        :attr:`float_exprs` knows; else None."""
        if isinstance(v, Sym):
            return FloatExpr.isym(v.name)
        if isinstance(v, Value):
            return self.float_exprs.get(v.id)
        return FloatExpr.num(v)

    def remember_float(self, op: str, a, b, result) -> None:
        """Record ``result = a <op> b`` (arithmetic or a comparison) when both operands are compile-time float
        expressions and one is a value computed from a ct.Constant[float] (cuTile Python computes it at compile
        time, in double precision)."""
        if not isinstance(result, Value) or not any(isinstance(x, Value) and x.id in self.float_exprs for x in (a, b)):
            return
        e = FloatExpr.binary(op, self.float_expr_of(a), self.float_expr_of(b))
        if e is not None and e.floating():
            self.float_exprs[result.id] = e

    def float_generic(self, e: FloatExpr, node) -> Sym:
        """The host-computed const generic standing for ``e`` (a ``round`` or a comparison; one per distinct
        expression of a kernel), appended to ``self.generics`` (declared after the parameters' own)."""
        gens = getattr(self, "generics", None)
        if gens is None:
            raise self.err(node, "a compile-time float expression (this front end has no derived generics)")
        for g in gens:
            if g.origin == "float_expr" and g.expr == e:
                return Sym(g.name)
        taken = {g.name for g in gens} | set(getattr(self, "env", {})) | {
            p.name.value for p in self.fn.params.params}
        base = name = _float_generic_name(e)
        i = 2
        while name in taken:
            name, i = f"{base}_{i}", i + 1
        what = "0/1" if e.compare() else f"the f32 bits of the value rounded to {e.args[0]}"
        gens.append(Generic(name, "const", "float_expr", f"{e.python()} ({what}, host-computed)", expr=e))
        return Sym(name)

    def float_const(self, v, dt, node):
        """A loosely typed value computed from ct.Constant[float]s (:attr:`float_exprs`) as the constant of dtype
        ``dt`` the reference folds it into (the double rounded once to ``dt``): the bitcast of a host-computed
        const generic holding the f32 bits of that rounded value, converted to ``dt`` (an exact ``ftof``, which
        the IR diff folds like the reference's constant). None when ``v`` is no such value, or is a bare
        ct.Constant[float] meeting f32 (its own bits generic is that constant), or ``dt`` is no f16 / bf16 /
        f32."""
        e = self.float_exprs.get(v.id) if isinstance(v, Value) else None
        if e is None or e.compare() or not isinstance(dt, DType) or dt.name not in ("f16", "bf16", "f32") or (
                e.op == "sym" and dt == F32):
            return None
        g = self.float_generic(FloatExpr("round", (dt.name, e)), node)
        bits = self.to_tile(self.i32(g, node), node)
        f = self.emit(OpKind.BITCAST, [bits], [TileType(F32, ())], node, g.name.lower() + "_f").result
        return self.convert(f, dt, node)

    def binary(self, op: str, a, b, node, hint: str = "", **modes):
        """``a <op> b`` for the arithmetic, bitwise and comparison operators, with cuTile Python's typing;
        ``modes`` (ftz=True, approx=True) are attributes of a float + - * / (the function forms' math modes)."""
        folded = irtyping.fold(op, a, b)
        if folded is not None:
            return folded
        if op in PREDICATES:
            result = self.compare(op, a, b, node, hint)
            self.remember_float(_SYMBOL.get(op, op), a, b, result)
            return result
        b_const = b if isinstance(b, (int, float)) and not isinstance(b, bool) else None
        # two loosely typed operands (``EPS * 2.0``): a Python float in the reference too, so is the result
        loose = all(isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, Value) and v.id in self.loose
                    for v in (a, b))
        # a ct.Constant[int] with a ct.Constant[float] value (``EPS / N``): a Python float in the reference too
        loose = loose or any(isinstance(v, Sym) for v in (a, b)) and any(
            isinstance(v, Value) and v.id in self.float_exprs for v in (a, b))
        a0, b0 = a, b
        # the result is itself a compile-time float expression (``EPS / N``): its operands stay as they are (the
        # arithmetic is dead once the result is folded where it meets a tile)
        pending = any(isinstance(v, Value) and v.id in self.float_exprs for v in (a, b)) and all(
            self.float_expr_of(v) is not None for v in (a, b))
        self._float_operands, outer = pending, getattr(self, "_float_operands", False)
        try:
            a, b = self.operands(a, b, node)
        finally:
            self._float_operands = outer
        dt = a.type.dtype
        generic = isinstance(dt, (DTypeParam, DTypeChoice))
        if op == "/":
            if generic:  # divf in the variable's dtype when it is a float, f32 when an integer: per dtype
                e = self.err(node, "true division of a dtype-generic tile")
                e.__cause__ = irtyping.depends_on([a.type], "true division of a tile")
                raise e
            dt = irtyping.true_div_dtype(dt)
            a, b = self.convert(a, dt, node), self.convert(b, dt, node)
        if isinstance(dt, DType) and dt.kind in ("int", "uint"):
            if op in ("//", "%"):
                if dt.kind == "uint":
                    raise self.err(node, f"{op} on an unsigned integer {a.type}")
                return self.floor_divmod(op, a, b, node, hint, b_const)
            kind = _INT_KIND.get(op)
        elif dt == BOOL:
            kind = _BOOL_KIND.get(op)
        else:  # a float, or a dtype parameter (an array's element type, float in every spec the port serves)
            if op in ("//", "%") and not generic:
                return self.floor_divmod(op, a, b, node, hint, b_const)
            kind = _FLOAT_KIND.get(op)
        if kind is None:
            raise self.err(node, f"operator {op} on {a.type}")
        if modes and kind not in (OpKind.ADDF, OpKind.SUBF, OpKind.MULF, OpKind.DIVF):
            raise self.err(node, f"math modes of {op} on {a.type}")
        fa, fb = a0, b0
        result = self.emit(kind, [a, b], [a.type], node, hint or "t", **modes).result
        if loose:
            self.loose.add(result.id)
            if not modes:
                self.remember_float(op, fa, fb, result)
        return result

    def compare(self, op: str, a, b, node, hint: str = "") -> Value:
        """``a < b`` ...: a bool tile (an i1 scalar for scalars); floats compare ordered except ``!=``. ``op`` is
        the Python operator or its predicate name (``lt`` ... ``ne``)."""
        op = _SYMBOL.get(op, op)
        a, b = self.operands(a, b, node)
        dt = a.type.dtype
        t = TileType(BOOL, a.type.shape) if isinstance(a.type, TileType) else ScalarType(BOOL)
        if isinstance(dt, DType) and not dt.is_float:
            return self.emit(OpKind.CMPI, [a, b], [t], node, hint or "m", predicate=PREDICATES[op]).result
        return self.emit(OpKind.CMPF, [a, b], [t], node, hint or "m", predicate=PREDICATES[op],
                         ordering="unordered" if op == "!=" else "ordered").result

    def unary(self, op: str, v, node, hint: str = ""):
        """``-x``, ``+x``, ``~x`` (xori with all ones), ``not x`` (xori with true) as cuTile Python lowers them."""
        if isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, bool) and op == "not":
            if op == "~" and not isinstance(v, int):
                raise self.err(node, f"~ on {v!r}")
            return {"-": lambda x: -x, "+": lambda x: +x, "~": lambda x: ~x, "not": lambda x: not x}[op](v)
        if isinstance(v, Sym):
            v = self.i32(v, node)
        if not isinstance(v, Value) or not isinstance(v.type, (TileType, ScalarType)):
            raise self.err(node, f"unary {op} on {v!r}")
        dt = v.type.dtype
        shape = v.type.shape if isinstance(v.type, TileType) else None
        is_int = isinstance(dt, DType) and dt.kind in ("int", "uint")
        if op == "+" and dt != BOOL:
            return v
        if op == "-" and is_int:
            return self.emit(OpKind.NEGI, [v], [v.type], node, hint or "neg").result
        if op == "-" and dt != BOOL:
            r = self.emit(OpKind.NEGF, [v], [v.type], node, hint or "neg").result
            if v.id in self.loose:  # -EPS: still a Python float in the reference
                self.loose.add(r.id)
                if v.id in self.float_exprs:
                    self.float_exprs[r.id] = FloatExpr("neg", (self.float_exprs[v.id],))
            return r
        if (op == "~" and (is_int or dt == BOOL)) or (op == "not" and dt == BOOL):
            ones = self.const(True if dt == BOOL else -1, dt, node, shape, "ones")
            return self.emit(OpKind.XORI, [v, ones], [v.type], node, hint or "inv").result
        raise self.err(node, f"unary {op} on {v.type}")

    def select(self, cond, x, y, node, hint: str = "") -> Value:
        """``ct.where(cond, x, y)``: the arms promote like a binary op; cond and arms broadcast together."""
        if not isinstance(cond, Value) or cond.type.dtype != BOOL:
            raise self.err(node, "a where condition must be a bool tile or scalar")
        if not isinstance(x, Value) and not isinstance(y, Value):
            x = self.const(x, irtyping.default_dtype(x), node, ())
        x, y = self.operands(x, y, node)
        if isinstance(cond.type, TileType) or isinstance(x.type, TileType):
            cond, x = self.unify_shapes(cond, x, node)
            cond, y = self.unify_shapes(cond, y, node)
            x, y = self.unify_shapes(x, y, node)
        return self.emit(OpKind.SELECT, [cond, x, y], [x.type], node, hint or "sel").result

    def unify_shapes(self, a: Value, b: Value, node) -> tuple[Value, Value]:
        """Two values (a runtime scalar is a 0-d tile) broadcast to their common shape, dtypes kept."""
        a = self.to_tile(a, node) if isinstance(a.type, ScalarType) else a
        b = self.to_tile(b, node) if isinstance(b.type, ScalarType) else b
        try:
            shape = irtyping.broadcast_shapes(a.type.shape, b.type.shape)
        except irtyping.PromotionError as e:
            raise self.err(node, str(e)) from e
        return self.broadcast(a, shape, node), self.broadcast(b, shape, node)

    def minmax(self, fn: str, a, b, node, hint: str = "") -> Value:
        """``ct.maximum`` / ``ct.minimum``: maxf/minf on floats, maxi/mini (signedness of the dtype) on ints."""
        a, b = self.operands(a, b, node)
        dt = a.type.dtype
        is_int = isinstance(dt, DType) and dt.kind in ("int", "uint")
        if dt == BOOL:
            raise self.err(node, f"{fn} of bool values")
        kind = {("max", True): OpKind.MAXI, ("min", True): OpKind.MINI, ("max", False): OpKind.MAXF,
                ("min", False): OpKind.MINF}[(fn, is_int)]
        return self.emit(kind, [a, b], [a.type], node, hint or fn).result

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
        self.met(ta.dtype, tb.dtype, dt)
        a, b = self.convert(a, dt, node), self.convert(b, dt, node)
        if isinstance(ta, TileType):
            a, b = self.unify_shapes(a, b, node)
        return a, b

    def met(self, a: DTypeLike, b: DTypeLike, result: DTypeLike) -> None:
        """Two operand dtypes met and promoted to ``result`` (a front end may record it: frontends/cutile/dtypes.py)."""

    def broadcast(self, v: Value, shape: tuple, node) -> Value:
        if v.type.shape == shape:
            return v
        if len(v.type.shape) < len(shape):
            new = (1,) * (len(shape) - len(v.type.shape)) + tuple(v.type.shape)
            v = self.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, new)], node, (v.hint or "t") + "_r",
                          shape=new).result
            if new == tuple(shape):  # the reshape alone gives the shape: no broadcast op (as the reference)
                return v
        return self.emit(OpKind.BROADCAST, [v], [TileType(v.type.dtype, shape)], node, (v.hint or "t") + "_b",
                         shape=shape).result

    def gather_select(self, a: Value, indices: list[Value], mask: Value | None, pad: Value, node, hint: str,
                      **attrs) -> Value:
        """A gather of a rank >= 2 index shape, padded: cutile's ``load_ptr_tko`` widens its scalar padding value
        through a rank-1 reshape (invalid Tile IR for a rank >= 2 result, cutile-compiler 0.3.1 / 0.5.0
        compile_load_ptr_tko), so the gather is *unpadded* (the op takes any rank then) and a masked one pads its
        masked lanes with ``select(mask, gathered, pad)``: what a padded load means (masked lanes read nothing and
        are the padding value; docs/ir.md, the verifier folds the pair back: verify/ircanon.py). ``indices`` are the
        front end's index operands, ``mask`` every lane condition (bounds and the user's), ``pad`` a 0-d tile of
        the array dtype; ``attrs`` the gather's (``shape`` its index shape). Shared by the Triton front end
        (frontends/triton/gathers.py) and the cuTile one (frontends/cutile/memory.py)."""
        dt, shape = attrs.get("elem") or a.type.dtype, tuple(attrs["shape"])  # elem: a pointer cast
        ops = [a, *indices, *([mask] if mask is not None else [])]
        t = self.emit(OpKind.GATHER, ops, [TileType(dt, shape)], node,
                      (hint or "v") + "_raw" if mask is not None else hint, unpadded=True,
                      **(attrs | {"has_mask": mask is not None})).result
        if mask is not None:
            t = self.emit(OpKind.SELECT, [mask, t, self.broadcast(pad, shape, node)], [t.type], node,
                          hint).result
        return t

    def to_tile(self, v: Value, node) -> Value:
        """A runtime scalar as a 0-d tile of its dtype."""
        return self.emit(OpKind.TO_TILE, [v], [TileType(v.type.dtype, ())], node, (v.hint or "s") + "_tile").result

    def for_loop(self, start: Value, stop: Value, step: Value, iv: Value, carried: list[Value], node,
                 lower_body) -> list[Value]:
        """A structured ``for``: ``lower_body(args)`` lowers the body into a fresh block (the current block while it
        runs; ``args`` are the loop-carried block arguments, typed like ``carried``) and returns the values the
        body yields for them; the loop op is appended and its results (the carried values after it) returned."""
        args = [Value(v.type, v.hint) for v in carried]
        body = Block([iv, *args])
        outer = self.block
        self.block = body
        try:
            ys = lower_body(args)
        finally:
            self.block = outer
        for y, a in zip(ys, args):
            if not isinstance(y, Value) or y.type != a.type:
                raise self.loop_type_change(node, a.hint, a, y)
        body.ops.append(Op(OpKind.YIELD, list(ys), [], loc=self.loc(node)))
        results = [Value(a.type, a.hint) for a in args]
        self.block.ops.append(Op(OpKind.FOR, [start, stop, step, *carried], results, {}, self.loc(node), [body]))
        return results

    def while_loop(self, carried: list[Value], node, lower_cond, lower_body) -> list[Value]:
        """A structured ``while``: ``lower_cond(args)`` lowers the test into a fresh block and returns its bool
        scalar, ``lower_body(args)`` lowers the body into another and returns the values it yields for the carried
        ``args`` (typed like ``carried``); the loop op is appended and its results returned."""
        regions = []
        outer = self.block
        for lower in (lower_cond, lower_body):
            args = [Value(v.type, v.hint) for v in carried]
            blk = Block(args)
            self.block = blk
            try:
                ys = lower(args)
            finally:
                self.block = outer
            if lower is lower_body:
                for y, a in zip(ys, args):
                    if not isinstance(y, Value) or y.type != a.type:
                        raise self.loop_type_change(node, a.hint, a, y)
            blk.ops.append(Op(OpKind.YIELD, list(ys), [], loc=self.loc(node)))
            regions.append(blk)
        results = [Value(v.type, v.hint) for v in carried]
        self.block.ops.append(Op(OpKind.WHILE, list(carried), results, {}, self.loc(node), regions))
        return results

    def shifted_right_by(self, v: Value) -> int | None:
        """The constant amount ``v`` was shifted right by (``v = x >> k``, ``ct.bitwise_rshift(x, k)``, ``k`` a
        constant, splat or not) when the current block defines it so; else None."""
        def producer(x: Value):
            return next((op for op in reversed(self.block.ops) if x in op.results), None)

        op = producer(v)
        if op is None or op.kind != OpKind.SHRI:
            return None
        k = producer(op.operands[1])
        while k is not None and k.kind in (OpKind.RESHAPE, OpKind.BROADCAST, OpKind.TO_TILE):
            k = producer(k.operands[0])
        value = k.attrs.get("value") if k is not None and k.kind == OpKind.CONSTANT else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def convert(self, v: Value, dt: DTypeLike, node, hint: str = "") -> Value:
        if v.type.dtype == dt:
            return v
        t = TileType(dt, v.type.shape) if isinstance(v.type, TileType) else ScalarType(dt)
        return self.emit(OpKind.CONVERT, [v], [t], node, hint or (v.hint or "t") + "_c").result

    def bitcast(self, v: Value, dt: DType, node, hint: str = "") -> Value:
        """The bits of ``v`` as ``dt`` (one width: ``i32 <-> u32``, ``f32 <-> i32`` ...), as cuTile Python's
        ct.bitcast: a runtime scalar becomes a 0-d tile first; a same-dtype bitcast is ``v`` itself."""
        src = v.type.dtype
        if isinstance(src, DTypeParam) and isinstance(dt, DType):  # its width is the variable's: lowered per dtype
            e = self.err(node, f"bitcast of {v.type} to {dt} (a dtype-generic tile has no width)")
            e.__cause__ = irtyping.GenericMeetsConcrete(f"bitcast of {src} to {dt}", (src,))
            raise e
        if not isinstance(src, DType) or not isinstance(dt, DType):
            raise self.err(node, f"bitcast of {v.type} to {dt} (a dtype-generic tile has no width)")
        if src.bits != dt.bits or BOOL in (src, dt):
            raise self.err(node, f"bitcast of {src} to {dt}: the widths differ")
        if src == dt:
            return v
        if isinstance(v.type, ScalarType):
            v = self.to_tile(v, node)
        return self.emit(OpKind.BITCAST, [v], [TileType(dt, v.type.shape)], node, hint or (v.hint or "t") + "_b").result

    def floor_divmod(self, op: str, a: Value, b: Value, node, hint: str, b_const=None) -> Value:
        """Python's flooring ``//`` / ``%`` as cuTile Python lowers them: on integers divi rounding to -inf and
        remi plus the sign fix-up; on floats divf + floor and remf plus the fix-up (the ``rem != 0`` test
        unordered). A scalar's constant divisor has its sign test folded to a constant, as the reference does."""
        dt = a.type.dtype
        flt = not (isinstance(dt, DType) and dt.kind in ("int", "uint"))
        h = hint or ("q" if op == "//" else "m")
        if op == "//":
            if flt:
                q = self.emit(OpKind.DIVF, [a, b], [a.type], node, h + "_div").result
                return self.emit(OpKind.MATH, [q], [a.type], node, h, fn="floor").result
            return self.emit(OpKind.DIVI, [a, b], [a.type], node, h, rounding="negative_inf").result
        shape = a.type.shape if isinstance(a.type, TileType) else None
        b_t = TileType(BOOL, shape) if shape is not None else ScalarType(BOOL)
        cmp, order = (OpKind.CMPF, {"ordering": "ordered"}) if flt else (OpKind.CMPI, {})
        rem = self.emit(OpKind.REMF if flt else OpKind.REMI, [a, b], [a.type], node, h + "_rem").result
        zero = self.const(0, dt, node, shape)
        rneg = self.emit(cmp, [rem, zero], [b_t], node, h + "_rneg", predicate="lt", **order).result
        if shape is None and b_const is not None:
            bneg = self.const(b_const < 0, BOOL, node, None, h + "_bneg")
        else:
            bneg = self.emit(cmp, [b, zero], [b_t], node, h + "_bneg", predicate="lt", **order).result
        sgn = self.emit(OpKind.XORI, [rneg, bneg], [b_t], node, h + "_sgn").result
        nz_order = {"ordering": "unordered"} if flt else {}
        nz = self.emit(cmp, [rem, zero], [b_t], node, h + "_nz", predicate="ne", **nz_order).result
        fix = self.emit(OpKind.ANDI, [sgn, nz], [b_t], node, h + "_fix").result
        rb = self.emit(OpKind.ADDF if flt else OpKind.ADDI, [rem, b], [a.type], node, h + "_rb").result
        return self.emit(OpKind.SELECT, [fix, rb, rem], [a.type], node, hint).result
