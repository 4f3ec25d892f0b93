"""Triton control flow on the typed path (ctrs test kernel, written for this repo): an early return, a runtime
if on a float argument, a bool constexpr flag and an int constexpr compared with literals (if / elif / else), a
flag whose arms give a name different types (one structural entry per value), conditional expressions (a
constexpr choosing between two numbers: one entry per literal and one for any other value; a runtime choice: an
if yielding the value), tl.multiple_of and tl.abs."""

import triton
import triton.language as tl


@triton.jit
def guarded_scale(x, y, n, lim, s, BLOCK: tl.constexpr, NEG: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= lim:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
    if NEG:
        v = -v
    if MODE == 1:
        v = v * 2.0
    elif MODE == 2:
        v = v * 3.0
    if s > 0.5:
        v = v + s
    tl.store(y + offs, v.to(y.dtype.element_ty), mask=offs < n)


@triton.jit
def split_upcast(x, y, n, BLOCK: tl.constexpr, UPCAST: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    if UPCAST:
        w = v.to(tl.float32)
    else:
        w = v
    tl.store(y + offs, (w + w).to(y.dtype.element_ty), mask=offs < n)


@triton.jit
def pick(x, y, n, s, BLOCK: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.multiple_of(pid * BLOCK, BLOCK) + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
    f = 2.0 if MODE == 1 else 3.0
    g = s if s > 0.0 else 0.0 - s
    w = tl.abs(v) * f + g
    tl.store(y + offs, w.to(y.dtype.element_ty), mask=offs < n)
