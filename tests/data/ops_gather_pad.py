"""Gather with -inf padding / without bounds checks for ctrs translate (written for this repo)."""

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def g1(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    idx = pid * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, idx, padding_value=-math.inf)
    w = ct.gather(x, idx, check_bounds=False)
    ct.scatter(y, idx, ct.maximum(v, w), check_bounds=False)
