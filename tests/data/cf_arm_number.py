# ctrs test kernel written for this repo: a name bound to a number in one arm and to a runtime scalar in the other.
"""Typed-IR front end: `lo = 0` in one arm of an `if` on a ct.Constant test and `lo = ct.maximum(..)` of a
runtime scalar in the other; `hi = 4` / `hi = row` in the arms of a runtime `if`: the number is yielded as an i32
constant from its arm (cuTile Python folds the constant test; the port's const-generic `if` folds in cutile),
and a `STAGE == 2 and not EVEN` test on a value computed from ct.Constant parameters only is a compile-time
test, not a runtime and/or."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def windowed_rows(x, y, start: int, W: ConstInt, TILE: ConstInt, STAGE: ConstInt, EVEN: ConstBool):
    row = ct.bid(0)
    if W > 0:
        lo = ct.maximum(0, start - W)
    else:
        lo = 0
    if row < start:
        hi = row + 1
    else:
        hi = 2
    inner = 3 - STAGE
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    for j in range(lo // TILE, hi):
        t = ct.astype(ct.load(x, index=(row, j), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
        if inner == 2 and not EVEN:
            t = ct.exp(t)
        acc += t
    ct.store(y, index=(row, 0), tile=ct.astype(acc, y.dtype))
