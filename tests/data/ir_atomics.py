"""ct.atomic_add on the typed IR path (written for this repo): a float array's element type E is made concrete
per entry (addf), tile / 1-tuple / scalar / literal indices, memory_order= / memory_scope= / check_bounds=, the
old values flow on. (max / min / xchg / cas / bitwise atomics need integer or 32/64-bit arrays: the typed path's
f16 / bf16 entries refuse them, tests/test_ir_memory.py.)"""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def float_atomic_add(x, acc, TILE: ConstInt):
    idx = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, idx)
    prev = ct.atomic_add(acc, (idx,), v, check_bounds=True, memory_order=ct.MemoryOrder.RELAXED)
    one = ct.atomic_add(acc, ct.bid(0), 1, memory_scope=ct.MemoryScope.BLOCK)
    first = ct.atomic_add(acc, 0, one, check_bounds=False)
    ct.scatter(x, idx, prev + one + first)
