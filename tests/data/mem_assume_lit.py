"""Literal-index gathers and scatters (passes/assume.py "Literal indices"), for ctrs translate (written for this
repo): the reference's one-element pointer fact is gcd(base alignment, offset divisibility * element bytes) with the
offset a literal, so the port states the same div_by and its FFI requires the base pointer that aligned."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def head_count(counts, pair, grid2, out, flags, TN: ConstInt):
    b = ct.bid(0)
    n = ct.gather(counts, 0, padding_value=0)  # offset 0: div_by<16> (the base alignment class)
    m = ct.gather(counts, 2, padding_value=0)  # offset 2 int32 elements, 8 bytes: div_by<8>
    w = ct.gather(pair, 3)  # an odd offset: div_by<element bytes>
    g = ct.gather(grid2, (0, 1))  # 2-D: offset 0 * stride_0 + 1: div_by<element bytes>
    cols = b * TN + ct.arange(TN, dtype=ct.int32)
    v = ct.gather(out, cols) * (w + g)
    ct.scatter(out, cols + (n - m), v)  # counts index an array: int32
    ct.scatter(flags, 0, n + m)  # a 0-d scatter at offset 0: div_by<16>
