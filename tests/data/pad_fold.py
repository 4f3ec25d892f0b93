# ctrs test kernel written for this repo: a gather whose element type is a generic of its own (passes/padfold.py)
"""L's rows are gathered padded (0) and meet f32 values: the front end lowers the gather of its own dtype variable
as an unpadded gather and a select; once the entry makes it concrete the pass pads the gather again."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def rows_minus(X, L, Out, N: ConstInt, TILE: ConstInt):
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(N):
        idx = (bid * N + i) * TILE + ct.arange(TILE, dtype=ct.int32)
        x = ct.astype(ct.gather(X, idx), ct.float32)
        l_row = ct.gather(L, idx)
        acc = acc + ct.exp(x - l_row)
    ct.scatter(Out, bid * TILE + ct.arange(TILE, dtype=ct.int32), ct.astype(acc, Out.dtype))
