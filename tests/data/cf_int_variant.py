# ctrs test kernel (written for this repo): an int ct.Constant whose ==-test changes the tile shape.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def cf_int_variant(x, y, R: ConstInt, TN: ConstInt):
    bm = ct.bid(0)
    if R == 1:
        t = ct.load(x, index=(bm, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    else:
        t = ct.load(x, index=(bm, 0), shape=(R, TN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(bm, 0), tile=ct.exp(t))
