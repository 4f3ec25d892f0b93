"""A store with a non-identity order (no rule: cutile 0.3.1's mutable view has no dim_map) (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bad(x, y, T: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(T, T))
    ct.store(y, index=(0, 0), tile=t, order=(1, 0))
