"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

lowering.py holds the core (parameters, statements, expressions, the environment); every ``ct.*`` call is
lowered by a handler registered in one module per op family (grid.py, memory.py, tiles.py); builder.py (one
level up) is what the cuTile and Triton front ends share. See docs/ir.md.
"""

from __future__ import annotations

from ... import errors, ir
from . import grid, memory, tiles  # noqa: F401 - importing a family module registers its handlers
from .lowering import Lowering, unsupported
from .recovery import finish, record
from .values import ELEMENT, ArrayRef, DT, PoisonUse

__all__ = ["ELEMENT", "ArrayRef", "DT", "Lowering", "lower_file", "unsupported"]


def lower_file(info, refused: dict[str, list[errors.CtrsError]] | None = None,
               on_unsupported=None) -> ir.Module:
    """Every @ct.kernel of a parsed file (frontend_cutile.ModuleInfo) as typed IR, verified.

    Each kernel is lowered to the end whatever fails (recovery.py). Without ``refused`` the first blocker of
    the first refused kernel is raised; with it, ``refused[kernel]`` gets every blocker of each refused
    kernel (recording order) and the module holds the others. ``on_unsupported``: Lowering's hook for
    constructs without a rule (``ctrs translate --llm`` only)."""
    kernels = []
    for fn in info.kernels:
        lw = Lowering(info, fn, on_unsupported)
        try:
            k = lw.kernel()
            finish(lw)
            if not lw.blockers:
                kernels.append(ir.verify(k))
        except errors.CtrsError as e:  # outside any statement (decorator, signature) or the verifier
            record(lw, e)
        except PoisonUse:  # poison only exists once a blocker was recorded; never a silent refusal
            if not lw.blockers:
                record(lw, unsupported(info, fn, "a value left undefined by an earlier failure"))
        if lw.blockers and refused is None:
            raise lw.blockers[0]
        if lw.blockers:
            refused[fn.name.value] = lw.blockers
    return ir.Module(str(info.path), kernels)
