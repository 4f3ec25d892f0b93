"""Kernels of the package using helpers imported from ops.py (relative and absolute imports)."""
import triton
import triton.language as tl

from .ops import _scaled_low
from triton_pkg.ops import _bias as shifted


@triton.jit
def decode_kernel(q_ptr, s_ptr, out_ptr, n, USE_MUL: tl.constexpr, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    mask = offs < n
    q = tl.load(q_ptr + offs, mask=mask, other=0).to(tl.int32)
    s = tl.load(s_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    v = shifted(_scaled_low(q, s, USE_MUL))
    tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=mask)
