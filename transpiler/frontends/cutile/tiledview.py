"""Tiled views: ``A.tiled_view(tile_shape[, padding_mode=])`` and its ``atomic_store_<op>(index, update)``.

cuTile Python's TiledView is an array and a constant tile shape (_ir/ops.py array_tiled_view_impl); its atomic
store ops (tiled_view_atomic_store_rmw_impl) broadcast the update to the tile shape, cast it to the array dtype
(implicit_cast), make an unpadded partition view at each call and reduce into it with
``atomic_red_view_tko relaxed device`` (no old values; bytecode >= 13.3). cutile 0.5.0 spells that op
``atomic_red_view_tko(&mut PartitionMut, tile, [idx], atomic::<mode>, ordering::Relaxed, scope::Device)``
(src/_tileir.rs); cutile 0.3.1 has no such op (CTRS-E326, emitters/ir_rust.py)."""

from __future__ import annotations

import libcst as cst

from ...ir.ops import OpKind
from ...ir.types import DType
from .memory import _atomic_dtype, _fit, index, padding_mode, view
from .registry import Call
from .values import ArrayRef, TiledViewRef

# TiledView.atomic_store_<op> -> cuTile Python's AtomicRMWMode family (its _TILED_VIEW_ATOMIC_STORE_RMW_STUBS)
ATOMIC_STORES = {"atomic_store_add": "add", "atomic_store_max": "max", "atomic_store_min": "min",
                 "atomic_store_and": "and", "atomic_store_or": "or", "atomic_store_xor": "xor"}
METHODS = (*ATOMIC_STORES, "load", "store", "num_tiles")


def tiled_view(lw, a: ArrayRef, node: cst.Call) -> TiledViewRef:
    """``A.tiled_view(tile_shape, *, padding_mode=, traversal_steps=None)``: a compile-time value."""
    pos = [x.value for x in node.args if x.keyword is None]
    kw = {x.keyword.value: x.value for x in node.args if x.keyword is not None}
    if len(pos) + ("tile_shape" in kw) != 1 or set(kw) - {"tile_shape", "padding_mode", "traversal_steps"}:
        raise lw.err(node, f"{a.name}.tiled_view(tile_shape[, padding_mode=])")
    steps = kw.get("traversal_steps")
    if steps is not None and not (isinstance(steps, cst.Name) and steps.value == "None"):
        raise lw.err(steps, f"{a.name}.tiled_view(traversal_steps=..): a strided traversal is not ported")
    shape = lw.shape(pos[0] if pos else kw["tile_shape"])
    if len(shape) != a.value.type.rank:
        raise lw.err(node, f"{a.name}.tiled_view: a tile shape of rank {len(shape)} for a rank-"
                           f"{a.value.type.rank} array (cuTile Python requires the array's rank)")
    pad = padding_mode(lw, kw["padding_mode"]) if "padding_mode" in kw else "none"
    return TiledViewRef(a, tuple(shape), pad)


def view_method(lw, tv: TiledViewRef, node: cst.Call):
    """A method of a tiled view; the atomic stores are ported, load / store / num_tiles not yet."""
    attr = node.func.attr.value
    if attr not in ATOMIC_STORES:
        raise lw.err(node, f"method '{attr}' of a tiled view (ct.load / ct.store of the array take its place)")
    if any(x.keyword is not None for x in node.args) or len(node.args) != 2:
        raise lw.err(node, f"TiledView.{attr}(index, update, /)")
    mode = ATOMIC_STORES[attr]
    a = tv.array
    dt = a.value.type.dtype
    _atomic_dtype(lw, Call(node, f"TiledView.{attr}", [], {}, ""), dt, mode)
    if mode in ("and", "or", "xor") and not isinstance(dt, DType):
        raise lw.err(node, f"TiledView.{attr} on the float element type E")
    idx = index(lw, node.args[0].value, a.value.type.rank)
    update = _fit(lw, lw.expr(node.args[1].value), tv.tile, dt, node.args[1].value, "the update")
    v = view(lw, a, tv.tile, "none", True, node)  # the reference's PaddingMode.UNDETERMINED view, per call
    lw.emit(OpKind.ATOMIC_RED_VIEW, [v, update, *idx], [], node, mode=mode, memory_order="relaxed",
            memory_scope="device")
    return None
