"""Operation coverage for ctrs translate (written for this repo): 3-D arrays/grids, permute, scalar math."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def ops_mix3(x, y, k: int, alpha: float, TB: ConstInt, TM: ConstInt, TN: ConstInt):
    b = ct.bid(0)
    m = ct.bid(1)
    z = ct.bid(2)
    steps = ct.cdiv(k, TN)
    half = steps // 2 + steps % k
    t = ct.load(x, index=(z, m, b), shape=(TB, TM, TN), padding_mode=ct.PaddingMode.ZERO)
    t = t.astype(ct.float32)
    p = ct.permute(t, (2, 0, 1))
    q = ct.permute(p, (1, 2, 0))
    w = alpha * 2.0 - 1.0
    s = q * w + ct.full((TB, TM, TN), alpha, dtype=ct.float32)
    v = ct.arange(TN, dtype=ct.int32)[None, None, :] + half
    s = ct.where(v < k, s, alpha)
    u = (s * 2.0).reshape((TB, TM, TN))
    ct.store(y, index=(z, m, b), tile=u.astype(y.dtype))
