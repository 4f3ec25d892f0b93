# ctrs test kernel (written for this repo): 0-d tiles (ct.minimum / ct.maximum of scalars) as loop bounds and
# in if-conditions: cuTile Python has no other scalar.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def cf_tile0_bounds(x, y, n: int, N: ConstInt, TILE: ConstInt):
    bid = ct.bid(0)
    hi = ct.minimum(ct.reshape(ct.full((1,), N, dtype=ct.int32), ()), n)
    lo = ct.maximum(0, bid - 2)
    acc = ct.full((TILE,), 0.0, dtype=ct.float32)
    if bid * TILE < hi:
        for j in range(lo, ct.cdiv(hi, TILE)):
            acc += ct.astype(ct.load(x, index=(j,), shape=(TILE,)), ct.float32)
    ct.store(y, index=(bid,), tile=ct.astype(acc, y.dtype))
