"""Shape calls of the typed Triton front end beyond shapes.py: ``tl.permute``, ``tl.broadcast_to``, ``tl.join`` and
``tl.interleave``, spelled with the cutile ops cuTile Python's counterparts emit (permute, reshape + broadcast,
reshape + cat, extract + reshape).

* ``tl.permute(x, dims)`` / ``tl.permute(x, *dims)``: ``tl.trans`` with explicit dims (a permute);
* ``tl.broadcast_to(x, shape)``: Triton's broadcast (leading unit axes added, unit axes stretched);
* ``tl.join(a, b)``: a new minor axis of 2 (``a`` at 0, ``b`` at 1): each operand reshaped to ``(..., 1)``, then
  ``cat`` along that axis; the operands broadcast to one shape and must have one dtype (Triton's join);
* ``tl.split(x)``: the inverse of ``join``: ``x``'s minor axis must be 2; each half is the ``extract`` of the
  ``(..., 1)`` block at index ``(0, .., 0, k)`` (cutile ``extract``, _core.rs) reshaped to ``(...)``;
* ``tl.interleave(a, b)``: ``join`` then the last two axes merged (``(.., N, 2) -> (.., 2N)``); 2N must be a
  number (cutile's shapes take a literal or a const generic, not ``2 * N``: CTRS-E124 names the dimension).

A Triton row kept as a ``(1, N)`` tile (lowering.py's lifted rows) has no Triton-rank mapping here: refused.
"""

from __future__ import annotations

from ...ir.ops import OpKind
from ...ir.types import TileType
from .registry import Call, lowers
from .shapes import trans
from .tiles import tile


def _plain(lw, x, c: Call, what: str):
    if lw.rank_of(x) != len(x.type.shape):
        raise lw.err(c.node, f"{what} of a row kept as a (1, N) tile")
    return x


@lowers("tl.permute")
def permute(lw, c: Call):
    if c.kw or len(c.pos) < 2:
        raise lw.err(c.node, "tl.permute(x, dims)")
    return trans(lw, c)


@lowers("tl.broadcast_to")
def broadcast_to(lw, c: Call):
    if c.kw or len(c.pos) < 2:
        raise lw.err(c.node, "tl.broadcast_to(x, shape)")
    x = _plain(lw, tile(lw, c.pos[0], "tl.broadcast_to of a tile"), c, "tl.broadcast_to")
    shape = lw.shape(c.pos[1]) if len(c.pos) == 2 else tuple(lw.dim(lw.expr(p), p) for p in c.pos[1:])
    src = (1,) * (len(shape) - len(x.type.shape)) + tuple(x.type.shape)
    if len(src) != len(shape) or any(s not in (1, d) for s, d in zip(src, shape)):
        raise lw.err(c.node, f"tl.broadcast_to: {x.type} does not broadcast to {shape}")
    r = lw.broadcast(x, tuple(shape), c.node)
    if x.id in lw.origin:
        lw.origin[r.id] = lw.origin[x.id]
    return r


def _join(lw, c: Call):
    if c.kw or len(c.pos) != 2:
        raise lw.err(c.node, f"{c.fn}(a, b)")
    a, b = (_plain(lw, tile(lw, p, f"{c.fn} of tiles"), c, c.fn) for p in c.pos)
    if a.type.dtype != b.type.dtype:
        raise lw.err(c.node, f"{c.fn} of {a.type} and {b.type} (Triton joins tiles of one dtype)")
    a, b = lw.unify_shapes(a, b, c.node)
    unit = tuple(a.type.shape) + (1,)
    a1, b1 = (lw.emit(OpKind.RESHAPE, [v], [TileType(v.type.dtype, unit)], c.node, (v.hint or "t") + "_j",
                      shape=unit).result for v in (a, b))
    shape = tuple(a.type.shape) + (2,)
    return lw.emit(OpKind.CAT, [a1, b1], [TileType(a.type.dtype, shape)], c.node, c.hint or "joined",
                   axis=len(unit) - 1).result


@lowers("tl.join")
def join(lw, c: Call):
    return _join(lw, c)


@lowers("tl.interleave")
def interleave(lw, c: Call):
    j = _join(lw, c)
    if len(j.type.shape) == 1:
        return j
    n = j.type.shape[-2]
    if not isinstance(n, int):
        raise lw.err(c.node, f"tl.interleave along a tl.constexpr extent ({n.name}): the result's 2 * {n.name} is "
                     "not a shape cutile can spell (a literal or a const generic)")
    shape = tuple(j.type.shape[:-2]) + (2 * n,)
    return lw.emit(OpKind.RESHAPE, [j], [TileType(j.type.dtype, shape)], c.node, c.hint or "interleaved",
                   shape=shape).result


@lowers("tl.split")
def split(lw, c: Call):
    if c.kw or len(c.pos) != 1:
        raise lw.err(c.node, "tl.split(x)")
    x = _plain(lw, tile(lw, c.pos[0], "tl.split of a tile"), c, "tl.split")
    shape = tuple(x.type.shape)
    if not shape or shape[-1] != 2:
        raise lw.err(c.node, f"tl.split of {x.type}: Triton splits a minor axis of 2")
    block, rest = shape[:-1] + (1,), shape[:-1]
    halves = []
    for k, name in ((0, "lo"), (1, "hi")):
        idx = [lw.i32(0, c.node) for _ in rest] + [lw.i32(k, c.node)]
        e = lw.emit(OpKind.EXTRACT, [x, *idx], [TileType(x.type.dtype, block)], c.node, f"{x.hint or 't'}_{name}",
                    shape=block).result
        halves.append(lw.emit(OpKind.RESHAPE, [e], [TileType(x.type.dtype, rest)], c.node,
                              f"{x.hint or 't'}_{name}", shape=rest).result)
    return tuple(halves)
