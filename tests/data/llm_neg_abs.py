"""atan2(atan2(x, x), x) per TILE-wide slice: ct.atan2 has no rule, so `ctrs translate --llm` sends both calls to the
model through the typed front end, the second reading the first's value (ctrs llm-fallback fixture, written for
this repo)."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def neg_abs(x, y, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    n = ct.atan2(t, t)
    a = ct.atan2(n, t)
    ct.store(y, index=(pid,), tile=a)
