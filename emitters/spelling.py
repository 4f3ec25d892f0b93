"""How literals, constants and const-generic names are spelled in Rust (the emitter's one place for them).

``float_literal``: a decimal that round-trips in the target precision; ``constant_spelling``: the ``constant(..)``
argument of a tile constant (half types, infinities, the cutile 0.3.1 defects of emitters/cutile_defects.py);
``const_spelling``: kernel.rs's name of a const generic (rules/ir.toml ``[reserved_consts]``);
``declaration``: the module-local op declaration a rule template calls; ``const_expr``: a condition over const
generics (ir/constexpr.py) in Rust. See docs/ir.md.
"""

from __future__ import annotations

import decimal
import math
import struct

from ctrs.emitters import cutile_defects
from ctrs.ir.constexpr import ConstExpr
from ctrs.ir_rules import ir_rules

_FLOATS = ("f16", "bf16", "f32", "f64", "tf32")
ELEMENT_GENERIC = "E"  # the generic element type of a port's arrays (its first one; E1, E2 ... the others)


def declaration(template: str) -> str:
    """The module-local op declaration (rules/ir.toml [declarations] names) a rule template calls, e.g. ``exp_approx`` for
    ``exp_approx({x}, rounding::Approx)``: the called function at the template's head; "" for a crate op."""
    head = template.partition("(")[0]
    return head if head in ir_rules()["declarations"]["names"] else ""


def const_spelling(name: str, taken=frozenset()) -> str:
    """kernel.rs name of the const generic ``name``; ``taken``: names it must avoid. cutile 0.3.1's JIT substitutes
    the shape generic of its variadic types (``Tile<E, D>``, ``Partition<E, D>``) by name, so a kernel constant
    named ``D`` panics it ("Unexpected const arg D for variadic type"): a name of rules/ir.toml
    ``[reserved_consts]`` is spelled with a trailing ``_`` (more while that is taken) wherever kernel.rs names it.
    The host side (FFI, wrapper, specs) keeps the Python name; generics pass by position."""
    if name not in ir_rules().get("reserved_consts", {}).get("names", []):
        return name
    name += "_"
    while name in taken:
        name += "_"
    return name


def float_literal(v: float, dtype: str = "f32") -> str:
    """Decimal literal that round-trips in the target precision (docs/porting.md)."""
    if dtype == "f32":
        if v == float("-inf"):
            return "-340282346638528859811704183484516925440.0f32"
        if v == float("inf"):
            return "340282346638528859811704183484516925440.0f32"
        v = struct.unpack("f", struct.pack("f", float(v)))[0]
    text = format(decimal.Decimal(repr(float(v))), "f")
    if "." not in text:
        text += ".0"
    return f"{text}{dtype}"


def literal_text(v: object, dtype: str) -> str:
    """A Rust literal of element type ``dtype`` (ValueError: a non-integral float for an integer type)."""
    if dtype.startswith("f") or dtype in ("bf16", "tf32"):
        return float_literal(float(v), dtype if dtype in ("f32", "f64") else "f32")
    if isinstance(v, float) and not v.is_integer():
        raise ValueError(v)
    return f"{int(v)}{dtype}"


def constant_text(value, dtype: str, generic: bool | None = None) -> str | None:
    """The ``constant(value, ..)`` argument for a literal of element type ``dtype``; None if cutile cannot spell
    it. ``±inf`` -> ``f32::NEG_INFINITY`` (an exact infinity, as the reference IR has; a -FLT_MAX decimal
    differs), half types only 0 / 1 / ±inf (``f16::ZERO``/``ONE``), a generic element type only 0."""
    if isinstance(value, bool) and value and dtype == "bool":
        return "true"  # `true` encodes as 0xFF; `false` cannot be a constant() in cutile 0.3.1 (it is 0xFF too)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if (dtype == ELEMENT_GENERIC if generic is None else generic):  # E, E1 ...: a type generic
        return f"{dtype}::ZERO" if value == 0 else None
    if dtype in _FLOATS and value in (float("inf"), float("-inf")):
        return f"{dtype}::{'INFINITY' if value > 0 else 'NEG_INFINITY'}"
    if dtype in ("f16", "bf16", "tf32"):
        return {0: f"{dtype}::ZERO", 1: f"{dtype}::ONE"}.get(value)
    try:
        return literal_text(value, dtype)
    except ValueError:
        return None


_FP8 = ("f8e4m3fn", "f8e5m2")


def constant_spelling(value, dtype: str, generic: bool | None = None) -> tuple[str, str] | None:
    """How a ``constant(value, shape)`` of element type ``dtype`` is spelled: the template key (rules/ir.toml
    ``[rust]``) and its value, ``("constant", "2.0f32")``; ``("constant_f32", "f32::NEG_INFINITY")`` where cutile
    0.3.1 would mis-encode the crate's own spelling (cutile_defects.f32_constant). ``generic``: ``dtype`` names a
    generic element type (default: when it is ``E``). None if it cannot be spelled."""
    if dtype in _FP8 and not (dtype == ELEMENT_GENERIC if generic is None else generic):
        # fp8 has no Rust literal; the cuTile JIT encodes a literal of an 8-bit float type as its bits parsed as
        # a u8, 0 when the text does not parse (cutile-compiler-0.5.0 compile_expression.rs encode_literal_bytes):
        # `constant_f32(0.0f32, ..)` is the +0.0 the reference has (a padding value ct.float8_e4m3fn(0.0))
        zero = isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0 \
            and math.copysign(1.0, value) > 0
        return (cutile_defects.CONST_DECL, "0.0f32") if zero else None
    text = constant_text(value, dtype, generic)
    if text is None:
        return None
    f32 = cutile_defects.f32_constant(value, dtype, dtype == ELEMENT_GENERIC if generic is None else generic)
    return (cutile_defects.CONST_DECL, f32) if f32 is not None else ("constant", text)


def const_expr(e: ConstExpr, spell=lambda name: name) -> str:
    """The Rust spelling of an ir.constexpr.ConstExpr over the const generics (``spell``: a const generic's name in
    kernel.rs). Python's ``//`` and ``%`` floor, Rust's truncate: spelled so they agree for every sign."""
    if e.op == "sym":
        return spell(e.args[0])
    if e.op == "int":
        return f"{e.args[0]}i32"
    if e.op == "neg":
        return f"(0i32 - {const_expr(e.args[0], spell)})"
    if e.op == "truth":
        return f"{const_expr(e.args[0], spell)} != 0i32"
    a, b = (const_expr(x, spell) for x in e.args)
    if e.op == "%":
        return f"((({a} % {b}) + {b}) % {b})"
    if e.op == "//":
        return f"(({a} - ((({a} % {b}) + {b}) % {b})) / {b})"
    if e.op == "cdiv":  # -((-a) // b)
        return f"(0i32 - {const_expr(ConstExpr('//', (ConstExpr('neg', (e.args[0],)), e.args[1])), spell)})"
    return f"({a} {e.op} {b})" if e.op in _CONST_ARITH else f"{a} {e.op} {b}"


_CONST_ARITH = ("+", "-", "*", "//", "%", "&", "|", "^", "cdiv")
