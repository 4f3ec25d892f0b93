"""cuTile Python's typing rules, implemented once on IR types (used by the front ends).

* a Python scalar meeting a tile or a runtime scalar is *loosely typed*: of the same category (bool < int <
  float) it takes the other operand's dtype (``x * 2`` on f16 stays f16; an int constant out of that
  dtype's range is an error), of a stronger category its own default dtype wins (an i32 tile times ``0.5``
  is f32); it becomes a 0-d constant broadcast to the tile's shape (:func:`literal_dtype`);
* two typed operands (tiles, runtime scalars: cuTile Python's scalars are 0-d tiles) of different concrete
  dtypes promote per cuTile Python's table: the stronger category wins (bool < int/uint < float), within one
  category the wider; signed meets unsigned, f16 meets bf16, tf32 meets anything else: an error asking for
  an explicit cast (:func:`promote`); the array element type ``E`` (a float of at most 32 bits in every spec
  a port serves) loses to f32 / f64 and wins over bool; another dtype meeting it is refused, since the result
  would depend on the specialisation; two different dtype parameters never meet;
* true division ``/`` of integers is f32 (``force_float``; :func:`true_div_dtype`);
* a bare Python ``int`` is ``i32``, a bare ``float`` is ``f32`` (cuTile's default dtypes);
* shapes broadcast NumPy-style (right-aligned, 1 stretches);
* constant arithmetic on Python numbers folds at lowering time (:func:`fold`).
"""

from __future__ import annotations

import operator

from .types import BOOL, F32, I32, TF32, DType, DTypeLike, DTypeParam, Shape

DEFAULT_INT = I32
DEFAULT_FLOAT = F32
_RANK = {"bool": 0, "uint": 1, "int": 1, "float": 2}


class PromotionError(ValueError):
    pass


class GenericMeetsConcrete(PromotionError):
    """A dtype parameter (``E``) meets a concrete dtype: the result type depends on what ``E`` is, so the kernel
    is lowered once per concrete element type instead (frontends/cutile/__init__.py)."""


def default_dtype(v: object) -> DType:
    if isinstance(v, bool):
        return BOOL
    return DEFAULT_INT if isinstance(v, int) else DEFAULT_FLOAT


def promote(a: DTypeLike, b: DTypeLike) -> DTypeLike:
    """The common element type of two typed operands (cuTile Python's binary-op promotion table)."""
    if a == b:
        return a
    if isinstance(a, DTypeParam) and isinstance(b, DType) or isinstance(b, DTypeParam) and isinstance(a, DType):
        concrete, param = (a, b) if isinstance(a, DType) else (b, a)
        # an array's element type is a float of at most 32 bits in every spec a port serves (f16, bf16, f32;
        # the emitter's element entries): f32 / f64 win over it whichever it is, a bool loses to it
        if concrete.is_float and concrete.bits >= 32 and concrete != TF32:
            return concrete
        if concrete == BOOL:
            return param
        raise GenericMeetsConcrete(f"{concrete} meets the array element type {param}: the result depends on the "
                                   "specialisation (lowered once per element type; or cast one operand with ct.astype)")
    if not (isinstance(a, DType) and isinstance(b, DType)):
        raise GenericMeetsConcrete(f"{a} meets {b}: a dtype parameter meets only itself")
    cast = "implicit promotion is not supported: cast explicitly (ct.astype)"
    if TF32 in (a, b):
        raise PromotionError(f"{a} meets {b}: {cast}")
    ra, rb = _RANK[a.kind], _RANK[b.kind]
    if ra != rb:
        return a if ra > rb else b
    if a.kind != b.kind:  # signed meets unsigned
        raise PromotionError(f"{a} meets {b}: {cast}")
    if a.bits != b.bits:
        return a if a.bits > b.bits else b
    raise PromotionError(f"{a} meets {b}: {cast}")  # f16 meets bf16


def _int_range(dt: DType) -> tuple[int, int]:
    if dt.kind == "uint":
        return 0, 2 ** dt.bits - 1
    return -(2 ** (dt.bits - 1)), 2 ** (dt.bits - 1) - 1


def literal_dtype(other: DTypeLike, value: object) -> DTypeLike:
    """The dtype a Python number (loosely typed) takes when it meets an operand of dtype ``other``."""
    if not isinstance(other, DType):  # a dtype parameter: an array's element type, taken as it is
        return other
    own = default_dtype(value)
    r_own, r_other = _RANK[own.kind], _RANK[other.kind]
    if r_own > r_other:
        return own
    if r_own == r_other and other.kind in ("int", "uint") and not isinstance(value, bool):
        lo, hi = _int_range(other)
        if not lo <= value <= hi:
            raise PromotionError(f"integer constant {value} is out of range of {other}")
    return other


def true_div_dtype(dt: DTypeLike) -> DTypeLike:
    """The dtype ``/`` computes in: the operands' own float dtype, f32 for integers and bools."""
    if isinstance(dt, DType) and not dt.is_float:
        return DEFAULT_FLOAT
    return dt


def broadcast_shapes(a: Shape, b: Shape) -> Shape:
    n = max(len(a), len(b))
    a2 = (1,) * (n - len(a)) + tuple(a)
    b2 = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a2, b2):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise PromotionError(f"shapes {a} and {b} do not broadcast")
    return tuple(out)


_FOLD = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
         "%": operator.mod, "/": operator.truediv, "**": operator.pow, "&": operator.and_, "|": operator.or_,
         "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift, "<": operator.lt, "<=": operator.le,
         ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne}
_INT_ONLY = {"&", "|", "^", "<<", ">>"}


def fold(op: str, a: object, b: object) -> object | None:
    """Python-number constant folding (``TILE * 2`` of two literals); None when not foldable."""
    f = _FOLD.get(op)
    if f is None or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
        return None
    if op in _INT_ONLY and not all(isinstance(x, int) for x in (a, b)):
        return None
    try:
        return f(a, b)
    except (ZeroDivisionError, ValueError, OverflowError):
        return None
