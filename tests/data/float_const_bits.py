# ctrs test data written for this repo: a ct.Constant[float] (the port: an i32 const generic of its f32 bits,
# bitcast at entry) added to and multiplied into f32 tiles, and `/ N` of a ct.Constant[int] (the reference: the
# f32 constant N; the port: itof of its i32 const generic).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scale_shift(x, y, EPS: ct.Constant[float], SHIFT: ct.Constant[float], N: ConstInt, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    s = ct.sum(t * t, axis=0, keepdims=True) / N + EPS
    ct.store(y, index=(pid,), tile=ct.astype(t * ct.rsqrt(s) + SHIFT, y.dtype))
