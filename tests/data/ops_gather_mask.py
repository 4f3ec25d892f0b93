"""ct.gather / ct.scatter with a custom mask= on 1-D arrays (tile indices) for ctrs translate (written for this repo)."""

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gmask(x, y, n, TILE: ConstInt):
    pid = ct.bid(0)
    offs = pid * TILE + ct.arange(TILE, dtype=ct.int32)
    m = offs < n
    v = ct.gather(x, offs, mask=m, padding_value=0)
    w = ct.gather(x, offs, mask=offs < n, padding_value=-math.inf)
    u = ct.gather(x, offs, mask=m, check_bounds=False)
    ct.scatter(y, offs, ct.maximum(v + u, w), mask=m)


@ct.kernel
def gmask_expr(x, y, n, TILE: ConstInt):
    # any bool tile expression as the mask; scatter with a mask and without bounds checks
    pid = ct.bid(0)
    lane = ct.arange(TILE, dtype=ct.int32)
    offs = pid * TILE + lane
    low = lane < 100
    v = ct.gather(x, offs, mask=low & (offs < n), padding_value=0)
    ct.scatter(y, offs, v, mask=offs < n, check_bounds=False)
    ct.scatter(y, offs + 1, v, mask=lane >= 100)
