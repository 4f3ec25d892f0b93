"""Facts the reference assumes and the port states (passes/assume.py), for ctrs translate (written for this repo):
a 2-D gather (raw entry: extents and strides >= 0), a 0-d gather and a 0-d scatter on 1-D arrays (one-element
pointers: div_by<element bytes>)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_norm(x, scale, out, stats, TN: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    v = ct.astype(ct.gather(x, (r, cols)), ct.float32)
    s = ct.astype(ct.gather(scale, r), ct.float32)
    total = ct.sum(v * v, axis=0) * s
    ct.scatter(stats, r, total)
    ct.scatter(out, (r, cols), ct.astype(v * s, out.dtype))
