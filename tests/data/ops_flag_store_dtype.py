# ctrs test kernel (written for this repo): a ct.Constant[bool] picks the dtype stored into the output arrays
# (a bf16 cast in one arm, the f32 tile in the other): the arrays' dtypes depend on the flag.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def ops_flag_store_dtype(x, y, s, TILE: ConstInt, HALF: ConstBool):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    u = ct.exp(t) * 0.5
    if HALF:
        ct.store(y, index=(pid, 0), tile=ct.astype(u, ct.bfloat16))
    else:
        ct.store(y, index=(pid, 0), tile=u)
    ct.store(s, index=(pid,), tile=ct.sum(u, axis=1))
