# ctrs test kernel (written for this repo): helpers (nested, defaults, module constant), two kernels, Constant[float].
import cuda.tile as ct

ConstInt = ct.Constant[int]
TILE_DEFAULT = 64


def _square(t):
    return t * t


def _sumsq(t, axis=1):
    return ct.sum(_square(t), axis=axis, keepdims=True)


@ct.kernel
def sumsq_rows(x, y, TILE: ConstInt):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    s = _sumsq(t)
    ct.store(y, index=(row, 0), tile=ct.astype(s, y.dtype))


@ct.kernel
def scale_rows(x, y, alpha: ct.Constant[float], TILE: ConstInt):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(row, 0), tile=ct.astype(_square(t) * alpha, y.dtype))
