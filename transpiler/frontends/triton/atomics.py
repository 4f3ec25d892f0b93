"""Triton atomics (``tl.atomic_add`` / ``_max`` / ``_min`` / ``_and`` / ``_or`` / ``_xor`` / ``_xchg``) as the IR's
``atomic_rmw`` of a flat array (cutile's ``atomic_rmw_tko``, the pointer chain of emitters/ir_rust.py).

An atomic addresses memory element by element, like a gather: its pointer parameter is a flat array (gathers.py,
:class:`~.gathers.FlatNeeded` restarts the lowering with it 1-D), the element offsets are the pointer expression's
sum, ``mask=`` any bool tile. The update is cast to the array's element type and broadcast to the offsets' shape
(Triton does both); the result is the old values. ``sem=`` maps to the memory order (Triton's default
``"acq_rel"``), ``scope=`` to the memory scope (``"gpu"`` -> device, Triton's default; ``"cta"`` -> block;
``"sys"``). The element types each mode takes are cuTile Python's (frontends/cutile/memory.py). A static rank-2
offset tile is flattened as a gather's is; a symbolic one stays rank-n (``atomic_rmw_tko`` has no padding).
"""

from __future__ import annotations

import libcst as cst

from .source import literal as source_literal
from ...ir.ops import OpKind
from ...ir.types import ScalarType, TileType
from ...ir.values import Value
from ..cutile.memory import _atomic_dtype as atomic_dtype
from .gathers import FlatNeeded, _index as flat_index, _reshape as reshape
from .element_types import stored as stored_as
from .pointers import Ptr
from .registry import Call, lowers
from .values import ArrayRef

_RMW = {"tl.atomic_add": "add", "tl.atomic_max": "max", "tl.atomic_min": "min", "tl.atomic_and": "and",
        "tl.atomic_or": "or", "tl.atomic_xor": "xor", "tl.atomic_xchg": "xchg"}
_SEM = {"acq_rel": "acq_rel", "acquire": "acquire", "release": "release", "relaxed": "relaxed"}
_SCOPE = {"gpu": "device", "cta": "block", "sys": "sys"}


def _option(lw, a: dict, key: str, table: dict, default: str) -> str:
    if key not in a or isinstance(a[key], cst.Name) and a[key].value == "None":
        return default
    v = source_literal(a[key])
    if v not in table:
        raise lw.err(a[key], f"{key}= must be one of {', '.join(repr(k) for k in table)}")
    return table[v]


@lowers(*_RMW)
def atomic_rmw(lw, c: Call):
    """``tl.atomic_add(pointer, val, mask=None, sem=None, scope=None)``: the old values."""
    names = ["pointer", "val", "mask", "sem", "scope"]
    if len(c.pos) > len(names) or set(c.kw) - set(names) or set(names[len(c.pos):]) & set(c.kw) != \
            set(c.kw) or len(c.pos) < 2 and "val" not in c.kw:
        raise lw.err(c.node, f"{c.fn}(pointer, val, mask=, sem=, scope=)")
    a = dict(zip(names, c.pos)) | c.kw
    mode = _RMW[c.fn]
    p = lw.expr(a["pointer"])
    if isinstance(p, ArrayRef):
        p = Ptr(p.name)
    if not isinstance(p, Ptr) or p.base is None:
        raise lw.err(a["pointer"], f"{c.fn} of an address that is not a pointer parameter plus offsets")
    if p.base not in lw.flat:
        raise FlatNeeded(p.base, f"{c.fn} (an element-wise atomic)")
    mask = lw.expr(a["mask"]) if "mask" in a and not (isinstance(a["mask"], cst.Name) and
                                                       a["mask"].value == "None") else None
    arr = lw.array(p.base, 1, c.node)
    dt = arr.type.dtype
    atomic_dtype(lw, c, dt, mode)
    off, m, shape, flat = flat_index(lw, p, mask, c.node)
    val = lw.expr(a["val"], "upd")
    if isinstance(val, (int, float)) and not isinstance(val, bool):
        val = lw.const(val, dt, c.node, tuple(shape), "upd")
    val = lw.value(val, a["val"])
    if not isinstance(val, Value):
        raise lw.err(a["val"], f"{c.fn}: the update is not a tile or a number")
    val = stored_as(lw, val, dt, c.node, "upd", p.base)  # Triton casts the update to the pointer's element type
    if isinstance(val.type, ScalarType):
        val = lw.to_tile(val, c.node)
    if tuple(val.type.shape) != tuple(shape):
        val = reshape(lw, val, shape, c.node, "upd") if len(val.type.shape) > len(shape) else \
            lw.broadcast(val, tuple(shape), c.node)
    if flat is not None:
        val = reshape(lw, val, flat, c.node, "upd_flat")
    attrs = {"index": (None,), "shape": flat or shape, "check_bounds": False, "has_mask": m is not None,
             "mode": mode, "memory_order": _option(lw, a, "sem", _SEM, "acq_rel"),
             "memory_scope": _option(lw, a, "scope", _SCOPE, "device")}
    old = lw.emit(OpKind.ATOMIC_RMW, [arr, off, val, *([m] if m is not None else [])],
                  [TileType(dt, flat or shape)], c.node, c.hint or "old", **attrs).result
    return reshape(lw, old, shape, c.node, c.hint or "old") if flat is not None else old
