"""Shared tile IR model: what the front end produces, the specialiser rewrites and the emitters render.

Nothing here knows about Python syntax or Rust syntax beyond the small type renderers: operations
carry a rule template (from rules/cutile.toml) and named operands; every node carries its source
span so any later diagnostic can point at the Python line:col that produced it.
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


@dataclass
class Generic:
    name: str
    kind: str  # "type" | "const"
    origin: str  # "array_dtype" | "constant" | "dtype_flag"
    note: str = ""

    def rust(self) -> str:
        return f"{self.name}: ElementType" if self.kind == "type" else f"const {self.name}: i32"


@dataclass
class Op:
    """One typed operation; ``template`` is a rule string formatted with ``operands``."""
    kind: str
    template: str
    operands: tuple[tuple[str, str], ...]
    span: Span
    unsafe: bool = False

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


@dataclass
class IfConst:
    """``if <const generic test> { then } else { otherwise }``: folded by the cuTile JIT."""
    cond: str
    then: list
    otherwise: list
    span: Span
    kind: str = "if"


Stmt = Let | Assign | For | IfConst


@dataclass
class Kernel:
    name: str
    params: list[Param]
    generics: list[Generic]
    body: list
    span: Span
    unsafe: bool = False


@dataclass
class Module:
    stem: str
    source: str  # path of the Python file, for the header comment
    kernels: list[Kernel]
