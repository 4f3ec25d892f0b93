"""ct.cumsum of a tile of the arrays' element type (written for this repo): one generic entry for every dtype
(int32 counts and half-precision values alike), forward and reverse, as cuTile Python compiles it per launch."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def running_sums(x, fwd, bwd, T: ConstInt):
    b = ct.bid(0)
    t = ct.load(x, (b,), (T,))
    ct.store(fwd, (b,), ct.cumsum(t, axis=0))
    ct.store(bwd, (b,), ct.cumsum(t, 0, reverse=True))
