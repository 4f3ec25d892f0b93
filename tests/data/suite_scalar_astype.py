# ctrs test kernel (written for this repo): ct.astype of runtime scalars (a block id, a gathered element's
# .item()) next to a tile cast.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def suite_scalar_astype(x, s, y, TILE: ConstInt):
    row = ct.bid(0)
    sc = ct.astype(ct.gather(s, (row,), padding_value=0.0).item(), ct.float32)
    r = ct.astype(row, ct.float32)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE)), ct.float32)
    ct.store(y, index=(row, 0), tile=ct.astype(t * sc + r, y.dtype))
