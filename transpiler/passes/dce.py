"""Dead code elimination: pure ops none of whose results is used are removed (to a fixed point)."""

from __future__ import annotations

from ..ir.ops import Block, Kernel
from .util import use_counts


def _sweep(block: Block, counts: dict[int, int]) -> bool:
    changed = False
    keep = []
    for op in block.ops:
        for r in op.regions:
            changed |= _sweep(r, counts)
        if op.pure and op.results and not any(counts.get(v.id, 0) for v in op.results):
            changed = True
            continue
        keep.append(op)
    block.ops = keep
    return changed


def run(kernel: Kernel) -> Kernel:
    while _sweep(kernel.body, use_counts(kernel.body)):
        pass
    return kernel
