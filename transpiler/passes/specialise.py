"""Specialisation on the IR (lowered once, split here; the front end never runs again):

* **dtype choices** (``ct.tfloat32 if A.dtype == ct.float32 else A.dtype``): the ops typed by a
  :class:`DTypeChoice` (from the first to the last op that makes or uses such a value, in one block) move
  into a constant-flag ``if`` on the choice's host-computed flag: the then arm with the choice's first
  dtype, the else arm with the other. cuTile's JIT folds the flag per launch, so each arm is exactly the
  reference's code for that dtype (the else arm's ``E -> E`` casts fold away in constfold).
* **element entries**: a kernel whose float contraction depends on its dtype parameter ``E`` (a
  ``mulf`` of ``E`` tiles feeding an ``addf``/``subf``: the reference contracts it only when ``E`` is a
  float) becomes one entry per dtype of rules/cutile.toml ``[element_entries]`` (``<kernel>_<dtype>``),
  as the text-model pipeline's mono.expand does.
"""

from __future__ import annotations

import dataclasses

from .. import errors
from ..ir.ops import Block, Kernel, Op, OpKind
from ..ir.types import DTYPES, DTypeParam, element, mentions_choice, subst_type
from ..ir.values import Value
from .util import clone_block, clone_ops, replace_uses, walk_blocks


def _choice_flag(op: Op) -> str | None:
    for v in [*op.results, *op.operands]:
        if mentions_choice(v.type):
            return element(v.type).flag
    return None


def _split(block: Block) -> None:
    while True:
        idx = [i for i, op in enumerate(block.ops) if _choice_flag(op)]
        if not idx:
            break
        lo, hi = idx[0], idx[-1]
        region = block.ops[lo:hi + 1]
        flag = _choice_flag(region[0])
        inner = set()
        for op in region:
            inner |= {r.id for r in op.results}
        later = Block([], block.ops[hi + 1:])
        used_after = []
        for b in walk_blocks(later):
            for op in b.ops:
                for v in op.operands:
                    if v.id in inner and v not in used_after:
                        used_after.append(v)
        if any(mentions_choice(v.type) for v in used_after):
            raise errors.CtrsError(errors.IR_UNSUPPORTED, "typed-IR specialise: a dtype-choice value outlives its "
                                   "region", "", errors.Loc(region[0].loc.file, region[0].loc.line, region[0].loc.col))
        arms = []
        for value in (True, False):
            vmap: dict = {}
            ops = clone_ops(region, vmap, {flag: value})
            ops.append(Op(OpKind.YIELD, [vmap[v.id] for v in used_after], [], loc=region[-1].loc))
            arms.append(Block([], ops))
        results = [Value(v.type, v.hint) for v in used_after]
        iff = Op(OpKind.IF, [], results, {"flag": flag}, region[0].loc, arms)
        replace_uses(later, {v.id: r for v, r in zip(used_after, results)})
        block.ops = [*block.ops[:lo], iff, *later.ops]
    for op in block.ops:
        for r in op.regions:
            _split(r)


def split_choices(kernel: Kernel) -> Kernel:
    _split(kernel.body)
    return kernel


def needs_concrete_element(kernel: Kernel) -> bool:
    uses: dict[int, list[Op]] = {}
    for b in walk_blocks(kernel.body):
        for op in b.ops:
            for v in op.operands:
                uses.setdefault(v.id, []).append(op)
    for b in walk_blocks(kernel.body):
        for op in b.ops:
            # a gather's padding is a scalar of the element type: cutile 0.3.1 cannot tile_to_scalar a Tile<E, {[]}>
            # ... and an atomic's mode depends on it (addf / addi)
            if op.kind in (OpKind.GATHER, OpKind.ATOMIC_RMW) and isinstance(element(op.result.type), DTypeParam):
                return True
            if op.kind == OpKind.MULF and isinstance(element(op.result.type), DTypeParam):
                u = uses.get(op.result.id, [])
                if len(u) == 1 and u[0].kind in (OpKind.ADDF, OpKind.SUBF):
                    return True
    return False


def element_entries(kernel: Kernel, dtypes: list[str]) -> list[Kernel]:
    if not needs_concrete_element(kernel):
        return [kernel]
    out = []
    for dt in dtypes:
        binding = {"E": DTYPES[dt]}
        vmap: dict = {}
        params = []
        for p in kernel.params:
            if p.value is not None:
                nv = Value(subst_type(p.value.type, binding), p.value.hint)
                vmap[p.value.id] = nv
                p = dataclasses.replace(p, value=nv)
            params.append(p)
        body = clone_block(kernel.body, binding, vmap)
        gens = [g for g in kernel.generics if g.name != "E"]
        out.append(dataclasses.replace(kernel, name=f"{kernel.name}_{dt}", params=params, generics=gens, body=body,
                                       python_name=kernel.python_name or kernel.name))
    return out


