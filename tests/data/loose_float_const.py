# ctrs test data written for this repo: a ct.Constant[float] is a Python float in cuTile Python, loosely typed:
# meeting an f16 / bf16 tile it takes that tile's dtype (the add and the maximum stay in the narrow dtype), meeting
# an integer tile it is f32 (the product is f32).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def shift_narrow(x, y, z, SHIFT: ct.Constant[float], FLOOR: ct.Constant[float], TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,))
    ct.store(y, index=(pid,), tile=ct.maximum(t + SHIFT, FLOOR))
    i = ct.arange(TILE, dtype=ct.int32) + pid * TILE
    ct.store(z, index=(pid,), tile=i * FLOOR)
