"""Unsigned integer tiles for ctrs translate (written for this repo): ct.bitcast int32 <-> uint32, uint32
arithmetic with constants above 2**31 (cutile 0.3.1 reads such literals as int32, so the port writes the same
bits as an int32 constant + bitcast), exti to uint64, an unsigned right shift, and an alias of a loop-carried
value taken before the value is updated."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def uint_mix(x, y, seed: int, TILE: ConstInt):
    pid = ct.bid(0)
    offs = pid * TILE + ct.arange(TILE, dtype=ct.int32)
    h = ct.bitcast(offs, ct.uint32)
    k = ct.bitcast(seed, ct.uint32)
    g = h * 0
    for _ in range(3):
        prev = h
        h = (h * 0xCD9E8D57) ^ k ^ g
        g = prev + 0x9E3779B9
        k = k + 0xBB67AE85
    w = ct.astype(h, ct.uint64) * 3
    hi = ct.bitcast(w >> 33, ct.int64)
    v = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    keep = (ct.bitcast(h, ct.int32) > 0) | (hi > 1000)
    ct.store(y, index=(pid,), tile=ct.where(keep, v, 0.0))
