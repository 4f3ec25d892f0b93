"""ct.store(order=..) (written for this repo): a tile stored through a permuted partition view (the tile's axis k
is the array's axis order[k]), as a transposing copy and a 3-d permutation. cutile 0.5.0 spells it as a read-only
partition view with a dim map and store_view_raw; cutile 0.3.1's mutable view has no dim map (CTRS-E402)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def transpose_store(x, y, TM: ConstInt, TN: ConstInt):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, (i, j), (TM, TN))
    ct.store(y, (j, i), t, order=(1, 0))


@ct.kernel
def permute3_store(x, y, A: ConstInt, B: ConstInt, C: ConstInt):
    b = ct.bid(0)
    t = ct.load(x, (b, 0, 0), (A, B, C))
    ct.store(y, (0, 0, b), t + t, order=(2, 0, 1), latency=2)
