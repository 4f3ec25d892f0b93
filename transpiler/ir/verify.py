"""The IR verifier: types agree, definitions dominate uses, loop-carried and if-result types are stable.

Run after the front end and after every pass (:func:`ctrs.passes.run_pipeline`); a finding is a
CtrsError with a CTRS-E12x code located at the op's source position.
"""

from __future__ import annotations

from .. import errors
from .ops import Block, Family, Kernel, Op, OpKind
from .types import BOOL, DTYPES, I32, I64, ArrayType, DType, ScalarType, TileType, TokenType, ViewType
from .values import Value

_SAME_TYPE = {OpKind.ADDF, OpKind.SUBF, OpKind.MULF, OpKind.DIVF, OpKind.MAXF, OpKind.MINF, OpKind.ADDI,
              OpKind.SUBI, OpKind.MULI, OpKind.DIVI, OpKind.REMI, OpKind.ANDI, OpKind.ORI, OpKind.XORI,
              OpKind.NEGF, OpKind.MATH, OpKind.FMA, OpKind.NEGI, OpKind.ABSF, OpKind.ABSI, OpKind.MAXI,
              OpKind.MINI, OpKind.REMF, OpKind.POWF, OpKind.SHLI, OpKind.SHRI}


def _fail(code: str, op: Op, msg: str) -> None:
    raise errors.CtrsError(code, f"IR verifier: {op.kind.mnemonic}: {msg}",
                           "a translator bug: report it with `ctrs translate --emit model` output",
                           errors.Loc(op.loc.file or "<ir>", op.loc.line, op.loc.col))


def _shape(t) -> tuple:
    return getattr(t, "shape", ())


def _is_i32(v: Value) -> bool:
    return v.type in (ScalarType(I32), TileType(I32, ()))


def _loop_int(v: Value):
    """The dtype of a loop bound / induction variable: i32, or i64 (cuTile Python's range over an i64 bound), else
    None."""
    return v.type.dtype if v.type in (ScalarType(I32), TileType(I32, ()), ScalarType(I64), TileType(I64, ())) \
        else None


def _check_types(op: Op) -> None:
    k, ins, outs = op.kind, op.operands, op.results
    T = errors.IR_VERIFY_TYPE
    if k in _SAME_TYPE:
        want = ins[0].type
        for v in [*ins, *outs]:
            if v.type != want:
                _fail(T, op, f"{v!r} has type {v.type}, expected {want}")
    elif k in (OpKind.CMPI, OpKind.CMPF):
        if ins[0].type != ins[1].type:
            _fail(T, op, f"compares {ins[0].type} with {ins[1].type}")
        if getattr(outs[0].type, "dtype", None) != BOOL or _shape(outs[0].type) != _shape(ins[0].type):
            _fail(T, op, f"result {outs[0].type} is not a bool of the operands' shape")
    elif k == OpKind.SELECT:
        if getattr(ins[0].type, "dtype", None) != BOOL:
            _fail(T, op, f"condition has type {ins[0].type}")
        if not (ins[1].type == ins[2].type == outs[0].type):
            _fail(T, op, f"arms {ins[1].type} / {ins[2].type} and result {outs[0].type} differ")
    elif k == OpKind.CONVERT:
        if _shape(ins[0].type) != _shape(outs[0].type):
            _fail(T, op, f"converts {ins[0].type} to the shape of {outs[0].type}")
    elif k == OpKind.BITCAST:
        a, b = ins[0].type.dtype, outs[0].type.dtype
        if _shape(ins[0].type) != _shape(outs[0].type) or (
                isinstance(a, DType) and isinstance(b, DType) and a.bits != b.bits):
            _fail(T, op, f"bitcasts {ins[0].type} to {outs[0].type} (same shape and width only)")
    elif k == OpKind.PACK:
        a, b = ins[0].type, outs[0].type
        if len(_shape(a)) != 1 or len(_shape(b)) != 1 or b.dtype != DTYPES["u8"] or (
                isinstance(a.dtype, DType) and all(isinstance(d, int) for d in (*a.shape, *b.shape))
                and a.shape[0] * a.dtype.bits != b.shape[0] * 8):
            _fail(T, op, f"packs {a} into {b} (rank-1 tiles, the same bits as u8)")
    elif k == OpKind.SCAN_SUM:
        if outs[0].type != ins[0].type:
            _fail(T, op, f"scans {ins[0].type} into {outs[0].type}")
    elif op.kind.family == Family.REDUCE:
        t, axis = ins[0].type, op.attrs.get("axis")
        want = tuple(d for i, d in enumerate(_shape(t)) if i != axis)
        if not isinstance(axis, int) or outs[0].type != TileType(t.dtype, want):
            _fail(T, op, f"reducing {t} over axis {axis} does not give {outs[0].type}")
    elif k == OpKind.MMA:
        a, b, acc = (v.type for v in ins)
        if not all(isinstance(t, TileType) and len(t.shape) in (2, 3) for t in (a, b, acc)):
            _fail(T, op, "operands must be rank-2/3 tiles")
        if a.shape[-1] != b.shape[-2] or acc.shape[-2:] != (a.shape[-2], b.shape[-1]) or outs[0].type != acc:
            _fail(T, op, f"{a} x {b} does not accumulate into {acc} -> {outs[0].type}")
    elif k == OpKind.LOAD_VIEW:
        view = ins[0].type
        if not isinstance(view, ViewType):
            _fail(T, op, f"loads from {view}, not a view")
        if outs[0].type != TileType(view.dtype, view.tile):
            _fail(T, op, f"result {outs[0].type} is not a {view.tile} tile of {view.dtype}")
        index = ins[1:-1] if op.attrs.get("token") else ins[1:]
        if len(index) != len(view.tile) or not all(_is_i32(v) for v in index):
            _fail(T, op, "needs one i32 index per view dimension")
        if op.attrs.get("token") and not (ins[-1].type == TokenType() and len(outs) == 2
                                          and outs[1].type == TokenType()):
            _fail(T, op, "a tokened load takes a token and gives one beside its tile")
        if not op.attrs.get("token") and len(outs) != 1:
            _fail(T, op, "a load gives one tile")
    elif k == OpKind.JOIN_TOKENS:
        if len(ins) < 2 or not all(v.type == TokenType() for v in ins) or [r.type for r in outs] != [TokenType()]:
            _fail(T, op, "joins two or more tokens into one")
    elif k == OpKind.STORE_VIEW:
        view, tile = ins[0].type, ins[1].type
        if not isinstance(view, ViewType) or not view.mutable:
            _fail(T, op, f"stores into {view}, not a mutable view")
        if tile != TileType(view.dtype, view.tile):
            _fail(T, op, f"stores {tile} into {view}")
        index = ins[2:-1] if op.attrs.get("ordered") else ins[2:]
        if len(index) != len(view.tile) or not all(_is_i32(v) for v in index):
            _fail(T, op, "needs one i32 index per view dimension")
        if op.attrs.get("ordered") and not (ins[-1].type == TokenType() and [r.type for r in outs] == [TokenType()]):
            _fail(T, op, "an ordered store takes a token and gives one")
    elif k == OpKind.ATOMIC_RED_VIEW:
        view, tile = ins[0].type, ins[1].type
        if not isinstance(view, ViewType) or not view.mutable or tile != TileType(view.dtype, view.tile):
            _fail(T, op, f"reduces {tile} into {view}, not a mutable view of its shape")
        if len(ins) - 2 != len(view.tile) or not all(_is_i32(v) for v in ins[2:]):
            _fail(T, op, "needs one i32 index per view dimension")
    elif k == OpKind.FOR:
        if len({_loop_int(v) for v in ins[:3]}) != 1 or _loop_int(ins[0]) is None:
            _fail(T, op, "start/stop/step must be i32, or all i64")
    elif k in (OpKind.GATHER, OpKind.SCATTER, OpKind.ATOMIC_RMW, OpKind.ATOMIC_CAS):
        _check_pointer_op(op)
    elif k == OpKind.IOTA:
        t = outs[0].type
        if not (isinstance(t, TileType) and len(t.shape) == 1 and t.shape == tuple(op.attrs.get("shape", ()))):
            _fail(T, op, f"result {t} is not a 1-d tile of shape {op.attrs.get('shape')}")
    elif k == OpKind.TO_TILE:
        if not isinstance(ins[0].type, ScalarType) or outs[0].type != TileType(ins[0].type.dtype, ()):
            _fail(T, op, f"lifts {ins[0].type} to {outs[0].type}, not a 0-d tile of its dtype")
    elif op.kind.family in (Family.GRID,) or k in (OpKind.NUM_TILES, OpKind.ARRAY_DIM, OpKind.ARRAY_STRIDE):
        if outs[0].type != ScalarType(I32):
            _fail(T, op, f"result {outs[0].type} is not i32")


def _check_pointer_op(op: Op) -> None:
    """gather / scatter / atomics: (array, one i32 index per ``None`` of attrs index, values[, mask]); every
    value and the result are tiles of the index shape (the result of the array's element type)."""
    T = errors.IR_VERIFY_TYPE
    arr, *rest = op.operands
    results = op.results
    if op.attrs.get("token"):  # it takes its array's token and gives its own (passes/memtokens.py)
        if op.kind not in (OpKind.GATHER, OpKind.SCATTER) or not rest or rest[-1].type != TokenType() \
                or not results or results[-1].type != TokenType():
            _fail(T, op, "a tokened gather / scatter takes a token and gives one")
        rest, results = rest[:-1], results[:-1]
    shape = tuple(op.attrs.get("shape", ()))
    lits = op.attrs.get("index", ())
    if not isinstance(arr.type, ArrayType) or len(lits) != arr.type.rank:
        _fail(T, op, f"indexes {arr.type} with {len(lits)} indices")
    n = sum(1 for x in lits if x is None)
    idx, rest = rest[:n], rest[n:]
    if not all(_is_i32(v) or (isinstance(v.type, TileType) and v.type.dtype == I32) for v in idx):
        _fail(T, op, "indices must be i32 scalars or tiles")
    if op.attrs.get("has_mask"):
        *rest, mask = rest
        if mask.type != TileType(BOOL, shape):
            _fail(T, op, f"mask {mask.type} is not a bool tile of the index shape {shape}")
    want = {OpKind.GATHER: 1, OpKind.SCATTER: 1, OpKind.ATOMIC_RMW: 1, OpKind.ATOMIC_CAS: 2}[op.kind]
    if op.kind == OpKind.GATHER and op.attrs.get("unpadded"):  # no padding operand (frontends/triton/gathers.py)
        want = 0
    if len(rest) != want:
        _fail(errors.IR_VERIFY_STRUCTURE, op, f"{len(rest)} value operands, expected {want}")
    el = op.attrs.get("elem") or arr.type.dtype  # elem: a gather/scatter through a pointer cast (ptr_to_ptr)
    for v in rest:
        # a gather's operand is its 0-d padding constant, or the padding tile of its shape (passes/padfold.py)
        vshape = () if op.kind == OpKind.GATHER and not op.attrs.get("pad_tile") else shape
        if v.type != TileType(el, vshape):
            _fail(T, op, f"value {v.type} is not a {vshape} tile of {el}")
    if op.kind != OpKind.SCATTER and [r.type for r in results] != [TileType(el, shape)]:
        _fail(T, op, f"result is not a {shape} tile of {el}")


def _check_while(op: Op) -> None:
    """cond(*carried) yields one bool scalar; body(*carried) yields the carried values, typed like the inits."""
    S, C = errors.IR_VERIFY_STRUCTURE, errors.IR_VERIFY_CARRIED
    if len(op.regions) != 2:
        _fail(S, op, "a while has a cond and a body region")
    cond, body = op.regions
    cy, ys = cond.ops[-1].operands, body.ops[-1].operands
    if len(cy) != 1 or cy[0].type != ScalarType(BOOL):
        _fail(errors.IR_VERIFY_TYPE, op, "the cond region must yield one bool scalar")
    n = len(op.operands)
    if not (n == len(cond.args) == len(body.args) == len(ys) == len(op.results)):
        _fail(S, op, f"{n} inits, {len(cond.args)}/{len(body.args)} cond/body args, {len(ys)} yields, "
              f"{len(op.results)} results")
    for i, vs in enumerate(zip(op.operands, cond.args, body.args, ys, op.results)):
        if len({v.type for v in vs}) != 1:
            _fail(C, op, f"carried value {i} changes type: " + ", ".join(str(v.type) for v in vs))


def _check_regions(op: Op) -> None:
    S, C = errors.IR_VERIFY_STRUCTURE, errors.IR_VERIFY_CARRIED
    for r in op.regions:
        if not r.ops or r.ops[-1].kind != OpKind.YIELD:
            _fail(S, op, "a region must end in yield")
        if any(o.kind == OpKind.YIELD for o in r.ops[:-1]):
            _fail(S, op, "yield before the end of a region")
    if op.kind == OpKind.FOR:
        (body,) = op.regions
        init = op.operands[3:]
        carried = body.args[1:]
        ys = body.ops[-1].operands
        if not (len(init) == len(carried) == len(ys) == len(op.results)):
            _fail(S, op, f"{len(init)} inits, {len(carried)} carried args, {len(ys)} yields, "
                  f"{len(op.results)} results")
        for i, (a, b, y, r) in enumerate(zip(init, carried, ys, op.results)):
            if not (a.type == b.type == y.type == r.type):
                _fail(C, op, f"carried value {i} changes type: init {a.type}, arg {b.type}, yield {y.type}, "
                      f"result {r.type}")
        if _loop_int(body.args[0]) is None or _loop_int(body.args[0]) != _loop_int(op.operands[0]):
            _fail(errors.IR_VERIFY_TYPE, op, "the induction variable must be i32 (i64 in a loop of i64 bounds)")
    elif op.kind == OpKind.WHILE:
        _check_while(op)
    elif op.kind == OpKind.IF:
        if len(op.regions) != 2:
            _fail(S, op, "an if has a then and an else region")
        if "flag" not in op.attrs and (len(op.operands) != 1 or getattr(op.operands[0].type, "dtype", None) != BOOL):
            _fail(errors.IR_VERIFY_TYPE, op, "a runtime if tests one bool")
        for r in op.regions:
            ys = r.ops[-1].operands
            if len(ys) != len(op.results):
                _fail(S, op, f"an arm yields {len(ys)} values for {len(op.results)} results")
            for y, res in zip(ys, op.results):
                if y.type != res.type:
                    _fail(C, op, f"an arm yields {y.type} for a {res.type} result")
    elif op.regions:
        _fail(S, op, "only for / if have regions")


def verify_block(block: Block, scope: set[int]) -> None:
    scope = scope | {a.id for a in block.args}
    for op in block.ops:
        for v in op.operands:
            if v.id not in scope:
                _fail(errors.IR_VERIFY_DOMINANCE, op, f"uses {v!r} where its definition does not dominate")
        _check_types(op)
        _check_regions(op)
        for r in op.regions:
            verify_block(r, scope)
        for v in op.results:
            if v.id in scope:
                _fail(errors.IR_VERIFY_DOMINANCE, op, f"redefines {v!r}")
            scope.add(v.id)


def verify_generics(kernel: Kernel) -> None:
    """A derived const generic (frontends/derived.py) is an integer expression of the ``constant`` generics
    declared before it, which the host computes per launch: anything else (a symbol the entry does not have, a
    derived or flag generic, a comparison) has no value on the host (CTRS-E640)."""
    seen: dict[str, str] = {}
    for g in kernel.generics:
        if g.name in seen:
            _fail_generic(kernel, f"generic {g.name} is declared twice")
        if g.origin == "derived":
            e = g.expr
            if e is None or not e.syms():
                _fail_generic(kernel, f"derived const generic {g.name} has no expression of const generics")
            bad = [n for n in e.syms() if seen.get(n) != "constant"]
            if bad:
                _fail_generic(kernel, f"derived const generic {g.name} = {e.python()} names {bad[0]}, which is no "
                              "constant generic declared before it")
            if not e.integer():
                _fail_generic(kernel, f"derived const generic {g.name} = {e.python()} is a comparison")
        if g.origin == "float_expr":  # ir/floatexpr.py: the host computes it from the launch's constants
            e = g.expr
            bad = [n for n in (e.syms() if e is not None else []) if seen.get(n) not in ("constant", "float_bits")]
            if e is None or not e.syms() or bad or not (e.compare() or e.op == "round"):
                raise errors.CtrsError(
                    errors.IR_FLOAT_GENERIC, f"IR verifier: kernel {kernel.name}: float const generic {g.name} = "
                    f"{e.python() if e is not None else None} is no rounded value or comparison of the ct.Constant "
                    "generics declared before it", "a translator bug: report it with `ctrs translate --emit model` "
                    "output", errors.Loc(kernel.loc.file or "<ir>", kernel.loc.line, kernel.loc.col))
        seen[g.name] = g.origin if g.kind == "const" else "type"


def _fail_generic(kernel: Kernel, msg: str) -> None:
    raise errors.CtrsError(errors.IR_DERIVED_GENERIC, f"IR verifier: kernel {kernel.name}: {msg}",
                           "a translator bug: report it with `ctrs translate --emit model` output",
                           errors.Loc(kernel.loc.file or "<ir>", kernel.loc.line, kernel.loc.col))


def verify(kernel: Kernel) -> Kernel:
    """Check ``kernel``; returns it unchanged or raises CtrsError (CTRS-E120..E123, E232, E640)."""
    verify_generics(kernel)
    scope = {p.value.id for p in kernel.params if p.value is not None}
    verify_block(kernel.body, scope)
    return kernel
