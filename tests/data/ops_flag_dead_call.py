# ctrs test kernel (written for this repo): a call cuTile Python 1.7.0 does not have (ct.sigmoid) in the arm of a
# constant flag: the reference compiles the launches that fold that arm away, the port has their entries only.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def ops_flag_dead_call(x, y, TILE: ConstInt, SWISH: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    t = t * 2.0 + 1.0
    if SWISH:
        t = ct.sigmoid(t) * t
    ct.store(y, index=(pid, 0), tile=ct.astype(t, y.dtype))
