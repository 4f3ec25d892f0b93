"""Arithmetic family: the function forms of the Python operators (``ct.floordiv``, ``ct.mod``, ``ct.pow``,
``ct.bitwise_*``, ``ct.greater`` ...), ``ct.where``, ``ct.maximum`` / ``ct.minimum``, ``ct.abs``,
``ct.negative``, ``ct.isnan``, ``ct.cdiv``. Typing (Python numbers, scalars meeting tiles, mixed dtypes) is
the builder's (frontends/builder.py, ir/typing.py), shared with the operators."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import BOOL, DType, ScalarType, TileType
from ...ir.values import Value
from .args import bind, value
from .control import const_test, remember_const
from .registry import Call, lowers

_BINARY = {"ct.floordiv": "//", "ct.mod": "%", "ct.pow": "**", "ct.bitwise_and": "&", "ct.bitwise_or": "|",
           "ct.bitwise_xor": "^", "ct.bitwise_lshift": "<<", "ct.bitwise_rshift": ">>", "ct.greater": ">",
           "ct.greater_equal": ">=", "ct.less": "<", "ct.less_equal": "<=", "ct.equal": "==", "ct.not_equal": "!="}
_UNARY = {"ct.negative": "-", "ct.bitwise_not": "~"}


@lowers(*_BINARY)
def binary_fn(lw, c: Call):
    a = bind(lw, c, "x, y, /")
    return lw.binary(_BINARY[c.fn], value(lw, a["x"]), value(lw, a["y"]), c.node, c.hint)


@lowers(*_UNARY)
def unary_fn(lw, c: Call):
    a = bind(lw, c, "x, /")
    return lw.unary(_UNARY[c.fn], value(lw, a["x"]), c.node, c.hint)


@lowers("ct.where")
def where(lw, c: Call):
    a = bind(lw, c, "cond, x, y, /")
    return lw.select(value(lw, a["cond"]), value(lw, a["x"]), value(lw, a["y"]), c.node, c.hint)


@lowers("ct.maximum", "ct.minimum")
def minmax(lw, c: Call):
    a = bind(lw, c, "x, y, /, *, flush_to_zero=False, propagate_nan=False")
    if value(lw, a["flush_to_zero"]) is not False or value(lw, a["propagate_nan"]) is not False:
        raise lw.err(c.node, f"{c.fn} with flush_to_zero= / propagate_nan= (the typed path spells the defaults)")
    x, y = value(lw, a["x"]), value(lw, a["y"])
    fn = "max" if c.fn == "ct.maximum" else "min"
    if not isinstance(x, Value) and not isinstance(y, Value):
        return (max if fn == "max" else min)(x, y)
    return lw.minmax(fn, x, y, c.node, c.hint)


def _typed(lw, c: Call, x) -> Value:
    x = lw.i32(x, c.node) if not isinstance(x, (Value, float)) else x
    if not isinstance(x, Value) or not isinstance(x.type, (TileType, ScalarType)):
        raise lw.err(c.node, f"{c.fn} of {x!r}")
    return x


@lowers("ct.abs")
def abs_(lw, c: Call):
    a = bind(lw, c, "x, /")
    x = value(lw, a["x"])
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return abs(x)
    x = _typed(lw, c, x)
    dt = x.type.dtype
    if dt == BOOL:
        raise lw.err(c.node, "ct.abs of a bool value")
    kind = OpKind.ABSI if isinstance(dt, DType) and dt.kind in ("int", "uint") else OpKind.ABSF
    return lw.emit(kind, [x], [x.type], c.node, c.hint or "abs").result


@lowers("ct.isnan")
def isnan(lw, c: Call):
    """``x != x``, unordered (cuTile Python's lowering); false for integers."""
    a = bind(lw, c, "x, /")
    x = _typed(lw, c, value(lw, a["x"]))
    if isinstance(x.type.dtype, DType) and not x.type.dtype.is_float:
        raise lw.err(c.node, "ct.isnan of an integer value")
    return lw.compare("!=", x, x, c.node, c.hint or "nan")


@lowers("ct.cdiv")
def cdiv(lw, c: Call):
    """Ceiling division: folded on constants; divi rounding to +inf on integer values (the reference's op)."""
    a = bind(lw, c, "x, y, /")
    x, y = value(lw, a["x"]), value(lw, a["y"])
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)) and y != 0:
        return -(-x // y)
    a, b = x, y
    x, y = lw.operands(x, y, c.node)
    dt = x.type.dtype
    if not (isinstance(dt, DType) and dt.kind == "int"):
        raise lw.err(c.node, f"ct.cdiv of {x.type} (signed integers only)")
    result = lw.emit(OpKind.DIVI, [x, y], [x.type], c.node, c.hint or "cdiv", rounding="positive_inf").result
    remember_const(lw, "cdiv", a, b, result)  # ct.cdiv(N, TILE) of ct.Constant values: a const expression
    return result


@lowers("ct.static_assert")
def static_assert(lw, c: Call):
    """A compile-time assertion: nothing in the IR when it holds, a diagnostic where cuTile Python raises."""
    a = bind(lw, c, "condition, message=None, /")
    cond = value(lw, a["condition"])
    if isinstance(cond, Value) and cond.id in getattr(lw, "sym_derived", ()):
        # on ct.Constant values (BLOCK_N == GROUP_N): cuTile Python checks it per launch and emits nothing; the
        # port's IR is the same where it holds (its ops are dead), and the reference compiles nothing where not
        lw.note(c.node, "demotion", f"ct.static_assert({lw.info.module.code_for_node(a['condition'])}) on "
                "ct.Constant values: checked by cuTile Python at compile time, not by the port (no Tile IR either way)")
        return None
    test = const_test(lw, cond) if not isinstance(cond, (bool, int, float)) else None
    if test is not None:  # BLOCK_N == GROUP_N of ct.Constant ints: cuTile Python checks it at JIT time per launch
        lw.note(c.node, "demotion", f"ct.static_assert({test.python()}) is checked by cuTile Python per launch; "
                                    "the port does not check it (a spec that violates it fails the reference)")
        return None
    if not isinstance(cond, bool):
        raise lw.err(c.node, "ct.static_assert of a condition that is not a compile-time constant")
    if not cond:
        raise lw.err(c.node, "ct.static_assert fails (cuTile Python raises TileStaticAssertionError)")
    return None
