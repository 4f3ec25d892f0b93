"""Loop-invariant hoisting, as the reference compiler does before emitting Tile IR: a pure op of a ``for``
body whose operands are all defined outside the loop moves in front of the loop (views, constants,
index arithmetic, comparisons). Loads and gathers stay (a store in the loop may change memory);
innermost loops first, so an op can leave several loops."""

from __future__ import annotations

from ..ir.ops import READS_MEMORY, Block, Kernel, OpKind
from .util import defined_in


def _hoist(block: Block) -> None:
    out = []
    for op in block.ops:
        for r in op.regions:
            _hoist(r)
        if op.kind == OpKind.FOR:
            body = op.regions[0]
            inside = defined_in(body)
            keep = []
            for b in body.ops:
                if (b.pure and not b.regions and b.kind not in READS_MEMORY and b.kind != OpKind.YIELD
                        and not any(v.id in inside for v in b.operands)):
                    out.append(b)
                    inside -= {r.id for r in b.results}
                else:
                    keep.append(b)
            body.ops = keep
        out.append(op)
    block.ops = out


def run(kernel: Kernel) -> Kernel:
    _hoist(kernel.body)
    return kernel
