# ctrs test kernel (written for this repo): `not` of a ct.Constant int, bound to a name and passed as
# check_bounds= (folded per specialisation), and tested by an if.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def suite_not_flag(x, y, TILE: ConstInt, EXACT: ConstInt):
    row = ct.bid(0)
    guard = not EXACT
    cols = ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(x, (row, cols), check_bounds=guard, padding_value=0.0)
    if not EXACT:
        t = t + 1.0
    ct.scatter(y, (row, cols), t, check_bounds=guard)
