# ctrs test kernel (written for this repo): a constant branch that changes the tile shape -> one entry per value.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def cf_variant(x, y, TM: ConstInt, TN: ConstInt, ROWS: ConstBool, SQUARE: ConstBool):
    bm = ct.bid(0)
    if ROWS:
        t = ct.load(x, index=(bm, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    else:
        t = ct.load(x, index=(bm, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    if SQUARE:
        t = t * t
    ct.store(y, index=(bm, 0), tile=t)
