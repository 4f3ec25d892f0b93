"""Integer arrays next to E arrays for ctrs translate (written for this repo): arrays whose loaded tiles meet
int32 tiles (an operand, a loop-carried value) or receive int32 tiles are int32 arrays; an
array whose (reshaped) loaded tiles meet f32 tiles is an f32 array."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def hist_k(ids, cnts, out, x, y, TILE: ConstInt, STEPS: ConstInt):
    pid = ct.bid(0)
    r = ct.arange(TILE, dtype=ct.int32)
    acc = ct.zeros((TILE,), dtype=ct.int32)
    for i in range(STEPS):
        idx = ct.load(ids, index=(i,), shape=(TILE,))
        off = idx + r
        acc = ct.load(cnts, index=(pid + i,), shape=(TILE,))
        acc = acc + off
    ct.store(out, index=(pid,), tile=acc)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=t)


@ct.kernel
def bwd_k(lse, x, y, TILE: ConstInt):
    pid = ct.bid(0)
    lv = ct.load(lse, index=(pid,), shape=(TILE,))
    t = ct.astype(ct.load(x, index=(pid, 0), shape=(TILE, TILE)), ct.float32)
    p = ct.exp2(t - lv[None, :])
    ct.store(y, index=(pid, 0), tile=ct.astype(p, y.dtype))
