"""Memory-token order of straight-line accesses to one array, as cuTile Python orders them.

cuTile Python's token pass (``cuda/tile/_passes/token_order.py``) keeps two tokens per array (its alias set):
the last store's and the last access's. A load takes the last store's token (the entry ``make_token`` before any
store) and its completion token is joined into the last access's (``join_tokens(last, done)``, eagerly, one join
per load); a store takes the last access's token and becomes both. So in an in-place kernel (rope: load q, load
q, store q, store q) the stores wait for the array's own loads and chain, and the loads of other arrays wait for
nothing: tileiras hoists every load above the stores. A port that builds every view from the array's entry token
leaves the q stores unordered after the q loads and tileiras keeps k's loads behind q's stores
(benchmarks/results/h200-tilegym-1.5.1-plan.md).

This pass threads that order through the kernel's top-level block: for each array with a store there and another
access, every ``load_view`` / ``gather`` of it gets the token it takes as a last operand and its completion token
as a last result (``attrs["token"]``), every ``store_view`` the token it takes (``attrs["ordered"]``,
``attrs["chain"]``; a ``scatter``: ``attrs["token"]``, its token its result) and the joins (``join_tokens``) in
between, as the reference makes them; joins nothing consumes are dropped (the reference's DCE drops them too). An
array any access of which is not a plain ``load_view`` / ``store_view`` or a ``gather`` / ``scatter`` of the
top-level block (a loop or branch, an atomic, a permuted view, a view a nested region reads, a view of a raw entry
an N-d pointer op reads too) is left alone: loops thread their own tokens (passes/tokens.py). It runs after dce.
"""

from __future__ import annotations

from ..ir.ops import Block, Kernel, Op, OpKind, walk
from ..ir.types import TokenType
from ..ir.values import Value

_VIEW_USES = {OpKind.LOAD_VIEW, OpKind.STORE_VIEW, OpKind.NUM_TILES}
_ARRAY_USES = {OpKind.MAKE_VIEW, OpKind.ARRAY_DIM, OpKind.ARRAY_STRIDE, OpKind.GATHER, OpKind.SCATTER}
_LOADS = (OpKind.LOAD_VIEW, OpKind.GATHER)


def _threadable(kernel: Kernel) -> dict[int, Value]:
    """The arrays whose every access is a load / store of a plain view in the top-level block, with a store and
    another access."""
    top = {id(op) for op in kernel.body.ops}
    uses: dict[int, list[Op]] = {}
    for op in walk(kernel.body):
        for v in op.operands:
            uses.setdefault(v.id, []).append(op)
    out: dict[int, Value] = {}
    for p in kernel.params:
        if p.kind != "array" or p.value is None:
            continue
        arr, ok, stores, accesses = p.value, True, 0, 0
        for u in uses.get(p.value.id, []):
            if u.kind not in _ARRAY_USES:
                ok = False
                break
            if u.kind in (OpKind.GATHER, OpKind.SCATTER):  # a pointer op (a raw entry's: no view of it beside)
                raw = arr.type.rank != 1 or any(x.kind == OpKind.ARRAY_STRIDE for x in uses.get(arr.id, []))
                if id(u) not in top or u.operands[0] is not arr or u.attrs.get("token") \
                        or (raw and any(x.kind == OpKind.MAKE_VIEW for x in uses.get(arr.id, []))):
                    ok = False
                    break
                stores += u.kind == OpKind.SCATTER
                accesses += 1
                continue
            if u.kind != OpKind.MAKE_VIEW:
                continue
            if u.attrs.get("order") or id(u) not in top:
                ok = False
                break
            for w in uses.get(u.results[0].id, []):
                if w.kind not in _VIEW_USES or id(w) not in top or w.operands[0] is not u.results[0] \
                        or w.attrs.get("ordered") or w.attrs.get("token"):
                    ok = False
                    break
                stores += w.kind == OpKind.STORE_VIEW
                accesses += w.kind != OpKind.NUM_TILES
            if not ok:
                break
        if ok and stores and accesses > 1:  # a lone store takes the entry token either way
            out[arr.id] = arr
    return out


def _thread(block: Block, arrays: dict[int, Value]) -> None:
    view_of: dict[int, Value] = {}  # view id -> array
    last_store: dict[int, Value] = {}  # array id -> token a load takes
    last_op: dict[int, Value] = {}  # array id -> token a store takes
    out: list[Op] = []

    def tok(hint: str) -> Value:
        return Value(TokenType(), hint)

    for op in block.ops:
        if op.kind == OpKind.MAKE_VIEW and op.operands[0].id in arrays:
            view_of[op.results[0].id] = op.operands[0]
        arr = view_of.get(op.operands[0].id) if op.kind in (OpKind.LOAD_VIEW, OpKind.STORE_VIEW) else \
            arrays.get(op.operands[0].id) if op.kind in (OpKind.GATHER, OpKind.SCATTER) else None
        if arr is None:
            out.append(op)
            continue
        if arr.id not in last_store:  # the array's entry token, made where it is first accessed
            entry = Op(OpKind.ARRAY_TOKEN, [arr], [tok(f"{arr.hint}_token")], {}, op.loc)
            out.append(entry)
            last_store[arr.id] = last_op[arr.id] = entry.result
        if op.kind in _LOADS:
            done = tok(f"{arr.hint}_read")
            op.operands.append(last_store[arr.id])
            op.results.append(done)
            op.attrs["token"] = True
            out.append(op)
            join = Op(OpKind.JOIN_TOKENS, [last_op[arr.id], done], [tok(f"{arr.hint}_token")], {}, op.loc)
            out.append(join)
            last_op[arr.id] = join.result
        elif op.kind == OpKind.SCATTER:
            op.operands.append(last_op[arr.id])
            op.results = [tok(f"{arr.hint}_token")]
            op.attrs["token"] = True
            out.append(op)
            last_store[arr.id] = last_op[arr.id] = op.results[0]
        else:
            op.operands.append(last_op[arr.id])
            op.results = [tok(f"{arr.hint}_token")]
            op.attrs["ordered"] = True
            op.attrs["chain"] = True  # straight-line (this pass), not loop-carried (passes/tokens.py)
            out.append(op)
            last_store[arr.id] = last_op[arr.id] = op.results[0]
    # joins nothing consumes: dropped, later ones first
    used: set[int] = set()
    kept: list[Op] = []
    for op in reversed(out):
        if op.kind == OpKind.JOIN_TOKENS and op.results[0].id not in used:
            continue
        used.update(v.id for v in op.operands)
        kept.append(op)
    block.ops = kept[::-1]


def run(kernel: Kernel) -> Kernel:
    arrays = _threadable(kernel)
    if arrays:
        _thread(kernel.body, arrays)
    return kernel
