"""Triton -> typed tile IR, directly from libcst nodes (no source-to-source rewrite, no second parse).

lowering.py holds the core (parameters, statements, expressions, pointer arithmetic); pointers.py the pure
pointer-expression analysis (when a masked access is a partition view); every ``tl.*`` call is lowered by a
handler registered in one module per op family (grid.py, memory.py, tiles.py). What Triton shares with cuTile
Python (constants, promotion, broadcasting, casts, operators, loops) comes from frontends/builder.py.
The file model and the facts read before lowering are source.py; the host side (launch sites, autotune configs,
the parameter map) host.py.
See docs/ir.md.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from ... import errors, ir
from ..pysource import compared_literals
from .. import cutile as fe_cutile
from . import activations, atomics, calls, grid, hints, inline, memory, shapes, tiles  # noqa: F401 - registers the handlers
from . import imports
from . import element_types, erf, gathers, joins  # noqa: F401 - erf / joins register their calls
from .dtype_params import defaulted, used_as_dtype
from .lowering import Lowering, unsupported
from . import source

__all__ = ["Lowering", "lower_entries", "lower_file", "unsupported"]


def lower_file(path: Path, refused: dict | None = None, on_unsupported=None,
               ) -> tuple[ir.Module, list[tuple[int, str, str, str]]]:
    """Every @triton.jit kernel of a file as typed IR, verified, and the front end's notes
    (line, kernel, kind, text) for ``--explain``.

    Keep-going as the cuTile front end (control.py, cutile/recovery.py): each kernel is lowered to the end, every
    blocker recorded; without ``refused`` the first blocker of the first refused kernel is raised, with it
    ``refused[kernel]`` gets every blocker of each refused kernel and the module holds the others. A constexpr
    flag whose ``if`` arms cannot share one body splits the kernel into structural entries (cutile.lower_kernel).
    ``on_unsupported``: the LLM fallback's hook for calls without a rule (llm_hook.py; ``ctrs translate --llm``)."""
    tf = source.load(Path(path))
    imports.resolve(tf)  # helpers imported from other modules of the package: inlined as the file's own
    kernels, notes = [], []
    helpers = inline.helper_names(tf)  # inlined where they are called (inline.py), not kernels of the port
    for fn in (f for f in tf.kernels if f.name.value not in helpers):
        try:
            source.check_signatures(tf, fn)
            ks, blockers, made = lower_entries(tf, fn, on_unsupported)
        except errors.CtrsError as e:
            ks, blockers, made = [], [e], []
        if blockers and refused is None:
            raise blockers[0]
        if blockers:
            refused[fn.name.value] = blockers
            continue
        kernels += _same_scalars(ks)
        seen: dict = {}
        for lw in made:
            for line, kind, text in [*source.autotune_notes(tf, fn), *lw.notes]:
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
    """The literals an int constexpr that splits the kernel is compared with, and 0 where it is tested for truth
    (``if FLAG`` / ``not FLAG`` / ``FLAG and ..``, in the kernel or a helper, or passed on to a helper that may):
    ``FLAG != 0``, a 0 entry beside the any-other one."""
    lits: set[int] = set()
    for f, name in _passed_on(tf, fn, flag):
        lits |= compared_literals([f.body], name, lambda b: int(b.value, 0) if isinstance(b, cst.Integer) else None)
    return lits | ({0} if _truth_tested(tf, fn, flag) else set())


def _passed_on(tf, fn: cst.FunctionDef, flag: str) -> list[tuple[cst.FunctionDef, str]]:
    """``(fn, flag)`` and every ``(helper, parameter)`` the flag reaches by being passed on as a bare name
    (``_row_dot(a, b, ROWS, WARPS)`` binds the helper's ``WARPS``), transitively: a helper compares it too
    (``if WARPS == 4``), and inlining folds that test only in an entry that fixes the value."""
    by_name = {n: d for n, (_f, d) in inline.helper_defs(tf).items()}
    helpers = inline.helper_names(tf)
    seen: list[tuple[cst.FunctionDef, str]] = []
    todo = [(fn, flag)]
    while todo:
        f, name = todo.pop()
        if any(f is g and name == n for g, n in seen):
            continue
        seen.append((f, name))
        calls: list[cst.Call] = []

        class V(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                if isinstance(n.func, cst.Name) and n.func.value in helpers and n.func.value in by_name:
                    calls.append(n)

        f.body.visit(V())
        for c in calls:
            h = by_name[c.func.value]
            params = [q.name.value for q in h.params.params]
            for i, a in enumerate(c.args):
                if not (isinstance(a.value, cst.Name) and a.value.value == name) or a.star:
                    continue
                target = a.keyword.value if a.keyword is not None else (params[i] if i < len(params) else None)
                if target is not None:
                    todo.append((h, target))
    return seen


def _truth_tested(tf, fn: cst.FunctionDef, flag: str) -> bool:
    helpers = inline.helper_names(tf)
    found: list = []

    def tested(node) -> bool:
        return isinstance(node, cst.Name) and node.value == flag

    class V(cst.CSTVisitor):
        def visit_If(self, n: cst.If) -> None:
            found.extend([n] if tested(n.test) else [])

        def visit_IfExp(self, n: cst.IfExp) -> None:
            found.extend([n] if tested(n.test) else [])

        def visit_UnaryOperation(self, n: cst.UnaryOperation) -> None:
            found.extend([n] if isinstance(n.operator, cst.Not) and tested(n.expression) else [])

        def visit_BooleanOperation(self, n: cst.BooleanOperation) -> None:
            found.extend([n] if tested(n.left) or tested(n.right) else [])

        def visit_Call(self, n: cst.Call) -> None:
            if isinstance(n.func, cst.Name) and n.func.value in helpers and any(tested(a.value) for a in n.args):
                found.append(n)

    for f in [fn, *(d for n, (_f, d) in inline.helper_defs(tf).items() if n in helpers)]:
        f.body.visit(V())
    return bool(found)


def lower_entries(tf, fn: cst.FunctionDef, on_unsupported=None) -> tuple[list, list, list]:
    """(entries, blockers, the Lowerings of the lowerings that succeeded) of kernel ``fn``, as :func:`lower_file`
    lowers it: with a dtype variable per array (element_types.py), again with each parameter a non-view access
    makes flat (gathers.FlatNeeded)."""
    def once(mapping, met, made):
        flat: set[str] = set()

        def make():
            made.append(Lowering(tf, fn, flat, mapping, on_unsupported))
            return made[-1]

        while True:
            try:
                return fe_cutile.lower_kernel(tf, fn, make=make, literals=_literals, met_float=met)
            except gathers.FlatNeeded as e:
                if e.name in flat:
                    raise
                flat.add(e.name)
                made.clear()

    arrays = element_types.array_names(tf, fn, Lowering(tf, fn).pointers)
    bare = Lowering(tf, fn)
    params = {p.name.value: p for p in fn.params.params}
    # dtype constexprs: solver variables too, but a literal default no call passes is that dtype (dtype_params.py)
    arrays += [n for n in used_as_dtype(tf, fn) if defaulted(bare, params[n]) is None]
    return element_types.lower_kernel(tf, fn, arrays, once)
