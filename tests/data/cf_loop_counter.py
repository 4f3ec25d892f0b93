# ctrs test kernel (written for this repo): Python-number counters re-bound in a loop are loop-carried values
# (cuTile Python: `k = 0` .. `k += 1` is an i32 iter_arg), not folded to their value before the loop.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def cf_loop_counter(x, y, N: ConstInt, TILE: ConstInt):
    row = ct.bid(0)
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    k = 0
    scale = 1.0
    for j in range(0, N, TILE):
        t = ct.load(x, index=(row, k), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.astype(t, ct.float32) * scale
        k += 1
        scale = scale * 0.5
    ct.store(y, index=(row, 0), tile=ct.astype(acc, y.dtype))
