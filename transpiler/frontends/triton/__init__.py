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
from . import activations, atomics, calls, grid, hints, inline, memory, shapes, tiles  # noqa: F401 - registers the handlers
from . import gathers
from .lowering import Lowering, unsupported

__all__ = ["Lowering", "lower_entries", "lower_file", "unsupported"]


def lower_file(path: Path, refused: dict | None = None) -> tuple[ir.Module, list[tuple[int, str, str, str]]]:
    """Every @triton.jit kernel of a file as typed IR, verified, and the front end's notes
    (line, kernel, kind, text) for ``--explain``.

    Keep-going as the cuTile front end (control.py, cutile/recovery.py): each kernel is lowered to the end, every
    blocker recorded; without ``refused`` the first blocker of the first refused kernel is raised, with it
    ``refused[kernel]`` gets every blocker of each refused kernel and the module holds the others. A constexpr
    flag whose ``if`` arms cannot share one body splits the kernel into structural entries (cutile.lower_kernel)."""
    tf = frontend_triton._load(Path(path))
    kernels, notes = [], []
    helpers = inline.helper_names(tf)  # inlined where they are called (inline.py), not kernels of the port
    for fn in (f for f in tf.kernels if f.name.value not in helpers):
        made: list[Lowering] = []
        flat: set[str] = set()  # pointer parameters read by gather/scatter (gathers.py): found by lowering again

        def make(fn=fn, made=made, flat=flat):
            made.append(Lowering(tf, fn, flat))
            return made[-1]

        while True:
            try:
                frontend_triton._check_signatures(tf, fn)
                ks, blockers = fe_cutile.lower_kernel(tf, fn, make=make, literals=_literals)
            except gathers.FlatNeeded as e:
                if e.name in flat:
                    raise
                flat.add(e.name)
                made.clear()
                continue
            except errors.CtrsError as e:
                ks, blockers = [], [e]
            break
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


def lower_entries(tf, fn: cst.FunctionDef) -> tuple[list, list, list]:
    """(entries, blockers, the Lowerings of the last attempt) of kernel ``fn``, as :func:`lower_file` lowers it:
    again with each parameter a non-view access makes flat (gathers.FlatNeeded)."""
    made: list[Lowering] = []
    flat: set[str] = set()

    def make():
        made.append(Lowering(tf, fn, flat))
        return made[-1]

    while True:
        try:
            ks, blockers = fe_cutile.lower_kernel(tf, fn, make=make, literals=_literals)
        except gathers.FlatNeeded as e:
            if e.name in flat:
                raise
            flat.add(e.name)
            made.clear()
            continue
        return ks, blockers, made
