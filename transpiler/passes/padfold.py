"""A rank-1 gather padded by a select becomes a padded gather again once its element type is concrete.

The front ends lower a padded ``ct.gather`` whose element type is still a generic other than ``E`` (or whose
index shape has rank >= 2) as an *unpadded* gather and ``select(mask, gathered, pad)`` (Builder.gather_select:
cutile cannot spell a generic padding scalar, and widens a scalar padding through a rank-1 reshape). After
specialisation the element type is often concrete (TileGym's attention backward reads its f32 ``LSE`` / ``Delta``
rows so); the reference's op is then one ``load_ptr_tko`` with the padding operand. The two mean the same (ircanon
folds the pair), but tileiras does not compile them alike: with the select it cannot turn the loads of a loop into
zero-filling asynchronous copies and pipeline them (`_fmha_bwd_dkdv_kernel`, TILE_M 32 / TILE_N 64: 736 SASS
instructions and 43 KB of shared memory against the reference's 1664 and 67 KB, the q-block loop not unrolled,
0.75-0.90x on the H200; folded, the same SASS as the reference, benchmarks/sass_diff.py).

So a gather with ``unpadded`` and a mask, of a rank-1 index shape and a concrete element type, whose only use is
``select(that mask, it, reshape/broadcast of a 0-d pad)``, becomes a padded gather (pad operand before the mask)
and takes the select's result. Runs after specialise (element types concrete), before fma.
"""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind
from ..ir.types import DType, TileType
from ..ir.values import Value
from .util import use_counts, walk_blocks


def _pad_of(v: Value, defs: dict[int, Op]) -> Value | None:
    """The 0-d tile ``v`` broadcasts (through reshape / broadcast ops), or None."""
    while isinstance(v.type, TileType) and v.type.shape:
        d = defs.get(v.id)
        if d is None or d.kind not in (OpKind.RESHAPE, OpKind.BROADCAST):
            return None
        v = d.operands[0]
    return v if isinstance(v.type, TileType) else None


def _fold(block: Block, defs: dict[int, Op], counts: dict[int, int]) -> None:
    gathers: dict[int, Op] = {}
    out: list[Op] = []
    for op in block.ops:
        for r in op.results:
            defs[r.id] = op
        if op.kind == OpKind.GATHER and op.attrs.get("unpadded") and op.attrs.get("has_mask") \
                and not op.attrs.get("token") and len(op.attrs.get("shape", ())) == 1 \
                and isinstance(op.results[0].type.dtype, DType) and counts.get(op.results[0].id) == 1:
            gathers[op.results[0].id] = op
        if op.kind == OpKind.SELECT and op.operands[1].id in gathers:
            g = gathers.pop(op.operands[1].id)
            mask = g.operands[-1]
            pad = _pad_of(op.operands[2], defs)
            if op.operands[0] is mask and pad is not None and pad.type == TileType(g.results[0].type.dtype, ()):
                attrs = {k: v for k, v in g.attrs.items() if k != "unpadded"}
                folded = Op(OpKind.GATHER, [*g.operands[:-1], pad, mask], op.results, attrs, g.loc)
                at = next(i for i, o in enumerate(out) if o is g)
                out[at] = folded  # the gather's place: the select's result defined there
                continue
        out.append(op)
    block.ops = out


def run(kernel: Kernel) -> Kernel:
    counts = use_counts(kernel.body)
    defs: dict[int, Op] = {}
    for b in walk_blocks(kernel.body):
        _fold(b, defs, counts)
    return kernel
