"""f32 scalar arithmetic (/ + -) for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def sf(x, y, n: int, s: float, TILE: ConstInt):
    pid = ct.bid(0)
    a = s / 3.0
    b = a + s
    c = 1.0 - b
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=ct.astype(ct.astype(t, ct.float32) * c, y.dtype))
