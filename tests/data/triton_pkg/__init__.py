"""A small Triton package (issue 18, branch nf4x18): kernels.py calls @triton.jit helpers of ops.py."""
