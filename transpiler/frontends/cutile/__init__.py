"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

lowering.py holds the core (parameters, statements, expressions, the environment); every ``ct.*`` call is
lowered by a handler registered in one module per op family (grid.py, memory.py, tiles.py); builder.py (one
level up) is what the cuTile and Triton front ends share. See docs/ir.md.
"""

from __future__ import annotations

from ... import errors, ir
from ...ir import typing as irtyping
from . import grid, memory, tiles  # noqa: F401 - importing a family module registers its handlers
from .lowering import Lowering, unsupported
from .recovery import finish, record
from .values import ELEMENT, ArrayRef, DT, PoisonUse

__all__ = ["ELEMENT", "ArrayRef", "DT", "Lowering", "lower_file", "unsupported"]


def _lower(info, fn, element=ELEMENT, on_unsupported=None):
    """(kernel or None, blockers) of one @ct.kernel lowered to the end whatever fails (recovery.py)."""
    lw = Lowering(info, fn, element, on_unsupported)
    k = None
    try:
        k = lw.kernel()
        finish(lw)
        if not lw.blockers:
            k = ir.verify(k)
    except errors.CtrsError as e:  # outside any statement (decorator, signature) or the verifier
        record(lw, e)
    except PoisonUse:  # poison only exists once a blocker was recorded; never a silent refusal
        if not lw.blockers:
            record(lw, unsupported(info, fn, "a value left undefined by an earlier failure"))
    return (None if lw.blockers else k), lw.blockers


def lower_file(info, refused: dict[str, list[errors.CtrsError]] | None = None,
               element_dtypes: tuple = ("f32", "f16", "bf16"), on_unsupported=None) -> ir.Module:
    """Every @ct.kernel of a parsed file (frontend_cutile.ModuleInfo) as typed IR, verified.

    Each kernel is lowered to the end whatever fails (recovery.py). Without ``refused`` the first blocker of
    the first refused kernel is raised; with it, ``refused[kernel]`` gets every blocker of each refused
    kernel (recording order) and the module holds the others.

    A kernel whose only blockers are the arrays' element type ``E`` meeting a concrete dtype
    (``v * ct.full(.., dtype=ct.bfloat16)``: the result type depends on ``E``) is lowered once per element type
    instead, as ``<name>_<dtype>`` entries (those whose lowering fails are left out; none left: refused).
    ``on_unsupported``: Lowering's hook for constructs without a rule (``ctrs translate --llm`` only)."""
    kernels = []
    for fn in info.kernels:
        k, blockers = _lower(info, fn, on_unsupported=on_unsupported)
        if k is not None:
            kernels.append(k)
            continue
        if all(isinstance(b.__cause__, irtyping.GenericMeetsConcrete) for b in blockers):
            entries = []
            for dt in element_dtypes:
                e, _ = _lower(info, fn, ir.DTYPES[dt], on_unsupported)
                if e is not None:
                    e.python_name, e.name = e.name, f"{e.name}_{dt}"
                    entries.append(e)
            if entries:
                kernels += entries
                continue
        if refused is None:
            raise blockers[0]
        refused[fn.name.value] = blockers
    return ir.Module(str(info.path), kernels)
