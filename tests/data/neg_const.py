"""``-W`` of a ct.Constant[int] in index arithmetic: cuTile Python folds it to the constant -W; the port negates its
const generic (negi), which the IR diff folds alike (tests/test_index_array_astype.py)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def window_mask(X, Y, TILE: ConstInt, W: ConstInt):
    bid = ct.bid(0)
    offs = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    lo = bid * TILE + -W
    x = ct.load(X, index=(bid,), shape=(TILE,))
    y = ct.where(offs >= lo + TILE // 2, x, 0)
    ct.store(Y, index=(bid,), tile=y)
