"""Assumed facts the reference states and the port can state in kernel code (cutile 0.5.0 ``assume_*``).

cuTile Python states two kinds of facts about an array beyond what cutile's own ``&Tensor`` prologue states:

* **Non-negative extents and strides.** Every array parameter's extents and strides get ``bounded<0, ?>``
  (cuTile Python's array contract). cutile's ``&Tensor`` prologue states it for a tensor; a raw-pointer entry
  (an N-d ``ct.gather`` / ``ct.scatter``: ``x: *mut E`` + ``x_shape_<i>`` / ``x_stride_<i>`` i32s) gets it from
  the port itself. The pass marks every array parameter ``Kernel.assumes[name]["nonneg"]``; the emitter states
  it where it spells the extents and strides (raw entries), the FFI refuses a negative stride there.
* **Alignment of a single-element pointer.** cuTile Python's divisibility dataflow propagates the base pointer's
  alignment through a pointer offset only when the pointer tile has one element (a gather/scatter with a 0-d
  index): ``gcd(base alignment, offset divisibility * element bytes)``, stated as ``assume div_by<K>`` on the
  pointer a ``load_ptr`` / ``store_ptr`` reads. With an offset of unknown divisibility (a block id, a runtime
  value) that is the element size, which holds whenever the base pointer is element-aligned. The pass sets the
  op's ``ptr_div`` to the element size in bytes (a concrete dtype of 2..16 whole bytes; no pointer cast) and
  ``Kernel.assumes[array]["align"]`` to the alignment that relies on; the FFI refuses a launch whose pointer is
  not that aligned (``CTRS-E443`` in docs/porting.md), so the fact never becomes UB.
* **Literal indices.** An index that is an int literal on every axis gives an offset the port knows as well as
  the reference: ``sum(c_i * stride_i)``, divisible by ``gcd`` of the nonzero ``|c_i|`` (a stride is a positive
  integer; a 0 term drops out, ``gcd(x, 0) = x``, and an all-zero index is the offset 0). cuTile Python's
  fact for such a pointer is then ``gcd(base alignment, offset divisibility * element bytes)`` with the launch's
  base alignment class (its pointer's power-of-two divisor, clamped to 16; a torch allocation is 16-aligned):
  ``ct.gather(counts, 0)`` on an int32 array assumes ``div_by<16>``, index 2 ``div_by<8>``. The port states the
  same K, ``gcd(16, offset divisibility * element bytes)``, and requires the base pointer ``K``-aligned (the FFI
  refuses a launch whose pointer is less aligned, where the reference would compile a weaker specialisation: the
  price of one kernel text). An index with any non-literal axis keeps the element size: an offset the reference
  knows to be more divisible from the launch (``b * s0`` with ``s0`` divisible by 4) is a specialisation fact a
  constant ``K`` cannot follow (a performance warning, never unsound).

Atomics read no ``assume`` in the reference (only load_ptr / store_ptr inputs get one) and get none here.
"""

from __future__ import annotations

import math

from ..ir.ops import Kernel, OpKind, walk
from ..ir.types import DType

_MAX_ALIGN = 16  # cuTile Python / cutile clamp a pointer's alignment class to 16 bytes


def _elem_bytes(dt) -> int:
    if not isinstance(dt, DType) or dt.bits % 8 or dt.kind == "bool":
        return 1
    b = dt.bits // 8
    return b if b <= _MAX_ALIGN and b & (b - 1) == 0 else 1


def run(kernel: Kernel) -> Kernel:
    kernel.assumes = {}  # a fresh dict: the entries of one front-end kernel may share the field's object
    for p in kernel.params:
        if p.kind == "array":
            kernel.assumes.setdefault(p.name, {})["nonneg"] = True
    names = {p.value.id: p.name for p in kernel.params if p.kind == "array" and p.value is not None}
    for op in walk(kernel.body):
        if op.kind not in (OpKind.GATHER, OpKind.SCATTER) or op.attrs.get("elem") is not None:
            continue
        if any(d != 1 for d in op.attrs.get("shape", ())) or op.operands[0].id not in names:
            continue
        k = _elem_bytes(op.operands[0].type.dtype)
        lits = op.attrs.get("index", ())
        dt = op.operands[0].type.dtype
        if lits and all(c is not None for c in lits) and isinstance(dt, DType) and dt.kind != "bool" \
                and dt.bits % 8 == 0:  # the module doc's literal indices (whole-byte elements)
            k = math.gcd(_MAX_ALIGN, k * math.gcd(*(abs(int(c)) for c in lits)))
        if k > 1:
            op.attrs["ptr_div"] = k
            facts = kernel.assumes.setdefault(names[op.operands[0].id], {})
            facts["align"] = max(facts.get("align", 1), k)
    return kernel
