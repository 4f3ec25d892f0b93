"""ct.sqrt with rounding_mode=APPROX: a rule added as data only (rules/ir.toml [math."ct.sqrt"] rust_approx; written
for this repo, docs/ir.md "Adding a rule as data")."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def sqrt_approx(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    r = ct.sqrt(ct.astype(t, ct.float32), rounding_mode=ct.RoundingMode.APPROX)
    ct.store(y, index=(pid,), tile=ct.astype(r + 1.0, y.dtype))
