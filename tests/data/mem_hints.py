"""Padding / latency / allow_tma given by names, module constants and ct.Constant parameters (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]

EDGE = ct.PaddingMode.ZERO
DEPTH = 3
NO_TMA = False
SAFE = True


def _pick(safe):
    return ct.PaddingMode.NEG_INF if safe else ct.PaddingMode.NAN


def _ld(arr, i, width, pad):
    return ct.load(arr, index=(i, 0), shape=(1, width), padding_mode=pad, latency=DEPTH)


@ct.kernel
def hinted(x, w, y, TW: ConstInt, LAT: ConstInt, USE_TMA: ConstBool):
    i = ct.bid(0)
    pm = _pick(SAFE)
    a = _ld(x, i, TW, EDGE) + ct.load(x, index=(i, 0), shape=(1, TW))
    b = ct.load(w, index=(i, 0), shape=(1, TW), padding_mode=pm, latency=LAT, allow_tma=USE_TMA)
    ct.store(y, index=(i, 0), tile=a + b, allow_tma=NO_TMA, latency=LAT)


@ct.kernel
def chosen(x, y, T: ConstInt, SAFE: ConstBool):
    # padding and latency chosen by a ct.Constant: one structural variant per value
    i = ct.bid(0)
    pm = ct.PaddingMode.NEG_INF if SAFE else ct.PaddingMode.ZERO
    if SAFE:
        lat = 2
    else:
        lat = 4
    t = ct.load(x, index=(i,), shape=(T,), padding_mode=pm, latency=lat)
    ct.store(y, index=(i,), tile=t)


@ct.kernel
def checked(x, y, T: ConstInt, CHECK: ConstBool):
    # check_bounds given by a ct.Constant[bool]: the gather / scatter op form differs per value
    i = ct.bid(0)
    idx = i * T + ct.arange(T, dtype=ct.int32)
    v = ct.gather(x, idx, check_bounds=CHECK)
    ct.scatter(y, idx, v, check_bounds=CHECK)
