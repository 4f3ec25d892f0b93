"""ct.less / ct.greater_equal / ct.bitwise_and / ct.floordiv / ct.mod / ct.ones for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def cmpfn(x, y, n: int, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    idx = ct.arange(TILE, dtype=ct.int32)
    m = ct.bitwise_and(ct.less(idx, n), ct.greater_equal(t, 0.0))
    q = ct.floordiv(pid, n) + ct.mod(pid, n)
    u = ct.where(ct.not_equal(idx, q), t, ct.ones((TILE,), dtype=ct.float32))
    ct.store(y, index=(pid,), tile=ct.astype(ct.where(m, u, 0.0), y.dtype))
