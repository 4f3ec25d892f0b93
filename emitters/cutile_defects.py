"""Work-arounds for cutile 0.3.1 defects (docs/cutile-defects.md), one function each.

Each is a decision taken where the Rust text is spelled (emitters/spelling.py ``constant_spelling``), so the
emitted kernel.rs is right the first time; nothing rewrites it afterwards.
"""

from __future__ import annotations

import math

# cutile 0.3.1 turns `T::NEG_INFINITY` / `INFINITY` / `ONE` inside constant() into the hex of T's bits and
# then parses a 4-hex-digit string as *f16* bits (cutile-compiler compile_expression.rs parse_float_or_hex),
# so for T = bf16 -inf 0xFF80 reads as an f16 NaN and is written 0xFFF0, +inf likewise, 1.0 (0x3F80) as
# 1.875. The same happens to a generic element type the JIT instantiates as bf16. `constant_f32`
# (emitters/templates/port/declarations/constant_f32.rs.j2) is cuda_tile.constant with an f32 value and the
# result's element type: the JIT encodes the f32 value (8 hex digits, or a decimal literal) in the result
# type, which is exact for every float type.
CONST_DECL = "constant_f32"


def f32_constant(value, dtype: str, generic: bool) -> str | None:
    """The f32 value to give ``constant_f32`` for a constant ``value`` of element type ``dtype`` that cutile 0.3.1
    would mis-encode in its own spelling: +-inf and 1 of bf16 (``bf16::NEG_INFINITY``, ``bf16::INFINITY``,
    ``bf16::ONE``) and +-inf of a generic element type (``E::NEG_INFINITY``; it may be bf16 at launch).
    None where the crate's spelling is exact (f16/f32/f64 constants, zero, integers)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if (generic or dtype == "bf16") and math.isinf(value):
        return f"f32::{'INFINITY' if value > 0 else 'NEG_INFINITY'}"
    if dtype == "bf16" and value == 1:
        return "1.0f32"
    return None
