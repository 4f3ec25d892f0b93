"""NumPy new axes on tiles (t[:, None], t[None, :]), a numpy dtype inside a kernel, builtin min/max and
ct.truediv math modes on the typed IR (written for this repo)."""

import cuda.tile as ct
import numpy as np

ConstInt = ct.Constant[int]


@ct.kernel
def outer_k(x, z, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.astype(ct.load(x, index=(pid,), shape=(TILE,)), ct.float32)
    o = ct.arange(TILE, dtype=np.int32) + min(pid, 3) + max(2, 5)
    m = ct.astype(o[:, None] + o[None, :], ct.float32) * t[None, :]
    r = ct.truediv(ct.sum(m, axis=1), ct.add(t, 1.0, flush_to_zero=True), rounding_mode=ct.RoundingMode.APPROX,
                   flush_to_zero=True)
    ct.store(z, index=(pid,), tile=ct.astype(r, z.dtype))
