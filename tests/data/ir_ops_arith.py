"""Tile operators and cuTile Python's typing on the typed IR (written for this repo): flooring // and % on int
and float tiles and on i32 scalars, **, bitwise ops and shifts, ~ / not / unary minus, comparisons into bool
tiles and i1 scalars, ct.where / maximum / minimum / abs / cdiv / floordiv / mod, a runtime scalar and an int
tile meeting float tiles, math modes (flush_to_zero=, rounding_mode=APPROX) and ct.mma(acc=)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def int_ops(x, y, z, TILE: ConstInt):
    pid = ct.bid(0)
    a = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.int32)
    b = ct.astype(ct.load(y, index=(pid,), shape=(TILE,)), ct.int32) + 1
    c = a // b
    d = a % b
    e = -a
    m = ct.maximum(a, b)
    n = ct.minimum(a, 2)
    w = ct.where(a > b, c, d)
    w = ct.where(a <= 3, w, 7)
    q = ct.abs(e) + m + n + w + a // 4 + a % 4 + ct.floordiv(a, b) + ct.mod(b, 3)
    s = q & 255 | (q ^ 3)
    t = ~s + (s >> 2) + (s << 1) + pid % 4 + pid // 3 + ct.cdiv(pid, 3)
    ct.store(z, index=(pid,), tile=ct.astype(t, z.dtype))


@ct.kernel
def float_ops(x, y, z, TILE: ConstInt):
    pid = ct.bid(0)
    a = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    b = ct.astype(ct.load(y, index=(pid,), shape=(TILE,)), ct.float32)
    c = a // b + a % b + a ** b + a ** 2 + ct.tan(a) + ct.cosh(b)
    h = (a > 0.5) & (b < a) | ~(a == b) ^ (a != 1.0)
    k = ct.where(h, c, ct.maximum(a, b) - ct.minimum(a, 0.5))
    k = ct.where(not (pid > 2), ct.abs(k), -k)
    i = ct.astype(a, ct.int32)
    mixed = k + i + pid + 0.25 * i + ct.exp2(a, flush_to_zero=True) + ct.exp(b, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(z, index=(pid,), tile=ct.astype(mixed / 3, z.dtype))


@ct.kernel
def mma_acc(x, z, TILE: ConstInt):
    pid = ct.bid(0)
    a = ct.load(x, index=(pid, 0), shape=(TILE, 16))
    acc = ct.full((TILE, TILE), 0.0, dtype=ct.float32)
    acc = ct.mma(a, ct.transpose(a), acc=acc)
    ct.store(z, index=(pid, 0), tile=ct.astype(acc, z.dtype))
