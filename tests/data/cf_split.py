# ctrs test kernel (written for this repo): a name bound in one constant arm and used in a later one.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def cf_split(x, b, y, TILE: ConstInt, HAS_BIAS: ConstBool):
    row = ct.bid(0)
    if HAS_BIAS:
        bias = ct.astype(ct.load(b, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    t = ct.exp(t)
    if HAS_BIAS:
        t = t + bias
    ct.store(y, index=(row, 0), tile=ct.astype(t, y.dtype))
