# ctrs test kernel (written for this repo): same-type constant branches.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]

USE_SCALE = True


@ct.kernel
def cf_const_if(x, b, y, n: int, TILE: ConstInt, HAS_BIAS: ConstBool, RELU: ConstBool, USE_EXP2: ConstBool):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    t = ct.astype(t, ct.float32)
    if HAS_BIAS:
        bias = ct.load(b, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        t = t + ct.astype(bias, ct.float32)
    zero = ct.full((1, TILE), 0.0, dtype=ct.float32)
    if not RELU:
        t = t * t
    else:
        t = ct.maximum(t, zero)
    if USE_EXP2:
        u = ct.exp2(t, flush_to_zero=True)
    else:
        u = ct.exp(t)
    if USE_SCALE:
        u = u * u
    if HAS_BIAS and row < n:
        u = u + t
    ct.store(y, index=(row, 0), tile=ct.astype(u, y.dtype))
