"""cuTile Python's typing rules, implemented once on IR types (used by the front ends).

* a Python scalar meeting a tile takes the tile's element type (``x * 2`` on f16 stays f16; an int
  literal meeting a float tile becomes a float constant), as a 0-d constant broadcast to the tile's shape;
* two tiles of different concrete dtypes promote to the wider one of the higher category
  (bool < int < float; f16 with bf16 -> f32); a dtype parameter meets only itself;
* a bare Python ``int`` is ``i32``, a bare ``float`` is ``f32`` (cuTile's default dtypes);
* shapes broadcast NumPy-style (right-aligned, 1 stretches);
* constant arithmetic on Python numbers folds at lowering time (:func:`fold`).
"""

from __future__ import annotations

import operator

from .types import BOOL, DTYPES, F32, I32, DType, DTypeLike, Shape

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
    """The common element type of two tiles (cuTile Python's binary-op promotion)."""
    if a == b:
        return a
    if not (isinstance(a, DType) and isinstance(b, DType)):
        raise GenericMeetsConcrete(f"{a} meets {b}: a dtype parameter meets only itself")
    ra, rb = _RANK[a.kind], _RANK[b.kind]
    if ra != rb:
        return a if ra > rb else b
    if a.bits != b.bits:
        return a if a.bits > b.bits else b
    if a.kind == "float":  # f16 vs bf16 (and tf32 vs f32): the next wider float
        return DTYPES["f32"] if a.bits == 16 else a
    raise PromotionError(f"{a} meets {b}: signed and unsigned integers of one width")


def literal_dtype(tile: DTypeLike, value: object) -> DTypeLike:
    """The dtype a Python number takes when it meets a tile of dtype ``tile``."""
    if isinstance(value, float) and not value.is_integer() and isinstance(tile, DType) and not tile.is_float:
        raise PromotionError(f"float literal {value} meets an integer tile")
    return tile


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
         "%": operator.mod, "/": operator.truediv}


def fold(op: str, a: object, b: object) -> object | None:
    """Python-number constant folding (``TILE * 2`` of two literals); None when not foldable."""
    f = _FOLD.get(op)
    if f is None or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
        return None
    try:
        return f(a, b)
    except ZeroDivisionError:
        return None
