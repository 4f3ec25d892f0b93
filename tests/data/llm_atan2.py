"""atan2(x, x) per TILE-wide slice: ct.atan2 has no rules entry (ctrs llm-fallback fixture, written for this repo)."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def atan2_self(x, y, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    a = ct.atan2(t, t)
    ct.store(y, index=(pid,), tile=a)
