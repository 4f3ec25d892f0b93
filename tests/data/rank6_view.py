"""A rank-6 array read and written through tensor views (written for this repo): cuTile Python specialises no
stride of an array above rank 5 (every stride of its view is dynamic), cutile makes a unit stride static at any
rank; verify/ircanon.py reads the port's static unit stride as the entry argument carrying it."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scale_rank6(src, dst, T: ConstInt):
    b = ct.bid(0)
    t = ct.load(src, index=(b, 0, 0, 0, 0, 0), shape=(1, 1, 1, 2, 2, T), padding_mode=ct.PaddingMode.ZERO)
    t = t * 2.0
    ct.store(dst, index=(b, 0, 0, 0, 0, 0), tile=t)
