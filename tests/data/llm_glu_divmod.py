"""A gated product over a flat element range of a (rows, 2 * N) array (the shape of an elementwise GLU kernel: a
block of flat ids split into a row and a column, the gate at the column, the value N columns on), with the split
written as one `ct.divmod`, which the typed path has no rule for: the LLM fallback's fixture for a
real-kernel-shaped construct (written for this repo)."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def glu_flat(x, y, N: ConstInt, BLOCK_SIZE: ConstInt):
    bid = ct.bid(0)
    flat = bid * BLOCK_SIZE + ct.arange(BLOCK_SIZE, dtype=ct.int32)
    row, col = ct.divmod(flat, N)
    gate = ct.gather(x, (row * (2 * N) + col,))
    value = ct.gather(x, (row * (2 * N) + col + N,))
    ct.scatter(y, (row * N + col,), gate * value)
