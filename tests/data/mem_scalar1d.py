"""ct.gather / ct.scatter of one element of a 1-D array (scalar and literal indices) (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def one(x, n, out, T: ConstInt):
    r = ct.bid(0)
    limit = ct.gather(n, 0, padding_value=0)
    v = ct.gather(x, r)
    w = ct.gather(x, r + 1, check_bounds=False, latency=2)
    ct.scatter(out, r, v + w + limit)
