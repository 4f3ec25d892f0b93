"""Shared IR rewriting helpers for the passes: use counts, use replacement, region cloning."""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind, walk
from ..ir.types import subst_type
from ..ir.values import Value


def walk_blocks(block: Block):
    yield block
    for op in block.ops:
        for r in op.regions:
            yield from walk_blocks(r)


def use_counts(block: Block) -> dict[int, int]:
    counts: dict[int, int] = {}
    for b in walk_blocks(block):
        for op in b.ops:
            for v in op.operands:
                counts[v.id] = counts.get(v.id, 0) + 1
    return counts


def replace_uses(block: Block, mapping: dict[int, Value]) -> None:
    if not mapping:
        return
    for b in walk_blocks(block):
        for op in b.ops:
            op.operands = [mapping.get(v.id, v) for v in op.operands]


def defined_in(block: Block) -> set[int]:
    """Ids of every value defined inside ``block`` (its args, op results, nested regions)."""
    out: set[int] = set()
    for b in walk_blocks(block):
        out |= {a.id for a in b.args}
        for op in b.ops:
            out |= {r.id for r in op.results}
    return out


def clone_ops(ops: list[Op], vmap: dict[int, Value], binding: dict) -> list[Op]:
    """Copies of ``ops`` with fresh result values (types specialised by ``binding``); ``vmap`` maps old
    value ids to their copies and is extended with every value defined by the copies."""
    out = []
    for op in ops:
        regions = []
        for r in op.regions:
            args = [Value(subst_type(a.type, binding), a.hint) for a in r.args]
            vmap.update({a.id: n for a, n in zip(r.args, args)})
            regions.append(Block(args, clone_ops(r.ops, vmap, binding)))
        results = [Value(subst_type(v.type, binding), v.hint) for v in op.results]
        vmap.update({v.id: n for v, n in zip(op.results, results)})
        out.append(Op(op.kind, [vmap.get(v.id, v) for v in op.operands], results, dict(op.attrs), op.loc, regions))
    return out


def clone_block(block: Block, binding: dict, vmap: dict[int, Value] | None = None) -> Block:
    vmap = {} if vmap is None else vmap
    args = [Value(subst_type(a.type, binding), a.hint) for a in block.args]
    vmap.update({a.id: n for a, n in zip(block.args, args)})
    return Block(args, clone_ops(block.ops, vmap, binding))


# ops that address an array through a pointer tile (frontends/cutile/memory.py): ct.gather / ct.scatter / atomics
POINTER_OPS = (OpKind.GATHER, OpKind.SCATTER, OpKind.ATOMIC_RMW, OpKind.ATOMIC_CAS)


def raw_arrays(kernel: Kernel) -> set[int]:
    """Arrays an N-d gather/scatter/atomic indexes or whose strides the body reads: raw entry parameters (pointer,
    extents, strides) in the port, not cutile ``&Tensor`` s. A view op on one reads the tensor the emitter makes at
    entry (emitters/ir_rust.py raw_views: cutile's &Tensor prologue spelled out)."""
    return {op.operands[0].id for op in walk(kernel.body)
            if (op.kind in POINTER_OPS and op.operands[0].type.rank >= 2) or op.kind == OpKind.ARRAY_STRIDE}
