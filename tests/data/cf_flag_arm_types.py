"""Constant-flag ``if`` s whose arms type differently (written for this repo): ``FLIP`` computes the product as
``(yᵀ xᵀ)ᵀ``, so ``acc`` is ``[TN, TM]`` in one arm and ``[TM, TN]`` in the other; ``VIEW`` reads ``a`` through a
tiled load (no padding mode) in one arm and element-wise (ct.gather, a raw pointer in the port) in the other.
Both are ct.Constant[int] flags tested by truth only (never compared with a literal). cuTile Python compiles
one launch per flag value and types only the arm it keeps; the port is one entry per value."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def flip_mul(a, b, c, TM: ConstInt, TN: ConstInt, TK: ConstInt, FLIP: ConstInt, VIEW: ConstInt):
    bm = ct.bid(0)
    bn = ct.bid(1)
    if VIEW:
        x = ct.load(a, index=(bm, 0), shape=(TM, TK))
    else:
        rows = bm * TM + ct.arange(TM, dtype=ct.int32)
        cols = ct.arange(TK, dtype=ct.int32)
        x = ct.gather(a, (rows[:, None], cols[None, :]), padding_value=0.0)
    y = ct.load(b, index=(0, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
    if FLIP:
        acc = ct.zeros((TN, TM), dtype=ct.float32)
        acc = ct.mma(ct.permute(y, (1, 0)), ct.permute(x, (1, 0)), acc=acc)
        out = ct.permute(acc, (1, 0))
    else:
        acc = ct.zeros((TM, TN), dtype=ct.float32)
        out = ct.mma(x, y, acc=acc)
    ct.store(c, index=(bm, bn), tile=out)
