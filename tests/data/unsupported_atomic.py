"""Tiny kernel using a construct with no translation rule (ctrs translate test data)."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def bump(x, out, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.atomic_add(out, (0,), ct.sum(t, axis=0))
