"""Unit extents: the launch decision ct.launch makes about size-1 dims, made explicit as const generics.

ct.launch makes a size-1 extent of an array of rank <= 5 a shape constant (calling convention v2,
``shape_constant``), so the reference's bounds mask on such an axis compares with ``constant 1``, which tileiras
folds (a compare with an argument stays a per-element predicate: sparse_mla TILE_H4, 587 ``ISETP`` + ``P2R``
against the reference's 48). For every extent of a raw array (:func:`~.util.raw_arrays`; rank <= 5, no view reads
it) that the body reads -- a pointer op's bounds mask, ``A.shape[i]`` -- the pass declares a const generic flag
``<ARRAY>_UNIT<i>`` (origin ``unit_extent``, ``test = (array, axis)``), 1 when that extent is 1 at the launch. The
host computes it like a dtype flag (ffi.rs ``d_x.shape[i] == 1``; ``ctrs check``: workflow/check.generics_for); the
emitter reads the extent as ``1i32`` under it (emitters/ir_rust.py ``unit_extent_lets``). docs/ir.md "Unit
extents in the port".
"""

from __future__ import annotations

from ..ir.ops import Generic, Kernel, OpKind, walk
from .util import POINTER_OPS, raw_arrays

MAX_RANK = 5  # ct.launch specialises size-1 extents of arrays up to TMA's rank (transpiler/spec.py TMA_MAX_NDIM)


def run(kernel: Kernel) -> Kernel:
    raw = raw_arrays(kernel)
    viewed = {op.operands[0].id for op in walk(kernel.body) if op.kind == OpKind.MAKE_VIEW}
    names = {p.value.id: p.name for p in kernel.params if p.kind == "array" and p.value is not None}
    axes: set[tuple[str, int]] = set()
    for op in walk(kernel.body):
        arr = op.operands[0] if op.operands else None
        if arr is None or arr.id not in raw or arr.id in viewed or arr.id not in names or arr.type.rank > MAX_RANK:
            continue
        if op.kind == OpKind.ARRAY_DIM:
            axes.add((names[arr.id], op.attrs["axis"]))
        elif op.kind in POINTER_OPS and op.attrs.get("check_bounds"):
            axes.update((names[arr.id], i) for i in range(arr.type.rank))
    taken = {p.name for p in kernel.params} | {g.name for g in kernel.generics}
    flags = []
    for name, axis in sorted(axes, key=lambda a: (f"{a[0].upper()}_UNIT{a[1]}", a)):
        flag = f"{name.upper()}_UNIT{axis}"
        while flag in taken:
            flag += "_"
        taken.add(flag)
        flags.append(Generic(flag, "const", "unit_extent", f"1 when {name}.shape[{axis}] == 1 (host-computed)",
                             test=(name, str(axis))))
    if flags:
        kernel.generics = list(kernel.generics) + flags  # a fresh list: entries may share the front end's
    return kernel
