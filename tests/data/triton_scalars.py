"""Triton scalars on the typed path (ctrs test kernel, written for this repo): an int constexpr that is a mask
bound divides a float (itof of the const generic), float constexprs (runtime f32 parameters of the port), an int
argument that meets a float before the mask that makes it an extent (itof of the extent), ``n.to(tl.float32)``
and tl.sigmoid."""

import triton
import triton.language as tl


@triton.jit
def row_stats(X, Y, W, stride, n, N: tl.constexpr, eps: tl.constexpr, scale: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    w = tl.load(W + cols, mask=cols < N, other=0.0).to(tl.float32)
    x = tl.load(X + row * stride + cols).to(tl.float32)
    mean = tl.sum(x * w, axis=0) / N
    inv = 1.0 / (tl.sum(x * x, axis=0) / n + eps)
    y = tl.sigmoid((x - mean) * inv * scale) * n.to(tl.float32)
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=cols < n)
