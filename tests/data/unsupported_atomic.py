"""Tiny kernel using constructs with no rule (ct.cumprod; ct.atomic_add has a rule) (ctrs test data)."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def bump(x, out, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.atomic_add(out, (0,), ct.sum(ct.cumprod(t, axis=0), axis=0))
