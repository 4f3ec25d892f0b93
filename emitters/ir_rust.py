"""The typed-IR Rust emitter: the only place the typed pipeline spells Rust.

Every op kind is spelled from rules/ir.toml ``[rust]`` (+ ``[math]`` for elementwise functions); names come
from the IR's value hints made unique and keyword-safe; literal suffixes, element types, const-generic
shapes and generics are spelled here. The result is the statement tree of transpiler/model.py whose ops
carry finished Rust text, rendered by the existing jinja2 template (templates/port/kernel.rs.j2) and read
by render_host (ffi.rs, wrapper.py, analysis.json).

Rust-side shapes of IR values: an i32 ``ScalarType`` value is a Rust ``i32`` (block ids, extents, loop
indices, ``a * b`` of two of them) or, when a Tile IR op that only takes tiles made it (``divi``, ``cmpi``,
``select``, ...), a ``Tile<i32, { [] }>``; the emitter converts between the two with ``scalar_to_tile`` /
``tile_to_scalar`` (no Tile IR op) where a use needs the other form. Loop-carried values and ``if``
results that feed a loop's ``yield`` become one ``let mut`` variable assigned in place.
"""

from __future__ import annotations

import decimal
import functools
import math
import re

from ctrs import errors, targets
from ctrs.emitters import rust_model as model
from ctrs.emitters.cutile_defects import CONST_DECL
from ctrs.ir import Block, DType, DTypeChoice, DTypeParam, Kernel, Op, OpKind, Sym
from ctrs.ir.types import BOOL, I64, ScalarType, TileType, TokenType, ViewType
from ctrs.ir_rules import ir_rules
from ctrs.passes.util import POINTER_OPS, defined_in, raw_arrays

from .render_host import RUST_KEYWORDS
from .spelling import const_expr, const_spelling, constant_spelling, declaration, float_literal

_OLD_KIND = {OpKind.FMA: "fma", OpKind.MMA: "mma", OpKind.MATH: "unary", OpKind.NEGF: "unary",
             OpKind.REDUCE_SUM: "reduce", OpKind.REDUCE_MAX: "reduce", OpKind.REDUCE_MIN: "reduce"}
# An ordered store's loop-carried token (passes/tokens.py) has no spelling in cutile 0.3.1: a `let mut` Token
# feeding a per-iteration `make_partition_view_mut` makes the JIT yield the loop-local view as a carried value
# (invalid Tile IR), and `PartitionMut::store` adds bounds asserts without threading the token. The port
# stores unordered (each grid-stride iteration writes its own tile) and --explain says so.
_UNORDERED = "<store token not threaded in cutile 0.3.1>"
_TILE_ONLY_SCALAR = "tile"


def _assume_spelled(api: str) -> bool:
    """Whether the target profile can state an assumed fact in kernel code (``[api.assume_*]``: cutile 0.5.0)."""
    return bool(targets.current().spelling(api)["rust"])


def _ordered_store_spelling() -> bool:
    """Whether the target profile spells an ordered store (``[api.ordered_store_view]``: cutile 0.5.0, not 0.3.1)."""
    return bool(targets.current().spelling("ordered_store_view")["rust"])
# integer ops cutile's bounds analysis carries exact operands through (for-loop bounds it knows: ``_static_int``)
_STATIC_ARITH = {OpKind.ADDI, OpKind.SUBI, OpKind.MULI, OpKind.DIVI, OpKind.REMI, OpKind.MAXI, OpKind.MINI}
_CMP_SYM = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_SCALAR = "scalar"
_CONST = "const"


def literal(value, dt) -> str:
    if not isinstance(dt, DType):
        raise _err(None, f"a literal of the generic dtype {dt}")
    if dt.is_float:
        return float_literal(float(value), dt.name if dt.name in ("f32", "f64") else "f32")
    if dt == BOOL:
        return "true" if value else "false"
    return f"{int(value)}{ir_rules()['dtypes'][dt.name]}"


def half_constant(value, dt) -> tuple[str, str] | None:
    """A float constant of a half type (f16, bf16) or of a float array's dtype variable that the crate cannot
    spell (``f16`` has no literals; ``E::ZERO`` / ``ONE`` only): ``constant_f32`` with the value's shortest
    decimal, which the cuTile JIT parses as f64 and encodes in the result's element type (cutile-compiler
    compile_expression.rs encode_literal_bytes: ``f16::from_f64``), the one rounding cuTile Python applies
    to a Python float meeting a tile of that dtype."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if not (isinstance(dt, DTypeParam) or (isinstance(dt, DType) and dt.name in ("f16", "bf16"))):
        return None
    if abs(value) > 3.4e38:
        return None
    text = format(decimal.Decimal(repr(float(value))), "f")
    return CONST_DECL, f"{text if '.' in text else text + '.0'}f32"


def _int_resize(op: Op) -> str | None:
    """The rules/ir.toml key of a tile convert between integer types of two widths (the JIT's convert_tile refuses
    them: "Conversion i32 -> i64 not yet implemented", cutile-compiler compile_intrinsic.rs), else None: ``exti``
    (the source's signedness); a narrowing known not to wrap as a signed value (``no_wrap``: gather offsets,
    frontends/triton/gathers.py) ``convert_trunci_nsw``; any other narrowing ``trunci`` (no unsigned wrap: the
    Philox ``(x * M) >> 32``). trunci with overflow::None writes no overflow attribute, which the 0.5.0 bytecode
    writer requires."""
    a, r = op.operands[0].type.dtype, op.result.type.dtype
    if not all(isinstance(d, DType) and d.kind in ("int", "uint") for d in (a, r)) or a.bits == r.bits:
        return None
    if r.bits > a.bits:
        return "exti"
    return "convert_trunci_nsw" if op.attrs.get("no_wrap") else "trunci"


def _err(op: Op | None, msg: str) -> errors.CtrsError:
    loc = errors.Loc(op.loc.file, op.loc.line, op.loc.col) if op is not None else None
    return errors.CtrsError(errors.IR_EMIT, f"typed-IR emitter: {msg}", "no cutile spelling for it in the typed IR "
                            "emitter yet (docs/ir.md)", loc)


def dtype_rust(dt) -> str:
    if isinstance(dt, DTypeParam):
        return dt.name
    if isinstance(dt, DTypeChoice):
        raise _err(None, f"an unresolved dtype choice {dt}")
    return ir_rules()["dtypes"][dt.name]


def shape_rust(shape) -> str:
    return ", ".join(const_spelling(d.name) if isinstance(d, Sym) else str(d) for d in shape)


def type_rust(t) -> str:
    if isinstance(t, TileType):
        return f"Tile<{dtype_rust(t.dtype)}, {{ [{shape_rust(t.shape)}] }}>"
    if isinstance(t, ScalarType):
        return dtype_rust(t.dtype)
    if isinstance(t, ViewType):
        return f"{'PartitionMut' if t.mutable else 'Partition'}<{dtype_rust(t.dtype)}, {{ [{shape_rust(t.tile)}] }}>"
    if isinstance(t, TokenType):
        return "Token"
    raise _err(None, f"no Rust type for {t}")


def _scan_identity(dt) -> str:
    """``scan_sum``'s ``identity: E`` (the compiler writes a 0 of the element type whatever it is given:
    cutile-compiler src/compiler/compile_cuda_tile_op.rs compile_scan_op): a zero that type-checks as E, which
    for f16 / bf16 and a dtype generic is the crate's ``ZERO`` (a float literal is f32 or f64)."""
    if isinstance(dt, DTypeParam):
        return f"{dt.name}::ZERO"
    if isinstance(dt, DType) and dt.name in ("f16", "bf16"):
        return f"{dt.name}::ZERO"
    return literal(0, dt)


def _bool_to_int(op: Op) -> bool:
    """A bool tile cast to an integer dtype: cuTile Python extends it (``exti``, unsigned: _ir2bytecode.py
    _get_type_conversion_encoder); cutile's ``convert_tile`` has no bool source ("Unsupported conversion")."""
    dt = op.results[0].type.dtype
    return op.operands[0].type.dtype == BOOL and isinstance(dt, DType) and dt.kind in ("int", "uint")


@functools.cache
def _called_functions() -> frozenset[str]:
    """The cutile functions the emitter's templates call (``iota(``, ``exti(``, ...): a let of that name would
    shadow the function for the rest of the kernel (``let iota = iota(..)``), so values never take them.
    Scanned once per process (rules/ir.toml is loaded once)."""
    out: set[str] = set()

    def scan(x) -> None:
        if isinstance(x, dict):
            for v in x.values():
                scan(v)
        elif isinstance(x, str):
            out.update(_CALL.findall(x))

    scan(ir_rules())
    return frozenset(out)


_CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\(")


def _view_hints(op: Op) -> str:
    """The latency and TMA arguments of a view load/store (ct.load/ct.store latency=, allow_tma=)."""
    lat = _latency(op)
    tma = "tma::Disabled" if op.attrs.get("allow_tma") is False else "tma::Enabled"
    return f"{f'Some({lat})' if lat is not None else 'None'}, {tma}"


def _latency(op: Op) -> str | None:
    """``latency=``: an i32 literal, or the const generic it is (a Sym: cutile resolves it per specialisation)."""
    lat = op.attrs.get("latency")
    if isinstance(lat, Sym):
        return const_spelling(lat.name)
    return None if lat is None else f"{int(lat)}i32"


def _tile0(t) -> str:
    return f"Tile<{dtype_rust(t.dtype)}, {{ [] }}>"


def _half_via_f32(value, dtype) -> str | None:
    """An f16 / bf16 constant other than 0 / 1 / inf (``0.044715`` of a bf16 tile): cutile's ``constant()`` cannot
    spell it, ``constant_f32`` (cutile_defects) can: the JIT encodes the f32 value in the element type. The
    reference rounds the Python float to the half type once; f64 -> f32 -> half rounds twice, which differs only
    where the f32 value lies exactly halfway between two half values (then None), or outside the half type's
    normal range (None). The f32 literal: the shortest decimal of the f32 value (it parses back to that value)."""
    import struct  # noqa: PLC0415

    if not isinstance(dtype, DType) or dtype.name not in ("f16", "bf16") or isinstance(value, bool) \
            or not isinstance(value, (int, float)) or not math.isfinite(value) or value == 0:
        return None
    try:
        bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]
    except OverflowError:
        return None
    v32 = struct.unpack("<f", struct.pack("<I", bits))[0]
    drop, lo, hi = (16, 2.0 ** -126, 3.38e38) if dtype.name == "bf16" else (13, 2.0 ** -14, 65504.0)
    if not lo <= abs(v32) <= hi or (bits & ((1 << drop) - 1) == 1 << (drop - 1) and v32 != value):
        return None
    return f"{v32!r}f32"


def _zero_extends(op: Op) -> bool:
    """A cast of an unsigned integer to a wider integer: cuTile Python's astype is ``exti`` (zero-extending); the
    cuTile JIT has no ``convert_tile`` from an unsigned type."""
    a, b = op.operands[0].type.dtype, op.results[0].type.dtype
    return (isinstance(a, DType) and isinstance(b, DType) and a.kind == "uint" and b.kind in ("int", "uint")
            and b.bits > a.bits)


def _wide_unsigned(value, dtype) -> str | None:
    """An unsigned constant above the signed range of its width (``0xCD9E8D57`` as u32): the cuTile JIT parses a
    literal as a signed integer of the width, so the port writes the same bits signed (``-845247145i32``) and
    bitcasts them (None where the literal itself parses)."""
    if not isinstance(dtype, DType) or dtype.kind != "uint" or isinstance(value, bool) or not isinstance(value, int):
        return None
    if value < 2 ** (dtype.bits - 1):
        return None
    return f"{value - 2 ** dtype.bits}i{dtype.bits}"


class KernelEmitter:
    def __init__(self, k: Kernel, file: str):
        self.k = k
        self.file = file
        self.rules = ir_rules()
        self.taken = {g.name for g in k.generics} | {p.name for p in k.params} | _called_functions()
        self.text: dict[tuple[int, str], str] = {}  # (value id, form) -> Rust expression
        self.form: dict[int, str] = {}
        self.needs: dict[int, set[str]] = {}
        self.uses: dict[int, list[Op]] = {}
        self.slot: dict[int, str] = {}  # value id -> the `let mut` variable it lives in
        self.views: dict[int, Op] = {}  # view value id -> its make_view
        self.typed: dict[int, object] = {}  # value id -> IR type, for values with a Rust name (if placeholders)
        self.scopes: list[list[int]] = [[]]  # ids of those values per enclosing Rust block
        for p in k.params:
            if p.value is not None and p.kind != "fconst":  # a Constant[float]'s f32: made at entry (emit)
                self.text[(p.value.id, _SCALAR)] = p.name
                self.typed[p.value.id] = p.value.type
                self.scopes[0].append(p.value.id)
        self.def_ops: dict[int, Op] = {}  # value id -> the op defining it (_analyse)
        self.const_params = {p.value.id for p in k.params if p.kind == "constant" and p.value is not None}
        self.const_values: dict[int, object] = {}  # value id -> the value of the constant defining it (_analyse)
        self._analyse(k.body)
        self.raw = raw_arrays(k)
        ids = {p.name: p.value.id for p in k.params if p.value is not None}
        # (array id, ``shape_<i>``) of each extent with a unit flag (passes/unitdims.py): read as 1 under it
        self.unit_extents = {(ids[g.test[0]], f"shape_{g.test[1]}") for g in k.generics if g.origin == "unit_extent"}
        self.signed: dict[int, str] = {}  # wide unsigned constant (and its reshapes) -> its signed-bits tile
        self.tensors: dict[int, str] = {}  # raw array id -> `x_view`, the tensor its view ops read (raw_views)

    # -- names -------------------------------------------------------------------------------------
    def fresh(self, hint: str) -> str:
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in (hint or "v"))
        if base[0].isdigit():
            base = "v" + base
        if base in RUST_KEYWORDS:
            base += "_"
        name, n = base, 0
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name

    # -- analysis: Rust forms of i32/bool values and where each form is needed ----------------------
    def _analyse(self, block: Block) -> None:
        for op in block.ops:
            for i, v in enumerate(op.operands):
                self.uses.setdefault(v.id, []).append(op)
                if isinstance(v.type, ScalarType):
                    self.needs.setdefault(v.id, set()).add(self._operand_form(op, i))
            for r in op.regions:
                for a in r.args:
                    self.form[a.id] = _SCALAR
                self._analyse(r)
            for res in op.results:
                self.def_ops[res.id] = op
                if op.kind == OpKind.CONSTANT:
                    self.const_values[res.id] = op.attrs["value"]
                if isinstance(res.type, ScalarType):
                    self.form[res.id] = self._result_form(op)

    def _def_kind(self, v) -> OpKind | None:
        """The kind of the op defining ``v`` (None: a parameter or a block argument)."""
        op = self.def_ops.get(v.id)
        return op.kind if op is not None else None

    def _scalar_op(self, op: Op) -> bool:
        return ((op.kind.mnemonic in self.rules["scalar"] or self._const_ceil_div(op))
                and all(self.form.get(v.id, _SCALAR) in (_SCALAR, _CONST) for v in op.operands))

    def _const_ceil_div(self, op: Op) -> bool:
        """``ct.cdiv`` of ct.Constant values / literals (``ct.cdiv(KV_LEN, TILE_N)``): cuTile Python folds it to a
        constant per launch; cutile's scalar ``ceil_div`` of const generics is folded by its JIT alike (a ``divi``
        of constant tiles is not)."""
        return (op.kind == OpKind.DIVI and op.attrs.get("rounding") == "positive_inf"
                and all(self._def_kind(v) in (OpKind.CONST_SYM, OpKind.CONSTANT) for v in op.operands))

    def _result_form(self, op: Op) -> str:
        if op.kind == OpKind.CONSTANT:
            return _TILE_ONLY_SCALAR if _wide_unsigned(op.attrs["value"], op.results[0].type.dtype) else _CONST
        if op.kind in (OpKind.BLOCK_ID, OpKind.NUM_BLOCKS, OpKind.NUM_TILES, OpKind.CONST_SYM, OpKind.ARRAY_DIM,
                       OpKind.ARRAY_STRIDE) \
                or self._scalar_op(op):
            return _SCALAR
        if op.kind in (OpKind.IF, OpKind.FOR, OpKind.WHILE, OpKind.RUST_FRAGMENT):
            return _SCALAR
        return _TILE_ONLY_SCALAR

    def _operand_form(self, op: Op, i: int) -> str:
        if op.kind in (OpKind.LOAD_VIEW, OpKind.STORE_VIEW, OpKind.FOR, OpKind.WHILE, OpKind.YIELD, OpKind.IF, OpKind.TO_TILE,
                       OpKind.RUST_FRAGMENT, OpKind.ATOMIC_RED_VIEW):
            return _SCALAR
        return _SCALAR if self._scalar_op(op) else _TILE_ONLY_SCALAR

    # -- value text --------------------------------------------------------------------------------
    def val(self, v, form: str | None = None) -> str:
        if form is None or not isinstance(v.type, ScalarType):
            form = self.form.get(v.id, _SCALAR) if isinstance(v.type, ScalarType) else _SCALAR
            if form == _CONST:
                form = _SCALAR
        key = (v.id, form)
        if key not in self.text:
            if (v.id, _SCALAR) in self.text and form == _SCALAR:
                return self.text[(v.id, _SCALAR)]
            raise _err(None, f"value {v!r} has no {form} spelling")
        return self.text[key]

    # -- statements --------------------------------------------------------------------------------
    def span(self, op: Op) -> model.Span:
        return model.Span(op.loc.line, op.loc.col)

    def let(self, out: list, name: str, rtype: str, text: str, op: Op, mutable: bool = False, unsafe: bool = False,
            kind: str | None = None, decl: str = "") -> None:
        mop = model.Op(kind or self._kind(op), "{t}", (("t", text),), self.span(op), unsafe, decl)
        out.append(model.Let(name, model.OpaqueT(rtype), mop, self.span(op), mutable))

    def assign(self, out: list, name: str, text: str, op: Op, unsafe: bool = False, decl: str = "") -> None:
        out.append(model.Assign(name, model.Op(self._kind(op), "{t}", (("t", text),), self.span(op), unsafe, decl),
                                self.span(op)))

    def _kind(self, op: Op) -> str:
        if op.kind == OpKind.RUST_FRAGMENT:
            return "llm"
        if op.kind in _OLD_KIND:
            return _OLD_KIND[op.kind]
        if op.kind.family.value == "elementwise":
            return "binary" if len(op.operands) == 2 else "unary"
        return op.kind.mnemonic

    def define(self, out: list, op: Op, v, rtype: str, text: str, unsafe: bool = False, target: str | None = None,
               decl: str = ""):
        """``let name: T = text;`` (or ``target = text;`` when the value is assigned into a mut slot), then
        the other Rust form of an i32/bool value where some use needs it. ``decl``: the module-local op
        declaration ``text`` calls (model.Op.decl)."""
        form = self.form.get(v.id, _SCALAR) if isinstance(v.type, ScalarType) else _SCALAR
        if target is not None:
            self.assign(out, target, text, op, unsafe, decl)
            self.text[(v.id, form)] = target
            return
        mutable = v.id in self.slot
        name = self.slot.get(v.id) or self.fresh(v.hint)
        self.let(out, name, rtype, text, op, mutable, unsafe, decl=decl)
        self.text[(v.id, form)] = name
        if form == _SCALAR and not mutable:
            self.typed[v.id] = v.type
            self.scopes[-1].append(v.id)
        self.convert_forms(out, op, v, name, form)

    def convert_forms(self, out: list, op: Op, v, name: str, form: str) -> None:
        if not isinstance(v.type, ScalarType):
            return
        needs = self.needs.get(v.id, set())
        if form == _SCALAR and _TILE_ONLY_SCALAR in needs:
            t = self.fresh(name + "_t")
            self.let(out, t, _tile0(v.type), f"scalar_to_tile({name})", op, kind="scalar_to_tile")
            self.text[(v.id, _TILE_ONLY_SCALAR)] = t
        if form == _TILE_ONLY_SCALAR and _SCALAR in needs:
            s = self.fresh(name + "_s")
            self.let(out, s, type_rust(v.type), f"tile_to_scalar({name})", op, kind="tile_to_scalar")
            self.text[(v.id, _SCALAR)] = s

    def block(self, block: Block, out: list, targets: list[str] | None = None, force: bool = False) -> None:
        """Emit ``block``'s ops; its yield assigns ``targets`` (the enclosing loop's / if's mut slots)."""
        *ops, y = block.ops if block.ops and block.ops[-1].kind == OpKind.YIELD else [*block.ops, None]
        # (not a for / if result: it already lives in that op's `let mut`; a loop split's second loop copies it)
        here = {r.id for o in ops if o.kind not in (OpKind.FOR, OpKind.IF, OpKind.WHILE) for r in o.results}
        for o in ops:  # a loop's initial value made in this block for it alone lives in the loop's variable
            if o.kind == OpKind.FOR:
                for v, a in zip(o.operands[3:], o.regions[0].args[1:]):
                    if v.id in here and len(self.uses.get(v.id, [])) == 1 and not isinstance(
                            v.type, (ScalarType, TokenType)):
                        self.slot[v.id] = self.fresh(a.hint)
        through: dict[int, str] = {}  # value id -> slot assigned directly by its defining op
        if targets and y is not None:
            for t, v in zip(targets, y.operands):
                if t is None:
                    continue
                d = next((i for i, o in enumerate(ops) if v in o.results), None)
                if d is None or len(self.uses.get(v.id, [])) != 1 or isinstance(v.type, ScalarType):
                    continue
                if ops[d].kind in (OpKind.FOR, OpKind.WHILE):  # for_ keeps its result in its own `let mut`: the yield assigns it
                    continue
                later_reads = any(any(self.text.get((a.id, _SCALAR)) == t or self.slot.get(a.id) == t
                                      for a in o.operands) for o in ops[d + 1:])
                if not later_reads:
                    through[v.id] = t
        self.scopes.append([])
        for op in ops:
            self.op(op, out, through)
        if targets and y is not None:
            for t, v in zip(targets, y.operands):
                if v.id in through or t is None:
                    continue
                text = self.val(v) if not isinstance(v.type, ScalarType) else self.val(v, _SCALAR)
                if text != t or force:
                    self.assign(out, t, text, y)
        self.scopes.pop()

    def op(self, op: Op, out: list, through: dict[int, str]) -> None:
        k = op.kind
        r = op.results[0] if op.results else None
        target = through.get(r.id) if r is not None else None
        if k == OpKind.FOR:
            return self.for_(op, out)
        if k == OpKind.WHILE:
            return self.while_(op, out)
        if k == OpKind.IF:
            return self.if_(op, out, through)
        if k == OpKind.CONSTANT:
            bits = _wide_unsigned(op.attrs["value"], r.type.dtype)
            if bits is not None:  # its signed bits, bitcast (a tile form only: _result_form)
                shape = shape_rust(r.type.shape) if isinstance(r.type, TileType) else ""
                raw = self.fresh((r.hint or "c") + "_bits")
                self.let(out, raw, f"Tile<i{r.type.dtype.bits}, {{ [{shape}] }}>", self.rules["rust"]["constant"].format(
                    value=bits, shape=shape), op)
                self.signed[r.id] = raw
                if isinstance(r.type, ScalarType):
                    name = self.fresh(r.hint or "c")
                    self.let(out, name, _tile0(r.type), self.rules["rust"]["bitcast"].format(x=raw), op)
                    self.text[(r.id, _TILE_ONLY_SCALAR)] = name
                    return self.convert_forms(out, op, r, name, _TILE_ONLY_SCALAR)
                return self.define(out, op, r, type_rust(r.type), self.rules["rust"]["bitcast"].format(x=raw),
                                   target=target)
            if isinstance(r.type, ScalarType):
                lit = literal(op.attrs["value"], r.type.dtype)
                self.text[(r.id, _SCALAR)] = lit
                if _TILE_ONLY_SCALAR in self.needs.get(r.id, set()):
                    if r.type.dtype == BOOL:
                        # `false` cannot be a constant() in cutile 0.3.1 (it encodes as 0xFF, like `true`): a bool
                        # let lifted with scalar_to_tile (true alike)
                        b = self.fresh((r.hint or "c") + "_s")
                        self.let(out, b, "bool", lit, op)
                        self.text[(r.id, _SCALAR)] = b
                        return self.convert_forms(out, op, r, b, _SCALAR)
                    name = self.fresh(r.hint or "c")
                    # a half-type scalar (an f16 label compared with -100): no Rust literal of its own, so the 0-d
                    # tile is spelled as a tile constant of that type is (constant_f32: cutile_defects)
                    half = _half_via_f32(op.attrs["value"], r.type.dtype) or (
                        half_constant(op.attrs["value"], r.type.dtype) or ("", ""))[1]
                    if half and isinstance(r.type.dtype, DType) and r.type.dtype.name in ("f16", "bf16"):
                        text = self.rules["rust"][CONST_DECL].format(value=half, shape="")
                        self.let(out, name, _tile0(r.type), text, op, decl=CONST_DECL)
                    else:
                        self.let(out, name, _tile0(r.type), f"constant({lit}, const_shape![])", op)
                    self.text[(r.id, _TILE_ONLY_SCALAR)] = name
                return None
            spelled = constant_spelling(op.attrs["value"], dtype_rust(r.type.dtype), isinstance(r.type.dtype, DTypeParam))
            if spelled is None and _half_via_f32(op.attrs["value"], r.type.dtype) is not None:
                spelled = (CONST_DECL, _half_via_f32(op.attrs["value"], r.type.dtype))
            if spelled is None:
                spelled = half_constant(op.attrs["value"], r.type.dtype)
            if spelled is None:
                raise _err(op, f"cutile 0.3.1 cannot spell a {r.type} constant {op.attrs['value']}")
            text = self.rules["rust"][spelled[0]].format(value=spelled[1], shape=shape_rust(r.type.shape))
            return self.define(out, op, r, type_rust(r.type), text, target=target,
                               decl=spelled[0] if spelled[0] == CONST_DECL else "")
        if k == OpKind.CONST_SYM:
            self.text[(r.id, _SCALAR)] = const_spelling(op.attrs["sym"])
            return self.convert_forms(out, op, r, const_spelling(op.attrs["sym"]), _SCALAR)
        if k in (OpKind.BLOCK_ID, OpKind.NUM_BLOCKS):
            fn = "get_tile_block_id()" if k == OpKind.BLOCK_ID else "get_num_tile_blocks()"
            tup = self.fresh((r.hint or "v") + ("_bid" if k == OpKind.BLOCK_ID else "_nb"))
            self.let(out, tup, "(i32, i32, i32)", fn, op)
            return self.define(out, op, r, "i32", f"{tup}.{op.attrs['axis']}")
        if k == OpKind.ARRAY_TOKEN:  # an ordered store's initial token (passes/tokens.py, passes/memtokens.py)
            arr = op.operands[0]
            if arr.id in self.raw and arr.id not in self.tensors and _ordered_store_spelling() \
                    and targets.current().spelling("join_tokens")["rust"]:
                # a raw entry only pointer ops read (memtokens): one fresh token for all of them, as the
                # reference's make_token (each unthreaded pointer op makes its own, pointer_op)
                self.text[(r.id, _SCALAR)] = self._ptr_let(out, op, f"{self.val(arr)}_tok0", "Token", "new_token")
                return None
            spelled = _ordered_store_spelling() and arr.id not in self.tensors and arr.id not in self.raw
            self.text[(r.id, _SCALAR)] = (targets.current().render("tensor_token", tensor=self.val(arr)) if spelled
                                          else _UNORDERED)
            return None
        if k == OpKind.MAKE_VIEW:
            tensor = self.tensors.get(op.operands[0].id)
            arr = tensor or self.val(op.operands[0])
            shape = shape_rust(op.attrs["tile"])
            self.views[r.id] = op
            if op.attrs["mutable"] and op.attrs.get("order"):
                return self.permuted_store_view(op, out, arr, shape)
            if op.attrs["mutable"] and self._only_ordered_stores(op):
                return None  # each ordered store makes its own view from the carried token (_ordered_store)
            if not op.attrs["mutable"] and self._only_loads_after_stores(op):
                return None  # each load reads a view made from the store token it waits for (_tokened_load)
            if op.attrs["mutable"]:
                name = self.fresh(r.hint)
                self.let(out, name, type_rust(r.type), f"{arr}.partition_full_mut(const_shape![{shape}])", op,
                         mutable=True, unsafe=True)
            else:
                name = self.fresh(r.hint)
                pad = self.rules["padding"][op.attrs["padding"]]
                perm = op.attrs.get("order")
                dim_map = f"const_array![{', '.join(str(p) for p in perm)}]" if perm else "dim_map::Identity"
                if tensor:  # a raw array's local tensor (raw_views)
                    if op.attrs["padding"] != "zero":
                        raise errors.CtrsError(
                            errors.IR_RAW_VIEW_PADDING, f"no rule for a view of '{op.operands[0].hint}' without "
                            "padding_mode=ZERO: ct.gather/ct.scatter index it as an N-d array (a raw pointer in Rust)",
                            "cutile reads a local tensor view through .partition (zero padding) only: load with "
                            "padding_mode=ct.PaddingMode.ZERO", op.loc)
                    key = "raw_partition_permuted" if perm else "raw_partition"
                    self.let(out, name, type_rust(r.type), self.rules["pointer"][key].format(
                        array=tensor, shape=shape, dim_map=dim_map), op)
                else:
                    self.let(out, name, type_rust(r.type), f"make_partition_view({arr}, const_shape![{shape}], {pad}, "
                             f"{dim_map}, get_tensor_token({arr}))", op,
                             unsafe=targets.current().is_unsafe("partition_view"))
            self.text[(r.id, _SCALAR)] = name
            return None
        if k == OpKind.NUM_TILES:
            view = op.operands[0]
            space = self.fresh((r.hint or "n") + "_space")
            self.let(out, space, f"[i32; {len(view.type.tile)}]", f"get_index_space_shape(&{self.val(view)})", op)
            return self.define(out, op, r, "i32", f"{space}[{op.attrs['axis']}]")
        if k == OpKind.JOIN_TOKENS:  # straight-line memory order (passes/memtokens.py)
            texts = [self.val(v) for v in op.operands]
            prof = targets.current()
            if _UNORDERED in texts or not prof.spelling("join_tokens")["rust"]:
                self.text[(r.id, _SCALAR)] = _UNORDERED
                return None
            return self.define(out, op, r, "Token", prof.render("join_tokens", tokens=", ".join(texts)), target=target)
        if k == OpKind.LOAD_VIEW and op.attrs.get("token"):
            return self._tokened_load(op, out, target)
        if k == OpKind.LOAD_VIEW:
            idx = ", ".join(self.val(v, _SCALAR) for v in op.operands[1:])
            return self.define(out, op, r, type_rust(r.type), f"load_view_tko(&{self.val(op.operands[0])}, [{idx}], "
                               f"ordering::Weak, scope::TileBlock, {_view_hints(op)})", target=target)
        if k == OpKind.STORE_VIEW:
            view, tile, *index = op.operands
            if op.attrs.get("ordered"):
                *index, tok = index
                if self._ordered_store(op, out, view, tile, index, tok, target):
                    return None
                self.text[(r.id, _SCALAR)] = _UNORDERED
            vtext = self.val(view)
            idx = ", ".join(self.val(v, _SCALAR) for v in index)
            text = (f"store_view_tko_mut(&mut {vtext}, {self.val(tile)}, [{idx}], ordering::Weak, "
                    f"scope::TileBlock, {_view_hints(op)})")
            if self.views[view.id].attrs.get("order"):  # a permuted view (permuted_store_view)
                lat, tma = _view_hints(op).split(", ")
                text = targets.current().spelling("view_store")["rust"].format(
                    view=vtext, tile=self.val(tile), index=idx, latency=lat, tma=tma,
                    token=f"get_tensor_token({self.val(self.views[view.id].operands[0])})",
                    inbounds=", ".join("false" for _ in index))
            self.let(out, self.fresh("_done"), "Token", text, op, unsafe=True)
            return None
        if k == OpKind.ATOMIC_RED_VIEW:
            return self.atomic_red_view(op, out)
        if k == OpKind.TO_TILE:
            return self.to_tile(op, out, target)
        if k == OpKind.ARRAY_DIM:
            return self.array_dim(op, out)
        if k == OpKind.ARRAY_STRIDE:
            return self.array_stride(op, out)
        if k == OpKind.IOTA:
            return self.define(out, op, r, type_rust(r.type), self.rules["rust"]["iota"].format(
                shape=shape_rust(op.attrs["shape"])), target=target)
        if k in POINTER_OPS:
            return self.pointer_op(op, out, target)
        if k == OpKind.RUST_FRAGMENT:
            return self.fragment(op, out, through)
        return self.compute(op, out, target)

    def atomic_red_view(self, op: Op, out: list) -> None:
        """``A.tiled_view(..).atomic_store_<op>(..)``: cuTile Python's atomic_red_view_tko into an unpadded
        partition view, spelled by the target's ``[api.view_atomic_red]`` (cutile 0.5.0 src/_tileir.rs
        atomic_red_view_tko; empty where the crate has no such op: CTRS-E326)."""
        prof = targets.current()
        api = prof.spelling("view_atomic_red")
        if not api.get("rust"):
            raise errors.CtrsError(errors.IR_VIEW_ATOMIC, f"TiledView.atomic_store_{op.attrs['mode']} for cutile "
                                   f"{prof.version}: no atomic reduction into a partition view",
                                   f"{api.get('note', '')} (translate with --cutile 0.5.0)",
                                   errors.Loc(op.loc.file, op.loc.line, op.loc.col))
        view, tile, *index = op.operands
        rules = self.rules["pointer"]
        dt = tile.type.dtype
        kind = "float" if dt.is_float else ("uint" if dt.kind == "uint" else "int")
        mode = rules["atomic_mode"].get(f"{op.attrs['mode']}_{kind}") or rules["atomic_mode"].get(op.attrs["mode"])
        if mode is None:
            raise _err(op, f"atomic {op.attrs['mode']} on {dt}")
        text = api["rust"].format(view=self.val(view), tile=self.val(tile),
                                  index=", ".join(self.val(v, _SCALAR) for v in index), mode=mode,
                                  order=rules["memory_order"][op.attrs["memory_order"]],
                                  scope=rules["memory_scope"][op.attrs["memory_scope"]],
                                  token=f"get_tensor_token({self.val(self.views[view.id].operands[0])})")
        self.let(out, self.fresh("_red"), "Token", text, op, unsafe=bool(api.get("unsafe")))

    def fragment(self, op: Op, out: list, through: dict[int, str]) -> None:
        """A verified Rust fragment (OpKind.RUST_FRAGMENT), verbatim but for names: its inputs become the Rust
        names of its operands, its temporaries fresh names; the ``let`` of each name in ``outputs`` (default: the
        last ``let``) defines the op's result of that position (a statement range binds several)."""
        names = {n: self.val(v, _SCALAR) for n, v in zip(op.attrs["inputs"], op.operands)}
        mark = op.attrs.get("mark", "")
        stmts = op.attrs["stmts"]
        outputs = list(op.attrs.get("outputs") or [stmts[-1][0]])
        results = dict(zip(outputs, op.results))

        def spell(expr: str) -> str:
            return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: names.get(m.group(0), m.group(0)), expr)

        last = {name: i for i, (name, _, _) in enumerate(stmts)}  # a shadowed output: its last `let` defines it
        for i, (name, rtype, expr) in enumerate(stmts):
            r = results.get(name) if last[name] == i else None
            if r is None:
                fresh = self.fresh(name)
                self.let(out, fresh, rtype, f"{mark}{spell(expr)}", op, kind="llm")
                names[name] = fresh
                continue
            self.define(out, op, r, type_rust(r.type), f"{mark}{spell(expr)}", target=through.get(r.id))
            names[name] = self.val(r, _SCALAR)

    def to_tile(self, op: Op, out: list, target: str | None) -> None:
        """A runtime scalar (an f32 parameter, an i32 extent) as a 0-d tile: no Tile IR op."""
        r = op.result
        self.define(out, op, r, type_rust(r.type), f"scalar_to_tile({self.val(op.operands[0], _SCALAR)})",
                    target=target)

    def array_dim(self, op: Op, out: list) -> None:
        """An array's extent on one axis (a dropped Triton extent parameter read from the tensor)."""
        arr, r = op.operands[0], op.result
        if arr.id in self.raw:  # a raw entry's extents are its parameters
            name = f"{self.val(arr)}_shape_{op.attrs['axis']}"
            self.text[(r.id, _SCALAR)] = name
            return self.convert_forms(out, op, r, name, _SCALAR)
        shape = self.fresh(f"{arr.hint}_shape")
        self.let(out, shape, f"Shape<{{ [{', '.join(['-1'] * arr.type.rank)}] }}>", f"{self.val(arr)}.shape()", op)
        self.define(out, op, r, "i32", f"{shape}[{op.attrs['axis']}]")

    def array_stride(self, op: Op, out: list) -> None:
        """``A.strides[i]`` of a raw entry: its ``x_stride_<i>`` parameter; the last axis's is the constant 1 the
        reference specialises a unit stride to (the port assumes row-contiguous arrays, as for pointer ops)."""
        arr, r, axis = op.operands[0], op.result, op.attrs["axis"]
        if axis == arr.type.rank - 1:
            self.text[(r.id, _SCALAR)] = literal(1, r.type.dtype)
            if _TILE_ONLY_SCALAR in self.needs.get(r.id, set()):
                name = self.fresh(r.hint or "c")
                self.let(out, name, _tile0(r.type), f"constant({self.text[(r.id, _SCALAR)]}, const_shape![])", op)
                self.text[(r.id, _TILE_ONLY_SCALAR)] = name
            return None
        name = f"{self.val(arr)}_stride_{axis}"
        self.text[(r.id, _SCALAR)] = name
        return self.convert_forms(out, op, r, name, _SCALAR)

    def permuted_store_view(self, op: Op, out: list, arr: str, shape: str) -> None:
        """``ct.store(order=..)``'s view: the reference stores through a partition view with a dim_map. cutile's
        mutable views take no dim map (make_partition_view_mut / partition_mut, 0.3.1 and 0.5.0 src/_core.rs);
        cutile 0.5.0 stores through any view with ``store_view_raw`` (the same store_view_tko op), so the view is
        the read-only ``make_partition_view`` with the dim map. The target profile's ``[api.view_store]`` is
        empty where there is no such store (0.3.1): CTRS-E402."""
        prof = targets.current()
        if not prof.spelling("view_store").get("rust"):
            raise errors.CtrsError(errors.IR_STORE_ORDER, f"ct.store(order={tuple(op.attrs['order'])}) for cutile "
                                   f"{prof.version}: its mutable partition view has no dim_map and it has no store "
                                   "through a read-only view",
                                   f"{prof.spelling('view_store').get('note', '')} (translate with --cutile 0.5.0)",
                                   errors.Loc(op.loc.file, op.loc.line, op.loc.col))
        r = op.result
        name = self.fresh(r.hint)
        perm = ", ".join(str(p) for p in op.attrs["order"])
        self.let(out, name, f"Partition<{dtype_rust(r.type.dtype)}, {{ [{shape}] }}>",
                 f"make_partition_view({arr}, const_shape![{shape}], padding::None, const_array![{perm}], "
                 f"get_tensor_token({arr}))", op, unsafe=prof.is_unsafe("partition_view"))
        self.text[(r.id, _SCALAR)] = name

    # -- ct.gather / ct.scatter / atomics: cuTile Python's pointer chain ------------------------------
    def _ptr_let(self, out: list, op: Op, hint: str, rtype: str, key: str, **names) -> str:
        name = self.fresh(hint)
        self.let(out, name, rtype, self.rules["pointer"][key].format(**names), op, kind=key)
        return name

    def pointer_chain(self, op: Op, out: list) -> tuple[str, str | None, list]:
        """The pointer tile and bounds mask of a gather/scatter/atomic, as cuTile Python's
        ``_gather_scatter_pointer_and_mask`` builds them: per axis the index widened to u64 (``exti``) and
        broadcast to the index shape (an int literal is a u64 constant of it), ``index < extent`` compared
        unsigned (check_bounds, and'ed over the axes), times the axis stride (the unit last-axis stride a constant,
        as the reference specialises it), summed; then the base pointer broadcast and offset. A 1-D array reads
        its extent and base from the ``&Tensor``; an N-d array is a raw entry (``x: *mut E``, ``x_shape_<i>``,
        ``x_stride_<i>``: cutile 0.3.1's ``&Tensor`` has no strides). Returns (pointers, mask or None, the
        remaining operands)."""
        arr, *rest = op.operands
        a, shape, raw = self.val(arr), op.attrs["shape"], arr.id in self.raw
        rank = arr.type.rank
        n, ones = shape_rust(shape), ", ".join("1" for _ in shape)
        u64, u64_0 = f"Tile<u64, {{ [{n}] }}>", "Tile<u64, { [] }>"
        pl = self._ptr_let

        def widen(text: str, hint: str) -> str:  # a 0-d u64 tile at the index shape: reshape + broadcast
            if not shape:
                return text
            r1 = pl(out, op, hint + "1", f"Tile<u64, {{ [{ones}] }}>", "reshape", x=text, shape=ones)
            return pl(out, op, hint + "b", u64, "broadcast", x=r1, shape=n)

        def scalar64(text: str, hint: str) -> str:  # an i32 Rust scalar as a u64 tile of the index shape
            t = pl(out, op, hint + "_t", "Tile<i32, { [] }>", "scalar_to_tile", x=text)
            return widen(pl(out, op, hint + "_64", u64_0, "exti", x=t), hint)

        off = mask = None
        for k, lit in enumerate(op.attrs["index"]):
            h = f"{a}_i{k}" if raw else f"{a}_idx"
            if lit is not None:  # an int literal index: cuTile Python folds it to a u64 constant of the index shape
                ix = pl(out, op, h, u64, "constant", value=f"{int(lit)}u64", shape=n)
            else:
                v, rest = rest[0], rest[1:]
                src = self.val(v, _TILE_ONLY_SCALAR) if isinstance(v.type, ScalarType) else self.val(v)
                vshape = tuple(v.type.shape) if isinstance(v.type, TileType) else ()
                ix = pl(out, op, h, f"Tile<u64, {{ [{shape_rust(vshape)}] }}>", "exti", x=src)
                if vshape != tuple(shape):
                    if len(vshape) < len(shape):
                        lifted = (1,) * (len(shape) - len(vshape)) + vshape
                        ix = pl(out, op, h + "r", f"Tile<u64, {{ [{shape_rust(lifted)}] }}>", "reshape", x=ix,
                                shape=shape_rust(lifted))
                    ix = pl(out, op, h + "b", u64, "broadcast", x=ix, shape=n)
            if op.attrs["check_bounds"]:
                if raw:
                    ext = scalar64(f"{a}_shape_{k}", f"{a}_n{k}")
                else:
                    sh = pl(out, op, f"{a}_shape", "Shape<{ [-1] }>", "shape_of", array=a)
                    ln = pl(out, op, f"{a}_len", "Tile<i32, { [] }>", "scalar_to_tile", x=f"{sh}[0]")
                    ext = widen(pl(out, op, f"{a}_len64", u64_0, "exti", x=ln), f"{a}_len")
                m = pl(out, op, f"{a}_m{k}" if raw else f"{a}_mask", f"Tile<bool, {{ [{n}] }}>", "cmp_unsigned",
                       a=ix, b=ext)
                mask = m if mask is None else pl(out, op, f"{a}_mask", f"Tile<bool, {{ [{n}] }}>", "andi", a=mask,
                                                 b=m)
            if k == rank - 1:
                o = pl(out, op, f"{a}_o{k}" if raw else f"{a}_off", u64, "unit_stride", x=ix, shape=n)
            else:
                st = scalar64(f"{a}_stride_{k}", f"{a}_s{k}")
                o = pl(out, op, f"{a}_o{k}", u64, "mul", a=ix, b=st)
            off = o if off is None else pl(out, op, f"{a}_off", u64, "add", a=off, b=o)
        e = dtype_rust(arr.type.dtype)
        base = pl(out, op, f"{a}_base", f"PointerTile<*mut {e}, {{ [] }}>", "raw_base" if raw else "tensor_base",
                  array=a)
        if op.attrs.get("elem") is not None:  # through a pointer cast (frontends/triton/pointer_casts.py)
            e = dtype_rust(op.attrs["elem"])
            base = pl(out, op, f"{a}_cast", f"PointerTile<*mut {e}, {{ [] }}>", "ptr_cast", x=base)
        if shape:
            b1 = pl(out, op, f"{a}_base1", f"PointerTile<*mut {e}, {{ [{ones}] }}>", "reshape", x=base, shape=ones)
            base = pl(out, op, f"{a}_baseb", f"PointerTile<*mut {e}, {{ [{n}] }}>", "broadcast", x=b1, shape=n)
        ptrs = pl(out, op, f"{a}_ptrs", f"PointerTile<*mut {e}, {{ [{n}] }}>", "offset", ptr=base, off=off)
        if op.attrs.get("ptr_div") and _assume_spelled("assume_div_by"):  # passes/assume.py: the reference's
            # div_by of a one-element pointer (the FFI checks the base alignment it relies on)
            p = self.fresh(f"{a}_ptrs")
            self.let(out, p, f"PointerTile<*mut {e}, {{ [{n}] }}>", targets.current().render(
                "assume_div_by", in_unsafe=True, x=ptrs, k=op.attrs["ptr_div"]), op, kind="assume",
                unsafe=targets.current().is_unsafe("assume_div_by"))
            ptrs = p
        if op.attrs.get("has_mask"):
            *rest, user = rest
            u = self.val(user)
            mask = u if mask is None else pl(out, op, f"{a}_mask", f"Tile<bool, {{ [{n}] }}>", "andi", a=mask, b=u)
        return ptrs, mask, rest

    def pointer_op(self, op: Op, out: list, target: str | None) -> None:
        arr = op.operands[0]
        tok_text, done = None, None
        if op.attrs.get("token"):  # a gather / scatter in its array's token order (passes/memtokens.py)
            tok_text, done = self.val(op.operands[-1]), op.results[-1]
            op = Op(op.kind, op.operands[:-1], op.results[:-1], op.attrs, op.loc, op.regions)
            if tok_text == _UNORDERED or not targets.current().spelling("join_tokens")["rust"]:
                tok_text = None
            if tok_text is None:
                self.text[(done.id, _SCALAR)] = _UNORDERED
        ptrs, mask, rest = self.pointer_chain(op, out)
        a, rules = self.val(arr), self.rules["pointer"]
        token = self.rules["pointer"]["tensor_token"].format(array=a)
        if tok_text is not None:
            token = tok_text
        elif arr.id in self.raw:  # a raw entry has no tensor token: a fresh one, as cutile's own &Tensor prologue
            token = self._ptr_let(out, op, f"{a}_tok0", "Token", "new_token")
        names = {"ptrs": ptrs, "mask": f"Some({mask})" if mask else "None", "token": token,
                 "latency": op.attrs.get("latency") or 0}
        if op.kind == OpKind.SCATTER:
            (value,) = rest
            name = self.fresh("_done" if tok_text is None else f"{a}_stored")
            self.let(out, name, "Token", rules["store_ptr"].format(tile=self.val(value), **names), op, unsafe=True)
            if tok_text is not None:
                self.text[(done.id, _SCALAR)] = name
                if target is not None:  # a loop's carried token (passes/tokens.py): the yield's slot
                    self.assign(out, target, name, op)
                    self.text[(done.id, _SCALAR)] = target
            return None
        r = op.result
        v = self.slot.get(r.id) or self.fresh(r.hint or "v")
        tok = self.fresh(f"_{v}_tok")
        typ = f"({type_rust(r.type)}, Token)"
        decl = ""
        if op.kind == OpKind.GATHER and op.attrs.get("unpadded"):  # a rank-n gather: no padding (gathers.py)
            text = rules["load_ptr_unpadded"].format(**names)
        elif op.kind == OpKind.GATHER and op.attrs.get("pad_tile"):  # its padding tile (passes/padfold.py)
            (pad,) = rest
            text = rules["load_ptr"].format(pad=targets.current().render("padding_tile", pad=self.val(pad)),
                                            **names)
            decl = "cast_tile_const"
        elif op.kind == OpKind.GATHER:
            (pad,) = rest
            p = self.fresh(pad.hint[:-2] if pad.hint.endswith("_t") else f"{a}_pad")  # x_zero_t -> x_zero
            self.let(out, p, dtype_rust(r.type.dtype), f"tile_to_scalar({self.val(pad)})", op, kind="tile_to_scalar")
            text = rules["load_ptr"].format(pad=p, **names)
        else:
            dt = r.type.dtype
            order, scope = (rules[k][op.attrs[k]] for k in ("memory_order", "memory_scope"))
            names |= {"order": order, "scope": scope}
            if op.kind == OpKind.ATOMIC_CAS:
                exp, des = rest
                text = rules["atomic_cas"].format(cmp=self.val(exp), val=self.val(des), **names)
            else:
                (upd,) = rest
                kind = "float" if dt.is_float else ("uint" if dt.kind == "uint" else "int")
                mode = rules["atomic_mode"].get(f"{op.attrs['mode']}_{kind}") or rules["atomic_mode"].get(
                    op.attrs["mode"])
                if mode is None:
                    raise _err(op, f"atomic {op.attrs['mode']} on {dt}")
                text = rules["atomic_rmw"].format(arg=self.val(upd), mode=mode, **names)
        mop = model.Op(op.kind.mnemonic, "{t}", (("t", text),), self.span(op), True, decl)
        mut = "mut " if r.id in self.slot else ""  # a loop's initial value living in its `let mut` slot
        out.append(model.Let(f"({mut}{v}, {tok})", model.OpaqueT(typ), mop, self.span(op)))
        self.text[(r.id, _SCALAR)] = v
        if tok_text is not None:
            self.text[(done.id, _SCALAR)] = tok
        if target is not None and target != v:
            self.assign(out, target, v, op)
            self.text[(r.id, _SCALAR)] = target

    def compute(self, op: Op, out: list, target: str | None) -> None:
        r = op.result
        k = op.kind
        rules = self.rules["rust"]
        scalar = isinstance(r.type, ScalarType) and self.form.get(r.id) == _SCALAR
        form = _SCALAR if scalar else _TILE_ONLY_SCALAR
        args = [self.val(v, form) for v in op.operands]
        if k == OpKind.MATH:
            rule = self.rules["math"]["ct." + op.attrs["fn"]]
            tmpl = rule["rust_approx"] if op.attrs.get("approx") else rule["rust_ftz"] if op.attrs.get("ftz") \
                else rule["rust"]
        elif k == OpKind.MMA:
            dt = op.operands[0].type.dtype
            tmpl = rules["mma_int" if isinstance(dt, DType) and not dt.is_float else "mma_float"]
        elif k == OpKind.CONVERT and not scalar and _bool_to_int(op):
            tmpl = rules["convert_bool_int"]
        elif op.attrs.get("approx") and k == OpKind.DIVF:
            tmpl = rules["divf_approx"]
        elif k == OpKind.DIVF and op.attrs.get("rounding") in ("full", "approx"):  # ct.truediv(rounding_mode=..)
            tmpl = rules["divf_rounding"]
        elif k == OpKind.CONVERT and _zero_extends(op):
            tmpl = rules["convert_zext"]
        elif op.attrs.get("ftz") and f"{k.mnemonic}_modes" in rules:
            tmpl = rules[f"{k.mnemonic}_modes"]
        elif k == OpKind.CONVERT and _int_resize(op):
            tmpl = rules[_int_resize(op)]
        elif k == OpKind.PACK:  # ct.pack_to_bytes: a crate op of cutile 0.5.0 only (the target profile's spelling)
            sp = targets.current().spelling("pack_bytes")
            if not sp.get("rust"):
                raise _err(op, f"ct.pack_to_bytes: {sp.get('note', '')} (translate with --cutile 0.5.0)")
            tmpl = sp["rust"]
        elif scalar and self._const_ceil_div(op):
            tmpl = self.rules["scalar"]["ceil_div"]
        elif scalar:
            tmpl = self.rules["scalar"][k.mnemonic]
        elif k.mnemonic in rules:
            tmpl = rules[k.mnemonic]
        else:
            raise _err(op, f"no Rust spelling for {k.mnemonic}")
        names = dict(zip("abc", args)) if len(args) > 1 else {"x": args[0]} if args else {}
        names["rest"] = ", ".join(args[1:])
        if k == OpKind.SELECT:
            names = {"c": args[0], "a": args[1], "b": args[2]}
        attrs = {"rounding": self.rules["rounding"].get(op.attrs.get("rounding", "nearest_even")),
                 "predicate": self.rules["predicate"].get(op.attrs.get("predicate", ""), ""),
                 "shape": shape_rust(op.attrs.get("shape", ())),
                 "ftz": "ftz::Enabled" if op.attrs.get("ftz") else "ftz::Disabled",
                 "axis": f"{op.attrs.get('axis', 0)}i32", **self.op_attrs(op)}
        if k in (OpKind.RESHAPE, OpKind.BROADCAST) and op.operands[0].id in self.signed:
            # a wide unsigned constant's reshape / broadcast on its signed bits, bitcast after (the JIT folds the
            # constant's splat chain into one constant, as the reference's, only without a bitcast inside it)
            t = r.type
            raw = self.fresh((r.hint or "t") + "_bits")
            self.let(out, raw, f"Tile<i{t.dtype.bits}, {{ [{shape_rust(t.shape)}] }}>", tmpl.format(
                **{**names, "x": self.signed[op.operands[0].id]}, **attrs), op)
            self.signed[r.id] = raw
            return self.define(out, op, r, type_rust(t), self.rules["rust"]["bitcast"].format(x=raw), target=target)
        text = tmpl.format(**names, **attrs)
        rtype = type_rust(r.type) if not isinstance(r.type, ScalarType) or scalar else _tile0(r.type)
        if self._retype_reduce(op):
            # cutile 0.3.1 types a reduce result with the instantiated shape ([8]) and other tiles with the
            # declared one ([BM]), then rejects mixing them in one op (`t / x.shape[1]`): a same-shape broadcast
            # (no Tile IR op) re-types it; a reshape (keepdims) re-types it already
            raw = self.fresh((r.hint or "t") + "_raw")
            self.let(out, raw, rtype, text, op)
            text = self.rules["rust"]["broadcast"].format(x=raw, shape=shape_rust(r.type.shape))
        self.define(out, op, r, rtype, text, target=target, decl=declaration(tmpl))

    def _only_ordered_stores(self, view_op: Op) -> bool:
        """A mutable view every use of which is an ordered store this target spells (_ordered_store): the view
        itself is then never named."""
        arr = view_op.operands[0]
        uses = self.uses.get(view_op.results[0].id, [])
        return (bool(uses) and _ordered_store_spelling() and not view_op.attrs.get("order")
                and arr.id not in self.tensors and arr.id not in self.raw
                and all(u.kind == OpKind.STORE_VIEW and u.attrs.get("ordered") and u.operands[0] is view_op.results[0]
                        for u in uses))

    def _ordered_store(self, op: Op, out: list, view, tile, index: list, tok, target: str | None) -> bool:
        """A store ordered after its array's carried token (passes/tokens.py), as cuTile Python orders it: a mutable
        view made from the token for this store, the token after it read back from the view (target profile
        ``[api.ordered_store_view]``). False where the target has no spelling or the store is not a plain view's
        (a permuted view, a raw array): the caller stores unordered."""
        made = self.views[view.id]
        tok_text = self.val(tok)
        if tok_text == _UNORDERED or not _ordered_store_spelling() or made.attrs.get("order"):
            return False
        prof = targets.current()
        pv = self.fresh((view.hint or "view") + "_ordered")
        self.let(out, pv, type_rust(view.type), prof.render("ordered_store_view", in_unsafe=True,
                 tensor=self.val(made.operands[0]), shape=shape_rust(made.attrs["tile"]), token=tok_text), op,
                 mutable=True, unsafe=prof.is_unsafe("ordered_store_view"))
        idx = ", ".join(self.val(v, _SCALAR) for v in index)
        self.let(out, self.fresh("_done"), "Token", f"store_view_tko_mut(&mut {pv}, {self.val(tile)}, [{idx}], "
                 f"ordering::Weak, scope::TileBlock, {_view_hints(op)})", op, unsafe=True)
        after = f"get_partition_token_mut(&{pv})"
        r = op.results[0]
        if target is not None:
            self.assign(out, target, after, op)
        else:
            self.text[(r.id, _SCALAR)] = after
        return True

    def _only_loads_after_stores(self, view_op: Op) -> bool:
        """A read-only view every use of which is a load waiting for a store (passes/memtokens.py) this target
        spells: each such load makes its own view from that store's token, this one is never named."""
        uses = self.uses.get(view_op.results[0].id, [])
        return (bool(uses) and bool(targets.current().spelling("load_token")["rust"])
                and _ordered_store_spelling() and not view_op.attrs.get("order")
                and view_op.operands[0].id not in self.raw
                and all(u.kind == OpKind.LOAD_VIEW and u.attrs.get("token") and u.operands[0] is view_op.results[0]
                        and self._def_kind(u.operands[-1]) != OpKind.ARRAY_TOKEN for u in uses))

    def _tokened_load(self, op: Op, out: list, target: str | None) -> None:
        """A load that takes its array's token and gives its own (passes/memtokens.py), as cuTile Python orders it:
        from the array's entry token it reads its own view (made from get_tensor_token); after a store, a view
        made from that store's token. Its completion token is read from the view right after the load
        (``[api.load_token]``). Where the target has no spelling (0.3.1) or the token is not spelled, a plain load
        and no token."""
        view, *index, tok = op.operands
        r, done = op.results
        made = self.views[view.id]
        prof = targets.current()
        tok_text = self.val(tok)
        spelled = (tok_text != _UNORDERED and bool(prof.spelling("load_token")["rust"])
                   and made.operands[0].id not in self.tensors and not made.attrs.get("order"))
        if not (spelled and self._def_kind(tok) != OpKind.ARRAY_TOKEN):
            vtext = self.val(view)
        else:  # after a store: a view from its token
            arr = self.val(made.operands[0])
            vtext = self.fresh((view.hint or "view") + "_after")
            dim_map = "dim_map::Identity"
            self.let(out, vtext, type_rust(view.type), f"make_partition_view({arr}, "
                     f"const_shape![{shape_rust(made.attrs['tile'])}], {self.rules['padding'][made.attrs['padding']]}, "
                     f"{dim_map}, {tok_text})", op, unsafe=prof.is_unsafe("partition_view"))
        idx = ", ".join(self.val(v, _SCALAR) for v in index)
        self.define(out, op, r, type_rust(r.type), f"load_view_tko(&{vtext}, [{idx}], ordering::Weak, "
                    f"scope::TileBlock, {_view_hints(op)})", target=target)
        if not spelled:
            self.text[(done.id, _SCALAR)] = _UNORDERED
        elif self.uses.get(done.id):
            self.define(out, op, done, "Token", prof.render("load_token", view=vtext))
        return None

    def _retype_reduce(self, op: Op) -> bool:
        r = op.results[0]
        return (op.kind in (OpKind.REDUCE_SUM, OpKind.REDUCE_MAX, OpKind.REDUCE_MIN, OpKind.REDUCE_PROD)
                and any(isinstance(d, Sym) for d in r.type.shape)
                and any(u.kind != OpKind.RESHAPE for u in self.uses.get(r.id, [])))

    def op_attrs(self, op: Op) -> dict:
        """The attributes of the ops added for the tile operators (cmp ordering, a scalar compare's symbol,
        scan direction, permutations, extract shapes, iota length, the dtype of a cast result)."""
        r = op.results[0] if op.results else None
        return {"ordering": self.rules["ordering"][op.attrs.get("ordering", "ordered")],
                "sym": self.rules["predicate_symbol"].get(op.attrs.get("predicate", ""), ""),
                "reverse": "reverse::Reverse" if op.attrs.get("reverse") else "reverse::Forward",
                "perm": ", ".join(str(p) for p in op.attrs.get("perm", ())),
                "rdtype": dtype_rust(r.type.dtype) if r is not None and hasattr(r.type, "dtype") else "",
                "identity": _scan_identity(r.type.dtype) if op.kind == OpKind.SCAN_SUM else ""}

    # -- control flow ------------------------------------------------------------------------------
    def carry(self, op: Op, out: list, init: list, args: list[list], results: list) -> tuple[list, list]:
        """A loop's carried values as ``let mut`` slots: each init's slot names its block args (``args``: one list
        per region) and its result. Returns the slots (None for a token) and (arg ids, result, slot) of scalars."""
        slots = []
        scalars = []
        for v, res, *xs in zip(init, results, *args):
            if isinstance(v.type, ScalarType):  # `k = 0` .. `k += 1`: a `let mut k: i32` (a 0-d tile in Tile IR)
                name = self.fresh(xs[0].hint)
                self.let(out, name, type_rust(v.type), self.val(v, _SCALAR), op, mutable=True, kind="carried")
                slots.append(name)
                scalars.append((xs, res, name))
                for x in (*xs, res):
                    self.text[(x.id, _SCALAR)] = name
                continue
            if isinstance(v.type, TokenType):
                init_text = self.val(v)
                if init_text == _UNORDERED:
                    slots.append(None)
                    for x in (*xs, res):
                        self.text[(x.id, _SCALAR)] = _UNORDERED
                    continue
                name = self.fresh(xs[0].hint)  # the carried token: a `let mut` Token, the JIT's iter_values
                self.let(out, name, "Token", init_text, op, mutable=True, kind="carried")
                slots.append(name)
                for x in (*xs, res):
                    self.text[(x.id, _SCALAR)] = name
                continue
            if v.id in self.slot:
                name = self.slot[v.id]
            else:
                name = self.fresh(xs[0].hint)
                self.let(out, name, type_rust(v.type), self.val(v), op, mutable=True, kind="carried")
            slots.append(name)
            for x in (*xs, res):
                self.text[(x.id, _SCALAR)] = name
        return slots, scalars

    def while_(self, op: Op, out: list) -> None:
        """``let mut`` slots for the carried values and a ``let mut`` bool for the test, computed by the cond region
        before the loop and again at the end of each iteration: ``while c { body; c = cond }`` (cutile-compiler
        0.5.0 compile_expression.rs Expr::While: a Tile IR ``loop`` carrying every variable its body assigns)."""
        cond, body = op.regions
        slots, scalars = self.carry(op, out, op.operands, [cond.args, body.args], op.results)
        c = self.fresh("cond")
        self.let(out, c, "bool", "true", op, mutable=True, kind="carried")
        cond_ids = defined_in(cond) - {a.id for a in cond.args}

        def test(into: list) -> None:
            for key in [key for key in self.text if key[0] in cond_ids]:  # its ops are spelled afresh each time
                del self.text[key]
            for xs, _, name in scalars:
                self.convert_forms(into, op, xs[0], name, _SCALAR)
            self.block(cond, into, [c], force=True)

        test(out)
        inner: list = []
        for xs, _, name in scalars:
            self.convert_forms(inner, op, xs[1], name, _SCALAR)
        passthrough = any(v is a for v, a in zip(body.ops[-1].operands, body.args))
        self.block(body, inner, slots, force=passthrough)
        test(inner)
        out.append(model.While(c, inner, self.span(op), tuple(x for x in slots if x is not None) + (c,)))
        for _, res, name in scalars:
            self.convert_forms(out, op, res, name, _SCALAR)

    def for_(self, op: Op, out: list) -> None:
        start, stop, step, *init = op.operands
        body = op.regions[0]
        iv, *args = body.args
        slots, scalars = self.carry(op, out, init, [args], op.results)
        scalars = [(xs[0], res, name) for xs, res, name in scalars]
        ivn = self.fresh(iv.hint)
        self.text[(iv.id, _SCALAR)] = ivn
        inner: list = []
        self.convert_forms(inner, op, iv, ivn, _SCALAR)
        for a, _, name in scalars:
            self.convert_forms(inner, op, a, name, _SCALAR)
        # a carried value the body yields unchanged (a loop split's arm that does not touch it) is still assigned:
        # cutile carries only the variables a loop body assigns, the reference carries it through `continue`
        passthrough = body.ops and any(v is a for v, a in zip(body.ops[-1].operands, args))
        self.block(body, inner, slots, force=bool(passthrough))
        one = self.text.get((step.id, _SCALAR)) == "1i32"
        s_text = "" if one else f"{self.val(step, _SCALAR)} as usize"
        if step.type.dtype == I64:  # an i64 loop (a range over an i64 bound): its step is written even when 1 (the
            # JIT's default step is an i32 constant); a constant as a bare literal the JIT types like the bounds
            # (compile_expression.rs ForLoop), as cutile 0.5.0 refuses `i64 as usize`
            c = self.const_values.get(step.id)
            if not isinstance(c, int) or isinstance(c, bool):
                raise _err(op, "a range over i64 bounds with a runtime step (cutile casts no i64 to the usize of "
                           "step_by)")
            s_text = str(c)
        lo, hi = self.val(start, _SCALAR), self.val(stop, _SCALAR)
        unbound = targets.current().spelling("unbounded_loop_zero")["rust"]
        if unbound and ivn != "_" and self._static_int(start) and self._static_int(stop):  # `_`: cutile bounds none
            # the reference's loop index carries no fact; cutile bounds the iterand of a loop whose bounds it knows
            # (assume bounded<lo, hi-1>), which keeps tileiras from folding an unrolled index (a dynamic extract
            # through local memory): the bounds start from a zero cutile does not know, folded back by tileiras
            ty = "i64" if start.type.dtype == I64 else "i32"
            zt, z = self.fresh(f"{ivn}_zero_t"), self.fresh(f"{ivn}_zero")
            self.let(out, zt, f"Tile<{ty}, {{ [] }}>", f"constant(0{ty}, const_shape![])", op)
            self.let(out, z, ty, unbound.format(tile=zt), op)
            lo = z if self.const_values.get(start.id) == 0 else f"{z} + {lo}"
            hi = f"({z} + {hi})"
        out.append(model.For(ivn, lo, hi, inner, self.span(op), tuple(x for x in slots if x is not None),
                             step=s_text))
        for _, res, name in scalars:
            self.convert_forms(out, op, res, name, _SCALAR)

    def _static_int(self, v) -> bool:
        """Whether cutile's bounds analysis knows ``v`` exactly: a literal, a const generic, integer arithmetic of
        them (cutile-compiler bounds.rs)."""
        if v.id in self.const_params:
            return True
        kind = self._def_kind(v)
        if kind in (OpKind.CONSTANT, OpKind.CONST_SYM):
            return True
        return kind in _STATIC_ARITH and all(self._static_int(x) for x in self.def_ops[v.id].operands)

    def if_(self, op: Op, out: list, through: dict[int, str]) -> None:
        """A constant-flag ``if FLAG == 1i32`` (folded by the cuTile JIT) or a runtime ``if c`` (an i1 value):
        each result lives in a ``let mut`` declared before it (initialised from the value an arm yields from
        outside the ``if``, else from an earlier value of that type, else a zero placeholder the arms overwrite)
        and assigned at the end of BOTH arms (cutile 0.3.1 / docs/porting.md §7)."""
        targets = []
        for i, r in enumerate(op.results):
            t = through.get(r.id)
            if t is None:
                t = self.fresh(r.hint)
                self.let(out, t, type_rust(r.type), self._if_init(op, i), op, mutable=True, kind="carried")
            targets.append(t)
        arms = []
        for region in op.regions:
            arm: list = []
            self.block(region, arm, targets, force=True)
            arms.append(arm)
        for r, t in zip(op.results, targets):
            self.text[(r.id, _SCALAR)] = t
        if "expr" in op.attrs:  # a condition over const generics (ir/constexpr.py): cutile folds it per launch
            out.append(model.IfConst(const_expr(op.attrs["expr"], const_spelling), arms[0], arms[1], self.span(op)))
        elif "flag" in op.attrs:
            pred, value = op.attrs.get("test", ("eq", 1))
            sym = _CMP_SYM[pred]
            if isinstance(value, Sym):  # two const generics compared (TILE != N): folded by the JIT alike
                out.append(model.IfConst(f"{const_spelling(op.attrs['flag'])} {sym} {const_spelling(value.name)}",
                                         arms[0], arms[1], self.span(op)))
            else:
                out.append(model.IfConst(f"{const_spelling(op.attrs['flag'])} {sym} {int(value)}i32", arms[0],
                                         arms[1], self.span(op), test=(op.attrs["flag"], sym, int(value))))
        else:
            c = op.operands[0]  # an i1 scalar, or a 0-d bool tile (a Triton scalar condition): read as a bool
            test = self.val(c, _SCALAR) if isinstance(c.type, ScalarType) else f"tile_to_scalar({self.val(c)})"
            out.append(model.IfConst(test, arms[0], arms[1], self.span(op), runtime=True))
        for r, t in zip(op.results, targets):
            self.convert_forms(out, op, r, t, _SCALAR)

    def _if_init(self, op: Op, i: int) -> str:
        r = op.results[i]
        inner = set()
        for region in op.regions:
            inner |= defined_in(region)
        for region in op.regions:
            y = region.ops[-1].operands[i]
            if y.id not in inner and (y.id, _SCALAR) in self.text:
                return self.val(y) if not isinstance(y.type, ScalarType) else self.val(y, _SCALAR)
        for vid in reversed([v for scope in self.scopes for v in scope]):  # an earlier value in scope
            if self.typed.get(vid) == r.type and (vid, _SCALAR) in self.text:
                return self.text[(vid, _SCALAR)]
        if isinstance(r.type, ScalarType):
            return literal(0, r.type.dtype)
        # a bool tile's placeholder is `true` (`0bool` is no Rust literal; the arms overwrite it either way)
        zero = True if r.type.dtype == BOOL else 0
        spelled = constant_spelling(zero, dtype_rust(r.type.dtype), isinstance(r.type.dtype, DTypeParam))
        if spelled is None or spelled[0] != "constant":
            raise _err(op, f"no zero placeholder of {r.type} for an if result")
        return self.rules["rust"]["constant"].format(value=spelled[1], shape=shape_rust(r.type.shape))

    def raw_assumes(self, out: list) -> None:
        """At entry, for each raw array with the ``nonneg`` fact (passes/assume.py): its ``x_shape_<i>`` /
        ``x_stride_<i>`` parameters the body reads, shadowed by themselves assumed ``>= 0`` (the reference's
        ``bounded<0, ?>`` on an array's extents and strides; the FFI refuses a negative stride)."""
        if not _assume_spelled("assume_lower_bound"):
            return
        from ctrs.ir.ops import walk  # noqa: PLC0415

        read: dict[int, set[str]] = {}
        for op in walk(self.k.body):
            if not op.operands or op.operands[0].id not in self.raw:
                continue
            arr = op.operands[0]
            r, names = arr.type.rank, read.setdefault(arr.id, set())
            if op.kind == OpKind.ARRAY_DIM:
                names.add(f"shape_{op.attrs['axis']}")
            elif op.kind == OpKind.ARRAY_STRIDE and op.attrs["axis"] < r - 1:  # the last: the constant 1
                names.add(f"stride_{op.attrs['axis']}")
            elif op.kind in POINTER_OPS:  # pointer_chain: extents for the bounds mask, strides but the last
                names.update([f"stride_{i}" for i in range(r - 1)])
                if op.attrs.get("check_bounds"):
                    names.update(f"shape_{i}" for i in range(r))
            elif op.kind == OpKind.MAKE_VIEW:  # raw_views: the tensor of every extent and stride but the last
                names.update([f"shape_{i}" for i in range(r)] + [f"stride_{i}" for i in range(r - 1)])
        site = self.k.body.ops[-1]
        for p in self.k.params:
            if p.kind != "array" or p.value is None or p.value.id not in read:
                continue
            if not self.k.assumes.get(p.name, {}).get("nonneg"):
                continue
            a = self.val(p.value)
            for what in sorted(read[p.value.id], key=lambda w: (w.split("_")[0] != "shape", int(w.split("_")[1]))):
                name = f"{a}_{what}"
                self.let(out, name, "i32", targets.current().render("assume_lower_bound", in_unsafe=True, x=name,
                                                                     lower=0),
                         site, kind="assume", unsafe=targets.current().is_unsafe("assume_lower_bound"),
                         mutable=(p.value.id, what) in self.unit_extents)

    def unit_extent_lets(self, out: list, site: Op) -> None:
        """Each unit-extent flag (passes/unitdims.py), per array in parameter order: ``if FLAG == 1i32 {
        x_shape_i = 1i32; } else { .. }`` on a const generic, which the JIT folds to its taken arm."""
        for p in self.k.params:
            for g in (g for g in self.k.generics if g.origin == "unit_extent" and g.test[0] == p.name):
                name = f"{self.val(p.value)}_shape_{g.test[1]}"
                if not (_assume_spelled("assume_lower_bound") and self.k.assumes.get(p.name, {}).get("nonneg")):
                    # no `let mut` of its assume (raw_assumes): a mutable copy
                    self.let(out, name, "i32", name, site, mutable=True, kind="carried")
                one, same = [], []
                self.assign(one, name, "1i32", site)
                self.assign(same, name, name, site)
                out.append(model.IfConst(f"{const_spelling(g.name)} == 1i32", one, same, self.span(site)))

    def raw_views(self, out: list) -> None:
        """At entry, for each raw array a view op reads (``ct.load`` of an array an N-d ``ct.gather`` indexes too):
        the tensor of its pointer, ``x_shape_<i>`` extents and ``x_stride_<i>`` strides (make_tensor_view), as
        cutile builds a ``&Tensor`` entry parameter's; its views partition that tensor (``self.tensors``)."""
        from ctrs.ir.ops import walk  # noqa: PLC0415

        viewed = {op.operands[0].id for op in walk(self.k.body) if op.kind == OpKind.MAKE_VIEW}
        rules = self.rules["pointer"]
        for p in self.k.params:
            if p.kind != "array" or p.value is None or p.value.id not in self.raw or p.value.id not in viewed:
                continue
            a, rank, e = p.name, p.value.type.rank, dtype_rust(p.value.type.dtype)
            site = next(op for op in walk(self.k.body) if op.kind == OpKind.MAKE_VIEW and op.operands[0] is p.value)
            dyn = ", ".join(["-1"] * rank)
            dims = self.fresh(f"{a}_dims")
            self.let(out, dims, f"Shape<{{ [{dyn}] }}>", rules["raw_dims"].format(
                dyn=dyn, dims=", ".join(f"{a}_shape_{i}" for i in range(rank))), site)
            strides_t = ", ".join(["-1"] * (rank - 1) + ["1"])
            strides = self.fresh(f"{a}_strides")
            self.let(out, strides, f"Array<{{ [{strides_t}] }}>", rules["raw_strides"].format(
                strides_t=strides_t, strides=", ".join(f"{a}_stride_{i}" for i in range(rank - 1))), site)
            base = self._ptr_let(out, site, f"{a}_vbase", f"PointerTile<*mut {e}, {{ [] }}>", "raw_base", array=a)
            token = self._ptr_let(out, site, f"{a}_vtok", "Token", "new_token")
            view = self.fresh(f"{a}_view")
            self.let(out, view, f"Tensor<{e}, {{ [{dyn}] }}>", rules["raw_view"].format(
                base=base, dims=dims, strides=strides, token=token), site, unsafe=True)
            self.tensors[p.value.id] = view

    def emit(self) -> model.Kernel:
        body: list = []
        for p in self.k.params:  # a runtime scalar a tile op takes: its 0-d tile, once at entry
            if p.kind == "scalar" and p.value is not None:
                self.convert_forms(body, self.k.body.ops[-1], p.value, p.name, _SCALAR)
            elif p.kind == "fconst":  # a ct.Constant[float]: its i32 const generic of f32 bits, bitcast (the
                # Tile IR is `bitcast` of an i32 constant; ircanon reads it as the f32 constant the reference has)
                at = self.k.body.ops[-1]
                raw = self.fresh(p.name.lower() + "_bits")
                self.let(body, raw, "Tile<i32, { [] }>", f"scalar_to_tile({const_spelling(p.name)})", at,
                         kind="scalar_to_tile")
                name = self.fresh(p.name.lower() + "_f")
                self.let(body, name, _tile0(p.value.type), self.rules["rust"]["bitcast"].format(x=raw), at)
                self.text[(p.value.id, _TILE_ONLY_SCALAR)] = name
                self.convert_forms(body, at, p.value, name, _TILE_ONLY_SCALAR)
        self.raw_assumes(body)
        self.unit_extent_lets(body, self.k.body.ops[-1])
        self.raw_views(body)
        self.block(self.k.body, body)
        params = []
        for p in self.k.params:
            if p.kind == "array":
                facts = self.k.assumes.get(p.name, {})
                raw = p.value.id in self.raw
                params.append(model.Param(p.name, "array", dtype_rust(p.value.type.dtype), p.value.type.rank,
                                          model.Span(p.loc.line, p.loc.col), raw=raw,
                                          nonneg=raw and bool(facts.get("nonneg")) and _assume_spelled(
                                              "assume_lower_bound"),
                                          align=facts.get("align", 0) if _assume_spelled("assume_div_by") else 0))
            elif p.kind == "constant":
                params.append(model.Param(p.name, "constant", "i32", 0, model.Span(p.loc.line, p.loc.col)))
            elif p.kind == "fconst":  # the host takes the launch's double (a Python float) and passes the bits of
                # its f32 as the generic, and computes the compile-time float expressions from it (render_host)
                params.append(model.Param(p.name, "scalar", "f64", 0, model.Span(p.loc.line, p.loc.col), bits=True))
            else:
                params.append(model.Param(p.name, "scalar", type_rust(p.value.type), 0,
                                          model.Span(p.loc.line, p.loc.col)))
        gens = [model.Generic(g.name, g.kind, g.origin, g.note,
                              const_spelling(g.name) if g.kind == "const" and const_spelling(g.name) != g.name else "",
                              g.test, g.expr)
                for g in self.k.generics]
        if any(g.rust_name in self.taken for g in gens if g.rust_name):
            raise _err(None, f"a const generic's kernel.rs name clashes: {[g.rust_name for g in gens]}")
        return model.Kernel(self.k.name, params, gens, body, model.Span(self.k.loc.line, self.k.loc.col),
                            python_name=self.k.python_name, variant=tuple(self.k.variant),
                            launches=tuple(self.k.launches),
                            hints=tuple(self.k.hints.items()))


def emit_kernel(k: Kernel, file: str) -> model.Kernel:
    """The Rust-spelled statement tree (transpiler/model.py) of one specialised IR kernel."""
    return KernelEmitter(k, file).emit()
