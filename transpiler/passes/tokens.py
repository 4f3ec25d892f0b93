"""Memory-token order across loop iterations, as cuTile Python orders stores and the loads between them.

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
loop's token). Loads of such an array follow the reference too: a load takes the array's last-store token and
its completion is joined into the last-access token, which the next store takes; a loop that both reads and
writes the array carries the two tokens apart, and a nested loop that only reads it carries the last-access one
(its joins), as cuTile Python's loops carry ``last_op`` for a LOAD effect. That carried join chain is what keeps
tileiras from batching the reads of an in-place loop ahead of the stores (TileGym's cross-entropy writes its
gradient over its logits: with a load-only port loop its f16 SASS had 3120 instructions and 162 registers
against the reference's 2680 and 142, ran at 0.92x on the H200, and matches exactly with the chain). A loop that
stores the array but never reads it carries one token: there both are the same. Left alone, as before: arrays a
store of which sits in an ``if`` or ``while`` inside the loop, or that an atomic or an already-ordered op touches
there (their loads take the entry token). Top-level straight-line order is passes/memtokens.py's.
"""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind, walk
from ..ir.types import TokenType
from ..ir.values import Value
from .util import walk_blocks

_STORES = (OpKind.STORE_VIEW, OpKind.SCATTER)
_LOADS = (OpKind.LOAD_VIEW, OpKind.GATHER)
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
        self.arrays: dict[int, Value] = {}  # array id -> the array (token names)
        for b in walk_blocks(kernel.body):
            for op in b.ops:
                if op.kind in _MEMORY and (a := self.array_of(op)) is not None:
                    self.arrays[a.id] = a

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

    def loaded(self, block: Block) -> set[int]:
        """The arrays ``block`` (its nested loops included, not its branches) loads, by id."""
        out: set[int] = set()
        for op in block.ops:
            if op.kind in _LOADS and not op.attrs.get("token") and (arr := self.array_of(op)) is not None:
                out.add(arr.id)
            if op.kind == OpKind.FOR:
                out |= self.loaded(op.regions[0])
        return out

    def block(self, block: Block, cur: dict[int, list[Value]], outer: dict[int, Value] | None = None) -> None:
        """Thread the tokens in ``cur`` (array id -> [its last store's token, its last access's token], cuTile
        Python's two tokens per array) through ``block``'s ops; ``cur`` ends holding the tokens after the block.
        A load of such an array takes the last store's token and joins its completion into the last access's
        (the next store waits for it); a store takes the last access's token and becomes both. ``outer``: the
        last-store tokens of enclosing blocks' arrays this block does not thread (a branch's loads take them)."""
        outer = outer or {}
        out: list[Op] = []
        for op in block.ops:
            arr = self.array_of(op) if op.kind in _MEMORY else None
            if op.kind in _LOADS and not op.attrs.get("token") and arr is not None \
                    and (arr.id in cur or arr.id in outer):
                st = cur.get(arr.id)
                done = Value(TokenType(), f"{arr.hint}_read")
                op.operands.append(st[0] if st is not None else outer[arr.id])
                op.results.append(done)
                op.attrs["token"] = True
                out.append(op)
                if st is not None:
                    join = Op(OpKind.JOIN_TOKENS, [st[1], done], [_tok(arr)], {}, op.loc)
                    out.append(join)
                    st[1] = join.result
                continue
            if op.kind in _STORES and not op.attrs.get("ordered") and not op.attrs.get("token"):
                if arr is not None and arr.id in cur:
                    st = cur[arr.id]
                    op.operands.append(st[1])
                    t = _tok(arr)
                    if op.kind == OpKind.SCATTER:
                        op.attrs["token"] = True
                        op.results.append(t)
                    else:
                        op.attrs["ordered"] = True
                        op.results = [t]
                    st[0] = st[1] = t
            elif op.kind == OpKind.FOR:
                body = op.regions[0]
                inner: dict[int, list[Value]] = {}
                carried: list[tuple[int, tuple[int, ...]]] = []  # (array id, slots: 0 last store, 1 last access)
                loaded = self.loaded(body)

                def carry(aid: int, slots: tuple[int, ...], init: Value) -> None:
                    """Carry one token of ``aid`` that fills ``slots`` of its [last store, last access] pair."""
                    arg = _tok(self.arrays[aid])
                    body.args.append(arg)
                    op.operands.append(init)
                    slot = inner.setdefault(aid, [None, None])
                    for w in slots:
                        slot[w] = arg
                    carried.append((aid, slots))

                for a in self.carried(op):  # stored in the loop
                    if a.id in cur:
                        s0, o0 = cur[a.id]
                    else:
                        entry = Op(OpKind.ARRAY_TOKEN, [a], [_tok(a)], {}, op.loc)
                        out.append(entry)
                        s0 = o0 = entry.result
                    if a.id in loaded:  # and loaded: its loads join the last access, both carried
                        carry(a.id, (0,), s0)
                        carry(a.id, (1,), o0)
                    else:  # the two are one token in the loop: one carried (o0 is s0 unless loads came before)
                        carry(a.id, (0, 1), o0)
                for aid, (s0, o0) in list(cur.items()):  # only loaded in the loop: its last access carried
                    if aid not in inner and aid in loaded:
                        carry(aid, (1,), o0)
                        inner[aid][0] = s0  # the loop's loads take the last store's token from before it
                self.block(body, inner, {**outer, **{a: st[0] for a, st in cur.items() if a not in inner}})
                for aid, slots in carried:
                    v = inner[aid][slots[-1]]
                    body.ops[-1].operands.append(v)
                    res = Value(TokenType(), v.hint)
                    op.results.append(res)
                    for w in slots:
                        cur.setdefault(aid, [None, None])[w] = res
            else:
                for r in op.regions:  # a branch / while: its loops thread their own (module doc)
                    self.block(r, {}, {**outer, **{a: st[0] for a, st in cur.items()}})
            out.append(op)
        block.ops = out


def run(kernel: Kernel) -> Kernel:
    _Threader(kernel).block(kernel.body, {})
    return kernel
