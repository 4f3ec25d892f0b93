"""Tile shapes computed from ct.Constant values: each becomes a derived const generic the host computes
(transpiler/frontends/derived.py). Written for this repo."""

import cuda.tile as ct


@ct.kernel
def square_rows(x, y, N: ct.Constant[int]):
    """A row of N * N elements normalised as an N x N matrix (rows sum to 1)."""
    r = ct.bid(0)
    total = N * N
    t = ct.astype(ct.load(x, index=(r, 0), shape=(1, total)), ct.float32)
    m = ct.reshape(t, (N, N))
    m = m / ct.sum(m, axis=1, keepdims=True)
    ct.store(y, index=(r, 0), tile=ct.reshape(ct.astype(ct.reshape(m, (total,)), y.dtype), (1, total)))


@ct.kernel
def half_sum(x, y, TILE: ct.Constant[int]):
    """y[r, :TILE // 2] = x[r, :TILE // 2] + x[r, TILE // 2:TILE]."""
    r = ct.bid(0)
    a = ct.load(x, index=(r, 0), shape=(1, TILE // 2))
    b = ct.load(x, index=(r, 1), shape=(1, TILE // 2))
    ct.store(y, index=(r, 0), tile=a + b)


@ct.kernel
def regroup(x, y, BH: ct.Constant[int], BS: ct.Constant[int]):
    """A BH x BS tile regrouped as 8 rows of BH * BS // 8 and summed per row (in f32)."""
    i = ct.bid(0)
    t = ct.astype(ct.load(x, index=(i, 0), shape=(BH, BS)), ct.float32)
    g = ct.reshape(t, (8, BH * BS // 8))
    ct.store(y, index=(i,), tile=ct.astype(ct.sum(g, axis=1), y.dtype))


@ct.kernel
def widened(x, y, T: ct.Constant[int]):
    """Two T-wide tiles of a row side by side: one 2 * T tile (a literal times a constant)."""
    r = ct.bid(0)
    t = ct.load(x, index=(r, 0), shape=(1, 2 * T))
    ct.store(y, index=(r, 0), tile=t * 2)


@ct.kernel
def pair_sum(x, y, BLOCK: ct.Constant[int]):
    """The two BLOCK-wide halves of a 2 * BLOCK row summed (fixtures/triton_derived_dims' pair_sum)."""
    r = ct.bid(0)
    t = ct.astype(ct.load(x, index=(r, 0), shape=(1, 2 * BLOCK)), ct.float32)
    s = ct.sum(ct.reshape(t, (2, BLOCK)), axis=0)
    ct.store(y, index=(r, 0), tile=ct.reshape(ct.astype(s, y.dtype), (1, BLOCK)))
