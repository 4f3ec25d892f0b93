"""FMA contraction, as cuTile Python's ``fuse_mul_addsub`` rewrite does (checked against ``ctrs ir-ref``):

a float ``m = a * b`` whose only use is an add/sub of the same type becomes part of an ``fma``; the
left operand is tried first, and when it is a float mul that cannot contract (another use, other rounding /
flush-to-zero) the right one is not tried (``wdy - xhat * c`` with ``wdy = dy * w`` used again stays a
mulf + subf, as the reference's matcher takes the left mul and its rewrite is then refused):
  ``m + c`` / ``c + m`` -> ``fma(a, b, c)``;  ``m - c`` -> ``fma(a, b, negf(c))``;
  ``c - m`` -> ``fma(negf(a), b, c)``.
So rope's ``x1*c - x2*s`` is ``fma(x1, c, negf(x2*s))`` and ``x2*c + x1*s`` ``fma(x2, c, x1*s)``.
Only concrete unrestricted floats (f16, bf16, f32, f64) contract: a dtype-generic tile is first made
concrete by the specialise pass when a contraction depends on it.
"""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind
from ..ir.types import DType, ScalarType, TileType
from ..ir.values import Value
from .util import use_counts

FLOATS = ("f16", "bf16", "f32", "f64")


def contractible(t) -> bool:
    """A concrete float tile, or a float scalar (``alpha * 2.0 - 1.0``: the reference contracts runtime scalar
    arithmetic too; the emitter spells the fma on 0-d tiles)."""
    return isinstance(t, (TileType, ScalarType)) and isinstance(t.dtype, DType) and t.dtype.name in FLOATS


def _rewrite(block: Block, counts: dict[int, int]) -> None:
    defs = {}
    out: list[Op] = []
    dropped: set[int] = set()
    for op in block.ops:
        for r in op.regions:
            _rewrite(r, counts)
        if op.kind in (OpKind.ADDF, OpKind.SUBF) and contractible(op.result.type):
            for side in (0, 1):
                m = defs.get(op.operands[side].id)
                if m is None or m.kind != OpKind.MULF or not contractible(m.result.type):
                    continue
                if counts.get(m.result.id) != 1 or m.result.id in dropped or m.attrs != op.attrs \
                        or m.result.type != op.result.type:
                    break  # the reference matches a float mul on the left first and then gives up (no right try)
                a, b = m.operands
                c = op.operands[1 - side]
                if op.kind == OpKind.SUBF:
                    target = c if side == 0 else a
                    neg = Op(OpKind.NEGF, [target], [Value(target.type, (target.hint or "t") + "_neg")], {}, op.loc)
                    out.append(neg)
                    if side == 0:
                        c = neg.result
                    else:
                        a = neg.result
                dropped.add(m.result.id)
                op = Op(OpKind.FMA, [a, b, c], op.results, dict(op.attrs), op.loc)
                break
        for r in op.results:
            defs[r.id] = op
        out.append(op)
    block.ops = [o for o in out if not (o.kind == OpKind.MULF and o.result.id in dropped)]


def run(kernel: Kernel) -> Kernel:
    _rewrite(kernel.body, use_counts(kernel.body))
    return kernel
