"""ct.gather / ct.scatter on 2-D and 3-D arrays (raw-pointer entries) for ctrs translate (written for this repo)."""

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_scale(x, y, TN: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    v = ct.gather(x, (r, cols), padding_value=-math.inf)
    m = ct.max(v, axis=0)
    ct.scatter(y, (r, cols), v - m)


@ct.kernel
def col_sum(x, out, TN: ConstInt):
    # a (tile, tile) index, a bounds-free gather of a 3-D array, x.shape read from the raw entry params
    r = ct.bid(0)
    b = ct.bid(1)
    rows = ct.full((TN,), r, dtype=ct.int32)
    acc = ct.zeros((TN,), dtype=ct.float32)
    for off in range(0, x.shape[2], TN):
        cols = off + ct.arange(TN, dtype=ct.int32)
        v = ct.gather(x, (b, rows, cols), padding_value=0)
        acc = acc + ct.astype(v, ct.float32)
    w = ct.gather(x, (b, r, ct.arange(TN, dtype=ct.int32)), check_bounds=False)
    ct.scatter(out, (b, rows, ct.arange(TN, dtype=ct.int32)), ct.astype(acc, x.dtype) + w)
