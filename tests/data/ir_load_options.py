"""ct.load / ct.store options on the typed IR path (written for this repo): index and shape given by position,
order= (a transposed read through the view's dim_map), every padding mode (directly, bound to a name, a module
constant), latency= and allow_tma= (folded from
module constants), a shape=() load of one element (a 1x1 tile reshaped to 0-d), A.shape[i] and A.ndim."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
LAT = 4
USE_TMA = False
NEG = ct.PaddingMode.NEG_INF


@ct.kernel
def load_options(a, out, TM: ConstInt, TN: ConstInt):
    i = ct.bid(0)
    j = ct.bid(1)
    zero_pad = ct.PaddingMode.ZERO
    t = ct.load(a, (i, j), (TM, TN), padding_mode=zero_pad, latency=LAT)
    tt = ct.load(a, index=(j, i), shape=(TM, TN), order=(1, 0), padding_mode=ct.PaddingMode.NEG_ZERO)
    p = ct.load(a, (i, j), (TM, TN), padding_mode=ct.PaddingMode.POS_INF, allow_tma=USE_TMA)
    n = ct.load(a, (i, j), (TM, TN), padding_mode=NEG)
    q = ct.load(a, (i, j), (TM, TN), padding_mode=ct.PaddingMode.NAN, latency=2, allow_tma=True)
    u = ct.load(a, (i, j), (TM, TN), padding_mode=ct.PaddingMode.UNDETERMINED)
    corner = ct.load(a, (0, 0), ())
    ct.store(out, (i, j), t + tt + p + n + q + u + corner, latency=LAT, allow_tma=USE_TMA)


@ct.kernel
def shape_walk(x, y, TILE: ConstInt):
    n = x.shape[0]
    last = y.shape[-1]
    for k in range(ct.bid(0), n - last + x.ndim, 4):
        ct.store(y, (k,), ct.load(x, (k,), (TILE,)))
