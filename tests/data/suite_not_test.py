# ctrs test kernel (written for this repo): `not` of a comparison of ct.Constant ints, computed in a helper and
# passed as check_bounds= (a constant test per specialisation).
import cuda.tile as ct

ConstInt = ct.Constant[int]


def scaled_row(x, y, row, N, TILE):
    full = TILE == N
    cols = ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(x, (row, cols), check_bounds=not full, padding_value=0.0)
    ct.scatter(y, (row, cols), t * 3.0, check_bounds=not full)


@ct.kernel
def suite_not_test(x, y, N: ConstInt, TILE: ConstInt):
    scaled_row(x, y, ct.bid(0), N, TILE)
