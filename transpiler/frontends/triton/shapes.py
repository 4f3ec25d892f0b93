"""Shape family of the typed Triton front end: ``tl.trans`` (a permute, as cuTile Python's ``ct.transpose`` /
``ct.permute`` emit it), ``tl.reshape`` / ``t.reshape`` (row-major, as ``ct.reshape``), ``tl.expand_dims`` (a reshape adding unit
axes)."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import TileType
from ..cutile.shapes import permute
from ...ir.values import Value
from .high_rank import MAX_RANK, HighRank, lower as lower_high_rank, permuted, refusal
from .registry import Call, lowers
from .tiles import tile


def tile_or_high_rank(lw, node, what: str):
    """A tile operand of a reshape / permute, or the :class:`HighRank` of a reshape to rank > 6."""
    raw = lw.expr(node)
    if isinstance(raw, HighRank):
        return raw
    x = lw.value(raw, node)
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(node, what)
    return x


@lowers("tl.trans")
def trans(lw, c: Call):
    """``tl.trans(x)`` reverses the axes of a 2-D tile; ``tl.trans(x, *dims)`` / ``tl.trans(x, dims)`` permutes."""
    if c.kw or not c.pos:
        raise lw.err(c.node, "tl.trans(x[, dims])")
    x = tile_or_high_rank(lw, c.pos[0], "tl.trans of a tile")
    if isinstance(x, HighRank):  # a permute of a rank > 6 reshape (high_rank.py)
        dims = [lw.expr(p) for p in c.pos[1:]]
        if len(dims) == 1 and isinstance(dims[0], tuple):
            dims = list(dims[0])
        if not dims:
            raise refusal(lw, c.node, f"tl.trans without dims of a rank-{len(x.shape)} tile")
        return permuted(lw, x, tuple(dims), c.node)
    rank = len(x.type.shape)
    if lw.rank_of(x) != rank:
        raise lw.err(c.node, "tl.trans of a row kept as a (1, N) tile")
    dims = [lw.expr(p) for p in c.pos[1:]]
    if len(dims) == 1 and isinstance(dims[0], tuple):
        dims = list(dims[0])
    perm = dims or list(range(rank))[::-1]
    if sorted(perm) != list(range(rank)) or not all(isinstance(p, int) for p in perm):
        raise lw.err(c.node, f"tl.trans dims {perm!r} of a rank-{rank} tile")
    r = permute(lw, c, x, tuple(perm))
    if x.id in lw.origin:
        lw.origin[r.id] = lw.origin[x.id]
    return r


@lowers("tl.reshape", ".reshape")
def reshape(lw, c: Call):
    """``tl.reshape(x, shape)`` / ``x.reshape(shape)`` / ``x.reshape(d0, d1, ..)``: the same elements in row-major
    order (Triton's default ``can_reorder=False``)."""
    if c.kw or len(c.pos) < 2:
        raise lw.err(c.node, f"{c.fn}(x, shape) without can_reorder")
    x = tile_or_high_rank(lw, c.pos[0], f"{c.fn} of a tile")
    dims = lw.shape(c.pos[1]) if len(c.pos) == 2 else tuple(lw.dim(lw.expr(p), p) for p in c.pos[1:])
    if isinstance(x, HighRank):  # back from rank > 6 (high_rank.py)
        if len(dims) > MAX_RANK:
            raise refusal(lw, c.node, f"a reshape of a rank-{len(x.shape)} tile to rank {len(dims)}")
        return lower_high_rank(lw, x, tuple(dims), c)
    if len(dims) > MAX_RANK:  # kept until a reshape brings it back to rank <= 6
        return HighRank(x, tuple(dims), tuple(range(len(dims))))
    r = lw.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, dims)], c.node, c.hint or "rs", shape=dims).result
    if x.id in lw.origin:
        lw.origin[r.id] = lw.origin[x.id]
    return r


@lowers("tl.expand_dims", ".expand_dims")
def expand_dims(lw, c: Call):
    """``tl.expand_dims(x, axis)`` / ``x.expand_dims(axis)``: unit axes inserted at ``axis`` (an int or a tuple of
    ints, negative counted from the result's end, as Triton's), a reshape of the same elements."""
    if c.kw or len(c.pos) != 2:
        raise lw.err(c.node, f"{c.fn}(x, axis)")
    x = tile(lw, c.pos[0], f"{c.fn} of a tile")
    if lw.rank_of(x) != len(x.type.shape):
        raise lw.err(c.node, f"{c.fn} of a row kept as a (1, N) tile")
    axes = lw.expr(c.pos[1])
    axes = list(axes) if isinstance(axes, tuple) else [axes]
    if not axes or not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
        raise lw.err(c.pos[1], f"{c.fn} axis other than integers")
    rank = len(x.type.shape) + len(axes)
    new = sorted(a + rank if a < 0 else a for a in axes)
    if len(set(new)) != len(new) or any(not 0 <= a < rank for a in new):
        raise lw.err(c.pos[1], f"{c.fn} axes {axes!r} of a rank-{len(x.type.shape)} tile")
    dims, rest = [], iter(x.type.shape)
    for i in range(rank):
        dims.append(1 if i in new else next(rest))
    r = lw.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, tuple(dims))], c.node, c.hint or "ed",
                shape=tuple(dims)).result
    if x.id in lw.origin:
        lw.origin[r.id] = lw.origin[x.id]
    return r
