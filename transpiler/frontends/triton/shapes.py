"""Shape family of the typed Triton front end: ``tl.trans`` (a permute, as cuTile Python's ``ct.transpose`` /
``ct.permute`` emit it)."""

from __future__ import annotations

from ..cutile.shapes import permute
from .registry import Call, lowers
from .tiles import tile


@lowers("tl.trans")
def trans(lw, c: Call):
    """``tl.trans(x)`` reverses the axes of a 2-D tile; ``tl.trans(x, *dims)`` / ``tl.trans(x, dims)`` permutes."""
    if c.kw or not c.pos:
        raise lw.err(c.node, "tl.trans(x[, dims])")
    x = tile(lw, c.pos[0], "tl.trans of a tile")
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
