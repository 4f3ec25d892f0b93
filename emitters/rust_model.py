"""The emitter's statement tree: what emitters/ir_rust.py lowers the typed IR into and the jinja2 templates render.

This is the last stage before text and the only model that holds Rust spelling (types, generics, op text from
rules/ir.toml); every node keeps the Python line:col it came from (``Span``) for the source map and diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    line: int = 0
    col: int = 0


# ---------------------------------------------------------------------------------------------- types


@dataclass(frozen=True)
class TileT:
    """A tile: element type (Rust spelling or a type generic like ``E``) and a shape over const generics."""
    dtype: str
    shape: tuple[str, ...]

    def rust(self) -> str:
        return f"Tile<{self.dtype}, {{ [{', '.join(self.shape)}] }}>"


@dataclass(frozen=True)
class ScalarT:
    dtype: str  # i32 / f32 / ...

    def rust(self) -> str:
        return self.dtype


@dataclass(frozen=True)
class OpaqueT:
    """Any other typed value (block-id tuple, Shape, partitions, tokens, index-space arrays)."""
    text: str
    kind: str = "opaque"

    def rust(self) -> str:
        return self.text


Type = TileT | ScalarT | OpaqueT


# ---------------------------------------------------------------------------------------------- kernel


@dataclass
class Param:
    name: str
    kind: str  # "array" | "scalar" | "constant"
    dtype: str = ""  # element generic / scalar type; "i32" for constants
    ndim: int = 0
    span: Span = field(default_factory=Span)
    raw: bool = False  # array read by an N-d ct.gather/ct.scatter: `*mut E` + `<name>_shape_<i>` / `_stride_<i>` i32s
    bits: bool = False  # a ct.Constant[float] scalar: kernel.rs takes its f32 bits as the i32 const generic `name`
    # facts kernel.rs assumes of the array (passes/assume.py), which the FFI checks before a launch: `nonneg` (a
    # raw entry's strides >= 0), `align` (bytes its base pointer is aligned to; 0: none assumed)
    nonneg: bool = False
    align: int = 0


@dataclass
class Generic:
    name: str  # the host side's name (FFI, wrapper, specs)
    kind: str  # "type" | "const"
    origin: str  # "array_dtype" | "constant" | "dtype_flag"
    note: str = ""
    rust_name: str = ""  # kernel.rs's name where it differs (emitters/spelling.py const_spelling)
    test: tuple[str, ...] = ()  # a dtype flag's (array, dtype): 1 when array.dtype == dtype, computed by the host
    expr: object = None  # a derived const's ConstExpr over the constant generics, computed by the host

    @property
    def spelled(self) -> str:
        return self.rust_name or self.name

    def rust(self) -> str:
        return f"{self.spelled}: ElementType" if self.kind == "type" else f"const {self.spelled}: i32"


@dataclass
class Op:
    """One typed operation; ``template`` is a rule string formatted with ``operands``. ``decl`` names the
    module-local op declaration its text calls (emitters/templates/port/declarations/), "" for a crate op;
    ``literal`` is the Python value of a constant of the generic element type, spelled again
    for each concrete element type."""
    kind: str
    template: str
    operands: tuple[tuple[str, str], ...]
    span: Span
    unsafe: bool = False
    decl: str = ""
    literal: float | None = None

    def text(self) -> str:
        return self.template.format(**dict(self.operands))


@dataclass
class Let:
    name: str
    type: Type
    op: Op
    span: Span
    mutable: bool = False
    kind: str = "let"


@dataclass
class Assign:
    name: str
    op: Op
    span: Span
    kind: str = "assign"


@dataclass
class For:
    var: str
    start: str
    stop: str
    body: list
    span: Span
    carried: tuple[str, ...] = ()
    kind: str = "for"
    step: str = ""  # `(start..stop).step_by(step)`: `x as usize` of an i32 step (grid-stride loops), a bare literal
    # of an i64 loop's constant step (cutile types it like the bounds; it refuses an i64 `as usize`)


@dataclass
class IfConst:
    """``if <test> { then } else { otherwise }``: a const-generic test is folded by the cuTile JIT;
    a runtime test (i32 scalar comparison) stays a Tile IR ``if``. Both arms assign every re-bound name."""
    cond: str
    then: list
    otherwise: list
    span: Span
    kind: str = "if"
    test: tuple = ()  # (flag, op, value) when the test is a ct.Constant comparison (foldable per value)
    runtime: bool = False  # a runtime test: stays a Tile IR `if` (nothing is hoisted out of its arms)


@dataclass
class While:
    """``while <cond> { body }``: ``cond`` a ``let mut`` bool the body re-computes last (cutile carries every variable
    a ``while`` body assigns: a Tile IR ``loop`` whose head breaks when the test fails)."""
    cond: str
    body: list
    span: Span
    carried: tuple[str, ...] = ()
    kind: str = "while"


Stmt = Let | Assign | For | IfConst | While


@dataclass
class Kernel:
    name: str
    params: list[Param]
    generics: list[Generic]
    body: list
    span: Span
    unsafe: bool = False
    python_name: str = ""  # the @ct.kernel this entry ports ("" = same as name)
    variant: tuple[tuple[str, int], ...] = ()  # structural variant: ct.Constant values fixed in this entry
    # the launches ((array, dtype) pairs each) that kept its arrays' dtype variables apart (render_host.dispatch_combos)
    launches: tuple = ()
    # @ct.kernel(...) hints for the port's target, as cutile's entry optimization_hints keys
    # (num_cta_in_cga, occupancy, num_worker_warps_per_cta), in that order
    hints: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Decision:
    """One specialisation decision (``ctrs translate --explain``), located at its Python line."""
    line: int
    kernel: str
    kind: str  # generic | variant | demotion | branch | inline | loop
    text: str


@dataclass
class Module:
    stem: str
    source: str  # path of the Python file, for the header comment
    kernels: list[Kernel]
    decisions: list[Decision] = field(default_factory=list)
    pipeline: str = "typed-ir"  # the pipeline that produced it (transpiler/pipeline.py PIPELINE_NAME)
    refused: object = None  # errors.Refused: the file's kernels that did not translate (translate.py keeps going)


def walk(stmts: list):
    """Every statement of a body, nested loop and constant-if bodies included, in source order."""
    for s in stmts:
        yield s
        if isinstance(s, (For, While)):
            yield from walk(s.body)
        elif isinstance(s, IfConst):
            yield from walk(s.then)
            yield from walk(s.otherwise)
