"""Scalar floor division / runtime modulo for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def divmod_k(x, y, n: int, G: ConstInt, TILE: ConstInt):
    pid = ct.bid(0)
    a = pid // G
    b = pid // 3
    c = pid // n
    d = pid % n
    t = ct.load(x, index=(a + b + c + d,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=t)
