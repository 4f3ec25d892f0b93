"""x - max(x) per TILE-wide slice (ctrs llm-fallback fixture, written for this repo): `ct.max` over a tuple of axes
of a dtype-variable tile has no typed-IR rule (CTRS-E124 inside the rule), so `ctrs translate --llm` asks for the
whole statement."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def shift_by_max(x, y, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    m = ct.max(t, axis=(0,))
    ct.store(y, index=(pid,), tile=t - m)
