"""ct.exp / ct.tanh with rounding_mode=APPROX (module-local op declarations) for ctrs translate (written for this repo)."""

import cuda.tile as ct
from cuda.tile import RoundingMode as RM

ConstInt = ct.Constant[int]


@ct.kernel
def approx_k(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    e = ct.exp(t - 1.0, rounding_mode=RM.APPROX)
    h = ct.tanh(t * 0.5, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(y, index=(pid,), tile=ct.astype(e + h, y.dtype))
