# ctrs test data written for this repo: Python arithmetic and comparisons on ct.Constant[float] parameters.
# cuTile Python binds such a parameter as a Python float, so `1.0 / (1.0 - RATE)` is computed on the host in double
# precision and `if RATE >= 1.0` is decided at compile time; the folded value is a loosely typed constant that
# takes the dtype of the tile it meets (rounded once, from the double). The port gets both as host-computed const
# generics (docs/porting.md "Compile-time float expressions").
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def keep_scale(x, y, RATE: ct.Constant[float], TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    if RATE >= 1.0:
        s = ct.zeros((TILE,), dtype=t.dtype)
    else:
        s = ct.full((TILE,), 1.0 / (1.0 - RATE), dtype=t.dtype)
    ct.store(y, index=(pid,), tile=t * s)


@ct.kernel
def affine_mix(x, y, LO: ct.Constant[float], HI: ct.Constant[float], TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    w = t * (HI - LO) + -LO * 0.5 / TILE
    if LO < HI:
        w = w + HI / 3.0
    ct.store(y, index=(pid,), tile=w)
