# ctrs test data written for this repo: per-row statistics scattered into an array whose last axis is size 1
# ([B, M, 1], strides [M, 1, 1]), the layout of a log-sum-exp output with one split. cuTile Python specialises
# every unit stride of an array of rank <= 5 to the constant 1, so the scatter multiplies the row index by
# `constant 1`; the port multiplies by its stride argument, 1 at that launch (the verifier reads it as 1 where the
# reference's entry symbol says the stride was specialised).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_max(x, out, TILE_M: ConstInt, TILE_N: ConstInt):
    b = ct.bid(0)
    m = ct.bid(1)
    t = ct.load(x, index=(b, m, 0), shape=(1, TILE_M, TILE_N), padding_mode=ct.PaddingMode.ZERO)
    r = ct.max(ct.reshape(t, (TILE_M, TILE_N)), 1)
    rows = m * TILE_M + ct.arange(TILE_M, dtype=ct.int32)
    ct.scatter(out, (b, rows, 0), ct.astype(r, ct.float32))
