"""Work-arounds for cutile 0.3.1 defects in the emitted kernel.rs (docs/cutile-defects.md), one function each.

Everything here rewrites final kernel.rs text, so it applies whatever emitted the text (rules, a typed IR,
the LLM fallback): call ``respell_constants`` on the module text and add the declarations it names.
"""

from __future__ import annotations

import re

# cutile 0.3.1 turns `T::NEG_INFINITY` / `INFINITY` / `ONE` inside constant() into the hex of T's bits and
# then parses a 4-hex-digit string as *f16* bits (cutile-compiler compile_expression.rs parse_float_or_hex),
# so for T = bf16 -inf 0xFF80 reads as an f16 NaN and is written 0xFFF0, +inf likewise, 1.0 (0x3F80) as
# 1.875. The same happens to a generic element type the JIT instantiates as bf16. `constant_f32` (rules
# [declarations]) is cuda_tile.constant with an f32 value and the result's element type: the JIT encodes the
# f32 value (8 hex digits, or a decimal literal) in the result type, which is exact for every float type.
CONST_DECL = "constant_f32"
_CONCRETE = ("f16", "f32", "f64", "tf32", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool")
_INF = re.compile(r"\bconstant\((?:(bf16)|([A-Za-z_]\w*))::(NEG_INFINITY|INFINITY),")
_BF16_ONE = re.compile(r"\bconstant\(bf16::ONE,")


def respell_constants(text: str) -> str:
    """kernel.rs text with every constant() cutile 0.3.1 would mis-encode spelled through ``constant_f32``:
    ``bf16::{NEG_INFINITY,INFINITY,ONE}`` and ``G::{NEG_INFINITY,INFINITY}`` of a generic element type G
    (which may be bf16 at launch). Concrete f16/f32/f64 constants are encoded correctly and kept."""

    def inf(m: re.Match) -> str:
        if m.group(2) in _CONCRETE:
            return m.group(0)
        return f"{CONST_DECL}(f32::{m.group(3)},"

    return _BF16_ONE.sub(f"{CONST_DECL}(1.0f32,", _INF.sub(inf, text))
