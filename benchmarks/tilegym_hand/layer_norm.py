"""TileGym 1.5.1 layer_norm.py: test shapes and benchmark sizes, written from its host code (``_LayerNorm.forward``
allocates mean / rstd with ``device="cuda"``, so a CPU capture cannot run it).

Read in the public repository NVIDIA/TileGym: ``tests/ops/test_layer_norm.py`` (TileGym has no
``tests/benchmark`` file for this op: ``bench_layernorm.py`` times layer_norm_legacy's ops), so ``BENCH`` takes
its ``test_perf`` sweeps. Every test calls ``layer_norm(x, start_dim=1, end_dim=2, ...)`` with eps 1e-5.
"""

from __future__ import annotations

from math import prod

ELEM = {"float16": 2, "bfloat16": 2, "float32": 4}
TAG = {"float16": "f16", "bfloat16": "bf16", "float32": "f32"}
EPS = 1e-5


def _arr(dtype: str, *shape: int) -> dict:
    """A fresh contiguous allocation (256-byte aligned)."""
    strides = [1]
    for d in reversed(shape[1:]):
        strides.insert(0, strides[0] * d)
    return {"align": 256, "dtype": dtype, "shape": list(shape), "strides": strides}


def _next_power_of_2(n: int) -> int:
    return 1 if n == 0 else 1 << (n - 1).bit_length()


def layer_norm(shape: tuple[int, ...], start_dim: int, end_dim: int, dtype: str, weight_shift: float,
               test: str) -> dict:
    """The one launch of ``layer_norm(x, start_dim, end_dim, w, b, 1e-5, weight_shift)`` on a contiguous ``x`` of
    ``shape``, as ``_LayerNorm.forward`` computes it: ``_squash_axis`` views x as (N, C, W); BLOCK_SIZE_W =
    min(1024, next_pow2(W)); W >= TMA_MIN_INNER_EXTENT (16) takes the tiled kernel with BLOCK_SIZE_C =
    min(65536 // BLOCK_SIZE_W // elem, next_pow2(C), CHANNEL_BLOCK_CAP 1024), else the gather kernel on the flat
    tensors with BLOCK_SIZE_C = min(65536 // BLOCK_SIZE_W // elem, next_pow2(C)); grid (N, cdiv(W, BLOCK_SIZE_W))."""
    n, c = prod(shape[:start_dim]), prod(shape[start_dim:end_dim])
    w = prod(shape) // (n * c)
    bw = min(1024, _next_power_of_2(w))
    max_fused = 65536 // bw // ELEM[dtype]
    grid = [str(n), str(-(-w // bw))]
    common = {"w": _arr(dtype, c), "b": _arr(dtype, c), "C": c, "W": w, "EPS": EPS, "WEIGHT_SHIFT": float(weight_shift)}
    if w >= 16:
        bc = min(max_fused, _next_power_of_2(c), 1024)
        args = {"x": _arr(dtype, n, c, w), "y": _arr(dtype, n, c, w), "mean": _arr("float32", n, w),
                "rstd": _arr("float32", n, w), **common, "BLOCK_SIZE_C": bc, "BLOCK_SIZE_W": bw}
        kernel, site, dims = "_layer_norm_fwd_kernel", "layer_norm.py:402", f"{n}x{c}x{w}"
    else:
        bc = min(max_fused, _next_power_of_2(c))
        args = {"x": _arr(dtype, n * c * w), "y": _arr(dtype, n * c * w), "mean": _arr("float32", n * w),
                "rstd": _arr("float32", n * w), "STRIDE_N": c * w, "STRIDE_C": w, "STRIDE_W": 1, **common,
                "BLOCK_SIZE_C": bc, "BLOCK_SIZE_W": bw, "N_ELEMENTS": n * c * w, "STAT_N_ELEMENTS": n * w}
        kernel, site = "_layer_norm_fwd_kernel_gather", "layer_norm.py:434"
        dims = f"{n}x{c}" + (f"x{w}" if w > 1 else "")
    return {"kernel": kernel, "name": f"{kernel}__{TAG[dtype]}_{dims}_ws{float(weight_shift)}", "args": args,
            "grid": grid, "sites": [site, f"tests/ops/test_layer_norm.py::{test}"]}


# Test_LayerNormNCHW.test_op (m, n, k, weight_shift, dtype): x (m, n, k) -> N m, C n, W k (the tiled kernel)
NCHW_TEST = [(2, 512, 256, 0.0, "float16"), (512, 256, 128, 0.0, "float32"), (256, 256, 128, 1.0, "float16")]
# Test_LayerNorm2D.test_op (m, n, weight_shift, dtype): x (m, n) -> N m, C n, W 1 (the gather kernel)
TWO_D_TEST = [(256, 256, 0.0, "float16"), (512, 256, 0.0, "float32"), (256, 256, 1.0, "float16"),
              (9, 9, 0.0, "float16"), (1004, 2456, 1.0, "float16")]
# Test_LayerNormNCHW.test_perf: (1024, 32, 2^i) for i in 10..14, float16, weight_shift 0
NCHW_PERF = [(1024, 32, 2 ** i) for i in range(10, 15)]
# Test_LayerNorm2D.test_perf: (4096, 2^i) for i in 5..14, float16, weight_shift 0
TWO_D_PERF = [(4096, 2 ** i) for i in range(5, 15)]

TESTS = [
    *[(f"Test_LayerNormNCHW.test_op m={m} n={n} k={k} weight_shift={ws} {dt}",
       [layer_norm((m, n, k), 1, 2, dt, ws, "Test_LayerNormNCHW::test_op")]) for m, n, k, ws, dt in NCHW_TEST],
    *[(f"Test_LayerNorm2D.test_op m={m} n={n} weight_shift={ws} {dt}",
       [layer_norm((m, n), 1, 2, dt, ws, "Test_LayerNorm2D::test_op")]) for m, n, ws, dt in TWO_D_TEST],
]

BENCH = [
    *[(f"Test_LayerNormNCHW.test_perf m={m} n={n} k={k} float16 (no tests/benchmark file for layer_norm)",
       [layer_norm((m, n, k), 1, 2, "float16", 0.0, "Test_LayerNormNCHW::test_perf")]) for m, n, k in NCHW_PERF],
    *[(f"Test_LayerNorm2D.test_perf m={m} n={n} float16 (no tests/benchmark file for layer_norm)",
       [layer_norm((m, n), 1, 2, "float16", 0.0, "Test_LayerNorm2D::test_perf")]) for m, n in TWO_D_PERF],
]
