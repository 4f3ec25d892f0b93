"""Triton -> typed tile IR, directly from libcst nodes (no source-to-source rewrite, no second parse).

lowering.py holds the core (parameters, statements, expressions, pointer arithmetic); pointers.py the pure
pointer-expression analysis (when a masked access is a partition view); every ``tl.*`` call is lowered by a
handler registered in one module per op family (grid.py, memory.py, tiles.py). What Triton shares with cuTile
Python (constants, promotion, broadcasting, casts, operators, loops) comes from frontends/builder.py.
The host side (launch sites, autotune configs, the parameter map) stays with frontend_triton.mine_sites.
See docs/ir.md.
"""

from __future__ import annotations

from pathlib import Path

from ... import errors, frontend_triton, ir
from . import calls, grid, inline, memory, tiles  # noqa: F401 - importing a family module registers its handlers
from .lowering import Lowering, lower_kernel, unsupported

__all__ = ["Lowering", "lower_file", "lower_kernel", "unsupported"]


def lower_file(path: Path) -> tuple[ir.Module, list[tuple[int, str, str, str]]]:
    """Every @triton.jit kernel of a file as typed IR, verified, and the front end's notes
    (line, kernel, kind, text) for ``--explain``."""
    tf = frontend_triton._load(Path(path))
    kernels, notes = [], []
    helpers = inline.helper_names(tf)  # inlined where they are called (inline.py), not kernels of the port
    for fn in (f for f in tf.kernels if f.name.value not in helpers):
        frontend_triton._check_signatures(tf, fn)
        lw, k = lower_kernel(tf, fn)
        kernels.append(ir.verify(k))
        for line, kind, text in [*frontend_triton.autotune_notes(tf, fn), *lw.notes]:
            notes.append((line, fn.name.value, kind, text))
    return ir.Module(str(path), kernels), notes
