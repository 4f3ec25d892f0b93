# ctrs test kernel written for this repo: ct.float8_e4m3fn as a cast target on the typed-IR path.
"""y[r] = x[r] rounded through float8_e4m3fn (f32 -> f8e4m3fn -> f32)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def f8_round(x, y, TILE: ConstInt):
    r = ct.bid(0)
    t = ct.astype(ct.load(x, index=(r, 0), shape=(1, TILE)), ct.float32)
    q = ct.astype(ct.astype(t, ct.float8_e4m3fn), ct.float32)
    ct.store(y, index=(r, 0), tile=ct.astype(q, y.dtype))
