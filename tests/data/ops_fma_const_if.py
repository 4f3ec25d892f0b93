"""fma contraction across a constant if (the JIT folds the if first) for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def fma_if(x, y, w: float, FLAG: ConstBool, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    m = t * w
    if FLAG:
        out = m + 1.0
    else:
        out = t - m
    ct.store(y, index=(pid,), tile=ct.astype(out, y.dtype))
