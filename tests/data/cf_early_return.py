# ctrs test kernel written for this repo: early returns of a kernel body.
"""Typed-IR front end: `if c: <stores>; return` at the kernel's top level (runtime condition), a return on a
ct.Constant[bool] flag, and a return in the arm of a nested `if` (an elif): the statements after each such `if`
move into its arms that do not return (cutile lowers a `return` only at a function body's top level), which
ircanon reads the reference's `if .. { ..; return }` as."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def early_rows(x, y, n: int, lim: int, TILE: ConstInt, SKIP: ConstBool):
    row = ct.bid(0)
    if row >= n:
        ct.store(y, index=(row, 0), tile=ct.full((1, TILE), 0.0, dtype=y.dtype))
        return
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE)), ct.float32)
    if SKIP:
        ct.store(y, index=(row, 0), tile=ct.astype(t, y.dtype))
        return
    if row < lim:
        t = t * 2.0
    elif row == lim:
        ct.store(y, index=(row, 0), tile=ct.astype(-t, y.dtype))
        return
    else:
        t = t + 1.0
    ct.store(y, index=(row, 0), tile=ct.astype(t, y.dtype))
