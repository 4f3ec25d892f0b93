"""Arrays whose dtype no annotation fixes, used only by ops an integer dtype has too (tests/test_int_elements.py):
the kernels get integer element entries (<kernel>_i32, <kernel>_i64) beside the float ones; a kernel with a
float-only op on its array (ct.exp) does not, nor one with a padding no integer dtype holds (-1e30)."""

import cuda.tile as ct


@ct.kernel
def running_count(Counts, Out, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    idx = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    c = ct.gather(Counts, idx, padding_value=0)
    run = ct.cumsum(c, axis=0)
    total = run + c - c * 2
    kept = ct.where(c > 0, ct.maximum(total, c), c)
    ct.scatter(Out, idx, kept)


@ct.kernel
def exp_gather(X, Out, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    idx = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    x = ct.gather(X, idx, padding_value=0)
    ct.scatter(Out, idx, ct.exp(x) + x)


@ct.kernel
def big_pad_max(X, Out, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    idx = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    x = ct.gather(X, idx, padding_value=-1e30)
    ct.scatter(Out, idx, ct.maximum(x, x + x))
