"""An unpadded view of an array that a 2-D ct.gather also reads (no rule in cutile 0.3.1) (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def unpadded(x, y, T: ConstInt):
    r = ct.bid(0)
    a = ct.gather(x, (r, ct.arange(T, dtype=ct.int32)))
    b = ct.load(x, index=(r, 0), shape=(1, T))
    ct.store(y, index=(r, 0), tile=ct.reshape(a, (1, T)) + b)
