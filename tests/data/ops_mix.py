"""Operation coverage for ctrs translate (written for this repo): masks, select, shape ops, math."""

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]

HALF_PI = math.pi / 2


@ct.kernel
def ops_mix(x, y, n: int, scale: float, TM: ConstInt, TN: ConstInt):
    bm = ct.bid(0)
    bn = ct.bid(1)
    nb = ct.num_blocks(0)
    t = ct.load(x, index=(bm, bn), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    t = ct.astype(t, ct.float32)
    rows = bm * TM + ct.arange(TM, dtype=ct.int32)
    cols = ct.arange(TN, dtype=ct.int32)
    rmask = rows[:, None] < n
    cmask = ct.expand_dims(cols, 0) >= nb
    mask = (rmask & cmask) | (rows[:, None] == 3)
    a = ct.maximum(t, 0.0)
    b = ct.minimum(a, ct.sqrt(t + 1.0))
    c = ct.rsqrt(b + 2.0, flush_to_zero=True) * ct.log(b + 1.0) - ct.log2(a + 1.0)
    d = ct.exp2(-c, flush_to_zero=True) * scale + HALF_PI
    e = ct.where(mask, d, -1.0)
    f = ct.where(t > 0.5, e, ct.tanh(t))
    g = f * t + e
    r = ct.sum(ct.reshape(g, (TM, TN, 1)), axis=2)
    tt = ct.transpose(ct.transpose(r))
    s = ct.broadcast_to(ct.max(tt, axis=1, keepdims=True), (TM, TN)) + tt
    ct.store(y, index=(bm, bn), tile=ct.astype(s, y.dtype))
