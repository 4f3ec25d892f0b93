"""Tuple results of helpers, tuple unpacking, len(), tile .dtype and scalar comparisons
for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


def split_ids(n, G):
    q = ct.bid(0) // G
    return q, ct.bid(0) % n


@ct.kernel
def tuples_k(x, y, n: int, G: ConstInt, TILE: ConstInt):
    a, b = split_ids(n, G)
    rows, cols = x.shape
    dims = (TILE, 2 * TILE)
    k = len(dims) + len(x.shape)
    b, a = a, b + k
    big = G != 4
    far = a >= n
    if far:
        a = a - cols
    if big:
        b = b + rows
    t = ct.load(x, index=(a % 2, b), shape=(1, TILE))
    r = ct.arange(TILE, dtype=ct.int32)
    z = ct.astype(r, t.dtype)
    u = ct.zeros((1, TILE), dtype=t.dtype) + z
    ct.store(y, index=(0, ct.bid(0)), tile=t + u)
