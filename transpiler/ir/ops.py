"""Ops of the typed tile IR, as an enum of kinds grouped by family, plus structured control flow.

An :class:`Op` has typed operands and results (SSA :class:`~.values.Value` s), attributes (padding,
latency, allow_tma, rounding, ftz, axis, predicate, ...), a :class:`~.values.Loc` and, for ``for`` / ``if``,
regions (:class:`Block` s whose last op is a ``yield``). Families follow Tile IR (and cuTile Python's own
``_ir``): the emitter and every pass dispatch on ``kind`` / ``kind.family``, never on text.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .types import Sym, Type
from .values import Loc, Value


class Family(enum.Enum):
    CONST = "const"
    ELEMENTWISE = "elementwise"  # float / int math, unary and binary
    COMPARE = "compare"  # cmpf / cmpi / select
    REDUCE = "reduce"  # reductions and scans
    MEMORY = "memory"  # views, load/store view, gather/scatter, index space
    MMA = "mma"
    SHAPE = "shape"  # reshape / broadcast / permute / convert (cast)
    GRID = "grid"  # block id, number of blocks
    CONTROL = "control"  # for / if / yield
    OPAQUE = "opaque"  # target-language text no rule produced (verified LLM answers: llm_fallback/)


class OpKind(enum.Enum):
    # constants
    CONSTANT = ("constant", Family.CONST)  # attrs: value; result scalar or tile (splat)
    CONST_SYM = ("const_sym", Family.CONST)  # a const-generic symbol's value as an i32 scalar; attrs: sym
    # elementwise (attrs: rounding/ftz where the op has them)
    ADDF = ("addf", Family.ELEMENTWISE)
    SUBF = ("subf", Family.ELEMENTWISE)
    MULF = ("mulf", Family.ELEMENTWISE)
    DIVF = ("divf", Family.ELEMENTWISE)
    NEGF = ("negf", Family.ELEMENTWISE)
    FMA = ("fma", Family.ELEMENTWISE)
    MATH = ("math", Family.ELEMENTWISE)  # attrs: fn (exp, sin, ...): unary float math as data (rules/ir.toml)
    MAXF = ("maxf", Family.ELEMENTWISE)
    MINF = ("minf", Family.ELEMENTWISE)
    ADDI = ("addi", Family.ELEMENTWISE)
    SUBI = ("subi", Family.ELEMENTWISE)
    MULI = ("muli", Family.ELEMENTWISE)
    DIVI = ("divi", Family.ELEMENTWISE)  # attrs: rounding (negative_inf for Python //)
    REMI = ("remi", Family.ELEMENTWISE)
    ANDI = ("andi", Family.ELEMENTWISE)
    ORI = ("ori", Family.ELEMENTWISE)
    XORI = ("xori", Family.ELEMENTWISE)
    NEGI = ("negi", Family.ELEMENTWISE)
    ABSF = ("absf", Family.ELEMENTWISE)
    ABSI = ("absi", Family.ELEMENTWISE)
    MAXI = ("maxi", Family.ELEMENTWISE)
    MINI = ("mini", Family.ELEMENTWISE)
    REMF = ("remf", Family.ELEMENTWISE)
    POWF = ("powf", Family.ELEMENTWISE)
    SHLI = ("shli", Family.ELEMENTWISE)
    SHRI = ("shri", Family.ELEMENTWISE)
    # comparison / select
    CMPI = ("cmpi", Family.COMPARE)  # attrs: predicate
    CMPF = ("cmpf", Family.COMPARE)
    SELECT = ("select", Family.COMPARE)
    # reductions / scans (attrs: axis)
    REDUCE_SUM = ("reduce_sum", Family.REDUCE)
    REDUCE_MAX = ("reduce_max", Family.REDUCE)
    REDUCE_MIN = ("reduce_min", Family.REDUCE)
    SCAN_SUM = ("scan_sum", Family.REDUCE)  # attrs: axis, reverse; result of the operand's type
    REDUCE_PROD = ("reduce_prod", Family.REDUCE)
    # memory
    MAKE_VIEW = ("make_view", Family.MEMORY)  # (array) -> view; attrs: tile, padding
    NUM_TILES = ("num_tiles", Family.MEMORY)  # (view) -> i32; attrs: axis
    # (view, *index[, token]) -> tile[, token]; attrs: latency, allow_tma, token (it takes a token, gives its own)
    LOAD_VIEW = ("load_view", Family.MEMORY)
    # (view, tile, *index[, token]) -> [token]; attrs: ordered (it takes a token, gives its own), chain
    # (straight-line order, passes/memtokens.py; else loop-carried, passes/tokens.py)
    STORE_VIEW = ("store_view", Family.MEMORY)
    ARRAY_TOKEN = ("array_token", Family.MEMORY)  # (array) -> token: the array's ordering token at entry
    JOIN_TOKENS = ("join_tokens", Family.MEMORY)  # (*token) -> token: done when all of them are
    GATHER = ("gather", Family.MEMORY)
    SCATTER = ("scatter", Family.MEMORY)
    ARRAY_DIM = ("array_dim", Family.MEMORY)  # (array) -> i32: the array's extent on one axis; attrs: axis
    ARRAY_STRIDE = ("array_stride", Family.MEMORY)  # (array) -> i32: A.strides[axis] (a raw entry's parameter)
    # ct.gather / ct.scatter / atomics on pointer tiles (frontends/cutile/memory.py): operands (array, *index
    # [, value...][, mask]); attrs: index (per axis an int literal or None for the next operand), shape (the
    # index shape), check_bounds, has_mask, latency (gather/scatter), padding (gather), unpadded (a gather with
    # no padding operand), pad_tile (its padding operand is a tile of the index shape, passes/padfold.py), mode /
    # memory_order / memory_scope (atomics). The emitter spells cuTile Python's pointer chain (u64 offsets, mask).
    ATOMIC_RMW = ("atomic_rmw", Family.MEMORY)  # (array, *index, update[, mask]) -> old values
    ATOMIC_CAS = ("atomic_cas", Family.MEMORY)  # (array, *index, expected, desired[, mask]) -> old values
    # A.tiled_view(shape).atomic_store_<op>(index, update) (frontends/cutile/tiledview.py): a reduction into a
    # mutable partition view, no old values; attrs: mode, memory_order, memory_scope
    ATOMIC_RED_VIEW = ("atomic_red_view", Family.MEMORY)  # (view, update, *index) -> []
    # mma
    MMA = ("mma", Family.MMA)  # (a, b, acc) -> acc
    # shape ops
    RESHAPE = ("reshape", Family.SHAPE)
    IOTA = ("iota", Family.SHAPE)  # () -> tile<N x int>: 0 .. N-1
    EXTRACT = ("extract", Family.SHAPE)  # (tile, *i32 block index) -> a sub-tile; attrs: shape
    CAT = ("cat", Family.SHAPE)  # (a, b) -> concatenation along attrs: axis
    BROADCAST = ("broadcast", Family.SHAPE)
    PERMUTE = ("permute", Family.SHAPE)
    CONVERT = ("convert", Family.SHAPE)  # element-type cast (ftof/itof/...): attrs: rounding
    TO_TILE = ("to_tile", Family.SHAPE)  # (runtime scalar) -> 0-d tile of its dtype (no Tile IR op: one value)
    BITCAST = ("bitcast", Family.SHAPE)  # (tile) -> the same bits as another dtype of one width (u32 <-> i32 ...)
    PACK = ("pack", Family.SHAPE)  # (rank-1 tile) -> its bytes as a rank-1 u8 tile (ct.pack_to_bytes, Tile IR pack)
    # grid
    BLOCK_ID = ("block_id", Family.GRID)  # attrs: axis
    NUM_BLOCKS = ("num_blocks", Family.GRID)  # attrs: axis
    # structured control flow
    FOR = ("for", Family.CONTROL)  # operands (start, stop, step, *init); region body(iv, *carried); results
    IF = ("if", Family.CONTROL)  # operands (cond,) for a runtime if, () for a constant flag (attrs: flag)
    YIELD = ("yield", Family.CONTROL)
    # operands (*init); regions cond(*carried) -> yield(i1 scalar), body(*carried) -> yield(*carried); results the
    # carried values when cond fails (Python `while`; Tile IR `loop` with an `if cond {} else {break}` head)
    WHILE = ("while", Family.CONTROL)
    # opaque: a verified Rust fragment (ctrs translate --llm) for a construct without a rule; typed operands (the
    # values it reads, attrs["inputs"] their names in the text) and one typed result; attrs["stmts"]: the
    # (name, rust type, rust expr) lets, the last binding the result; the emitter spells them verbatim
    RUST_FRAGMENT = ("rust_fragment", Family.OPAQUE)

    def __init__(self, mnemonic: str, family: Family):
        self.mnemonic = mnemonic
        self.family = family


# ops with effects or that depend on where they run (never hoisted, never removed when unused)
EFFECTS = {OpKind.STORE_VIEW, OpKind.SCATTER, OpKind.YIELD, OpKind.FOR, OpKind.IF, OpKind.WHILE, OpKind.ATOMIC_RMW,
           OpKind.ATOMIC_CAS, OpKind.ATOMIC_RED_VIEW}
# ops whose result depends on memory: not hoisted out of a loop (a store in the loop may change it)
READS_MEMORY = {OpKind.LOAD_VIEW, OpKind.GATHER, OpKind.ATOMIC_RMW, OpKind.ATOMIC_CAS}


@dataclass(eq=False)
class Block:
    args: list[Value] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)


@dataclass(eq=False)
class Op:
    kind: OpKind
    operands: list[Value]
    results: list[Value]
    attrs: dict = field(default_factory=dict)
    loc: Loc = field(default_factory=Loc)
    regions: list[Block] = field(default_factory=list)

    @property
    def result(self) -> Value:
        (r,) = self.results
        return r

    @property
    def pure(self) -> bool:
        return self.kind not in EFFECTS


@dataclass
class Param:
    """A kernel parameter: an array, a runtime scalar, or a const generic (``value`` is its SSA value)."""
    name: str
    kind: str  # array | scalar | constant | fconst (a ct.Constant[float]: an i32 const generic of its f32 bits)
    value: Value | None
    loc: Loc = field(default_factory=Loc)


@dataclass
class Generic:
    """A generic of the kernel: a dtype parameter (``E``), a const int, a host-computed dtype flag, or a derived
    const (``origin == "derived"``: a shape dimension computed from const generics, ``expr`` its
    :class:`~.constexpr.ConstExpr` over the ``constant`` generics, which the host evaluates per launch)."""
    name: str
    kind: str  # type | const
    # array_dtype | constant | dtype_flag | derived | float_bits | float_expr (ir/floatexpr.py) | unit_extent
    # (passes/unitdims.py: test = (array, axis))
    origin: str
    note: str = ""
    test: tuple[str, ...] = ()  # a dtype flag's (array, dtype): 1 when array.dtype == dtype
    expr: object = None  # a derived const's ConstExpr (frontends/derived.py)


@dataclass(eq=False)
class Kernel:
    name: str
    params: list[Param]
    generics: list[Generic]
    body: Block
    loc: Loc = field(default_factory=Loc)
    hints: dict = field(default_factory=dict)  # occupancy, num_ctas
    python_name: str = ""
    variant: tuple = ()  # (flag, value) pairs fixed in this entry
    # the launches (each ((array, IR dtype), ...)) that kept this kernel's free array dtype variables apart
    # (frontends/cutile/dtypes.launch_groups; empty: none did): the C entry dispatches their combinations
    launches: tuple = ()
    notes: list = field(default_factory=list)  # (line, kind, text) front-end decisions for --explain
    # array parameter name -> facts the port states about it (passes/assume.py): "nonneg" (extents and strides
    # >= 0), "align" (bytes the base pointer must be aligned to: a 0-d gather/scatter's ptr_div relies on it)
    assumes: dict = field(default_factory=dict)
    # an entry the kernel may lose (an integer element entry, passes/specialise.py): one the emitter cannot spell is
    # left out instead of refusing the kernel
    optional: bool = False


@dataclass
class Module:
    file: str
    kernels: list[Kernel]
    functions: list[Kernel] = field(default_factory=list)  # helper functions (inlined by the front end today)


def walk(block: Block):
    """Every op of a block, nested regions included, in order."""
    for op in block.ops:
        yield op
        for r in op.regions:
            yield from walk(r)


def sym_of(t: Type) -> set[Sym]:
    return {d for d in getattr(t, "shape", ()) if isinstance(d, Sym)}
