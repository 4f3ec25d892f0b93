"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

lowering.py holds the core (parameters, statements, expressions, the environment); every ``ct.*`` call is
lowered by a handler registered in one module per op family (grid.py, memory.py, tiles.py); builder.py (one
level up) is what the cuTile and Triton front ends share. See docs/ir.md.
"""

from __future__ import annotations

from ... import ir
from . import grid, memory, tiles  # noqa: F401 - importing a family module registers its handlers
from .lowering import Lowering, unsupported
from .values import ELEMENT, ArrayRef, DT

__all__ = ["ELEMENT", "ArrayRef", "DT", "Lowering", "lower_file", "unsupported"]


def lower_file(info, on_unsupported=None) -> ir.Module:
    """Every @ct.kernel of a parsed file (frontend_cutile.ModuleInfo) as typed IR, verified
    (``on_unsupported``: Lowering's hook for constructs without a rule; ``ctrs translate --llm`` only)."""
    kernels = []
    for fn in info.kernels:
        k = Lowering(info, fn, on_unsupported).kernel()
        kernels.append(ir.verify(k))
    return ir.Module(str(info.path), kernels)
