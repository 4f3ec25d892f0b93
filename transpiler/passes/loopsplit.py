"""Loop splitting on a runtime ``if`` of the induction variable against a loop-invariant bound, as cuTile
Python's ``loop_split`` pass does (cuda/tile/_passes/loop_split.py, run after its token order and hoisting).

A ``for`` with a step of constant 1 whose body holds, at its top level, exactly one runtime ``if`` on a
comparison ``iv <op> b`` or ``b <op> iv`` (op lt / le / gt / ge, ``b`` defined outside the loop), also at the
body's top level, becomes two loops: ``start .. min(stop, s)`` and ``max(start, s) .. stop`` with ``s = b``
(``b + 1`` for le / gt, after flipping ``b <op> iv`` to ``iv <op'> b``). The first loop keeps the arm taken
while ``iv < s`` (then for lt / le, else for gt / ge), the second the other arm, each in place of the ``if``
(its results become the kept arm's yielded values); the carried values flow from the first loop into the
second. A loop with two or more such ``if`` s is left alone, as the reference leaves it. Ops left dead (the
comparison) go in the dce pass after this one.
"""

from __future__ import annotations

from .. import errors
from ..ir.ops import Block, Kernel, Op, OpKind
from ..ir.types import ScalarType
from ..ir.values import Value
from .util import clone_ops, defined_in

_FLIP = {"ge": "le", "gt": "lt", "le": "ge", "lt": "gt"}
_ADJUST = {"ge": False, "gt": True, "le": True, "lt": False}  # split at b + 1
_FIRST_ARM = {"ge": 1, "gt": 1, "le": 0, "lt": 0}  # region kept by the first loop (0 then, 1 else)


def _step_is_one(step: Value, consts: dict[int, Op]) -> bool:
    d = consts.get(step.id)
    return d is not None and d.attrs.get("value") == 1 and not isinstance(d.attrs.get("value"), bool)


def candidates(loop: Op, block: Block | None = None) -> list[tuple[Op, str, Value]]:
    """The top-level runtime ifs of the body (or of ``block``, an arm at its top level) on ``iv <op> bound``
    with ``bound`` defined outside the loop."""
    body = loop.regions[0]
    iv = body.args[0]
    inside = defined_in(body)
    comparisons: dict[int, tuple[str, Value]] = {}
    out = []
    for op in (block or body).ops:
        if op.kind == OpKind.CMPI and op.attrs.get("predicate") in _FLIP:
            a, b = op.operands
            if a is iv and b.id not in inside:
                comparisons[op.result.id] = (op.attrs["predicate"], b)
            elif b is iv and a.id not in inside:
                comparisons[op.result.id] = (_FLIP[op.attrs["predicate"]], a)
        elif op.kind == OpKind.IF and "flag" not in op.attrs and op.operands[0].id in comparisons:
            out.append((op, *comparisons[op.operands[0].id]))
    return out


def _clone_body(body: Block, target: Op, arm: int) -> Block:
    """A copy of the loop body with ``target`` (an if of it) replaced by the ops of its region ``arm``."""
    vmap: dict[int, Value] = {}
    args = [Value(a.type, a.hint) for a in body.args]
    vmap.update({a.id: n for a, n in zip(body.args, args)})
    ops: list[Op] = []
    for op in body.ops:
        if op is target:
            region = op.regions[arm]
            *kept, y = region.ops
            ops += clone_ops(kept, vmap, {})
            vmap.update({r.id: vmap.get(v.id, v) for r, v in zip(op.results, y.operands)})
        else:
            ops += clone_ops([op], vmap, {})
    return Block(args, ops)


def _split(loop: Op, target: Op, cmp: str, bound: Value, out: list[Op]) -> None:
    start, stop, step, *init = loop.operands
    loc = loop.loc
    body = loop.regions[0]
    i32 = ScalarType(bound.type.dtype)

    def emit(kind: OpKind, operands: list[Value], hint: str, **attrs) -> Value:
        op = Op(kind, operands, [Value(i32, hint)], attrs, loc)
        out.append(op)
        return op.result

    split = bound
    if _ADJUST[cmp]:
        one = emit(OpKind.CONSTANT, [], "c1", value=1)
        split = emit(OpKind.ADDI, [bound, one], "split")
    first_stop = emit(OpKind.MINI, [stop, split], "stop1")
    second_start = emit(OpKind.MAXI, [start, split], "start2")
    first_arm = _FIRST_ARM[cmp]
    mid = [Value(r.type, r.hint) for r in loop.results]
    out.append(Op(OpKind.FOR, [start, first_stop, step, *init], mid, dict(loop.attrs), loc,
                  [_clone_body(body, target, first_arm)]))
    out.append(Op(OpKind.FOR, [second_start, stop, step, *mid], loop.results, dict(loop.attrs), loc,
                  [_clone_body(body, target, 1 - first_arm)]))


def _refuse_hidden(loop: Op) -> None:
    """A candidate inside an arm of a constant-flag ``if`` at the body's top level: the reference folds the flag
    first, so whether it splits depends on the flag's value (the specialise pass split the flags it could)."""
    for op in loop.regions[0].ops:
        if op.kind == OpKind.IF and "flag" in op.attrs and any(candidates(loop, r) for r in op.regions):
            raise errors.CtrsError(errors.IR_LOOP_SPLIT_FLAG, "a runtime if on the loop index against a loop bound "
                                   f"inside `if {op.attrs['flag']}` (a ct.Constant flag)", "cuTile Python folds the "
                                   "flag, then splits the loop in two where that if is left at the loop body's top "
                                   "level (loop_split); the port keeps one loop: not its IR", op.loc)


def _walk(block: Block, consts: dict[int, Op]) -> None:
    out: list[Op] = []
    for op in block.ops:
        for r in op.results:
            if op.kind == OpKind.CONSTANT:
                consts[r.id] = op
        for region in op.regions:
            _walk(region, consts)
        if op.kind == OpKind.FOR and _step_is_one(op.operands[2], consts):
            _refuse_hidden(op)
            found = candidates(op)
            if len(found) == 1:
                _split(op, *found[0], out)
                continue
        out.append(op)
    block.ops = out


def run(kernel: Kernel) -> Kernel:
    _walk(kernel.body, {})
    return kernel
