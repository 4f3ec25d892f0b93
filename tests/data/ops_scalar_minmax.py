"""Scalar ct.maximum / ct.minimum / max for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def smax(x, y, n: int, s: float, TILE: ConstInt):
    pid = ct.bid(0)
    a = ct.maximum(pid, n)
    b = ct.minimum(a, 7)
    c = max(pid, n)
    f = ct.maximum(s, 0.5)
    t = ct.load(x, index=(a + b + c,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=ct.astype(ct.astype(t, ct.float32) * f, y.dtype))
