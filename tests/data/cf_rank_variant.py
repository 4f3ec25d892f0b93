"""An array whose rank depends on a ct.Constant int flag (written for this repo): ``scale`` is a per-row vector
``[R]`` when MODE == 1 and a full ``[R, C]`` matrix when MODE == 2, unread when MODE == 0 (a launch passes an
empty rank-1 array then). cuTile Python types only the arm each launch keeps; the port is one entry per MODE
value. ``lim`` is a runtime scalar in one arm and a 0-d tile in the other (one type in cuTile Python)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]


@ct.kernel
def scaled_rows(x, scale, lens, y, n: int, TR: ConstInt, TC: ConstInt, MODE: ConstInt, USE_LENS: ConstBool):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(TR, TC), padding_mode=ct.PaddingMode.ZERO)
    if MODE == 1:
        s = ct.load(scale, index=(b,), shape=(TR,), padding_mode=ct.PaddingMode.ZERO)
        t = t * s[:, None]
    elif MODE == 2:
        t = t * ct.load(scale, index=(b, 0), shape=(TR, TC), padding_mode=ct.PaddingMode.ZERO)
    if USE_LENS:
        lim = ct.load(lens, index=(b,), shape=(1,)).reshape(())
    else:
        lim = n
    rows = b * TR + ct.arange(TR, dtype=ct.int32)
    t = ct.where(rows[:, None] < lim, t, 0.0)
    ct.store(y, index=(b, 0), tile=t)
