"""Unary minus on i32 / f32 scalars for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def sneg(x, y, n: int, s: float, TILE: ConstInt):
    pid = ct.bid(0)
    a = -n + pid
    f = -s
    t = ct.load(x, index=(a,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=ct.astype(ct.astype(t, ct.float32) * f, y.dtype))
