"""Bitwise xor / shifts on int32 tiles (functions and operators) and a tile's .dtype for ctrs translate
(written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def bits_k(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    offs = ct.arange(TILE, dtype=ct.int32) + pid * TILE
    h = offs * 1103515245 + ct.full((TILE,), 12345, dtype=ct.int32)
    h = ct.bitwise_xor(h, ct.bitwise_rshift(h, 16))
    h = ct.bitwise_xor(h, ct.bitwise_lshift(h, 8))
    h = h ^ (h >> 4) ^ (h << 3)
    u = ct.astype(ct.bitwise_and(h, 0x7FFFFFFF), ct.float32) / 2147483647.0
    keep = u > 0.5
    z = ct.zeros((TILE,), dtype=t.dtype)
    ct.store(y, index=(pid,), tile=ct.where(keep, t, z))
