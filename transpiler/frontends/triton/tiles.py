"""Tile family: ``tl.zeros`` / ``tl.full``, ``.to`` casts, ``tl.dot`` (mma; tf32 inputs for f32 as Triton's default
input precision), reductions (Triton axes mapped onto lifted rows), ``tl.maximum`` / ``tl.minimum``, ``tl.cdiv``
of an extent by its block (``num_tiles``), and the elementwise math of rules/triton.toml ``[calls]`` that
rules/ir.toml ``[math]`` spells (the cuTile front end's math lowering)."""

from __future__ import annotations

import libcst as cst

from ...ir.ops import Generic, OpKind
from ...ir.types import BOOL, F32, I32, I64, TF32, DType, DTypeChoice, DTypeParam, ScalarType, Sym, TileType
from ...ir.values import Value
from ...ir_rules import ir_rules
from ...ir.naming import dtype_flag_name
from .philox import bitcast_to
from .pointer_casts import is_pointer_type, pointer_cast
from .cdivs import ceil_div
from .dtype_params import refuse_dtype_constexpr
from .element_types import integer_cast_of_variable
from .memory import view
from .registry import Call, lowers
from .pointers import Ptr, Range
from .values import DT, ArrayRef, ScalarParam
from .source import literal, load_rules

_REDUCE = {"tl.sum": OpKind.REDUCE_SUM, "tl.max": OpKind.REDUCE_MAX, "tl.min": OpKind.REDUCE_MIN}


def tile(lw, node, what: str) -> Value:
    x = lw.value(lw.expr(node), node)
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(node, what)
    return x


def _is_float(v: Value) -> bool:
    return isinstance(v.type.dtype, DType) and v.type.dtype.is_float


@lowers("tl.zeros", "tl.full")
def full(lw, c: Call):
    names = ["shape", "dtype"] if c.fn == "tl.zeros" else ["shape", "value", "dtype"]
    a = dict(zip(names, c.pos)) | c.kw
    if set(a) != set(names):
        raise lw.err(c.node, f"{c.fn}({', '.join(names)})")
    shape = lw.shape(a["shape"])
    fill = 0 if c.fn == "tl.zeros" else lw.expr(a["value"])
    dt = lw.expr(a["dtype"])
    if isinstance(fill, (Sym, ScalarParam, Value)) and isinstance(dt, DT) and isinstance(dt.dtype, DType):
        return _full_of_value(lw, fill, dt.dtype, shape, c)
    if isinstance(fill, (int, float)) and not isinstance(fill, bool) and isinstance(dt, DT) \
            and isinstance(dt.dtype, DTypeParam):  # of a dtype variable (a dtype constexpr, dtype_params.py)
        return lw.const(fill, dt.dtype, c.node, shape, c.hint or "c")
    if not isinstance(fill, (int, float)) or isinstance(fill, bool) or not isinstance(dt, DT) \
            or not isinstance(dt.dtype, DType):
        refuse_dtype_constexpr(lw, dt, a["dtype"], c.fn)
        raise lw.err(c.node, f"{c.fn} of a non-constant value or a generic dtype")
    return lw.const(fill, dt.dtype, c.node, shape, c.hint or "c")


def _full_of_value(lw, fill, dt: DType, shape: tuple, c: Call) -> Value:
    """``tl.full(shape, v, dtype)`` of a runtime or constexpr value: ``v`` cast to ``dtype``, broadcast (a float
    constexpr is a runtime f32 of the port, constexprs.as_float)."""
    from .constexprs import as_float  # noqa: PLC0415

    if isinstance(fill, Sym):
        fill = as_float(lw, fill, c.node) if dt.is_float else lw.i32(fill, c.node)
    # a runtime argument first met as the fill of a float tile is a float argument (eps of tl.full((), eps,
    # tl.float32)): Triton types it by the Python value passed, a float for such a fill
    v = lw.value(fill, c.node, like=0.0 if dt.is_float else None)
    if not isinstance(v, Value):
        raise lw.err(c.node, f"{c.fn} of a non-constant value")
    v = lw.convert(v, dt, c.node, c.hint)
    if isinstance(v.type, ScalarType):
        v = lw.to_tile(v, c.node)
    return lw.broadcast(v, tuple(shape), c.node) if tuple(v.type.shape) != tuple(shape) else v


@lowers(".to")
def to(lw, c: Call):
    if "bitcast" in c.kw:
        return bitcast_to(lw, c)
    if len(c.pos) != 2 or set(c.kw) - {"fp_downcast_rounding"} or c.kw:
        raise lw.err(c.node, "x.to(dtype) without bitcast / rounding options")
    raw = lw.expr(c.pos[0], f"{c.hint}_in" if c.hint else "")
    dt = lw.expr(c.pos[1])
    refuse_dtype_constexpr(lw, dt, c.pos[1], "x.to")
    if (isinstance(raw, Range) or isinstance(raw, Ptr) and raw.base is None) and isinstance(dt, DT) \
            and dt.dtype in (I32, I64):
        # tl.arange(..).to(tl.int64), (n0 + tl.arange(..)).to(tl.int64): the lanes of an index (LONG_INDEXING,
        # INT64_OFFSETS) kept the offsets they are, as below
        lw.note(c.node, "index", "64-bit index lanes kept i32 offsets (cuTile tile indices and gather offsets are "
                "i32: exact below 2**31 elements)")
        return raw
    if isinstance(raw, (ArrayRef, Ptr)) or is_pointer_type(dt):  # p.to(tl.pointer_type(T)) (pointer_casts.py)
        if not is_pointer_type(dt):
            raise lw.err(c.node, "x.to(dtype) of a pointer (a pointer cast is x.to(tl.pointer_type(dtype)))")
        return pointer_cast(lw, raw, dt, c)
    if (isinstance(raw, Sym) or isinstance(raw, int) and not isinstance(raw, bool)) and isinstance(dt, DT) \
            and isinstance(dt.dtype, DType) and dt.dtype.kind == "int":
        return raw  # a compile-time int (a constexpr stride): its width is Triton's, the value is the same
    x = lw.value(raw, c.pos[0])
    if isinstance(x, Value) and isinstance(x.type, (ScalarType, TileType)) and isinstance(x.type.dtype, DTypeParam) \
            and (x.id in lw.origin or isinstance(x.type, ScalarType)) and isinstance(dt, DT) and isinstance(dt.dtype, DType) and dt.dtype.kind == "int":
        raise integer_cast_of_variable(lw, x, dt.dtype, c.node)  # an index array's values: its own integer dtype
    if isinstance(x, Value) and isinstance(x.type, ScalarType) and x.type.dtype == I32 and isinstance(dt, DT) \
            and dt.dtype == I64:
        # Triton's 64-bit index idiom (pid.to(tl.int64) * stride): cuTile tile indices and gather offsets are i32
        lw.note(c.node, "index", "64-bit index kept i32 (cuTile tile indices and gather offsets are i32: exact "
                "below 2**31 elements)")
        return x
    if isinstance(x, Value) and isinstance(x.type, ScalarType) and isinstance(dt, DT):
        return lw.convert(x, dt.dtype, c.node, c.hint)
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(c.node, "x.to(dtype) of a tile")
    if not isinstance(dt, DT):
        raise lw.err(c.pos[1], "x.to of something other than a dtype")
    r = lw.convert(x, dt.dtype, c.node, c.hint)
    if isinstance(c.pos[1], cst.Name) and c.pos[1].value in lw.dtype_consts:  # a cast to a dtype constexpr: a
        lw.dtype_casts[r.id] = c.pos[1].value  # store of it ties the constexpr to the array (dtype_params.py)
    lw.keep_rank(r, x)
    if x.id in lw.origin:
        lw.origin.setdefault(r.id, lw.origin[x.id])
    d = c.pos[1]  # x.to(t.dtype) of a tile t loaded from an array: the array's element type (its tf32 flag)
    if isinstance(d, cst.Attribute) and d.attr.value == "dtype" and isinstance(d.value, cst.Name):
        t = lw.env.get(d.value.value)
        if isinstance(t, Value) and t.id in lw.origin and r is not x:
            lw.origin[r.id] = lw.origin[t.id]
    return r


def _tf32_input(lw, x: Value, node) -> Value:
    """Triton's default input precision: f32 dot operands are rounded to tf32; for the kernel's dtype parameter
    that is a choice on the host-computed flag (the cuTile front end's ``ct.tfloat32 if A.dtype == ct.float32``)."""
    dt = x.type.dtype
    if dt == F32:
        return lw.convert(x, TF32, node)
    if isinstance(dt, DTypeParam):
        arr = lw.origin.get(x.id)
        if arr is None:  # computed, then cast to an array's element type (x.to(B.dtype.element_ty)): Triton types
            # the operand by its dtype alone, so the flag is that of the first pointer parameter of this dtype
            arr = next((n for n, v in lw.arrays.items() if v.type.dtype == dt), None)
        if arr is None:
            raise lw.err(node, "tl.dot operand of the array dtype not loaded from an array")
        flag = dtype_flag_name(arr, "f32", "tf32")
        if all(g.name != flag for g in lw.generics):
            lw.generics.append(Generic(flag, "const", "dtype_flag", f"1 when {arr}.dtype == f32 (host-computed)",
                                       (arr, "f32")))
        return lw.convert(x, DTypeChoice(flag, dt, F32, TF32, dt), node)
    return x


def dot(lw, c: Call, acc=None):
    """``tl.dot(a, b[, acc])`` -> ``mma``; ``acc += tl.dot(a, b)`` comes here with ``acc``."""
    a = dict(zip(["a", "b", "acc"], c.pos)) | c.kw
    if set(a) - {"a", "b", "acc", "input_precision", "allow_tf32", "out_dtype"} or "b" not in a:
        raise lw.err(c.node, "tl.dot(a, b[, acc][, input_precision=][, allow_tf32=][, out_dtype=])")
    if "out_dtype" in a:  # Triton's default for float operands is f32, the one accumulator mma has here
        od = lw.expr(a["out_dtype"])
        if not (isinstance(od, DT) and od.dtype == F32):
            raise lw.err(a["out_dtype"], "tl.dot out_dtype other than tl.float32 (the f32 accumulator of mma)")
    x, y = tile(lw, a["a"], "tl.dot of tiles"), tile(lw, a["b"], "tl.dot of tiles")
    if "acc" in a:
        if acc is not None:
            raise lw.err(c.node, "acc += tl.dot(a, b, acc)")
        acc = tile(lw, a["acc"], "tl.dot accumulator")
    if not (_is_float(x) or isinstance(x.type.dtype, DTypeParam)) or len(x.type.shape) != 2 \
            or len(y.type.shape) != 2:
        raise lw.err(c.node, "tl.dot of non-float or non-2-D tiles")
    prec = literal(a["input_precision"]) if "input_precision" in a else None
    tf32 = (literal(a["allow_tf32"]) if "allow_tf32" in a else True) is not False \
        and prec not in ("ieee",)
    if prec not in (None, "ieee", "tf32"):
        raise lw.err(c.node, f"input_precision={prec!r}")
    if tf32:
        x, y = _tf32_input(lw, x, c.node), _tf32_input(lw, y, c.node)
    shape = (x.type.shape[0], y.type.shape[1])
    if acc is None:
        acc = lw.const(0, F32, c.node, shape, "acc")
    if not isinstance(acc, Value) or acc.type != TileType(F32, shape):
        raise lw.err(c.node, "a tl.dot accumulator that is not an f32 tile of the product's shape")
    return lw.emit(OpKind.MMA, [x, y, acc], [acc.type], c.node, c.hint).result


lowers("tl.dot")(dot)


@lowers(*_REDUCE)
def reduce(lw, c: Call):
    """``tl.sum/max/min(x, axis, keep_dims=)``; a lifted row (a (1, N) tile that is 1-D in Triton) reduces on its
    IR axis and keeps the unit axis."""
    a = dict(zip(["input", "axis", "keep_dims"], c.pos)) | c.kw
    if set(a) - {"input", "axis", "keep_dims"} or "input" not in a:
        raise lw.err(c.node, f"{c.fn}(x, axis[, keep_dims])")
    x = tile(lw, a["input"], f"{c.fn} of a tile")
    if "axis" not in a or (isinstance(a["axis"], cst.Name) and a["axis"].value == "None"):
        return _reduce_all(lw, c, x)
    axis = lw.expr(a["axis"])
    keep = lw.expr(a["keep_dims"]) if "keep_dims" in a else False
    rank = lw.rank_of(x)
    if not _reducible(x) or not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank \
            or not isinstance(keep, bool):
        raise lw.err(c.node, f"{c.fn} of a non-float tile or with a non-constant axis")
    lift = len(x.type.shape) - rank
    ir_axis = (axis % rank) + lift
    shape = tuple(d for i, d in enumerate(x.type.shape) if i != ir_axis)
    red = lw.emit(_REDUCE[c.fn], [x], [TileType(x.type.dtype, shape)], c.node, (c.hint or "t") + "_red",
                  axis=ir_axis).result
    if not (keep or lift):
        return red
    full_shape = tuple(1 if i == ir_axis else d for i, d in enumerate(x.type.shape))
    r = lw.emit(OpKind.RESHAPE, [red], [TileType(x.type.dtype, full_shape)], c.node, c.hint, shape=full_shape).result
    trank = rank if keep else rank - 1
    if trank != len(full_shape):
        lw.trank[r.id] = trank
    return r


def _reducible(x: Value) -> bool:
    """A float tile, or a signed 32 / 64-bit integer one: Triton reduces those in their own dtype (narrower
    integers are summed in int32 first, _pick_sum_dtype: not lowered)."""
    return _is_float(x) or x.type.dtype in (I32, I64)


def _reduce_all(lw, c: Call, x: Value) -> Value:
    """``tl.sum(x)`` / ``tl.max(x)`` without an axis: every axis reduced, last first (a 0-d result)."""
    if not _reducible(x) or "keep_dims" in c.kw:
        raise lw.err(c.node, f"{c.fn}(x) of a non-float tile or with keep_dims")
    while len(x.type.shape):
        ax = len(x.type.shape) - 1
        shape = x.type.shape[:ax]
        x = lw.emit(_REDUCE[c.fn], [x], [TileType(x.type.dtype, shape)], c.node, (c.hint or "t") + "_red",
                    axis=ax).result
    lw.trank.pop(x.id, None)
    return x


@lowers("tl.maximum", "tl.minimum")
def extremum(lw, c: Call):
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, f"{c.fn}(x, y)")
    x, y = (lw.expr(p) for p in c.pos)
    x = lw.value(x, c.pos[0], like=y)
    y = lw.value(y, c.pos[1], like=x)
    if not isinstance(x, Value):
        x = lw.tile_of(x, y, c.node)
    y = lw.tile_of(y, x, c.node)
    x2, y2 = lw.unify(x, y, c.node)
    if not _is_float(x2) or not isinstance(x2.type, TileType):  # ints, scalars: maxi/mini (builder.minmax)
        r = lw.minmax("max" if c.fn == "tl.maximum" else "min", x2, y2, c.node, c.hint)
        return lw.keep_rank(r, x, y) if isinstance(r.type, TileType) else r
    kind = OpKind.MAXF if c.fn == "tl.maximum" else OpKind.MINF
    return lw.keep_rank(lw.emit(kind, [x2, y2], [x2.type], c.node, c.hint).result, x, y)


@lowers("tl.where")
def where(lw, c: Call):
    """``tl.where(cond, x, y)``: a select after promoting the arms and broadcasting all three (a mask
    ``offs < n`` becomes its bool tile)."""
    if len(c.pos) != 3 or c.kw:
        raise lw.err(c.node, "tl.where(cond, x, y)")
    cond = lw.value(lw.expr(c.pos[0]), c.pos[0])
    x, y = (lw.expr(p) for p in c.pos[1:])
    x = lw.value(x, c.pos[1], like=y)
    y = lw.value(y, c.pos[2], like=x)
    if isinstance(cond, Value) and cond.type == ScalarType(BOOL):  # a runtime scalar test: a 0-d bool tile
        cond = lw.to_tile(cond, c.pos[0])
    if not isinstance(cond, Value) or cond.type.dtype != BOOL or not isinstance(cond.type, TileType):
        raise lw.err(c.pos[0], "tl.where on something other than a bool tile")
    if not isinstance(x, Value):
        x = lw.tile_of(x, y if isinstance(y, Value) else cond, c.node)
    y = lw.tile_of(y, x, c.node)
    x2, y2 = lw.unify(x, y, c.node)
    cond2, x2 = lw.unify_shapes(cond, x2, c.node)
    cond2, y2 = lw.unify_shapes(cond2, y2, c.node)
    return lw.keep_rank(lw.emit(OpKind.SELECT, [cond2, x2, y2], [x2.type], c.node, c.hint).result, cond, x, y)


@lowers("tl.cdiv")
def cdiv(lw, c: Call):
    """``tl.cdiv(n, BLOCK)`` of two constants folds; of an extent by its block pointer's block it is the
    number of tiles of that array axis (``num_tiles``, as the cuTile counterpart writes it)."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "tl.cdiv(x, y)")
    n, b = (lw.expr(p) for p in c.pos)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (n, b)) and b > 0:
        return -(-n // b)
    if isinstance(n, ScalarParam) and n.name in lw.extents:
        arr, axis, block = lw.extents[n.name]
        if block is not None and block[axis] == b:
            v = view(lw, arr, block, "none", False, c.node)
            return lw.emit(OpKind.NUM_TILES, [v], [ScalarType(I32)], c.node, c.hint or "tiles", axis=axis).result
    if isinstance(n, ScalarParam) and n.name not in lw.runtime and n.name not in lw.strides and n.name not in lw.extents \
            and (isinstance(b, Sym) or isinstance(b, int) and not isinstance(b, bool)):
        # the extent is named by a mask later in the kernel (a k-loop bound before the loads it masks): the view
        # and axis are filled in when the kernel is lowered (Lowering.resolve_pending)
        v = lw.emit(OpKind.MAKE_VIEW, [], [ScalarType(I32)], c.node, "p")
        t = lw.emit(OpKind.NUM_TILES, [v.result], [ScalarType(I32)], c.node, c.hint or "tiles")
        lw.cdivs.append((n.name, b, v, t, c.node))
        return t.result
    q = ceil_div(lw, n, b, c.node, c.hint)  # any other i32 scalars: Triton's (n + b - 1) // b (cdivs.py)
    if q is None:
        raise lw.err(c.node, "tl.cdiv other than of i32 scalars or of an extent by the block of the views it bounds")
    return q


@lowers("float")
def float_(lw, c: Call):
    """``float("inf")`` / ``float("-inf")`` / ``float("nan")``."""
    v = literal(c.pos[0]) if len(c.pos) == 1 and not c.kw else None
    if not isinstance(v, str) or v.strip().lower() not in ("inf", "-inf", "+inf", "nan"):
        raise lw.err(c.node, "float(...) other than of 'inf' / '-inf' / 'nan'")
    return float(v)


def math(lw, c: Call):
    """A unary float function: rules/triton.toml ``[calls]`` maps it to a cuTile function with an ir.toml entry."""
    name = load_rules()["calls"][c.fn].removeprefix("ct.")
    x = lw.value(lw.expr(c.pos[0]), c.pos[0]) if len(c.pos) == 1 and not c.kw else None
    if isinstance(x, (int, float)) and not isinstance(x, bool):  # tl.math.rsqrt(2.0): Triton's to_tensor, an fp32
        x = lw.const(x, F32, c.node, (), "c")  # scalar (computed in the kernel, as Triton does)
    # the arrays' element type E is a float in every spec a port serves (ir/typing.py): the function in that dtype,
    # as Triton applies it to the loaded tile's dtype (and the cuTile front end spells it generically)
    if not isinstance(x, Value) or not isinstance(x.type, TileType) or not (
            _is_float(x) or isinstance(x.type.dtype, DTypeParam)):
        raise lw.err(c.node, f"{c.fn} of a non-float tile")
    return lw.keep_rank(lw.emit(OpKind.MATH, [x], [x.type], c.node, c.hint or f"{name}_t", fn=name).result, x)


lowers(*[t for t, ct_name in load_rules()["calls"].items() if ct_name in ir_rules()["math"]])(math)
