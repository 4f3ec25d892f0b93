"""Pointer casts of the typed Triton front end: ``p.to(tl.pointer_type(T))`` reinterprets the buffer ``p`` points to
as elements of ``T`` (bytes read as int32 words, float storage read as bytes ...).

Triton's semantics: the cast keeps the byte address and changes the element type, so offsets added *after* the cast
count elements of ``T`` (``p.to(tl.pointer_type(tl.int32)) + k`` is byte ``4 * k`` of the buffer), and a load
through it reads ``T`` values (a store writes them). The front end keeps the cast on the :class:`Ptr` (``elem``);
every access through such a pointer is a gather / scatter of the flat array (gathers.py) whose pointer chain takes
the tensor's base pointer (cutile's ``get_tensor_base``), casts it (``ptr_to_ptr``, cutile-0.5.0 src/_core.rs:2454;
0.3.1 :2144) and offsets it by the element offsets of ``T`` (``offset_tile``) before ``load_ptr_tko`` /
``store_ptr_tko`` (the emitter's pointer chain, rules/ir.toml ``[pointer] ptr_cast``). The op carries the cast as
its ``elem`` attribute; its tiles are of ``T``.

A cast to the array's own (concrete) element type is no cast. The array's dtype variable is kept apart from the
other arrays' (the tensor passed holds bytes of any dtype: unsloth passes uint8 weights, FSDP-QLoRA float storage),
so a spec names its dtype on its own. A cast after offsets were added (``(p + k).to(..)``: byte offsets of the old
type) is not lowered.
"""

from __future__ import annotations

from ...ir.types import DType, DTypeParam
from .gathers import FlatNeeded
from .pointers import Ptr
from .values import DT, ArrayRef


def is_pointer_type(dt) -> bool:
    return isinstance(dt, tuple) and dt[:1] == ("pointer_type",)


def pointer_cast(lw, raw, dt, c) -> Ptr | ArrayRef:
    """``raw.to(tl.pointer_type(T))`` (``dt`` the marker of calls.pointer_type): the pointer with element type T."""
    if not isinstance(raw, (ArrayRef, Ptr)) or isinstance(raw, Ptr) and raw.base is None:
        raise lw.err(c.node, f"x.to(tl.pointer_type(..)) of something other than a pointer parameter")
    if len(dt) != 2:
        raise lw.err(c.pos[1], "tl.pointer_type(dtype) with other arguments")
    t = lw.expr(dt[1])
    if not (isinstance(t, DT) and isinstance(t.dtype, DType)):
        raise lw.err(dt[1], "tl.pointer_type of something other than a literal tl dtype")
    p = Ptr(raw.name) if isinstance(raw, ArrayRef) else raw
    if p.terms:
        raise lw.err(c.node, "a pointer cast after offsets were added ((p + k).to(tl.pointer_type(..)): byte offsets "
                     "of the old element type); cast the pointer parameter first")
    if p.base not in lw.flat:  # every access through a cast pointer gathers / scatters the flat array
        raise FlatNeeded(p.base, "it is read through a pointer cast to another element type")
    own = lw.array(p.base, 1, c.node).type.dtype
    if t.dtype == own:
        lw.note(c.node, "gather", f"{p.base}.to(tl.pointer_type({t.dtype})): the array's own element type, no cast")
        return Ptr(p.base)
    met = getattr(lw, "met_float", None)  # the variables kept apart by dtypes.entries (element_types.py)
    if isinstance(own, DTypeParam) and met is not None:  # the bytes of any tensor: a type generic of its own
        met.add(own.name)
    lw.note(c.node, "gather", f"{p.base} read as {t.dtype} (a pointer cast: ptr_to_ptr of its base pointer; "
            f"offsets count {t.dtype} elements)")
    return Ptr(p.base, (), t.dtype)
