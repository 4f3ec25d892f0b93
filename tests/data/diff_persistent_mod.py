"""A persistent grid-stride loop over (row-block, col-block) tiles whose index is split by `//` and `%` by a
constant computed from constants, storing inside the loop (written for this repo: the diff's loop-token and folded-compare
canonicalisations)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def persistent_mod_k(x, y, M: ConstInt, N: ConstInt, TM: ConstInt, TN: ConstInt):
    cols = (N + TN - 1) // TN
    blocks = ct.cdiv(M, TM) * cols
    for tid in range(ct.bid(0), blocks, ct.num_blocks(0)):
        bm = tid // cols
        bn = tid % cols
        t = ct.load(x, index=(bm, bn), shape=(TM, TN))
        ct.store(y, index=(bm, bn), tile=t + t)
