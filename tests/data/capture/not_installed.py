# ctrs test data written for this repo: a kernel file whose host code imports a package that is not installed.
"""Only the host code needs `ctrs_absent_package`; the reference is built from the kernel alone."""

import math

import cuda.tile as ct
import ctrs_absent_package  # noqa: F401 - not installed anywhere: the reference must not need it

ConstInt = ct.Constant[int]
SCALE = math.sqrt(4.0)


def _twice(t):
    return t * SCALE


@ct.kernel
def absent_scale(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(pid,), tile=_twice(t))


def run(x):
    return ctrs_absent_package.launch(absent_scale, x)
