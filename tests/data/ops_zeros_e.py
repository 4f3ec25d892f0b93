"""ct.zeros in the generic element type (E::ZERO) for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def fz(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    z = ct.zeros((TILE,), dtype=x.dtype)
    ct.store(y, index=(pid,), tile=ct.maximum(t, z))
