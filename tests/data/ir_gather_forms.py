"""ct.gather / ct.scatter forms on the typed IR path (written for this repo): a user mask and'ed with the bounds
mask, -inf / other constant paddings, a 1-tuple index, check_bounds= folded from module constants, a literal
index (0-d gather) with latency=, a scalar index, and a scatter through a rank-2 index tile."""

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]
LIMIT = 200
HALF = 64


@ct.kernel
def gather_forms(x, y, TILE: ConstInt):
    bid = ct.bid(0)
    idx = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    lo = ct.gather(x, idx, mask=idx < LIMIT, padding_value=-math.inf)
    hi = ct.gather(x, (idx,), mask=idx >= HALF, check_bounds=HALF != 64)
    first = ct.gather(x, 0, latency=3)
    mine = ct.gather(x, bid)
    v = (lo + hi) * first + mine
    ct.scatter(y, idx, v, mask=idx < LIMIT)


@ct.kernel
def gather_pad_const(x, y, TILE: ConstInt):
    idx = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, idx, padding_value=1)
    ct.scatter(y, idx, v + v, check_bounds=False)


@ct.kernel
def scatter_rank2(x, y, R: ConstInt, C: ConstInt):
    rows = ct.reshape(ct.arange(R, dtype=ct.int32), (R, 1))
    cols = ct.reshape(ct.arange(C, dtype=ct.int32), (1, C))
    t = ct.load(x, (0, 0), (R, C))
    ct.scatter(y, rows * C + cols, t)


@ct.kernel
def rows2d(x, y, TM: ConstInt, TN: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    v = ct.gather(x, (r, cols), mask=cols < x.shape[1], padding_value=0)
    first = ct.gather(x, (r, 0), check_bounds=False)
    rows = ct.reshape(ct.arange(TM, dtype=ct.int32), (TM, 1))
    block = ct.reshape(cols, (1, TN))
    ct.scatter(y, (r, cols), v * first)
    ct.scatter(y, (rows, block), 0, mask=rows < y.shape[0])
