# ctrs test data written for this repo: a runtime `if j >= mask_start` on the loop index that only a
# ct.Constant[bool] flag leaves at the loop body's top level (`(CAUSAL or not EVEN_K) and j >= mask_start`, the
# causal attention shape): cuTile Python folds the flags, then splits the loop in two; the port gets one
# entry per flag value and splits the same loop.
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def causal_sum(x, y, CAUSAL: ConstBool, EVEN_K: ConstBool, TILE: ConstInt):
    pid = ct.bid(0)
    acc = ct.full((TILE,), 0.0, dtype=ct.float32)
    nt = ct.num_tiles(x, axis=0, shape=(TILE,))
    if CAUSAL:
        mask_start = pid
        tc = min(pid + 1, nt)
    else:
        mask_start = nt - 1
        tc = nt
    for j in range(0, tc):
        t = ct.astype(ct.load(x, index=(j,), shape=(TILE,)), ct.float32)
        if (CAUSAL or not EVEN_K) and j >= mask_start:
            t = t * 0.5
        acc = acc + t
    ct.store(y, index=(pid,), tile=ct.astype(acc, y.dtype))
