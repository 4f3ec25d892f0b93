# ctrs test kernel (written for this repo): constant ifs inside a loop re-binding a loop-carried accumulator.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def cf_loop_if(x, y, TILE: ConstInt, SQUARE: ConstBool, ABS_MAX: ConstBool):
    row = ct.bid(0)
    n = ct.num_tiles(x, axis=1, shape=(1, TILE))
    acc = ct.full((1, TILE), 0.0, dtype=ct.float32)
    for j in range(n):
        t = ct.astype(ct.load(x, index=(row, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        if SQUARE:
            t = t * t
        if not ABS_MAX:
            acc = acc + t
        else:
            acc = ct.maximum(acc, t)
    ct.store(y, index=(row, 0), tile=ct.astype(acc, y.dtype))
