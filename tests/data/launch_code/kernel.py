# ctrs test data written for this repo: a kernel file with its own launch code.
"""Scaled vector add with host launch code: a module constant, a literal launch and an autotune list."""

import cuda.tile as ct

ConstInt = ct.Constant[int]

TILE = 256
CONFIGS = [dict(TILE=128), {"TILE": 512}, dict(TILE=TILE * 4)]


@ct.kernel
def vector_add(x, y, z, TILE: ConstInt):
    pid = ct.bid(0)
    lhs = ct.load(x, index=(pid,), shape=(TILE,))
    rhs = ct.load(y, index=(pid,), shape=(TILE,))
    ct.store(z, index=(pid,), tile=lhs + rhs)


def launch(stream, x, y, z):
    n = x.shape[0]
    ct.launch(stream, (ct.cdiv(n, TILE), 1, 1), vector_add, (x, y, z, TILE))
    ct.launch(stream, (ct.cdiv(n, 64),), vector_add, (x, y, z, 64))


def launch_tuned(stream, x, y, z, cfg):
    ct.launch(stream, (ct.cdiv(x.shape[0], cfg["TILE"]),), vector_add, (x, y, z, cfg["TILE"]))
