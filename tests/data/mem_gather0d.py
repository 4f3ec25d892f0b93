"""ct.gather / ct.scatter of single elements (all-scalar indices) and literal indices on 3-D arrays (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def pick(g, y, z, T: ConstInt):
    b = ct.bid(0)
    t = ct.bid(1)
    v = ct.gather(g, (b, t, 3), check_bounds=False)
    w = ct.gather(g, (b, t, 1))
    ct.scatter(y, (b, t, 0), v + w)
    lanes = ct.arange(T, dtype=ct.int32)
    u = ct.gather(g, (b, 2, lanes))
    ct.scatter(z, (b, 0, lanes), u * v)
