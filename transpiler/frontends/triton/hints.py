"""Compiler hints and sign of the typed Triton front end: ``tl.multiple_of`` / ``tl.max_contiguous`` are the
value itself (alignment / contiguity hints with no cuTile counterpart; noted), ``tl.abs`` is ``absf`` / ``absi``."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import DType, TileType
from ...ir.values import Value
from .registry import Call, lowers


@lowers("tl.multiple_of", "tl.max_contiguous", "tl.max_constancy")
def hint(lw, c: Call):
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, f"{c.fn}(x, values)")
    lw.note(c.node, "hint", f"{c.fn} dropped (a codegen hint; the value is unchanged)")
    return lw.expr(c.pos[0], c.hint)


@lowers("tl.abs")
def abs_(lw, c: Call):
    if len(c.pos) != 1 or c.kw:
        raise lw.err(c.node, "tl.abs(x)")
    x = lw.value(lw.expr(c.pos[0]), c.pos[0])
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return abs(x)
    if not (isinstance(x, Value) and isinstance(x.type, TileType) and isinstance(x.type.dtype, DType)):
        raise lw.err(c.node, "tl.abs of something other than a tile of a known element type")
    kind = OpKind.ABSF if x.type.dtype.is_float else OpKind.ABSI
    return lw.keep_rank(lw.emit(kind, [x], [x.type], c.node, c.hint or "abs").result, x)


@lowers("tl.debug_barrier")
def debug_barrier(lw, c: Call):
    """``tl.debug_barrier()`` is a CTA-wide ``bar.sync`` among Triton's threads. A cuTile tile block is one
    program (no threads of its own to synchronise; its memory operations are ordered as its program orders them,
    and an ``acq_rel`` atomic after it releases all of the block's prior stores): the barrier is dropped."""
    if c.pos or c.kw:
        raise lw.err(c.node, "tl.debug_barrier()")
    lw.note(c.node, "hint", "tl.debug_barrier dropped (a cuTile tile block is one program: no threads to "
            "synchronise)")
    return None
