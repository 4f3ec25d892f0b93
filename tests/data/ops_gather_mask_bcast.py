"""ct.gather / ct.scatter mask= forms beyond a tile of the index shape: a bool scalar broadcast to the index
shape, a 0-d (scalar index) gather/scatter, raw N-d arrays with a broadcast mask (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gmask_scalar(x, y, k, TILE: ConstInt):
    pid = ct.bid(0)
    offs = pid * TILE + ct.arange(TILE, dtype=ct.int32)
    on = pid < k
    v = ct.gather(x, offs, mask=on, padding_value=0)
    one = ct.gather(x, pid, mask=on)
    ct.scatter(y, offs, v + one, mask=on, check_bounds=False)
    ct.scatter(y, pid, one, mask=pid >= k)


@ct.kernel
def gmask_raw(x, z, n, TN: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    keep = cols < n
    v = ct.gather(x, (r, cols), mask=keep, padding_value=0)
    w = ct.gather(x, (r, cols), mask=keep, check_bounds=False)
    ct.scatter(z, (cols[:, None], cols[None, :]), (v + w)[None, :], mask=keep[None, :])
