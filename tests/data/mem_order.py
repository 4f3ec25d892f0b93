"""Permuted (order=..) view loads and identity-order stores for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def transpose_add(a, b, out, TM: ConstInt, TN: ConstInt):
    i = ct.bid(0)
    j = ct.bid(1)
    # a is (N, M) in memory, read as an (M, N) view
    t = ct.load(a, index=(i, j), shape=(TM, TN), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
    u = ct.load(b, index=(i, j), shape=(TM, TN), order=(0, 1), latency=2)
    ct.store(out, index=(i, j), tile=t + u, order=(0, 1))


@ct.kernel
def batch_swap(x, y, TB: ConstInt, TM: ConstInt, TN: ConstInt):
    b = ct.bid(0)
    m = ct.bid(1)
    v = ct.load(x, index=(b, m, 0), shape=(TB, TM, TN), order=(0, 2, 1), allow_tma=True)
    ct.store(y, index=(b, m, 0), tile=v, order=(0, 1, 2), allow_tma=True)
