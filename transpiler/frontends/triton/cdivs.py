"""``tl.cdiv`` that counts no tiles of a view: a scalar ceil-division.

Triton defines ``tl.cdiv(x, div)`` as ``(x + div - 1) // div`` (triton/language/standard.py). When ``x`` is the
extent of an array axis that views of block ``div`` tile, the count is that view's ``num_tiles`` (tiles.py); any
other i32 scalar operands (a loaded group size, a runtime argument, an extent tiled by another block, a nested
``tl.cdiv``) lower to the scalar ceil-division cuTile Python spells ``ct.cdiv``: ``divi`` rounding to +inf. The two
agree for every ``x > -div`` (sizes and counts, which is what Triton kernels divide: Triton's ``//`` truncates, so
they part only for ``x <= -div``).
"""

from __future__ import annotations

from ...ir.ops import Block, OpKind
from ...ir.types import I32, ScalarType, Sym, TileType
from ...ir.values import Value
from .values import ScalarParam


def ceil_div(lw, n, d, node, hint: str = "") -> Value | None:
    """``ceil(n / d)`` of two i32 scalars (a const generic / int ``d`` becomes a constant), or None when an operand
    is no i32 scalar (a tile: the caller refuses)."""
    if not (_i32_scalar(lw, n) and _i32_scalar(lw, d)):
        return None
    a = lw.i32(lw.value(n, node), node)
    b = lw.i32(lw.value(d, node), node)
    return lw.emit(OpKind.DIVI, [a, b], [ScalarType(I32)], node, hint or "cdiv", rounding="positive_inf").result


def _i32_scalar(lw, v) -> bool:
    if isinstance(v, ScalarParam):  # an extent or a runtime argument (an int argument is i32 until a float meets it)
        return v.name not in lw.strides and (v.name not in lw.runtime or lw.runtime[v.name].type == ScalarType(I32))
    if isinstance(v, Value):
        return v.type in (ScalarType(I32), TileType(I32, ()))
    return isinstance(v, Sym) or isinstance(v, int) and not isinstance(v, bool)


def resolve_as_ceil_div(lw, name: str, d, view_op, tiles_op, node) -> bool:
    """A ``tl.cdiv(name, d)`` lowered as a placeholder tile count (a ``make_view`` then ``num_tiles``, before the
    kernel named ``name``'s role) whose ``name`` turned out not to be an extent tiled by ``d``: the placeholder ops
    become the scalar ceil-division of ``name``'s value (its array extent, or the runtime argument), keeping the
    count's SSA value. False when ``name`` is no i32 scalar (a stride)."""
    saved, tmp = lw.block, Block()
    lw.block = tmp
    try:
        q = ceil_div(lw, ScalarParam(name), d, node, tiles_op.result.hint)
    finally:
        lw.block = saved
    if q is None or not tmp.ops or tmp.ops[-1].results[0] is not q:
        return False
    tmp.ops[-1].results = [tiles_op.result]
    ops = _block_of(lw.top, view_op)
    i = ops.index(view_op)
    ops[i:i + 1] = tmp.ops
    ops.remove(tiles_op)
    return True


def _block_of(block: Block, op) -> list:
    if op in block.ops:
        return block.ops
    for o in block.ops:
        for r in o.regions:
            found = _block_of(r, op)
            if found is not None:
                return found
    return None
