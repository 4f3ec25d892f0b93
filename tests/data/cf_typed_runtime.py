# ctrs test kernel written for this repo: parameters of every annotation form and runtime control flow.
"""Typed-IR front end: runtime scalars (`n: int`, `s: float`, an unannotated `lim` used as a number), an array annotated `ct.Array`, a ct.Constant[bool] flag; runtime `if` on i32 comparisons
(with `and`, `not`), a runtime conditional expression, tuple unpacking and augmented assignments."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def rt_rows(x: ct.Array, y, n: int, lim, s: float, TILE: ConstInt, SCALE: ConstBool):
    row, col = ct.bid(0), 0
    t: ct.Tile = ct.astype(ct.load(x, index=(row, col), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO),
                           ct.float32)
    if row < n:
        t *= s
    if row >= lim and row < n:
        t += 1.0
    if not row < lim:
        t = t - s
    else:
        t -= 2.0
    if SCALE:
        t = t * 2.0
    k = row + 1 if row < n else row
    ct.store(y, index=(k - 1, col), tile=ct.astype(t, y.dtype))
