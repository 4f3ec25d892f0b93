"""Tile family: constants (``ct.full/zeros/ones``), casts, shapes, ``ct.mma``, reductions, elementwise math
(``ct.exp`` ... from rules/ir.toml ``[math]``) and the function forms of the arithmetic operators."""

from __future__ import annotations

from ... import errors
from ...ir import typing as irtyping
from ...ir.ops import OpKind
from ...ir.types import BOOL, DTYPES, I32, DType, DTypeParam, ScalarType, Sym, TileType
from ...ir.values import Value
from ...ir_rules import ir_rules
from .args import bind, enum_member, value
from .registry import Call, lowers
from .values import DT

_FN_BINOPS = {"ct.add": "+", "ct.sub": "-", "ct.mul": "*", "ct.truediv": "/"}
_REDUCE = {"ct.sum": OpKind.REDUCE_SUM, "ct.max": OpKind.REDUCE_MAX, "ct.min": OpKind.REDUCE_MIN,
           "ct.prod": OpKind.REDUCE_PROD}


def generic(lw, c: Call, dt, what: str) -> None:
    """Refuse ``what`` on a dtype variable as depending on its value (ir/typing.py ``depends``): the kernel is
    lowered once per dtype of that variable (frontends/cutile/dtypes.py)."""
    try:
        irtyping.depends(dt, what)
    except irtyping.PromotionError as e:
        raise lw.err(c.node, str(e)) from e


def tile(lw, node, what: str) -> Value:
    x = lw.expr(node)
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(node, what)
    return x


@lowers("ct.full", "ct.zeros", "ct.ones")
def full(lw, c: Call):
    """A constant tile; ``ct.full`` of a runtime scalar is that value cast and broadcast (the reference's
    reshape + broadcast). cuTile Python 1.7.0 requires the dtype (``full(): missing a required argument``)."""
    a = bind(lw, c, "shape, fill_value, dtype" if c.fn == "ct.full" else "shape, dtype")
    shape = lw.shape(a["shape"])
    fill = value(lw, a["fill_value"]) if c.fn == "ct.full" else {"ct.zeros": 0, "ct.ones": 1}[c.fn]
    dt = value(lw, a["dtype"])
    if not isinstance(dt, DT) or not isinstance(dt.dtype, (DType, DTypeParam)):
        raise lw.err(c.node, f"{c.fn} of a generic dtype")
    if isinstance(fill, Sym):
        # a ct.Constant[int] fill: the reference's splat constant of its value; the const generic's i32 value
        # reshaped and broadcast is that constant (cutile folds nothing; the IR diff folds a splat's broadcast),
        # for an i32 tile only: another dtype would add a cast of the constant the reference folds
        if isinstance(dt.dtype, DTypeParam):  # dtype=A.dtype: lowered per dtype of A, i32 first (an index array)
            what = f"{c.fn} of a ct.Constant fill of the dtype variable {dt.dtype}: lowered once per element type"
            raise lw.err(c.node, what) from irtyping.GenericMeetsConcrete(what, (dt.dtype,), I32)
        if dt.dtype != I32:
            raise lw.err(c.node, f"{c.fn} of a ct.Constant fill with dtype {dt.dtype} (the reference folds the cast "
                         "into its constant; cutile would cast the const generic's i32 value at run time)")
        fill = lw.i32(fill, c.node)
    if isinstance(dt.dtype, DTypeParam) and not isinstance(fill, Value) and fill != 0:
        # dtype=A.dtype: a tile of A's dtype variable; the crate spells only its zero generically (E::ZERO)
        generic(lw, c, dt.dtype, f"{c.fn} of a non-zero fill value")
    if isinstance(fill, Value):
        if not isinstance(fill.type, (ScalarType, TileType)) or getattr(fill.type, "shape", ()) != ():
            raise lw.err(c.node, f"{c.fn} fill value {fill.type}: a scalar")
        if fill.id in lw.float_exprs and isinstance(dt.dtype, DTypeParam):  # its rounding is the dtype's
            what = f"{c.fn} of a compile-time float of the dtype variable {dt.dtype}: lowered once per element type"
            raise lw.err(c.node, what) from irtyping.GenericMeetsConcrete(what, (dt.dtype,))
        folded = lw.float_const(fill, dt.dtype, c.node)  # 1.0 / (1.0 - P): the reference's constant of dtype
        if folded is not None:
            return lw.broadcast(folded, shape, c.node)
        v = lw.to_tile(fill, c.node) if isinstance(fill.type, ScalarType) else fill
        return lw.broadcast(lw.convert(v, dt.dtype, c.node), shape, c.node)
    if not isinstance(fill, (int, float)):
        raise lw.err(c.node, f"{c.fn} fill value must be a number or a scalar value")
    return lw.const(fill, dt.dtype, c.node, shape, c.hint or "c")


@lowers("ct.astype")
def astype(lw, c: Call):
    """``ct.astype(x, dtype)`` of a tile or a runtime scalar (``ct.bid(0)``, ``t.item()``, a scalar parameter):
    cuTile Python's scalars are 0-d tiles, cast by the same op (ftof / itof / exti ...) with a 0-d result; the
    typed IR keeps a scalar a scalar (a CONVERT of ScalarType, cutile's ``convert_scalar`` spelling)."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "ct.astype(tile, dtype)")
    x, dt = lw.expr(c.pos[0]), lw.expr(c.pos[1])
    if not isinstance(x, Value) or not isinstance(x.type, (TileType, ScalarType)) or not isinstance(dt, DT):
        raise lw.err(c.node, "ct.astype(tile, dtype)")
    a, b = x.type.dtype, dt.dtype
    if isinstance(a, DType) and isinstance(b, DType) and a.kind in ("int", "uint") and b.kind in ("int", "uint") \
            and b.bits < a.bits:
        # cuTile Python's astype narrows with a flagless trunci (it wraps); cutile writes trunci only with an
        # overflow flag (rules/ir.toml trunci: overflow::NoUnsignedWrap), right only where the value fits: an
        # unsigned `x >> k` by a constant k >= the bits dropped (the Philox `(x * M) >> 32`)
        shift = lw.shifted_right_by(x)
        if a.kind != "uint" or shift is None or shift < a.bits - b.bits:
            raise errors.CtrsError(
                errors.IR_WRAPPING_NARROWING, f"no rule for ct.astype from {a} to {b} (a wrapping truncation)",
                f"cutile writes trunci only with an overflow flag; narrow `(x >> k)` with a constant k >= "
                f"{a.bits - b.bits} on an unsigned tile (it fits, no wrap)", lw.info.loc(c.node))
    if isinstance(a, DTypeParam) and isinstance(b, DType) and b.kind in ("int", "uint"):
        # the reference's cast of an array's tile to an integer is per launch: nothing for that integer, ftoi from
        # a float, exti / trunci from another integer; the array is an index array (Start_q loaded and cast to
        # i32): lowered once per dtype of its variable (the integer first), so it keeps a variable of its own
        # instead of joining the data arrays' E (dtypes.py's merge policy)
        what = f"ct.astype of a tile of the dtype variable {a} to {b}: lowered once per element type"
        raise lw.err(c.node, what) from irtyping.GenericMeetsConcrete(what, (a,), b)
    return lw.convert(x, dt.dtype, c.node, c.hint)


@lowers("ct.bitcast")
def bitcast(lw, c: Call):
    """``ct.bitcast(x, dtype)``: the element bits of a tile (or scalar) read as another type of the same width, as
    cuTile Python's bitcast (nothing for the same dtype; bool and width changes refused, as it refuses them)."""
    a = bind(lw, c, "x, /, dtype")
    x, dt = value(lw, a["x"]), value(lw, a["dtype"])
    if not isinstance(x, Value) or not isinstance(x.type, (TileType, ScalarType)) or not isinstance(dt, DT) \
            or not isinstance(dt.dtype, DType) or not isinstance(x.type.dtype, DType):
        raise lw.err(c.node, "ct.bitcast(tile, dtype) of a tile or scalar of a known dtype")
    src, dst = x.type.dtype, dt.dtype
    if BOOL in (src, dst) or src.bits != dst.bits:
        raise errors.CtrsError(errors.IR_BITCAST_WIDTH, f"no rule for ct.bitcast from {src} to {dst}",
                               "cuTile Python bitcasts between non-bool types of one width only (refuses this too)",
                               lw.info.loc(c.node))
    if src == dst:
        return x
    t = TileType(dst, x.type.shape) if isinstance(x.type, TileType) else ScalarType(dst)
    return lw.emit(OpKind.BITCAST, [x], [t], c.node, c.hint or (x.hint or "t") + "_bc").result


@lowers("ct.pack_to_bytes")
def pack_to_bytes(lw, c: Call):
    """``ct.pack_to_bytes(x)``: the bytes of a tile as a rank-1 uint8 tile, as cuTile Python spells it (a reshape
    to rank 1 when x has another rank; an 8-bit dtype is bitcast to uint8, any other width packed: Tile IR
    ``pack``, cutile 0.5.0's ``pack::<EIn, EByte, S, R>`` (src/_core.rs))."""
    a = bind(lw, c, "x, /")
    x = value(lw, a["x"])
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(c.node, "ct.pack_to_bytes(tile)")
    dt = x.type.dtype
    try:  # the byte count and the op depend on the width: lowered once per dtype of an array's variable
        irtyping.depends(dt, "ct.pack_to_bytes of a tile")
    except irtyping.PromotionError as e:
        raise lw.err(c.node, str(e)) from e
    if dt == BOOL:
        raise lw.err(c.node, "ct.pack_to_bytes of a bool tile (cuTile Python refuses it)")
    if not all(isinstance(d, int) for d in x.type.shape):
        raise lw.err(c.node, f"ct.pack_to_bytes of a tile of shape {x.type.shape}: the byte count needs static "
                     "extents")
    n = 1
    for d in x.type.shape:
        n *= d
    if len(x.type.shape) != 1:
        x = lw.emit(OpKind.RESHAPE, [x], [TileType(dt, (n,))], c.node, (x.hint or "t") + "_flat", shape=(n,)).result
    u8 = DTYPES["u8"]
    if dt.bits == 8:
        return lw.emit(OpKind.BITCAST, [x], [TileType(u8, (n,))], c.node, c.hint or "bytes").result
    nbytes, rem = divmod(n * dt.bits, 8)
    if rem:
        raise lw.err(c.node, f"ct.pack_to_bytes of {n} {dt} values: {n * dt.bits} bits are not whole bytes")
    return lw.emit(OpKind.PACK, [x], [TileType(u8, (nbytes,))], c.node, c.hint or "bytes").result


@lowers("ct.reshape")
def reshape(lw, c: Call):
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "ct.reshape(tile, shape)")
    x = tile(lw, c.pos[0], "ct.reshape(tile, shape)")
    shape = lw.shape(c.pos[1])
    return lw.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, shape)], c.node, c.hint, shape=shape).result


@lowers("ct.mma")
def mma(lw, c: Call):
    a = bind(lw, c, "x, y, /, acc, *, use_fast_acc=False")
    if value(lw, a["use_fast_acc"]) is not False:
        raise lw.err(c.node, "ct.mma(use_fast_acc=True) (cutile 0.3.1's mmaf has no fast-accumulation flag)")
    x, y, acc = (tile(lw, a[k], "ct.mma(tile, tile, acc)") for k in ("x", "y", "acc"))
    try:  # x and y of one dtype (a fact on the arrays' dtype variables: frontends/cutile/dtypes.py)
        irtyping.same_dtype(x.type.dtype, y.type.dtype, "ct.mma operands")
    except irtyping.PromotionError as e:
        raise lw.err(c.node, str(e)) from e
    return lw.emit(OpKind.MMA, [x, y, acc], [acc.type], c.node, c.hint).result


# cuTile Python's _mma_supported_dtypes: operand dtype -> the accumulator ct.matmul uses (the first listed)
_MATMUL_ACC = {"f16": "f16", "bf16": "f32", "f32": "f32", "tf32": "f32", "f64": "f64", "i8": "i32", "u8": "i32"}


@lowers("ct.matmul")
def matmul(lw, c: Call):
    """``ct.matmul(x, y)`` of two 2-D tiles of one dtype, as cuTile Python's matmul_impl: ``mma`` into a zero
    accumulator of the dtype's first supported accumulator type, then cast back to the operand dtype."""
    a = bind(lw, c, "x, y, /")
    x, y = (tile(lw, a[k], "ct.matmul(tile, tile)") for k in ("x", "y"))
    if len(x.type.shape) != 2 or len(y.type.shape) != 2:
        raise lw.err(c.node, f"ct.matmul of {x.type} and {y.type} (2-D tiles; 1-D and batched forms not yet)")
    if x.type.shape[1] != y.type.shape[0]:
        raise lw.err(c.node, f"ct.matmul: incompatible shapes {x.type.shape}, {y.type.shape}")
    dt = x.type.dtype
    if dt != y.type.dtype:
        raise lw.err(c.node, f"ct.matmul of {dt} and {y.type.dtype} (cuTile Python requires one dtype)")
    if not isinstance(dt, DType):
        raise lw.err(c.node, "ct.matmul of a dtype-generic tile (its accumulator is f16 for f16, f32 for bf16 / f32: "
                     "cast the operands with ct.astype first)")
    if dt.name not in _MATMUL_ACC:
        raise lw.err(c.node, f"ct.matmul of {dt} tiles (cuTile Python supports {', '.join(_MATMUL_ACC)})")
    acc_dt = DTYPES[_MATMUL_ACC[dt.name]]
    shape = (x.type.shape[0], y.type.shape[1])
    acc = lw.const(0, acc_dt, c.node, shape, "acc")
    r = lw.emit(OpKind.MMA, [x, y, acc], [acc.type], c.node, (c.hint or "mm") + ("_acc" if acc_dt != dt else "")).result
    return lw.convert(r, dt, c.node, c.hint or "mm")


@lowers(*_FN_BINOPS)
def binop_fn(lw, c: Call):
    """``ct.add(a, b)`` is ``a + b``; with ``flush_to_zero=True`` the op carries ftz, and ``ct.truediv(..,
    rounding_mode=APPROX, flush_to_zero=True)`` is cutile 0.3.1's ``true_div`` (the only rounding mode it spells)."""
    a = bind(lw, c, "x, y, /, *, rounding_mode=None, flush_to_zero=False")
    ftz = value(lw, a["flush_to_zero"])
    if not isinstance(ftz, bool):
        raise lw.err(c.node, f"{c.fn}: flush_to_zero= must be True or False")
    modes = {"ftz": True} if ftz else {}
    if a["rounding_mode"] is not None:
        rm = enum_member(lw, a["rounding_mode"])
        if rm in ("APPROX", "FULL") and c.fn == "ct.truediv" and not (rm == "APPROX" and ftz):
            # cuTile Python's divf with rounding<full> / rounding<approx> and its own ftz flag (f32 only, as it
            # checks); cutile spells both: divf(a, b, rounding::Full | rounding::Approx, ftz::..) (src/_core.rs)
            return lw.binary("/", value(lw, a["x"]), value(lw, a["y"]), c.node, c.hint, rounding=rm.lower(),
                             **modes)
        if not (rm == "APPROX" and ftz and c.fn == "ct.truediv"):
            raise lw.err(c.node, f"{c.fn}(rounding_mode={rm}): the typed path spells truediv with FULL or APPROX "
                         "only (divf / true_div, cutile/src/_core.rs)")
        modes = {"approx": True}
    return lw.binary(_FN_BINOPS[c.fn], value(lw, a["x"]), value(lw, a["y"]), c.node, c.hint, **modes)


@lowers("min", "max")
def builtin_minmax(lw, c: Call):
    """Python's ``min(a, b)`` / ``max(a, b)``: folded on numbers, else ct.minimum / ct.maximum."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, f"{c.fn}(a, b) of two values")
    x, y = lw.expr(c.pos[0]), lw.expr(c.pos[1])
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
        return min(x, y) if c.fn == "min" else max(x, y)
    return lw.minmax(c.fn, x, y, c.node, c.hint)


@lowers(*_REDUCE)
def reduce(lw, c: Call):
    """``ct.sum/prod/max/min(tile, axis[, keepdims=True])`` on a float or integer tile: a reduce, then a
    reshape that puts the 1 back for keepdims."""
    extra = ", propagate_nan=False" if c.fn in ("ct.max", "ct.min") else ", rounding_mode=None"
    a = bind(lw, c, f"x, /, axis=None, *, keepdims=False, flush_to_zero=False{extra}")
    node, hint = c.node, c.hint
    x = value(lw, a["x"])
    axis, keep = value(lw, a["axis"]), value(lw, a["keepdims"])
    if not isinstance(x, Value) or not isinstance(x.type, TileType) or x.type.dtype == BOOL:
        raise lw.err(node, f"{c.fn} of {x!r}: a float or integer tile")
    if not isinstance(x.type.dtype, DType):
        # a reduction's identity is a literal of one dtype (max: -inf of a float, the minimum of an int)
        generic(lw, c, x.type.dtype, f"{c.fn} of a tile")
        raise lw.err(node, f"{c.fn} of a dtype-generic tile (cast it with ct.astype first)")
    if any(value(lw, a[k]) not in (None, False) for k in ("flush_to_zero", "propagate_nan", "rounding_mode") if k in a):
        raise lw.err(node, f"{c.fn} with flush_to_zero= / propagate_nan= / rounding_mode= (cutile 0.3.1's "
                     "reduce_* take none: cutile/src/_core.rs)")
    rank = len(x.type.shape)
    if axis is None and isinstance(keep, bool) and rank:
        # every axis, as cuTile Python's reduce does it: axis 0 reduced rank times, then a reshape to (1,)*rank
        # for keepdims (to () otherwise: the last reduce's shape already, so no op)
        for i in range(rank):
            x = lw.emit(_REDUCE[c.fn], [x], [TileType(x.type.dtype, x.type.shape[1:])], node,
                        (hint or "t") + ("_red" if keep or i < rank - 1 else ""), axis=0).result
        if not keep:
            return x
        return lw.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, (1,) * rank)], node, hint, shape=(1,) * rank).result
    if not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank or not isinstance(keep, bool):
        raise lw.err(node, "reduction axis / keepdims must be constants")
    axis %= rank
    shape = tuple(d for i, d in enumerate(x.type.shape) if i != axis)
    red = lw.emit(_REDUCE[c.fn], [x], [TileType(x.type.dtype, shape)], node, (hint or "t") + ("_red" if keep else ""),
                  axis=axis).result
    if not keep:
        return red
    full_shape = tuple(1 if i == axis else d for i, d in enumerate(x.type.shape))
    return lw.emit(OpKind.RESHAPE, [red], [TileType(x.type.dtype, full_shape)], node, hint, shape=full_shape).result


def math(lw, c: Call):
    """A unary float function of rules/ir.toml ``[math]`` (registered for every entry there), with the math
    modes cuTile Python takes: ``flush_to_zero=True`` (the entry's ``rust_ftz``) and
    ``rounding_mode=RoundingMode.APPROX`` (``rust_approx``) where cutile 0.3.1 can spell them."""
    if len(c.pos) != 1 or not set(c.kw) <= {"flush_to_zero", "rounding_mode"}:
        raise lw.err(c.node, f"{c.fn}(tile[, flush_to_zero=][, rounding_mode=])")
    x = lw.expr(c.pos[0])
    # an array's dtype variable is a float in every spec a port serves (ir/typing.py): the reference applies the
    # function in that dtype (UNARY_FLOAT), so the port spells it generically
    if not isinstance(x, Value) or not isinstance(x.type, TileType) or not (
            isinstance(x.type.dtype, DTypeParam) or isinstance(x.type.dtype, DType) and x.type.dtype.is_float):
        raise lw.err(c.node, f"{c.fn} of a non-float tile")
    rule = ir_rules()["math"][c.fn]
    modes = {}
    if "flush_to_zero" in c.kw:
        ftz = lw.expr(c.kw["flush_to_zero"])
        if not isinstance(ftz, bool):
            raise lw.err(c.node, f"{c.fn}: flush_to_zero= must be True or False")
        if ftz:
            modes["ftz"] = True
    if "rounding_mode" in c.kw:
        mode = enum_member(lw, c.kw["rounding_mode"])
        if mode == "APPROX":
            modes["approx"] = True
        elif mode != "FULL" or c.fn not in ("ct.exp", "ct.tanh"):
            raise lw.err(c.node, f"{c.fn}: rounding_mode={mode or '?'}")
    for m in modes:
        if f"rust_{m}" not in rule:
            raise lw.err(c.node, f"{c.fn} with {'flush_to_zero=True' if m == 'ftz' else 'rounding_mode=APPROX'}: no "
                         "cutile 0.3.1 spelling (rules/ir.toml [math])")
    if len(modes) > 1:
        raise lw.err(c.node, f"{c.fn} with both flush_to_zero= and rounding_mode=")
    name = c.fn.removeprefix("ct.")
    return lw.emit(OpKind.MATH, [x], [x.type], c.node, c.hint or name, fn=name, **modes).result


lowers(*ir_rules()["math"])(math)
