"""An offset read from a one-element index array (int32 at launch), cast with astype and used as a loop bound,
beside half-precision data arrays: the index array keeps a dtype variable of its own (lowered per dtype: its
int32 entry), the data arrays share the generic E; its extent-1 axis has a unit stride the reference keeps
dynamic (tests/test_index_array_astype.py)."""

import cuda.tile as ct
import numpy as np

ConstInt = ct.Constant[int]


@ct.kernel
def shifted_sum(X, Start, Out, TILE: ConstInt, N: ConstInt):
    bid = ct.bid(0)
    start = ct.load(Start, index=(0,), shape=(1,)).reshape(()).astype(np.int32)
    hi = ct.minimum(start + (bid + 1) * TILE, N)
    acc = ct.full((TILE,), 0.0, dtype=np.float32)
    for j in range(bid, ct.cdiv(hi, TILE)):
        acc = acc + ct.load(X, index=(j,), shape=(TILE,)).astype(np.float32)
    ct.store(Out, index=(bid,), tile=acc.astype(Out.dtype))
