"""``tl.constexpr`` parameters meeting floats in the typed Triton front end.

A constexpr used where only an int fits (a range, a shape, a mask bound, ``//``; source.int_constexprs)
is a const generic; where it meets a float value it is that int converted to f32 (Triton promotes a Python int
meeting an fp32 tensor to fp32). Any other constexpr that meets a float (``eps``, a scale) is a float: no float
const generics on stable Rust, so the port takes it as a runtime f32 parameter (what the host map calls port
"scalar"; the text-model front end's ``ct.Constant[float]`` demotion), noted for ``--explain``."""

from __future__ import annotations

from ...ir.types import F32, DType, ScalarType, Sym
from ...ir.values import Value
from . import source


def floaty(v) -> bool:
    """A float value (tile or scalar) or a Python float."""
    if isinstance(v, float):
        return True
    return isinstance(v, Value) and isinstance(v.type.dtype, DType) and v.type.dtype.is_float


def as_float(lw, sym: Sym, node) -> Value:
    """The value of constexpr ``sym`` where it meets a float."""
    ints = getattr(lw, "int_consts", None)
    if ints is None:
        ints = lw.int_consts = source.int_constexprs(lw.tf, lw.fn)
    if sym.name in ints:
        return lw.convert(lw.i32(sym, node), F32, node, sym.name + "_f")
    if sym.name not in lw.float_consts:
        lw.float_consts[sym.name] = Value(ScalarType(F32), sym.name)
        lw.note(node, "demotion", f"tl.constexpr {sym.name} is a float -> runtime f32 parameter (not a const "
                                  "generic on stable Rust; Triton folds the value)")
    return lw.float_consts[sym.name]
