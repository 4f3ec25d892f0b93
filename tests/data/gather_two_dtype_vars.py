"""Gathers from two arrays with dtype variables of their own (the weight's tile meets f32, so it keeps a type
generic E1 beside the data's E): a gather's padding is a scalar of its element type, which cutile's JIT cannot
take from a Tile<E1, {[]}>, so every such variable is made concrete (one entry per combination of dtypes,
tests/test_index_array_astype.py)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scaled_gather(X, W, Y, N: ConstInt, TILE: ConstInt):
    row = ct.bid(0)
    rows = ct.full((TILE,), row, dtype=ct.int32)
    cols = ct.arange(TILE, dtype=ct.int32)
    x = ct.astype(ct.gather(X, (rows, cols), padding_value=0), ct.float32)
    w = ct.gather(W, cols, padding_value=0)
    y = x * w + 1.0
    ct.scatter(Y, (rows, cols), ct.astype(y, X.dtype))
