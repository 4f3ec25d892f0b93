# ctrs test kernel written for this repo: runtime ifs on the loop index against a loop-invariant bound, which
# cuTile Python's loop_split pass turns into two loops (typed-IR front end, transpiler/passes/loopsplit.py).
"""Row r of x: acc sums exp(t) over the column tiles j >= lo (t itself below lo), then y[r] = acc; z[r] adds
the tiles j <= hi only (a `le` split: the bound + 1), w[r] the tiles with lo > j (the bound on the left)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def split_ge(x, y, lo: int, TILE: ConstInt):
    r = ct.bid(0)
    n = ct.num_tiles(x, axis=1, shape=(1, TILE))
    acc = ct.full((1, TILE), 0.0, dtype=ct.float32)
    for j in range(0, n):
        t = ct.astype(ct.load(x, index=(r, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        if j >= lo:
            t = ct.exp(t)
        acc = acc + t
    ct.store(y, index=(r, 0), tile=ct.astype(acc, y.dtype))


@ct.kernel
def split_le(x, z, w, hi: int, TILE: ConstInt):
    r = ct.bid(0)
    n = ct.num_tiles(x, axis=1, shape=(1, TILE))
    hi2 = hi // 2
    acc = ct.full((1, TILE), 0.0, dtype=ct.float32)
    acc2 = ct.full((1, TILE), 0.0, dtype=ct.float32)
    for j in range(n):
        t = ct.astype(ct.load(x, index=(r, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        if j <= hi:
            acc = acc + t
        else:
            acc = acc - t
    for j in range(1, n):
        t = ct.astype(ct.load(x, index=(r, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        if hi2 > j:
            acc2 = acc2 + t * 2.0
    ct.store(z, index=(r, 0), tile=ct.astype(acc, z.dtype))
    ct.store(w, index=(r, 0), tile=ct.astype(acc2, w.dtype))
