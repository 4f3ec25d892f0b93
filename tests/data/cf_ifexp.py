# ctrs test kernel (written for this repo): `a if CONST else b`, aliasing across a constant if.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]
EPS = 0.5


@ct.kernel
def cf_ifexp(x, y, TILE: ConstInt, SQ: ConstBool):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    w = t
    if SQ:
        t = ct.exp(t)
    u = t * t if SQ else ct.exp(t)
    v = u if EPS > 1 else ct.exp(u)
    ct.store(y, index=(row, 0), tile=ct.astype(v + w, y.dtype))
