"""Arrays of different dtypes in one kernel (docs/ir.md "Array dtype variables"; written for this repo):
f32 statistics stored next to a half-precision output, f32 values scattered into an f32 array of a bf16
kernel, an i32 index array meeting i32 tiles, and ct.full / ct.zeros of an array's dtype."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_stats(x, y, mean, T: ConstInt):
    # mean is f32 in every launch (an f32 tile is stored into it); x and y share one dtype variable E
    r = ct.bid(0)
    t = ct.load(x, index=(r, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO)
    f = ct.astype(t, ct.float32)
    m = ct.sum(f, axis=1, keepdims=True)
    ct.store(mean, index=(r,), tile=ct.reshape(m, (1,)))
    ct.store(y, index=(r, 0), tile=ct.astype(f - m, y.dtype))


@ct.kernel
def scatter_lse(q, out, lse, T: ConstInt):
    # lse is f32 (f32 values are scattered into it, no cast); q and out are the kernel's E
    b = ct.bid(0)
    t = ct.load(q, index=(b, 0), shape=(T, T), padding_mode=ct.PaddingMode.ZERO)
    s = ct.astype(t, ct.float32)
    mx = ct.max(s, axis=1)
    lsum = ct.log(ct.sum(ct.exp(s - mx[:, None]), axis=1)) + mx
    ct.scatter(lse, b * T + ct.arange(T, dtype=ct.int32), lsum)
    ct.store(out, index=(b, 0), tile=t)


@ct.kernel
def offset_gather(ids, x, y, T: ConstInt):
    # ids meets i32 tiles: the result depends on its dtype, so the kernel is lowered once per dtype of ids
    # (i32 first); x and y keep their variable E
    b = ct.bid(0)
    i = ct.load(ids, index=(b,), shape=(T,))
    j = i + ct.arange(T, dtype=ct.int32) * 0 + 1
    v = ct.gather(x, j)
    ct.store(y, index=(b,), tile=v)


@ct.kernel
def fill_like(x, y, T: ConstInt):
    # ct.full / ct.zeros(dtype=x.dtype): tiles of x's dtype variable; the zero is generic, the one is spelled per
    # dtype (the kernel is lowered once per element type)
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    z = ct.zeros((T,), dtype=x.dtype)
    o = ct.full((T,), 1, dtype=x.dtype)
    ct.store(y, index=(b,), tile=ct.maximum(t, z) + o)
