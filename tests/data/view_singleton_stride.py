"""A batch-1 view whose size-1 axis has a stride that is not 16-byte divisible (a view at an odd row pitch), for
ctrs check (written for this repo): cuTile Python assumes every stride of a singleton axis 16-byte divisible in the
tensor view whatever its value (it is irrelevant to addressing); the port's launcher hands cutile 16 bytes' worth
of elements there (spec.port_strides, ffi.rs view_strides)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def copy_rows(x, y, TN: ConstInt):
    b = ct.bid(0)
    r = ct.bid(1)
    t = ct.load(x, index=(b, r, 0), shape=(1, 1, TN))
    ct.store(y, index=(b, r, 0), tile=t * 2)
