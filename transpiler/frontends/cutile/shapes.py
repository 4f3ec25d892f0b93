"""Shape family: ``ct.transpose``, ``ct.permute``, ``ct.expand_dims``, ``ct.broadcast_to``, ``ct.cat``,
``ct.extract``, ``ct.arange`` and the tile method ``t.item()`` (``t.reshape`` / ``t.astype`` / ``t.permute`` /
``t.transpose`` / ``t.extract`` are these handlers with the tile first: lowering.Lowering.method)."""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import DType, ScalarType, TileType
from ...ir.values import Value
from .args import bind, constant, value
from .registry import Call, lowers
from .values import DT


def tile(lw, c: Call, v) -> Value:
    v = value(lw, v)
    if not isinstance(v, Value) or not isinstance(v.type, TileType):
        raise lw.err(c.node, f"{c.fn} of {v!r}: a tile")
    return v


def _axis(lw, c: Call, axis, rank: int) -> int:
    if not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank:
        raise lw.err(c.node, f"{c.fn}: axis {axis!r} of a rank-{rank} tile")
    return axis % rank


def permute(lw, c: Call, x: Value, perm: tuple) -> Value:
    shape = tuple(x.type.shape[p] for p in perm)
    return lw.emit(OpKind.PERMUTE, [x], [TileType(x.type.dtype, shape)], c.node, c.hint or "perm", perm=perm).result


@lowers("ct.permute")
def permute_fn(lw, c: Call):
    a = bind(lw, c, "x, /, axes")
    x = tile(lw, c, a["x"])
    axes = value(lw, a["axes"])
    rank = len(x.type.shape)
    if not isinstance(axes, tuple) or sorted(_axis(lw, c, p, rank) for p in axes) != list(range(rank)):
        raise lw.err(c.node, f"ct.permute axes {axes!r} of a rank-{rank} tile")
    return permute(lw, c, x, tuple(_axis(lw, c, p, rank) for p in axes))


@lowers("ct.transpose")
def transpose(lw, c: Call):
    """Swaps two axes (the last two of a rank-2 tile by default): a permute, as the reference emits it."""
    a = bind(lw, c, "x, /, axis0=None, axis1=None")
    x = tile(lw, c, a["x"])
    rank = len(x.type.shape)
    a0, a1 = value(lw, a["axis0"]), value(lw, a["axis1"])
    if a0 is None and a1 is None:
        if rank != 2:
            raise lw.err(c.node, f"ct.transpose of a rank-{rank} tile without axes")
        a0, a1 = 0, 1
    a0, a1 = _axis(lw, c, a0, rank), _axis(lw, c, a1, rank)
    perm = list(range(rank))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    return permute(lw, c, x, tuple(perm))


@lowers("ct.expand_dims")
def expand_dims(lw, c: Call):
    a = bind(lw, c, "x, /, axis")
    x = tile(lw, c, a["x"])
    rank = len(x.type.shape) + 1
    axis = _axis(lw, c, constant(lw, c, a, "axis", (int,), "an integer"), rank)
    shape = x.type.shape[:axis] + (1,) + x.type.shape[axis:]
    return lw.emit(OpKind.RESHAPE, [x], [TileType(x.type.dtype, shape)], c.node, c.hint, shape=shape).result


@lowers("ct.broadcast_to")
def broadcast_to(lw, c: Call):
    a = bind(lw, c, "x, /, shape")
    x = value(lw, a["x"])
    if isinstance(x, Value) and isinstance(x.type, ScalarType):
        x = lw.to_tile(x, c.node)
    x = tile(lw, c, x)
    shape = lw.shape(a["shape"])
    src = (1,) * (len(shape) - len(x.type.shape)) + tuple(x.type.shape)
    if len(src) != len(shape) or any(s not in (1, d) for s, d in zip(src, shape)):
        raise lw.err(c.node, f"ct.broadcast_to: {x.type} does not broadcast to {shape}")
    return lw.broadcast(x, shape, c.node)


@lowers("ct.cat")
def cat(lw, c: Call):
    a = bind(lw, c, "tiles, /, axis")
    ts = value(lw, a["tiles"])
    if not isinstance(ts, tuple) or len(ts) != 2:
        raise lw.err(c.node, "ct.cat of a pair of tiles (cutile 0.3.1's cat takes lhs and rhs: cutile/src/_core.rs)")
    x, y = (tile(lw, c, t) for t in ts)
    rank = len(x.type.shape)
    axis = _axis(lw, c, constant(lw, c, a, "axis", (int,), "an integer"), rank)
    if x.type.dtype != y.type.dtype or len(y.type.shape) != rank or any(
            i != axis and p != q for i, (p, q) in enumerate(zip(x.type.shape, y.type.shape))):
        raise lw.err(c.node, f"ct.cat of {x.type} and {y.type} along axis {axis}")
    dx, dy = x.type.shape[axis], y.type.shape[axis]
    if not (isinstance(dx, int) and isinstance(dy, int)):
        raise lw.err(c.node, "ct.cat along a ct.Constant extent (the result shape is not a constant expression)")
    shape = x.type.shape[:axis] + (dx + dy,) + x.type.shape[axis + 1:]
    return lw.emit(OpKind.CAT, [x, y], [TileType(x.type.dtype, shape)], c.node, c.hint or "cat", axis=axis).result


@lowers("ct.extract")
def extract(lw, c: Call):
    """The ``index``-th ``shape``-sized block of a tile (index in units of blocks, like ct.load's)."""
    a = bind(lw, c, "x, /, index, shape")
    x = tile(lw, c, a["x"])
    shape = lw.shape(a["shape"])
    idx = value(lw, a["index"])
    idx = idx if isinstance(idx, tuple) else (idx,)
    if len(idx) != len(x.type.shape) or len(shape) != len(x.type.shape):
        raise lw.err(c.node, f"ct.extract index / shape of a rank-{len(x.type.shape)} tile")
    for s, d in zip(shape, x.type.shape):
        if isinstance(s, int) and isinstance(d, int) and d % s:
            raise lw.err(c.node, f"ct.extract shape {shape} does not divide {x.type}")
    idx = [lw.i32(i, c.node) for i in idx]
    return lw.emit(OpKind.EXTRACT, [x, *idx], [TileType(x.type.dtype, shape)], c.node, c.hint or "ext",
                   shape=shape).result


@lowers("Tile.item")
def item(lw, c: Call):
    """A one-element tile as a scalar (a reshape to rank 0)."""
    a = bind(lw, c, "x, /")
    x = tile(lw, c, a["x"])
    if any(d != 1 for d in x.type.shape):
        raise lw.err(c.node, f"item() of {x.type}: a tile of one element")
    return lw.emit(OpKind.RESHAPE, [x], [ScalarType(x.type.dtype)], c.node, c.hint or "item", shape=()).result


@lowers("ct.arange")
def arange(lw, c: Call):
    """``ct.arange(n, dtype=)``: iota (cuTile Python 1.7.0 requires the dtype)."""
    a = bind(lw, c, "size, /, *, dtype, start=0, step=1")
    n = lw.dim(value(lw, a["size"]), c.node)
    dt = value(lw, a["dtype"])
    if not isinstance(dt, DT) or not isinstance(dt.dtype, DType) or dt.dtype.kind not in ("int", "uint"):
        raise lw.err(c.node, "ct.arange of a non-integer dtype (cutile 0.3.1's iota: cutile/src/_core.rs)")
    start, step = value(lw, a["start"]), value(lw, a["step"])
    t = lw.emit(OpKind.IOTA, [], [TileType(dt.dtype, (n,))], c.node, c.hint or "iota", shape=(n,)).result
    if step != 1:
        t = lw.binary("*", t, step, c.node)
    if start != 0:
        t = lw.binary("+", t, start, c.node)
    return t
