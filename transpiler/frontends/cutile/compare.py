"""Comparison family: ``a < b`` (and ``<=``, ``>``, ``>=``, ``==``, ``!=``) of tiles / scalars -> ``cmpi`` /
``cmpf`` on the promoted, broadcast operands (cuTile Python compares like it adds: a Python number takes the
tile's dtype, a runtime scalar is a 0-d tile); the result is a bool tile of the common shape. Masks for
``ct.gather`` / ``ct.scatter`` (``mask=idx < n``) are built this way."""

from __future__ import annotations

import libcst as cst

from ...ir.ops import OpKind
from ...ir.types import BOOL, DType, ScalarType, TileType
from ...ir.values import Value

_PREDICATE = {cst.LessThan: "lt", cst.LessThanEqual: "le", cst.GreaterThan: "gt", cst.GreaterThanEqual: "ge",
              cst.Equal: "eq", cst.NotEqual: "ne"}
_FOLD = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
         "ge": lambda a, b: a >= b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b}


def comparison(lw, node: cst.Comparison, hint: str = ""):
    if len(node.comparisons) != 1 or type(node.comparisons[0].operator) not in _PREDICATE:
        raise lw.err(node, "chained comparisons / comparisons other than < <= > >= == !=")
    pred = _PREDICATE[type(node.comparisons[0].operator)]
    a, b = lw.expr(node.left), lw.expr(node.comparisons[0].comparator)
    if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
        return _FOLD[pred](a, b)  # translate-time constants (check_bounds=TILE_A != 64 of module constants)
    if not isinstance(a, Value) and not isinstance(b, Value):
        raise lw.err(node, "a comparison of const generics (the JIT folds it; no constant flag for it yet)")
    a = lw.i32(a, node) if not isinstance(a, (Value, int, float)) else a
    b = lw.i32(b, node) if not isinstance(b, (Value, int, float)) else b
    a = lw.tile_of(a, b if isinstance(b, Value) else a, node)
    b = lw.tile_of(b, a, node)
    if isinstance(a.type, ScalarType) and isinstance(b.type, ScalarType) and not lw.scalars_meet_tiles:
        raise lw.err(node, "a comparison of runtime scalars")
    if isinstance(a.type, ScalarType) and isinstance(b.type, ScalarType):
        a, b = lw.to_tile(a, node), lw.to_tile(b, node)
    a, b = lw.unify(a, b, node)
    dt = a.type.dtype
    if not isinstance(dt, DType):
        raise lw.err(node, f"a comparison of the generic dtype {dt}")
    kind = OpKind.CMPF if dt.is_float else OpKind.CMPI
    if dt == BOOL:
        raise lw.err(node, "a comparison of bool tiles")
    return lw.emit(kind, [a, b], [TileType(BOOL, a.type.shape)], node, hint or "m", predicate=pred).result
