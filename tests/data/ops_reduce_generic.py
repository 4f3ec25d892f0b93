"""A reduce whose result keeps a ct.Constant dim, divided by a scalar (written for this repo): cutile 0.3.1
types the reduce result with the instantiated shape and the broadcast divisor with the declared one; the port
re-types the reduce result with a same-shape broadcast (the identity in Tile IR)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_mean(x, y, BM: ConstInt, BN: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid, 0), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    m = ct.sum(t, axis=1) / x.shape[1]
    s = ct.max(t, axis=1, keepdims=True) - t
    ct.store(y, index=(pid,), tile=ct.astype(m + ct.sum(s, axis=1), y.dtype))
