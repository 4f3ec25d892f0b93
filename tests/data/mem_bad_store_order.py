"""A store with a non-identity order: cutile 0.5.0 stores through a dim-mapped view (store_view_raw); cutile 0.3.1's
mutable view has no dim_map, so it is refused there (CTRS-E402) (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bad(x, y, T: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(T, T))
    ct.store(y, index=(0, 0), tile=t, order=(1, 0))
