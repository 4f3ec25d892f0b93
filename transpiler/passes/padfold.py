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
and takes the select's result.

Any other such pair (an index shape of rank >= 2: TileGym's fused MoE A rows, the fp8 matmul's A block,
sparse MLA's K / V rows; or a generic element type) becomes a padded gather whose padding operand is the select's
pad *tile*, of the result's shape (attr ``pad_tile``), where the target spells one (profile ``[api.padding_tile]``:
cutile 0.5.0 takes the tile through a module-local ``cast`` op the emitter declares, so the crate does not widen
it; docs/cutile-defects.md). That is the reference's own operand: cuTile Python broadcasts its padding to the
index shape itself. The select form cost the fused MoE GEMM 0.57x on the H200 (A read through registers, 8
instead of 40 asynchronous copies per tile); with the padding tile, the same SASS as the reference. The folded
gather takes the select's place (after the pad's broadcast). Runs after specialise (element types concrete),
before fma.
"""

from __future__ import annotations

from .. import targets
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


def _fold(block: Block, defs: dict[int, Op], counts: dict[int, int], tile_pad: bool) -> None:
    gathers: dict[int, Op] = {}
    out: list[Op] = []
    for op in block.ops:
        for r in op.results:
            defs[r.id] = op
        if op.kind == OpKind.GATHER and op.attrs.get("unpadded") and op.attrs.get("has_mask") \
                and not op.attrs.get("token") and counts.get(op.results[0].id) == 1:
            gathers[op.results[0].id] = op
        if op.kind == OpKind.SELECT and op.operands[1].id in gathers:
            g = gathers.pop(op.operands[1].id)
            mask, t = g.operands[-1], g.results[0].type
            pad = _pad_of(op.operands[2], defs)
            attrs = {k: v for k, v in g.attrs.items() if k != "unpadded"}
            if op.operands[0] is mask and len(t.shape) == 1 and isinstance(t.dtype, DType) and pad is not None \
                    and pad.type == TileType(t.dtype, ()):
                folded = Op(OpKind.GATHER, [*g.operands[:-1], pad, mask], op.results, attrs, g.loc)
                at = next(i for i, o in enumerate(out) if o is g)
                out[at] = folded  # the gather's place: the select's result defined there
                continue
            if op.operands[0] is mask and tile_pad and pad is not None and op.operands[2].type == t:
                out.remove(g)  # the select's place: its pad tile is defined after the gather
                out.append(Op(OpKind.GATHER, [*g.operands[:-1], op.operands[2], mask], op.results,
                              {**attrs, "pad_tile": True}, g.loc))
                continue
        out.append(op)
    block.ops = out


def run(kernel: Kernel) -> Kernel:
    counts = use_counts(kernel.body)
    defs: dict[int, Op] = {}
    tile_pad = bool(targets.current().spelling("padding_tile")["rust"])
    for b in walk_blocks(kernel.body):
        _fold(b, defs, counts, tile_pad)
    return kernel
