# ctrs test kernel written for this repo: ct.full of a ct.Constant[int] fill (typed-IR path, tiles.py full).
"""y[i] = x[i] for the first LIMIT elements of each tile, out-of-range lanes redirected to index NE (past the end:
the gather pads them with 0 and the scatter drops them)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def fill_sym(x, y, LIMIT: ConstInt, NE: ConstInt, TILE: ConstInt):
    idx = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    safe = ct.where(idx < LIMIT, idx, ct.full((TILE,), NE, dtype=ct.int32))
    v = ct.gather(x, safe)
    ct.scatter(y, safe, v)
