# ctrs test data written for this repo: a ct.Constant[float] (a runtime f32 in the port) in a kernel ported as
# per-dtype entries, with its own launch code (the C dispatcher takes the float as f32, not as an i32 constant).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scaled_exp(x, y, SCALE: ct.Constant[float], TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=(t - ct.max(t, axis=0, keepdims=True)) * SCALE)


def launch(stream, x, y, scale):
    ct.launch(stream, (ct.cdiv(x.shape[0], 128),), scaled_exp, (x, y, scale, 128))
