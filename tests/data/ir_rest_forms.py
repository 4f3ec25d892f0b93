"""Constructs that took the text-model pipeline before the typed IR had them (written for this repo): an `if` on a
comparison of two ct.Constant ints (folded per launch by cuTile Python), a name bound to such a comparison used as
a condition, len() of tuples, ct.max / ct.sum without an axis (every axis, keepdims or not), allow_tma= of a
ct.Constant[bool] inside a loop, i32 and f32 scalars carried through a loop."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def cmp_if(x, y, TILE: ConstInt, GROUP: ConstInt, HEADS: ConstInt):
    i = ct.bid(0)
    t = ct.astype(ct.load(x, (i,), (TILE,)), ct.float32)
    if GROUP == HEADS:
        t = t + t
    else:
        t = ct.exp(t)
    wide = TILE > GROUP
    if wide:
        t = t - 1.0
    ct.store(y, (i,), ct.astype(t, y.dtype))


@ct.kernel
def tuple_len(x, y, TILE: ConstInt):
    i = ct.bid(0)
    dims = (TILE, 2 * TILE)
    k = len(dims) + len(x.shape)
    t = ct.astype(ct.load(x, (i, 0), (1, TILE)), ct.float32)
    ct.store(y, (i, 0), ct.astype(t * k, y.dtype))


@ct.kernel
def reduce_all(x, y, z, TM: ConstInt, TN: ConstInt):
    i = ct.bid(0)
    t = ct.astype(ct.load(x, (i, 0), (TM, TN)), ct.float32)
    m = ct.max(t, keepdims=True)
    s = ct.sum(t - m)
    ct.store(y, (i, 0), ct.astype(t * s, y.dtype))
    r = ct.sum(ct.load(x, (i, 0), (1, TN)))
    ct.store(z, (i,), ct.reshape(ct.astype(r, z.dtype), (1,)))


@ct.kernel
def tma_loop(x, y, TILE: ConstInt, NT: ConstInt, USE_TMA: ConstBool):
    i = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(NT):
        t = ct.load(x, (i * NT + j,), (TILE,), padding_mode=ct.PaddingMode.ZERO, allow_tma=USE_TMA)
        acc = acc + ct.astype(t, ct.float32)
        ct.store(y, (i * NT + j,), ct.astype(acc, y.dtype), allow_tma=USE_TMA)


@ct.kernel
def carried_scalar(x, y, n: int, TILE: ConstInt):
    i = ct.bid(0)
    row = i * 4
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    s = 0.0
    for j in range(0, n, 2):
        t = ct.load(x, (row, 0), (1, TILE), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.astype(t, ct.float32) * s
        row += 1
        s = s + 0.5
    ct.store(y, (i, 0), ct.astype(acc + row, y.dtype))
