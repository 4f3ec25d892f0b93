"""Grid family: ``tl.program_id``, ``tl.num_programs`` (block ids / grid size, as cuTile's ``bid`` / ``num_blocks``)."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import I32, ScalarType
from .registry import Call, lowers


@lowers("tl.program_id", "tl.num_programs")
def block_index(lw, c: Call):
    node = c.pos[0] if c.pos else c.kw.get("axis")
    if node is None or len(c.pos) + len(c.kw) != 1:
        raise lw.err(c.node, f"{c.fn}(axis)")
    axis = lw.expr(node)
    if axis not in (0, 1, 2) or isinstance(axis, bool):
        raise lw.err(c.node, f"{c.fn} axis must be 0, 1 or 2")
    kind = OpKind.BLOCK_ID if c.fn == "tl.program_id" else OpKind.NUM_BLOCKS
    default = "pid" if kind == OpKind.BLOCK_ID else "nprog"
    return lw.emit(kind, [], [ScalarType(I32)], c.node, c.hint or default, axis=axis).result
