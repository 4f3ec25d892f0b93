"""The cuTile counterpart of kernel.py (the transpose of a 1-D tile is the tile; an inclusive prefix sum): the
reference its LLM answer is proven against (ctrs llm-fallback fixture, written for this repo)."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def scan_pair(x, y, z, TILE: TileSize):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    a = t
    b = ct.cumsum(t, axis=0)
    ct.store(y, index=(pid,), tile=a + b)
    ct.store(z, index=(pid,), tile=a * b)
