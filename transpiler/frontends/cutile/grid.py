"""Grid family: ``ct.bid``, ``ct.num_blocks``."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import I32, ScalarType
from .registry import Call, lowers


@lowers("ct.bid", "ct.num_blocks")
def block_index(lw, c: Call):
    if len(c.pos) + len(c.kw) != 1 or set(c.kw) - {"axis"}:
        raise lw.err(c.node, f"{c.fn}(axis)")
    axis = lw.expr(c.pos[0] if c.pos else c.kw["axis"])  # ct.bid(0) / ct.bid(axis=0)
    if axis not in (0, 1, 2):
        raise lw.err(c.node, f"{c.fn} axis must be 0, 1 or 2")
    kind = OpKind.BLOCK_ID if c.fn == "ct.bid" else OpKind.NUM_BLOCKS
    default = "bid" if kind == OpKind.BLOCK_ID else "nblocks"
    return lw.emit(kind, [], [ScalarType(I32)], c.node, c.hint or default, axis=axis).result
