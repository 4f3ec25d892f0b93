# ctrs test kernel (written for this repo): a gathered element of a half-precision array (.item()) compared with a
# Python int (`lab != -100`, an ignore-index test): the number becomes a 0-d tile constant of the half type, which
# has no Rust literal (constant_f32, as a half tile constant).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def suite_half_label(x, labels, y, TILE: ConstInt):
    row = ct.bid(0)
    lab = ct.gather(labels, (row,), padding_value=-100).item()
    t = ct.load(x, index=(row, 0), shape=(1, TILE))
    if lab != -100:
        t = t * 2.0
    ct.store(y, index=(row, 0), tile=t)
