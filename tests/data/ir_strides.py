"""A.strides on the typed IR path (written for this repo): an explicit row-major offset computed from the
strides of a 2-D array, read element-wise (x becomes a raw entry; its last-axis stride is the unit the reference
specialises it to)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def strided_rows(x, y, TN: ConstInt):
    r = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    offs = r * x.strides[0] + cols * x.strides[1]
    v = ct.gather(y, offs, check_bounds=False)
    ct.scatter(x, (r, cols), v)
