"""`%` by constants (a ct.Constant and int literals of both signs) for ctrs translate (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def const_mod_k(x, y, G: ConstInt, TILE: ConstInt):
    pid = ct.bid(0)
    a = pid % G
    b = pid % 3
    c = (pid + 7) % -5
    t = ct.load(x, index=(a + b + c,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=t)
