"""TileGym 1.5.1 experimental/mhc.py: test shapes and benchmark sizes, written from its host code (the split GEMM
is autotuned with ``cuda.tile.tune.exhaustive_search`` on the GPU, every entry point allocates on CUDA).

Read in the public repository NVIDIA/TileGym: ``tests/ops/experimental/test_mhc.py`` (Test_MHC: x bfloat16, w /
bias / y float32, alphas 0.8 / 1.1 / 0.9) and ``tests/benchmark/experimental/bench_mhc.py`` (M 8192, n 4, K 4 *
7168, C 7168; its one dtype, bfloat16). The mHC output has N = 2n + n*n columns: [pre | post | res].
Autotuned split GEMM: the first config the search tries (``_mhc_split_gemm_rms_autotune_configs`` with
SPLIT_K <= k tiles: TILE_SIZE_M 64, TILE_SIZE_N 32, TILE_SIZE_K 64, SPLIT_K 1, GROUP_SIZE_M 8), whose y_acc /
r_acc the host code reallocates for the relaunch; the finalize kernel takes that config's tiles.
"""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace

ELEM = {"float16": 2, "bfloat16": 2, "float32": 4}
TAG = {"float16": "f16", "bfloat16": "bf16", "float32": "f32"}
ALPHAS = (0.8, 1.1, 0.9)  # alpha_pre, alpha_post, alpha_res of TileGym's test and benchmark


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _arr(dtype: str, shape: tuple[int, ...], strides: tuple[int, ...] | None = None, offset: int = 0) -> dict:
    """An array of a fresh allocation (256-byte aligned), contiguous unless ``strides``; a view ``offset`` elements
    in moves the base pointer, so its alignment is the largest power of two dividing offset * element size."""
    if strides is None:
        strides = [1]
        for d in reversed(shape[1:]):
            strides.insert(0, strides[0] * d)
    nbytes = offset * ELEM.get(dtype, 4)
    align = min(256, nbytes & -nbytes) if nbytes else 256
    return {"align": align, "dtype": dtype, "shape": list(shape), "strides": list(strides)}


def _i32(v: int) -> dict:
    return {"scalar": "int32", "value": v}


def _f32(v: float) -> dict:
    return {"scalar": "float32", "value": float(v)}


def split_gemm_configs(k: int) -> list[SimpleNamespace]:
    """``_cutile_autotune_mhc_split_gemm_rms``'s search space, in order: tile_m x tile_k x split_k x group_size_m
    with TILE_SIZE_N 32, keeping SPLIT_K <= cdiv(K, TILE_SIZE_K)."""
    return [SimpleNamespace(TILE_SIZE_M=tm, TILE_SIZE_N=32, TILE_SIZE_K=tk, SPLIT_K=sk, GROUP_SIZE_M=g)
            for tm, tk, sk, g in product((64, 128), (64, 128), (1, 2, 4, 8, 16), (8, 16)) if sk <= _cdiv(k, tk)]


def split_gemm(m: int, k: int, n: int, xdt: str, wdt: str, cfg: SimpleNamespace, src: str) -> dict:
    """``_mhc_split_gemm_rms_kernel`` as ``_cutile_autotune_mhc_split_gemm_rms`` relaunches ``cfg``: x (M, K),
    w (K, N), y_acc (M * SPLIT_K, N) and r_acc (M * SPLIT_K, cdiv(N, TILE_SIZE_N)) float32; grid
    (cdiv(M, TILE_SIZE_M) * cdiv(N, TILE_SIZE_N), SPLIT_K, 1)."""
    nn = 2 * n + n * n
    sk = cfg.SPLIT_K
    args = {"X": _arr(xdt, (m, k)), "W": _arr(wdt, (k, nn)), "Y_acc": _arr("float32", (m * sk, nn)),
            "R_acc": _arr("float32", (m * sk, _cdiv(nn, cfg.TILE_SIZE_N))), "M": _i32(m), "N": _i32(nn), "K": _i32(k),
            "TILE_SIZE_M": cfg.TILE_SIZE_M, "TILE_SIZE_N": cfg.TILE_SIZE_N, "TILE_SIZE_K": cfg.TILE_SIZE_K,
            "SPLIT_K": sk, "GROUP_SIZE_M": cfg.GROUP_SIZE_M}
    name = (f"_mhc_split_gemm_rms_kernel__{TAG[xdt]}x_{TAG[wdt]}w_M{m}_K{k}_n{n}_tm{cfg.TILE_SIZE_M}"
            f"_tk{cfg.TILE_SIZE_K}_sk{sk}_g{cfg.GROUP_SIZE_M}")
    return {"kernel": "_mhc_split_gemm_rms_kernel", "name": name, "args": args,
            "grid": [str(_cdiv(m, cfg.TILE_SIZE_M) * _cdiv(nn, cfg.TILE_SIZE_N)), str(sk), "1"],
            "sites": ["experimental/mhc.py:303 (_cutile_autotune_mhc_split_gemm_rms, first autotune config)", src]}


def finalize(m: int, k: int, n: int, bias_dt: str, cfg: SimpleNamespace, src: str) -> dict:
    """``_mhc_finalize_scale_bias_sigmoid_kernel`` after ``split_gemm`` (``mhc_gemm_rms_scale``): y (M, N) of
    bias's dtype, r (M, 1) float32; grid (cdiv(M, TILE_SIZE_M), cdiv(N, TILE_SIZE_N), 1)."""
    nn = 2 * n + n * n
    sk, tm, tn = cfg.SPLIT_K, cfg.TILE_SIZE_M, cfg.TILE_SIZE_N
    pre, post, res = ALPHAS
    args = {"Y_acc": _arr("float32", (m * sk, nn)), "R_acc": _arr("float32", (m * sk, _cdiv(nn, tn))),
            "Y": _arr(bias_dt, (m, nn)), "R": _arr("float32", (m, 1)), "n": _i32(n), "alpha_pre": _f32(pre),
            "alpha_post": _f32(post), "alpha_res": _f32(res), "Bias": _arr(bias_dt, (nn,)), "M": _i32(m),
            "N": _i32(nn), "K": _i32(k), "TILE_SIZE_M": tm, "TILE_SIZE_N": tn, "SPLIT_K": sk}
    return {"kernel": "_mhc_finalize_scale_bias_sigmoid_kernel",
            "name": f"_mhc_finalize_scale_bias_sigmoid_kernel__{TAG[bias_dt]}_M{m}_K{k}_n{n}_tm{tm}_sk{sk}",
            "args": args, "grid": [str(_cdiv(m, tm)), str(_cdiv(nn, tn)), "1"],
            "sites": ["experimental/mhc.py:355 (_mhc_finalize_scale_bias_sigmoid via mhc_gemm_rms_scale)", src]}


def gemm_rms_scale(m: int, k: int, n: int, xdt: str, wdt: str, bias_dt: str, src: str) -> list[dict]:
    """``mhc_gemm_rms_scale``'s two launches with the first autotune config."""
    cfg = split_gemm_configs(k)[0]
    return [split_gemm(m, k, n, xdt, wdt, cfg, src), finalize(m, k, n, bias_dt, cfg, src)]


def sinkhorn(m: int, n: int, dtype: str, src: str) -> dict:
    """``mhc_sinkhorn``: y (M, 2n + n*n) narrowed to its res columns, (M, n*n) at offset 2n; grid (M,)."""
    nn = 2 * n + n * n
    return {"kernel": "_mhc_sinkhorn_kernel", "name": f"_mhc_sinkhorn_kernel__{TAG[dtype]}_M{m}_n{n}",
            "args": {"Y": _arr(dtype, (m, n * n), (nn, 1), offset=2 * n), "N": n}, "grid": [str(m)],
            "sites": ["experimental/mhc.py:570 (mhc_sinkhorn: y.narrow(1, 2n, n*n))", src]}


def apply_residual(b: int, n: int, c: int, xdt: str, ydt: str, src: str) -> dict:
    """``mhc_apply_residual``: x (B, n*C) viewed (B, n, C), f_out (B, C) of x's dtype, y (B, 2n + n*n) narrowed to
    h_post (B, n) at offset n and h_res (B, n, n) at offset 2n; out like x; TILE_SIZE_C 1024, grid (B, C // 1024, 1)."""
    nn = 2 * n + n * n
    tile_c = 1024
    args = {"X": _arr(xdt, (b, n, c)), "F_out": _arr(xdt, (b, c)), "Y_post": _arr(ydt, (b, n), (nn, 1), offset=n),
            "Y_res": _arr(ydt, (b, n, n), (nn, n, 1), offset=2 * n), "Out": _arr(xdt, (b, n, c)), "C": _i32(c),
            "N": n, "TILE_SIZE_C": tile_c}
    tag = f"{TAG[xdt]}" if xdt == ydt else f"{TAG[xdt]}x_{TAG[ydt]}y"
    return {"kernel": "_mhc_apply_residual_kernel", "name": f"_mhc_apply_residual_kernel__{tag}_B{b}_n{n}_C{c}",
            "args": args, "grid": [str(b), str(c // tile_c), "1"],
            "sites": ["experimental/mhc.py:517 (mhc_apply_residual)", src]}


T = "tests/ops/experimental/test_mhc.py::Test_MHC::"
B = "tests/benchmark/experimental/bench_mhc.py::"
BF16, F32 = "bfloat16", "float32"

TESTS = [
    # test_op_mhc_gemm_rms_scale_bf16_precision (m, k, n): x bf16, w and bias f32
    *[(f"test_op_mhc_gemm_rms_scale_bf16_precision m={m} k={k} n={n} (x bf16, w/bias f32; first autotune config)",
       gemm_rms_scale(m, k, n, BF16, F32, F32, T + "test_op_mhc_gemm_rms_scale_bf16_precision"))
      for m, k, n in [(128, 1024, 4), (128, 1024, 8), (128, 1000, 8)]],
    # test_op_mhc_sinkhorn (m, n, dtype): y f32
    *[(f"test_op_mhc_sinkhorn m={m} n={n} float32", [sinkhorn(m, n, F32, T + "test_op_mhc_sinkhorn")])
      for m, n in [(256, 4), (256, 8)]],
    # test_op_mhc_apply_residual (m, n, c): x / f_out bf16, y f32
    *[(f"test_op_mhc_apply_residual m={m} n={n} c={c} (x/f_out bf16, y f32)",
       [apply_residual(m, n, c, BF16, F32, T + "test_op_mhc_apply_residual")])
      for m, n, c in [(128, 4, 1024), (64, 8, 2048), (128, 2, 1024)]],
]

M, N_MHC, C = 8192, 4, 7168  # bench_mhc.py's one point (x_vals [8192], n 4, K n * 7168, C 7168)
_split, _final = gemm_rms_scale(M, N_MHC * C, N_MHC, BF16, F32, F32, B + "bench_mhc_gemm_rms_scale")
_split["sites"][-1] = B + "bench_mhc_split_gemm_rms (and bench_mhc_gemm_rms_scale's split GEMM)"

BENCH = [
    (f"bench_mhc_split_gemm_rms M={M} K={N_MHC * C} n={N_MHC} (x bf16, w f32; first autotune config)", [_split]),
    (f"bench_mhc_gemm_rms_scale M={M} K={N_MHC * C} n={N_MHC} (x bf16, w/bias f32; first autotune config): its "
     "finalize launch (its split GEMM is bench_mhc_split_gemm_rms's spec)", [_final]),
    (f"bench_mhc_sinkhorn M={M} n={N_MHC} bfloat16", [sinkhorn(M, N_MHC, BF16, B + "bench_mhc_sinkhorn")]),
    (f"bench_mhc_apply_residual M={M} n={N_MHC} C={C} bfloat16 (x, f_out, y)",
     [apply_residual(M, N_MHC, C, BF16, BF16, B + "bench_mhc_apply_residual")]),
]
