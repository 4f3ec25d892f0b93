"""ct.sinh, a rule added as data only (rules/ir.toml [math."ct.sinh"]; written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def sinh_rows(x, y, TILE: ConstInt):
    row = ct.bid(0)
    t = ct.astype(ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(row, 0), tile=ct.astype(ct.sinh(t) * 0.5, y.dtype))
