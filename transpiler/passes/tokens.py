"""Memory-token order across loop iterations, as cuTile Python orders stores.

A store in a ``for`` body whose tile index is not the loop's induction variable or loop-invariant
(``C[row, col]`` with ``row = tile // n``) may hit the same tile in two iterations, so the reference threads
the array's token through the loop (``iter_values(%t = %token)``, the store consuming the carried token and
yielding its own). A store indexed by the induction variable (``y[i, 0]``) is not ordered (checked with
``ctrs ir-ref`` on grid-stride copies). This pass adds that carried token; stores directly in the loop body
are handled (one token per array).
"""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind
from ..ir.types import TokenType
from ..ir.values import Value
from .util import defined_in


def _array_of(view: Value, defs: dict[int, Op]) -> Value | None:
    d = defs.get(view.id)
    return d.operands[0] if d is not None and d.kind == OpKind.MAKE_VIEW else None


def _thread(block: Block, defs: dict[int, Op]) -> None:
    out: list[Op] = []
    for op in block.ops:
        for r in op.results:
            defs[r.id] = op
        for r in op.regions:
            for a in r.args:
                defs.pop(a.id, None)
            _thread(r, defs)
        if op.kind == OpKind.FOR:
            body = op.regions[0]
            iv = body.args[0]
            inside = defined_in(body) - {iv.id}
            arrays: dict[int, tuple[Value, list[Op]]] = {}
            for s in body.ops:
                if s.kind != OpKind.STORE_VIEW or s.attrs.get("ordered"):
                    continue
                index = s.operands[2:]
                if all(v is iv or v.id not in inside for v in index):
                    continue
                arr = _array_of(s.operands[0], defs)
                if arr is not None:
                    arrays.setdefault(arr.id, (arr, []))[1].append(s)
            for arr, stores in arrays.values():
                tok0 = Op(OpKind.ARRAY_TOKEN, [arr], [Value(TokenType(), f"{arr.hint}_token")], {}, op.loc)
                out.append(tok0)
                cur = Value(TokenType(), f"{arr.hint}_token")
                body.args.append(cur)
                for s in stores:
                    s.attrs["ordered"] = True
                    s.operands.append(cur)
                    cur = Value(TokenType(), f"{arr.hint}_token")
                    s.results = [cur]
                body.ops[-1].operands.append(cur)
                op.operands.append(tok0.result)
                op.results.append(Value(TokenType(), f"{arr.hint}_token"))
        out.append(op)
    block.ops = out


def run(kernel: Kernel) -> Kernel:
    defs: dict[int, Op] = {}
    _thread(kernel.body, defs)
    return kernel
