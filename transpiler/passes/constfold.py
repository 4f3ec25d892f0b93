"""Constant folding: casts to the type a value already has, integer arithmetic on two constants, and
constant-flag ``if`` s whose flag this entry fixes (``Kernel.variant``)."""

from __future__ import annotations

import operator

from ..ir.ops import Block, Kernel, Op, OpKind
from ..ir.types import Sym
from .util import replace_uses

_INT = {OpKind.ADDI: operator.add, OpKind.SUBI: operator.sub, OpKind.MULI: operator.mul}
_TEST = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
         "ge": operator.ge}


def _fold_block(block: Block, consts: dict[int, object], flags: dict, mapping: dict) -> None:
    out: list[Op] = []
    for op in block.ops:
        op.operands = [mapping.get(v.id, v) for v in op.operands]
        for r in op.regions:
            _fold_block(r, consts, flags, mapping)
        if op.kind == OpKind.CONVERT and op.operands[0].type == op.result.type:
            mapping[op.result.id] = op.operands[0]
            continue
        if op.kind == OpKind.CONSTANT:
            consts[op.result.id] = op.attrs["value"]
        if op.kind in _INT and all(v.id in consts for v in op.operands):
            a, b = (consts[v.id] for v in op.operands)
            op = Op(OpKind.CONSTANT, [], op.results, {"value": _INT[op.kind](a, b)}, op.loc)
            consts[op.result.id] = op.attrs["value"]
        pred, value = op.attrs.get("test", ("ne", 0))  # a dtype-choice flag: 1 takes the then arm
        value = flags.get(value.name) if isinstance(value, Sym) else value  # TILE != N: both must be fixed
        expr = op.attrs.get("expr")  # a condition over const generics: folded when the entry fixes them all
        if op.kind == OpKind.IF and expr is not None and all(n in flags for n in expr.syms()):
            arm = op.regions[0 if expr.evaluate(flags) else 1]
            *body, y = arm.ops
            out += body
            mapping.update({r.id: mapping.get(v.id, v) for r, v in zip(op.results, y.operands)})
            continue
        if op.kind == OpKind.IF and expr is None and op.attrs.get("flag") in flags and value is not None:
            arm = op.regions[0 if _TEST[pred](int(flags[op.attrs["flag"]]), int(value)) else 1]
            *body, y = arm.ops
            out += body
            mapping.update({r.id: mapping.get(v.id, v) for r, v in zip(op.results, y.operands)})
            continue
        out.append(op)
    block.ops = out


def run(kernel: Kernel) -> Kernel:
    mapping: dict = {}
    _fold_block(kernel.body, {}, dict(kernel.variant), mapping)
    replace_uses(kernel.body, mapping)
    return kernel
