"""Dead code elimination, to a fixed point: pure ops none of whose results is used are removed, and so are the
results of an ``if`` nobody reads (with the values its arms yield for them), as cuTile Python's dead code
elimination drops them: TileGym's attention variants re-bind ``offs_n_full`` in a runtime ``if`` whose only
later reads are in arms the launch folds away, and the reference's ``if`` yields ``qk`` alone."""

from __future__ import annotations

from ..ir.ops import Block, Kernel, OpKind
from .util import use_counts


def _prune_if(op, counts: dict[int, int]) -> bool:
    """Drop the results of the ``if`` ``op`` that nothing reads, and each arm's yielded value for them."""
    dead = [i for i, r in enumerate(op.results) if not counts.get(r.id, 0)]
    if not dead or len(op.regions) != 2:
        return False
    yields = [r.ops[-1] if r.ops else None for r in op.regions]
    if any(y is None or y.kind is not OpKind.YIELD or len(y.operands) != len(op.results) for y in yields):
        return False
    keep = [i for i in range(len(op.results)) if i not in dead]
    op.results = [op.results[i] for i in keep]
    for y in yields:
        y.operands = [y.operands[i] for i in keep]
    return True


def _sweep(block: Block, counts: dict[int, int]) -> bool:
    changed = False
    keep = []
    for op in block.ops:
        for r in op.regions:
            changed |= _sweep(r, counts)
        if op.pure and op.results and not any(counts.get(v.id, 0) for v in op.results):
            changed = True
            continue
        if op.kind is OpKind.IF:
            changed |= _prune_if(op, counts)
            if not op.results and all(o.kind is OpKind.YIELD for r in op.regions for o in r.ops):
                changed = True  # nothing left in either arm: the if itself goes
                continue
        keep.append(op)
    block.ops = keep
    return changed


def run(kernel: Kernel) -> Kernel:
    while _sweep(kernel.body, use_counts(kernel.body)):
        pass
    return kernel
