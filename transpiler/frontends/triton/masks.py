"""Load/store masks that combine a bool tile with a constexpr flag: ``(xk < K) | EVEN_K``.

A ``tl.constexpr`` flag is a const generic of the port (an i32 symbol); in ``&`` / ``|`` / ``^`` with a bool
tile or a ``offs < n`` mask it is Triton's i1 ``FLAG != 0`` (promoting the mask to i32 instead made it "a
load/store mask that is not a bool tile"). A Python bool literal there is a bool constant.
"""

from __future__ import annotations

from ...ir.types import BOOL, Sym
from ...ir.values import Value
from .pointers import Mask


def _boolish(x) -> bool:
    return isinstance(x, Mask) or isinstance(x, Value) and x.type.dtype == BOOL


def flags_as_bools(lw, op: str, a, b, node) -> tuple:
    """``a op b`` for a logical ``op``: a constexpr flag (or a bool literal) beside a bool operand as a bool."""
    if op not in ("&", "|", "^") or not (_boolish(a) or _boolish(b)):
        return a, b

    def as_bool(x):
        if isinstance(x, bool):
            return lw.const(x, BOOL, node, None, "flag")
        if isinstance(x, Sym):
            return lw.compare("ne", lw.i32(x, node), lw.i32(0, node), node, x.name.lower() + "_set")
        return x

    return as_bool(a), as_bool(b)
