"""A ct.gather with a rank-2 index shape (no rule in cutile 0.3.1) (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def rank2(x, y, T: ConstInt):
    q = ct.arange(T, dtype=ct.int32)[:, None]
    d = ct.arange(T, dtype=ct.int32)[None, :]
    v = ct.gather(x, (q, d))
    ct.store(y, index=(0, 0), tile=v)
