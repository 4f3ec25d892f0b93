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
from .values import ELEMENT, ArrayRef, DT

__all__ = ["ELEMENT", "ArrayRef", "DT", "Lowering", "lower_file", "unsupported"]


def lower_file(info, element_dtypes: tuple = ("f32", "f16", "bf16")) -> ir.Module:
    """Every @ct.kernel of a parsed file (frontend_cutile.ModuleInfo) as typed IR, verified.

    A kernel where the arrays' element type ``E`` meets a concrete dtype (``v * ct.full(.., dtype=ct.bfloat16)``:
    the result type depends on ``E``) is lowered once per element type instead, as ``<name>_<dtype>`` entries
    (those whose lowering fails are left out; none left: the first error)."""
    kernels = []
    for fn in info.kernels:
        try:
            kernels.append(ir.verify(Lowering(info, fn).kernel()))
            continue
        except errors.CtrsError as e:
            if not isinstance(e.__cause__, irtyping.GenericMeetsConcrete):
                raise
            first = e
        entries = []
        for dt in element_dtypes:
            try:
                k = Lowering(info, fn, ir.DTYPES[dt]).kernel()
            except errors.CtrsError:
                continue
            k.python_name, k.name = k.name, f"{k.name}_{dt}"
            entries.append(ir.verify(k))
        if not entries:
            raise first
        kernels += entries
    return ir.Module(str(info.path), kernels)
