"""Memory-token order across loop iterations, as cuTile Python orders stores.

cuTile Python's token pass (``cuda/tile/_passes/token_order.py``) threads two tokens per array (alias set)
through every loop whose body (nested loops and branches included) stores to it: the loop carries them as
``iter_values``, each store in the body takes the array's last-op token and becomes it, a nested loop takes the
current token as its initial value and gives its result back. The one exception is a *parallel store*: a
``store_view`` into a plain partition view that is the only memory op on its array directly in the body of the
loop, no nested op touches that array, and one of its tile indices is the loop's induction variable (``y[i, 0]``):
two iterations cannot hit one tile, so it takes the token from before the loop and nothing is carried.

A ``scatter`` is never parallel: its index tile can repeat across iterations. So a grid-stride row loop
(``for row in range(bid, n, nb): scatter(out, (row, cols), ..)``) carries the output's token from one iteration's
store to the next. The order matters for speed, not only for races: without it tileiras software-pipelines the
loop (measured on the H200 softmax: 8 loads in flight, 72 registers, 0.62x of the reference; with the carried
token the same 152 SASS instructions as cuTile Python, benchmarks/sass_diff.py).

This pass adds that carried token per array for every ``for`` loop (nested ``for`` loops take the enclosing
loop's token). Left alone, as before: arrays a store of which sits in an ``if`` or ``while`` inside the loop, or
that an atomic or an already-ordered op touches there; loads in the loop (they take the array's entry token).
Top-level straight-line order is passes/memtokens.py's.
"""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind, walk
from ..ir.types import TokenType
from ..ir.values import Value
from .util import walk_blocks

_STORES = (OpKind.STORE_VIEW, OpKind.SCATTER)
_MEMORY = (OpKind.LOAD_VIEW, OpKind.STORE_VIEW, OpKind.GATHER, OpKind.SCATTER, OpKind.ATOMIC_RMW,
           OpKind.ATOMIC_CAS, OpKind.ATOMIC_RED_VIEW)


def _tok(arr: Value) -> Value:
    return Value(TokenType(), f"{arr.hint}_token")


class _Threader:
    def __init__(self, kernel: Kernel) -> None:
        self.defs: dict[int, Op] = {}
        for b in walk_blocks(kernel.body):
            for op in b.ops:
                for r in op.results:
                    self.defs[r.id] = op

    def array_of(self, op: Op) -> Value | None:
        """The array a memory op touches (a view's array for view ops)."""
        if op.kind in (OpKind.GATHER, OpKind.SCATTER, OpKind.ATOMIC_RMW, OpKind.ATOMIC_CAS):
            return op.operands[0]
        d = self.defs.get(op.operands[0].id)
        return d.operands[0] if d is not None and d.kind == OpKind.MAKE_VIEW else None

    def parallel(self, loop: Op, store: Op) -> bool:
        """cuTile Python's loop-parallel store (module doc)."""
        if store.kind != OpKind.STORE_VIEW:
            return False
        body = loop.regions[0]
        iv = body.args[0]
        arr = self.array_of(store)
        view = self.defs.get(store.operands[0].id)
        if arr is None or view is None or view.attrs.get("order"):
            return False
        direct = [o for o in body.ops if o.kind in _MEMORY and self.array_of(o) is arr]
        nested = [o for o in body.ops for r in o.regions for x in walk(r)
                  if x.kind in _MEMORY and self.array_of(x) is arr]
        return direct == [store] and not nested and any(v is iv for v in store.operands[2:])

    def carried(self, loop: Op) -> list[Value]:
        """The arrays ``loop`` carries a token for, in order of their first store."""
        found: dict[int, Value] = {}
        bad: set[int] = set()

        def scan(block: Block, in_branch: bool, owner: Op | None) -> None:
            for op in block.ops:
                if op.kind in _MEMORY:
                    arr = self.array_of(op)
                    if arr is None:
                        continue
                    if op.kind in (OpKind.ATOMIC_RMW, OpKind.ATOMIC_CAS, OpKind.ATOMIC_RED_VIEW) \
                            or op.attrs.get("ordered") or (op.kind in _STORES and op.attrs.get("token")):
                        bad.add(arr.id)
                    elif op.kind in _STORES:
                        if in_branch:
                            bad.add(arr.id)
                        elif not (owner is not None and self.parallel(owner, op)):
                            found.setdefault(arr.id, arr)
                for r in op.regions:
                    scan(r, in_branch or op.kind != OpKind.FOR, op if op.kind == OpKind.FOR else None)

        scan(loop.regions[0], False, loop)
        return [a for i, a in found.items() if i not in bad]

    def block(self, block: Block, cur: dict[int, Value]) -> None:
        """Thread the tokens in ``cur`` (array id -> its current token) through ``block``'s ops; ``cur`` ends
        holding the tokens after the block."""
        out: list[Op] = []
        for op in block.ops:
            if op.kind in _STORES and not op.attrs.get("ordered") and not op.attrs.get("token"):
                arr = self.array_of(op)
                if arr is not None and arr.id in cur:
                    op.operands.append(cur[arr.id])
                    cur[arr.id] = _tok(arr)
                    if op.kind == OpKind.SCATTER:
                        op.attrs["token"] = True
                        op.results.append(cur[arr.id])
                    else:
                        op.attrs["ordered"] = True
                        op.results = [cur[arr.id]]
            elif op.kind == OpKind.FOR:
                body = op.regions[0]
                inner: dict[int, Value] = {}
                for arr in self.carried(op):
                    if arr.id in cur:
                        init = cur[arr.id]
                    else:
                        entry = Op(OpKind.ARRAY_TOKEN, [arr], [_tok(arr)], {}, op.loc)
                        out.append(entry)
                        init = entry.result
                    arg = _tok(arr)
                    body.args.append(arg)
                    op.operands.append(init)
                    inner[arr.id] = arg
                arrays = list(inner)
                self.block(body, inner)
                for a in arrays:
                    body.ops[-1].operands.append(inner[a])
                    res = Value(TokenType(), inner[a].hint)
                    op.results.append(res)
                    cur[a] = res
            else:
                for r in op.regions:  # a branch / while: its loops thread their own (module doc)
                    self.block(r, {})
            out.append(op)
        block.ops = out


def run(kernel: Kernel) -> Kernel:
    _Threader(kernel).block(kernel.body, {})
    return kernel
