"""ct.cdiv of two ct.Constant ints as a loop bound (written for this repo): cuTile Python folds it per launch (a
constant trip count); the port spells cutile's scalar ceil_div of the const generics, which its JIT folds alike."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def const_cdiv(x, y, TILE: ConstInt, SPAN: ConstInt):
    i = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(ct.cdiv(SPAN, TILE)):
        acc = acc + ct.astype(ct.load(x, (i * ct.cdiv(SPAN, TILE) + j,), (TILE,), padding_mode=ct.PaddingMode.ZERO),
                              ct.float32)
    ct.store(y, (i,), ct.astype(acc, y.dtype))
