"""Shape ops, reductions and scans on the typed IR (written for this repo): ct.transpose / permute /
expand_dims / broadcast_to / cat / extract, tile methods (.transpose() .reshape() .astype() .item()),
ct.arange, ct.full of a runtime scalar, x.shape[i], int reductions with a positional axis, ct.cumsum
(forward and reverse)."""

import cuda.tile as ct
ConstInt = ct.Constant[int]


@ct.kernel
def shape_ops(x, z, TILE: ConstInt):
    pid = ct.bid(0)
    a = ct.astype(ct.load(x, index=(pid, 0), shape=(TILE, 16)), ct.float32)
    t = ct.transpose(a)
    p = ct.permute(t, (1, 0))
    q = ct.expand_dims(ct.sum(p, 1), axis=1)
    r = ct.broadcast_to(q, (TILE, 16)) + a.transpose().transpose()
    s = r.reshape((16, TILE)).astype(ct.float32)
    u = ct.cumsum(s, axis=0)
    v = ct.extract(u, index=(0, 1), shape=(16, 32))
    w = ct.cat((v, v), axis=1)
    m = ct.sum(ct.sum(a, axis=1), axis=0)
    ar = ct.arange(64, dtype=ct.int32) + ct.arange(64, dtype=ct.int32)
    fl = ct.full((16, 64), m, dtype=ct.float32)
    one = ct.extract(ct.max(a, axis=1, keepdims=True), index=(3, 0), shape=(1, 1)).item()
    n = x.shape[0]
    ct.store(z, index=(0, pid), tile=ct.astype(w + fl + ar + one + n, z.dtype))


@ct.kernel
def int_reduce(x, z, TILE: ConstInt):
    pid = ct.bid(0)
    a = ct.astype(ct.load(x, index=(pid, 0), shape=(TILE, 16)), ct.int32)
    s = ct.sum(a, axis=1) + ct.max(a, axis=1) - ct.min(a, 1) + ct.cumsum(ct.sum(a, axis=1), axis=0, reverse=True)
    ct.store(z, index=(pid,), tile=ct.astype(s, z.dtype))
