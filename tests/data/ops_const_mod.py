"""A `%` by a constant: no rule in cutile 0.3.1 (ctrs translate diagnostic test, written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def const_mod(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid % 4,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=t)
