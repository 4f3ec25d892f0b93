# ctrs test data written for this repo: a gather / scatter whose check_bounds is a compile-time test of two
# ct.Constant ints (is the row a whole number of tiles?). cuTile Python decides it while lowering; the port spells
# it as a Rust `if` on its const generics, which cutile emits with both arms: the verifier folds an `if` on a
# constant condition to its taken arm.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def double_rows(x, y, N: ConstInt, T: ConstInt):
    row = ct.bid(0)
    tiles = ct.cdiv(N, T)
    ragged = tiles * T != N
    for j in range(0, tiles):
        cols = j * T + ct.arange(T, dtype=ct.int32)
        v = ct.gather(x, (row, cols), check_bounds=ragged)
        ct.scatter(y, (row, cols), v + v, check_bounds=ragged)
