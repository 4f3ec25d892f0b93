"""Helpers of the package: a module constexpr, a helper calling another helper of this module, and a helper
defined under a module-level `hasattr(tl, ..)` test (Triton 3.6 has tl.join: the first arm)."""
import triton
import triton.language as tl

SHIFT: tl.constexpr = 3


@triton.jit
def _low_bits(x):
    return x & ((1 << SHIFT) - 1)


@triton.jit
def _scaled_low(x, scale, USE_MUL: tl.constexpr):
    lo = _low_bits(x).to(tl.float32)
    if USE_MUL:
        return lo * scale
    else:
        return lo + scale


if hasattr(tl, "join"):

    @triton.jit
    def _bias(x):
        return x + 7.0

else:

    @triton.jit
    def _bias(x):
        return x - 5.0
