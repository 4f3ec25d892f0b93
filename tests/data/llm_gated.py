"""ct.atan2 (no rule) only under a ct.Constant flag (ctrs llm-fallback fixture, written for this repo): with every
spec at USE_ATAN2=0 the reference compiles none of line 14, so no answer there could be told from a wrong one."""

import cuda.tile as ct

TileSize = ct.Constant[int]


@ct.kernel
def atan2_gated(x, y, TILE: TileSize, USE_ATAN2: ct.Constant[int]):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    if USE_ATAN2:
        t = ct.atan2(t, t)
    ct.store(y, index=(pid,), tile=t)
