"""|-x| per TILE-wide slice: unary minus on a tile has no typed-IR rule and ct.abs no rule at all, so `ctrs translate
--llm` sends both to the model through the typed front end (ctrs llm-fallback fixture, written for this repo)."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def neg_abs(x, y, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    n = -t
    a = ct.abs(n)
    ct.store(y, index=(pid,), tile=a)
