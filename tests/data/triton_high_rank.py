"""A rank-7 shuffle (issue 18, branch ptr18): a row of 256 elements viewed as (2,) * 7 + ... bits of its index,
the bits permuted, then back to a row. cutile stops at rank 6: the port spells it as rank <= 6 reshapes and
permutes (frontends/triton/high_rank.py)."""
import triton
import triton.language as tl


@triton.jit
def bit_shuffle(x_ptr, y_ptr, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    offs = rows[:, None] * 256 + tl.arange(0, 256)[None, :]
    v = tl.load(x_ptr + offs)
    h = tl.reshape(v, (ROWS, 2, 4, 2, 2, 2, 2, 2))
    h = tl.permute(h, (0, 4, 6, 1, 7, 3, 2, 5))
    tl.store(y_ptr + offs, tl.reshape(h, (ROWS, 256)))
