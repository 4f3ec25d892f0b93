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

import libcst as cst

from ... import errors, frontend_triton, ir
from ...cutile_base import compared_literals
from .. import cutile as fe_cutile
from . import activations, grid, hints, memory, shapes, tiles  # noqa: F401 - importing a family module registers its handlers
from .lowering import Lowering, unsupported

__all__ = ["Lowering", "lower_file", "unsupported"]


def lower_file(path: Path, refused: dict | None = None) -> tuple[ir.Module, list[tuple[int, str, str, str]]]:
    """Every @triton.jit kernel of a file as typed IR, verified, and the front end's notes
    (line, kernel, kind, text) for ``--explain``.

    Keep-going as the cuTile front end (control.py, cutile/recovery.py): each kernel is lowered to the end, every
    blocker recorded; without ``refused`` the first blocker of the first refused kernel is raised, with it
    ``refused[kernel]`` gets every blocker of each refused kernel and the module holds the others. A constexpr
    flag whose ``if`` arms cannot share one body splits the kernel into structural entries (cutile.lower_kernel)."""
    tf = frontend_triton._load(Path(path))
    kernels, notes = [], []
    for fn in tf.kernels:
        made: list[Lowering] = []

        def make(fn=fn, made=made):
            made.append(Lowering(tf, fn))
            return made[-1]

        try:
            frontend_triton._check_signatures(tf, fn)
            ks, blockers = fe_cutile.lower_kernel(tf, fn, make=make, literals=_literals)
        except errors.CtrsError as e:
            ks, blockers = [], [e]
        if blockers and refused is None:
            raise blockers[0]
        if blockers:
            refused[fn.name.value] = blockers
            continue
        kernels += _same_scalars(ks)
        seen: dict = {}
        for lw in made:
            for line, kind, text in [*frontend_triton.autotune_notes(tf, fn), *lw.notes]:
                seen.setdefault((line, fn.name.value, kind, text), None)
        notes += list(seen)
    return ir.Module(str(path), kernels), notes


def _same_scalars(entries: list) -> list:
    """The structural entries of one kernel take a runtime scalar with one type: one that an entry never uses
    (i32 by default) gets the type the entries using it give it (the launch passes the same argument)."""
    used: dict[str, object] = {}
    unused = []
    for k in entries:
        operands = {id(v) for op in ir.walk(k.body) for v in op.operands}
        for p in k.params:
            if p.kind == "scalar" and p.value is not None:
                (used.setdefault(p.name, p.value.type) if id(p.value) in operands else unused.append(p))
    for p in unused:
        if p.name in used:
            p.value.type = used[p.name]
    return entries


def _literals(tf, fn: cst.FunctionDef, flag: str) -> set[int]:
    return compared_literals([fn.body], flag, lambda b: int(b.value, 0) if isinstance(b, cst.Integer) else None)
