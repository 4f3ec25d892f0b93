"""Memory family: ``ct.load``, ``ct.store``, ``ct.num_tiles`` (partition views of array parameters)."""

from __future__ import annotations

import libcst as cst

from ...ir.ops import OpKind
from ...ir.types import I32, ScalarType, TileType, ViewType
from ...ir.values import Value
from .registry import Call, lowers
from .values import ArrayRef, EnumRef

_PADDING = {"ZERO": "zero", "NEG_INF": "neg_inf", "NAN": "nan", "UNDETERMINED": "none"}


def array(lw, node) -> ArrayRef:
    a = lw.expr(node)
    if not isinstance(a, ArrayRef):
        raise lw.err(node, "expected an array parameter")
    return a


def view(lw, a: ArrayRef, tile: tuple, padding: str, mutable: bool, node) -> Value:
    t = ViewType(a.value.type.dtype, tile, padding, mutable)
    return lw.emit(OpKind.MAKE_VIEW, [a.value], [t], node, "p" + a.name, tile=tile, padding=padding,
                   mutable=mutable).result


def index(lw, node, rank: int) -> list[Value]:
    idx = lw.expr(node)
    idx = idx if isinstance(idx, tuple) else (idx,)
    if len(idx) != rank:
        raise lw.err(node, f"index of {len(idx)} for a rank-{rank} array")
    return [lw.i32(v, node) for v in idx]


def padding_mode(lw, node) -> str:
    v = (lw.env.get(node.value) or lw.module_enum(node.value)) if isinstance(node, cst.Name) else None
    d = v.dotted if isinstance(v, EnumRef) else lw.info.dotted(node) or ""
    if not d.startswith("ct.PaddingMode.") or d.rsplit(".", 1)[1] not in _PADDING:
        raise lw.err(node, "padding_mode")
    return _PADDING[d.rsplit(".", 1)[1]]


@lowers("ct.load")
def load(lw, c: Call):
    kw = c.kw
    if len(c.pos) != 1 or set(kw) - {"index", "shape", "padding_mode"} or "index" not in kw or "shape" not in kw:
        raise lw.err(c.node, "ct.load(array, index=, shape=[, padding_mode=])")
    a = array(lw, c.pos[0])
    shape = lw.shape(kw["shape"])
    pad = padding_mode(lw, kw["padding_mode"]) if "padding_mode" in kw else "none"
    if len(shape) != a.value.type.rank:
        raise lw.err(c.node, "tile rank differs from the array rank")
    idx = index(lw, kw["index"], a.value.type.rank)
    v = view(lw, a, shape, pad, False, c.node)
    return lw.emit(OpKind.LOAD_VIEW, [v, *idx], [TileType(a.value.type.dtype, shape)], c.node, c.hint).result


@lowers("ct.store")
def store(lw, c: Call):
    if len(c.pos) != 1 or set(c.kw) != {"index", "tile"}:
        raise lw.err(c.node, "ct.store(array, index=, tile=)")
    a = array(lw, c.pos[0])
    t = lw.expr(c.kw["tile"])
    if not isinstance(t, Value) or not isinstance(t.type, TileType) or len(t.type.shape) != a.value.type.rank:
        raise lw.err(c.node, "ct.store of a tile of the array's rank")
    if t.type.dtype != a.value.type.dtype:  # cuTile Python does not cast a stored tile implicitly
        raise lw.err(c.node, f"ct.store of a {t.type.dtype} tile into an array of {a.value.type.dtype}")
    idx = index(lw, c.kw["index"], a.value.type.rank)
    v = view(lw, a, t.type.shape, "none", True, c.node)
    lw.emit(OpKind.STORE_VIEW, [v, t, *idx], [], c.node)
    return None


@lowers("ct.num_tiles")
def num_tiles(lw, c: Call):
    if len(c.pos) != 1 or set(c.kw) != {"axis", "shape"}:
        raise lw.err(c.node, "ct.num_tiles(array, axis=, shape=)")
    a = array(lw, c.pos[0])
    axis = lw.expr(c.kw["axis"])
    shape = lw.shape(c.kw["shape"])
    if not isinstance(axis, int) or not 0 <= axis < len(shape) or len(shape) != a.value.type.rank:
        raise lw.err(c.node, "ct.num_tiles axis / shape")
    v = view(lw, a, shape, "none", False, c.node)
    return lw.emit(OpKind.NUM_TILES, [v], [ScalarType(I32)], c.node, c.hint, axis=axis).result
