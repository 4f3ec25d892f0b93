"""Tiles of rank > 6 that only move elements: ``tl.reshape`` to rank 7+, ``tl.permute`` of it, ``tl.reshape`` back
to rank <= 6 (unsloth's int4 repack: ``tl.permute(tl.reshape(q, (R, 8, 4, 4, 2, 2, 2)), perm)`` then
``tl.reshape(q, (TN, R * TK))``).

cutile 0.5.0 declares its tile type and ops for ranks up to 6 (``Tile``: ``#[cuda_tile::variadic_struct(N = 6)]``,
cutile-0.5.0 src/_core.rs:668; ``reshape``: ``variadic_op(N = 6, M = 6)`` :2037; ``permute``: ``variadic_op(N = 6)``
:2027), so such a tile is never made. A reshape to rank > 6 is kept as a :class:`HighRank` (the source tile, the
high-rank shape, the permutation applied so far); the reshape that brings it back to rank <= 6 is spelled as an
equivalent chain of rank <= 6 reshapes and permutes: adjacent axes of the high-rank shape merged (only axes of
number sizes: a shape takes a literal or a const generic, not a product of generics), permuted, regrouped, permuted
again. Both are pure element moves (row-major reshapes, axis permutations), so the result is the same tile, element
for element. Any other use of a rank > 6 tile, or a permutation no such chain of two permutes spells, is refused
(CTRS-E721) citing the crate's rank limit.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ... import errors
from ...ir.ops import OpKind
from ...ir.types import TileType
from ..cutile.shapes import permute as emit_permute

MAX_RANK = 6  # cutile 0.5.0's variadic tile type and ops (N = 6)
CITATION = ("cutile 0.5.0 declares its tile type and tile ops up to rank 6 (Tile: #[cuda_tile::variadic_struct(N = 6)], "
            "cutile-0.5.0 src/_core.rs:668; reshape #[cuda_tile::variadic_op(N = 6, M = 6)] :2037; permute :2027)")


@dataclass(frozen=True)
class HighRank:
    """``src`` (rank <= 6) reshaped row-major to ``shape`` (rank > 6), then its axes permuted by ``perm`` (result axis
    i is ``shape`` axis ``perm[i]``)."""
    src: object
    shape: tuple
    perm: tuple


def refusal(lw, node, what: str) -> errors.CtrsError:
    return errors.CtrsError(errors.TRITON_TILE_RANK, f"{what}: {CITATION}, so the port cannot hold it (a reshape "
                            "to rank > 6, permuted, then reshaped to rank <= 6 is lowered; nothing else)",
                            "split the computation into tiles of rank 6 or less", lw.tf.loc(node))


def permuted(lw, h: HighRank, perm: tuple, node) -> HighRank:
    if sorted(perm) != list(range(len(h.shape))) or not all(isinstance(p, int) for p in perm):
        raise lw.err(node, f"tl.permute dims {perm!r} of a rank-{len(h.shape)} tile")
    return HighRank(h.src, h.shape, tuple(h.perm[p] for p in perm))


def _runs(order: tuple, final: tuple, merge_ok) -> list[list[int]]:
    """``order`` (high-rank axes) cut into the fewest runs that stay adjacent and in order in ``final``."""
    pos = {a: i for i, a in enumerate(final)}
    runs = [[order[0]]]
    for a in order[1:]:
        b = runs[-1][-1]
        if pos[a] == pos[b] + 1 and merge_ok(b) and merge_ok(a):
            runs[-1].append(a)
        else:
            runs.append([a])
    return runs


def plan(shape: tuple, perm: tuple) -> list | None:
    """Groupings of the high-rank axes for a chain of at most two rank <= 6 permutes taking axis order
    ``range(len(shape))`` to ``perm``: [(groups in the current order, the order after the permute)], or None.
    Axes of symbolic size are never merged."""
    n = len(shape)
    ok = (lambda a: isinstance(shape[a], int))
    one = _runs(tuple(range(n)), perm, ok)
    if len(one) <= MAX_RANK:
        return [(one, perm)]
    for cuts in itertools.product((False, True), repeat=n - 1):  # which adjacent pairs the first grouping merges
        groups = [[0]]
        for a, merge in zip(range(1, n), cuts):
            if merge and ok(a - 1) and ok(a):
                groups[-1].append(a)
            else:
                groups.append([a])
        if len(groups) > MAX_RANK:
            continue
        for order in itertools.permutations(range(len(groups))):
            mid = tuple(a for g in order for a in groups[g])
            second = _runs(mid, perm, ok)
            if len(second) <= MAX_RANK:
                return [(groups, mid), (second, perm)]
    return None


def _size(shape: tuple, axes: list[int]):
    if len(axes) == 1:
        return shape[axes[0]]
    out = 1
    for a in axes:
        out *= shape[a]
    return out


def lower(lw, h: HighRank, target: tuple, c) -> object:
    """``tl.reshape(h, target)`` with ``len(target) <= 6``: the chain of rank <= 6 reshapes and permutes."""
    steps = plan(h.shape, h.perm)
    if steps is None:
        raise refusal(lw, c.node, f"a permutation {h.perm} of a rank-{len(h.shape)} tile {h.shape}")
    x = h.src
    dt = x.type.dtype

    def reshape(v, dims, hint):
        dims = tuple(dims)
        if tuple(v.type.shape) == dims:
            return v
        return lw.emit(OpKind.RESHAPE, [v], [TileType(dt, dims)], c.node, hint, shape=dims).result

    for groups, after in steps:  # groups: runs of the current axis order
        x = reshape(x, [_size(h.shape, g) for g in groups], "hr")
        firsts = [g[0] for g in groups]
        order = tuple(firsts.index(g[0]) for g in _regroup(after, groups))
        if order != tuple(range(len(groups))):
            x = emit_permute(lw, c, x, order)
    r = reshape(x, target, c.hint or "rs")
    if h.src.id in lw.origin:
        lw.origin[r.id] = lw.origin[h.src.id]
    return r


def _regroup(after: tuple, groups: list[list[int]]) -> list[list[int]]:
    """``groups`` in the order their axes take in ``after``."""
    return sorted(groups, key=lambda g: after.index(g[0]))
