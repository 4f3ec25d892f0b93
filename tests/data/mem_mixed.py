"""Arrays indexed by N-d ct.gather/ct.scatter and also read/written by view ops: the views go through
make_tensor_view of the raw entry arguments; broadcast scatter indices (rows[:, None], cols[None, :]) (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def mixed(x, y, T: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(T, dtype=ct.int32)
    a = ct.gather(x, (r, cols))
    b = ct.load(x, index=(r, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(r, 0), tile=ct.reshape(a, (1, T)) + b)
    ct.scatter(y, (r, cols), a, check_bounds=True)


@ct.kernel
def bcast(x, y, TQ: ConstInt, TD: ConstInt):
    b = ct.bid(0)
    q = ct.arange(TQ, dtype=ct.int32)[:, None]
    d = ct.arange(TD, dtype=ct.int32)[None, :]
    w = ct.load(x, index=(b, 0, 0), shape=(1, TD, TQ), order=(0, 2, 1), padding_mode=ct.PaddingMode.ZERO)
    v = ct.reshape(ct.permute(w, (0, 2, 1)), (TQ, TD))
    ct.scatter(y, (b, q, d), v, check_bounds=True, latency=1)
    ct.store(y, index=(b, 1, 0), tile=ct.reshape(v, (1, TQ, TD)))
    ct.scatter(x, (b, q, d), v, check_bounds=False)


def _row_copy(src, dst, r, width):
    v = ct.gather(src, (r, ct.arange(width, dtype=ct.int32)), padding_value=0)
    ct.store(dst, index=(r, 0), tile=ct.reshape(v, (1, width)))


@ct.kernel
def via_helper(x, y, T: ConstInt):
    # x and y are indexed only inside the helper: their ranks (and x's raw form) come from its body
    _row_copy(x, y, ct.bid(0), T)
