"""Types of the typed tile IR: element dtypes, dtype parameters, shapes, tiles, scalars, arrays, views, tokens.

Nothing here knows Rust or Python syntax: a dtype is named by its Tile IR spelling (``f16``, ``i32``, ``i1``
is ``bool``); a shape dimension is an ``int`` or a :class:`Sym` (a const-generic symbol such as ``TILE``).
See docs/ir.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class DType:
    """A concrete element type."""
    name: str
    kind: str  # float | int | uint | bool
    bits: int

    def __str__(self) -> str:
        return self.name

    @property
    def is_float(self) -> bool:
        return self.kind == "float"


@dataclass(frozen=True)
class DTypeParam:
    """A symbolic element type: a kernel's array-dtype generic (``E``), bound per specialisation."""
    name: str

    def __str__(self) -> str:
        return f"!{self.name}"

    is_float = False


@dataclass(frozen=True)
class DTypeChoice:
    """``then if <param> == <test> else otherwise``: a dtype picked by a constant flag (``CAST_TF32``).

    The flag is a const generic computed by the host; :mod:`ctrs.passes.specialise` splits the ops typed
    by a choice into a constant-flag ``if`` with one arm per dtype."""
    flag: str
    param: DTypeParam
    test: DType
    then: DTypeLike
    otherwise: DTypeLike

    def __str__(self) -> str:
        return f"?{self.flag}({self.then}|{self.otherwise})"

    is_float = False


DTypeLike = DType | DTypeParam | DTypeChoice


def _dt(name: str, kind: str, bits: int) -> DType:
    return DType(name, kind, bits)


DTYPES: dict[str, DType] = {d.name: d for d in (
    _dt("f16", "float", 16), _dt("bf16", "float", 16), _dt("f32", "float", 32), _dt("f64", "float", 64),
    _dt("tf32", "float", 32),
    _dt("i8", "int", 8), _dt("i16", "int", 16), _dt("i32", "int", 32), _dt("i64", "int", 64),
    _dt("u8", "uint", 8), _dt("u16", "uint", 16), _dt("u32", "uint", 32), _dt("u64", "uint", 64),
    _dt("bool", "bool", 1),
    _dt("f8e4m3fn", "float", 8),  # ct.float8_e4m3fn: a cast target (cutile 0.3.1's f8e4m3fn, cutile/src/_core.rs)
)}
F16, BF16, F32, F64, TF32 = (DTYPES[n] for n in ("f16", "bf16", "f32", "f64", "tf32"))
I32, I64, BOOL = DTYPES["i32"], DTYPES["i64"], DTYPES["bool"]

# cuTile Python's dtype names (ct.float16, ...) -> IR dtypes
PY_DTYPES = {"float16": F16, "bfloat16": BF16, "float32": F32, "float64": F64, "tfloat32": TF32,
             "int8": DTYPES["i8"], "int16": DTYPES["i16"], "int32": I32, "int64": I64,
             "uint8": DTYPES["u8"], "uint16": DTYPES["u16"], "uint32": DTYPES["u32"], "uint64": DTYPES["u64"],
             "bool_": BOOL, "float8_e4m3fn": DTYPES["f8e4m3fn"]}


@dataclass(frozen=True)
class Sym:
    """A const-generic integer symbol (``ct.Constant[int]`` parameter)."""
    name: str

    def __str__(self) -> str:
        return self.name


Dim = int | Sym
Shape = tuple[Dim, ...]


def shape_str(shape: Shape) -> str:
    return "x".join(str(d) for d in shape)


@dataclass(frozen=True)
class ScalarType:
    dtype: DTypeLike

    def __str__(self) -> str:
        return str(self.dtype)


@dataclass(frozen=True)
class TileType:
    dtype: DTypeLike
    shape: Shape

    def __str__(self) -> str:
        return f"tile<{shape_str(self.shape)}{'x' if self.shape else ''}{self.dtype}>"


@dataclass(frozen=True)
class ArrayType:
    """A kernel array argument: element type and rank (extents and strides are runtime)."""
    dtype: DTypeLike
    rank: int

    def __str__(self) -> str:
        return f"array<{'?x' * self.rank}{self.dtype}>"


@dataclass(frozen=True)
class ViewType:
    """A partition view of an array into ``tile``-shaped blocks (``mutable`` for stores)."""
    dtype: DTypeLike
    tile: Shape
    padding: str = "none"  # none | zero | neg_inf | nan ...
    mutable: bool = False

    def __str__(self) -> str:
        pad = f", padding={self.padding}" if self.padding != "none" else ""
        return f"{'view_mut' if self.mutable else 'view'}<{shape_str(self.tile)}x{self.dtype}{pad}>"


@dataclass(frozen=True)
class TokenType:
    def __str__(self) -> str:
        return "token"


@dataclass(frozen=True)
class DTypeType:
    """The type of a compile-time dtype value (``A.dtype``, ``ct.float32``); never reaches the emitter."""
    def __str__(self) -> str:
        return "dtype"


Type = ScalarType | TileType | ArrayType | ViewType | TokenType | DTypeType


def element(t: Type) -> DTypeLike | None:
    return getattr(t, "dtype", None)


def with_dtype(t: Type, dt: DTypeLike) -> Type:
    if isinstance(t, TileType):
        return TileType(dt, t.shape)
    if isinstance(t, ScalarType):
        return ScalarType(dt)
    raise TypeError(t)


def subst_dtype(dt: DTypeLike, binding: dict) -> DTypeLike:
    """``dt`` with dtype parameters / choices replaced per ``binding`` (param or choice flag -> dtype)."""
    if isinstance(dt, DTypeParam):
        return binding.get(dt.name, dt)
    if isinstance(dt, DTypeChoice):
        if dt.flag in binding:
            return subst_dtype(dt.then if binding[dt.flag] else dt.otherwise, binding)
        return DTypeChoice(dt.flag, dt.param, dt.test, subst_dtype(dt.then, binding),
                           subst_dtype(dt.otherwise, binding))
    return dt


def subst_type(t: Type, binding: dict) -> Type:
    dt = element(t)
    if dt is None:
        return t
    new = subst_dtype(dt, binding)
    if new == dt:
        return t
    if isinstance(t, (ArrayType, ViewType)):
        return dataclasses.replace(t, dtype=new)
    return with_dtype(t, new)


def mentions_choice(t: Type) -> bool:
    return isinstance(element(t), DTypeChoice)
