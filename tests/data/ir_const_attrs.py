"""Op attributes given by ct.Constant parameters (written for this repo): latency= of a view load/store spelled as
the const generic (guarded by a constant `if`, as a latency <= 0 means "no hint"), check_bounds= of a gather /
scatter given by a ct.Constant[bool] or by a comparison of two ct.Constant ints, allow_tma= of a view load/store
given by a ct.Constant[bool]. Each is known per specialisation: cuTile Python folds it at JIT time."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def lat_generic(a, out, TM: ConstInt, TN: ConstInt, LAT: ConstInt):
    i = ct.bid(0)
    if LAT >= 1:
        t = ct.load(a, (i, 0), (TM, TN), padding_mode=ct.PaddingMode.ZERO, latency=LAT)
        ct.store(out, (i, 0), t + t, latency=LAT)
    else:
        t = ct.load(a, (i, 0), (TM, TN), padding_mode=ct.PaddingMode.ZERO)
        ct.store(out, (i, 0), t + t)


@ct.kernel
def bounds_flag(x, y, TILE: ConstInt, CHECK: ConstBool):
    row = ct.bid(0)
    offs = ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, (row, offs), check_bounds=CHECK, padding_value=0.0)
    ct.scatter(y, (row, offs), v * v, check_bounds=CHECK)


@ct.kernel
def bounds_pred(x, y, N: ConstInt, TILE: ConstInt):
    row = ct.bid(0)
    offs = ct.arange(TILE, dtype=ct.int32)
    check = TILE != N
    v = ct.gather(x, (row, offs), check_bounds=check, padding_value=0.0)
    ct.scatter(y, (row, offs), v + v, check_bounds=check)


@ct.kernel
def tma_flag(a, out, TILE: ConstInt, USE_TMA: ConstBool):
    i = ct.bid(0)
    t = ct.load(a, (i,), (TILE,), allow_tma=USE_TMA)
    ct.store(out, (i,), t * t, allow_tma=USE_TMA)


@ct.kernel(occupancy=2)
def hinted(x, y, TILE: ConstInt):
    i = ct.bid(0)
    t = ct.load(x, (i,), (TILE,))
    ct.store(y, (i,), t + t)


@ct.kernel
def folded_tests(x, y, TILE: ConstInt, BN: ConstInt, GN: ConstInt):
    ct.static_assert(BN == GN, "BN must equal GN")  # checked by cuTile Python per launch
    i = ct.bid(axis=0)
    t = ct.load(x, (i,), (TILE,))
    if x.dtype == ct.float32 and y is not None:  # folded per element type, as the cuTile JIT folds it
        t = t * t
    else:
        t = t + t
    ct.store(y, (i,), t)

