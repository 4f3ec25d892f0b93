# ctrs test kernel (written for this repo): conditions computed from ct.Constant values only.
import cuda.tile as ct

ConstInt = ct.Constant[int]

GROUP = 16


@ct.kernel
def cf_const_expr(x, y, STAGE: ConstInt, HEADS: ConstInt, GROUP_SIZE: ConstInt, TILE: ConstInt):
    t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(TILE,)), ct.float32)
    if STAGE & 1:
        t = ct.exp2(t)
    if STAGE & 2:
        t = t + 1.0
    if HEADS % GROUP == 0:
        t = ct.exp(t)
    if HEADS == GROUP_SIZE:
        t = t - 3.0
    else:
        t = t * t
    t = t * 0.5 if HEADS // GROUP_SIZE > 1 else t
    if TILE * 2 != HEADS and STAGE - 1 >= 0:
        t = ct.maximum(t, 0.0)
    ct.store(y, index=(ct.bid(0),), tile=ct.astype(t, y.dtype))


@ct.kernel
def cf_const_check(x, y, N: ConstInt, TILE: ConstInt):
    row = ct.bid(0)
    offsets = ct.arange(TILE, dtype=ct.int32)
    num = ct.cdiv(N, TILE)
    check = num * TILE != N
    acc = ct.full((TILE,), 0.0, dtype=ct.float32)
    for j in range(0, num):
        offs = j * TILE + offsets
        acc += ct.astype(ct.gather(x, (row, offs), check_bounds=check), ct.float32)
    ct.scatter(y, (row, offsets), ct.astype(acc, y.dtype), check_bounds=check)


@ct.kernel
def cf_flag_check(x, y, N: ConstInt, TILE: ConstInt):
    row = ct.bid(0)
    offsets = ct.arange(TILE, dtype=ct.int32)
    check = TILE != N
    acc = ct.full((TILE,), 0.0, dtype=ct.float32)
    for j in range(0, 2):
        acc += ct.astype(ct.gather(x, (row, j * TILE + offsets), check_bounds=check), ct.float32)
    ct.scatter(y, (row, offsets), ct.astype(acc, y.dtype))
