"""Dtype constexprs (issue 18, branch dtype18): ``OUT_T`` names the output's dtype (a tile cast to it is stored
into ``y``: the port takes it from ``y``); ``ACC_T`` is tied to no array (an entry per dtype, the spec names it)."""
import triton
import triton.language as tl


@triton.jit
def scale_to(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr, OUT_T: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (v * scale).to(OUT_T), mask=m)


@triton.jit
def rounded_sum(x_ptr, y_ptr, n, BLOCK: tl.constexpr, ACC_T: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    r = (v * 3.0).to(ACC_T).to(tl.float32)  # rounded through ACC_T
    tl.store(y_ptr + offs, r + v, mask=m)
