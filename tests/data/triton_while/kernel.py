import triton
import triton.language as tl


@triton.jit
def while_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    start = pid * BLOCK
    while start < n:
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=0.0)
        acc += x
        start += tl.num_programs(0) * BLOCK
    tl.store(out_ptr + pid * BLOCK + offs, acc)
