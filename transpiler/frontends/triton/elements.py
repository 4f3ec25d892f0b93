"""Single-element stores of the typed Triton front end: ``tl.store(P + i, v)`` with ``i`` a scalar and ``v`` a 0-d
value (a row statistic: ``tl.store(Mean + row, mean)``) is a 0-d ``scatter`` of the 1-D array at ``i`` (bounds
checked, no mask), as cuTile Python's ``ct.scatter(Mean, row, v)``; the value is cast to the array's element type."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import I32, ScalarType, TileType
from ...ir.values import Value
from .element_types import stored as stored_as
from .pointers import Ptr
from .values import ArrayRef


def element_store(lw, c, a: dict) -> bool:
    """Lower ``tl.store(P + i, v)`` of one element; False when the store is not one (the view path takes it)."""
    if set(a) != {"pointer", "value"}:
        return False
    p = lw.expr(a["pointer"])
    if isinstance(p, ArrayRef):
        p = Ptr(p.name)
    if not (isinstance(p, Ptr) and p.base is not None and len(p.terms) == 1):
        return False
    t = p.terms[0]
    idx = lw.value(t.idx, a["pointer"]) if t.rng is None and not t.stride and t.idx is not None else None
    if not (isinstance(idx, Value) and idx.type == ScalarType(I32)):
        return False
    val = lw.value(lw.expr(a["value"], "out"), a["value"])
    if not (isinstance(val, Value) and isinstance(val.type, TileType) and val.type.shape == ()):
        return False
    arr = lw.array(p.base, 1, c.node)
    dt = arr.type.dtype
    val = stored_as(lw, val, dt, c.node, (val.hint or "v") + "_c", p.base)  # cast to the pointer's type
    lw.emit(OpKind.SCATTER, [arr, idx, val], [], c.node, check_bounds=True, has_mask=False, index=[None],
            latency=None, shape=[])
    return True
