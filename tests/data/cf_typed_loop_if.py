# ctrs test kernel written for this repo: constant and runtime ifs inside a loop (typed-IR front end).
"""acc += exp(x[r, j]) (exp when SQUARE) over the column tiles of the first `n_valid` rows, then y[r] = acc."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def loop_if(x, y, n_valid: int, TILE: ConstInt, SQUARE: ConstBool):
    r = ct.bid(0)
    n = ct.num_tiles(x, axis=1, shape=(1, TILE))
    acc = ct.full((1, TILE), 0.0, dtype=ct.float32)
    for j in range(n):
        t = ct.astype(ct.load(x, index=(r, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        if SQUARE:
            t = ct.exp(t)
        if r < n_valid:
            acc = acc + t
    ct.store(y, index=(r, 0), tile=ct.astype(acc, y.dtype))
