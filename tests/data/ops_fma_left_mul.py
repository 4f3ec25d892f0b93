# ctrs test kernel (written for this repo): FMA contraction takes the left operand's float mul first; when that
# mul has another use the add/sub stays uncontracted (the right mul is not tried), as cuTile Python does.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def ops_fma_left_mul(x, w, y, TILE: ConstInt):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    wt = ct.astype(ct.load(w, index=(0,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    a = t * ct.reshape(wt, (1, TILE))
    s = ct.sum(a * t, axis=1, keepdims=True)
    d = a - t * s  # left mul `a` is used twice: mulf + subf
    e = d + t * s  # left operand no mul: the right mul contracts
    ct.store(y, index=(row, 0), tile=ct.astype(e, y.dtype))
