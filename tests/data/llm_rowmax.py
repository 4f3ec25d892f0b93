"""x - max(x) per TILE-wide slice (ctrs llm-fallback fixture, written for this repo): `ct.max` without an axis has
no typed-IR rule, so `ctrs translate --llm` asks for the whole statement."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def shift_by_max(x, y, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    m = ct.max(t)
    ct.store(y, index=(pid,), tile=t - m)
