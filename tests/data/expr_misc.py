"""Expression constructs for ctrs translate (written for this repo): ct.max/ct.sum without an axis on 1-d
tiles, a ct.full boolean mask, check_bounds= a comparison of ct.Constant parameters, ct.where of two
literals, an unannotated integer parameter, an f32 output array next to E arrays."""

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def misc_k(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    m = ct.max(t)
    s = ct.sum(t - m)
    r = ct.arange(TILE, dtype=ct.int32)
    keep = ct.full((TILE,), True, dtype=ct.bool_)
    keep = keep & (r < 5)
    u = ct.where(keep, t * s, 0.0)
    ct.store(y, index=(pid,), tile=ct.astype(u, y.dtype))


@ct.kernel
def bounds_k(x, w, y, N: ConstInt, TILE: ConstInt):
    row = ct.bid(0)
    offsets = ct.arange(TILE, dtype=ct.int32)
    check = TILE != N
    t = ct.gather(x, (row, offsets), check_bounds=check, padding_value=0)
    v = ct.gather(w, offsets, check_bounds=check)
    ct.scatter(y, (row, offsets), t * v, check_bounds=check)


@ct.kernel
def where_lits_k(x, y, n: int, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    r = ct.arange(TILE, dtype=ct.int32)
    bias = ct.where(r < n, 0.0, -math.inf)
    t += bias
    k = ct.where(r >= 3, 1, 0)
    t = t * ct.astype(k, ct.float32)
    ct.store(y, index=(pid,), tile=ct.astype(t, y.dtype))


@ct.kernel
def count_k(x, y, Batch, TILE: ConstInt):
    pid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for b in range(Batch):
        acc += ct.astype(ct.load(x, index=(b * Batch + pid,), shape=(TILE,)), ct.float32)
    ct.store(y, index=(pid,), tile=ct.astype(acc, y.dtype))


@ct.kernel
def lse_k(x, y, lse, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid, 0), shape=(1, TILE)), ct.float32)
    m = ct.max(t, axis=1, keepdims=True)
    ct.store(lse, index=(pid,), tile=ct.reshape(m, (1,)))
    ct.store(y, index=(pid, 0), tile=ct.astype(t - m, y.dtype))
