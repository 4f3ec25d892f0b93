# ctrs test kernel (written for this repo): ct.truediv with rounding_mode FULL / APPROX, flush_to_zero or not,
# and an annotated module constant (`NAME: float = ..`) read by name.
import cuda.tile as ct

ConstInt = ct.Constant[int]
INV_LN2: float = 1.4426950408889634


@ct.kernel
def suite_div_modes(x, y, z, TILE: ConstInt):
    i = ct.bid(0)
    a = ct.astype(ct.load(x, index=(i,), shape=(TILE,)), ct.float32)
    b = ct.astype(ct.load(y, index=(i,), shape=(TILE,)), ct.float32)
    q = ct.truediv(a, b + 2.0, rounding_mode=ct.RoundingMode.FULL)
    r = ct.truediv(1.0, 1.0 + ct.exp2(q * INV_LN2), rounding_mode=ct.RoundingMode.APPROX)
    s = ct.truediv(r, b, rounding_mode=ct.RoundingMode.FULL, flush_to_zero=True)
    ct.store(z, index=(i,), tile=ct.astype(s, z.dtype))
