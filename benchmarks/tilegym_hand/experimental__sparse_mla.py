"""TileGym 1.5.1 experimental/sparse_mla.py: test shapes and benchmark sizes, written from its host code
(``tile_sparse_mla`` allocates on CUDA and autotunes with ``cuda.tile.tune.exhaustive_search`` on the GPU).

Read in the public repository NVIDIA/TileGym: ``tests/ops/experimental/test_sparse_mla.py`` (Test_SparseMLA, every
test bfloat16 with scaling 1 / sqrt(D + D_PE)) and ``tests/benchmark/experimental/bench_sparse_mla.py``
(bench_sparse_mla: topk 64..2048 at B 1, H 16, S 256, S_kv 4096, D 128, D_PE 64, H_kv 1, bfloat16). Launches
without ``kernel_configs`` take the first config of ``_sparse_mla_autotune_configs`` (what TileGym runs with
TILEGYM_DISABLE_AUTOTUNE, and the first one its autotuner tries); ``test_op_tile_h_configs`` passes its own.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

TILE_HS = [1, 2, 4, 8, 16, 32, 64]  # _SPARSE_MLA_TILE_HS
TILE_NS = [16, 32, 64, 128]  # _SPARSE_MLA_TILE_NS


def _arr(dtype: str, *shape: int) -> dict:
    """A fresh contiguous allocation (256-byte aligned)."""
    strides = [1]
    for d in reversed(shape[1:]):
        strides.insert(0, strides[0] * d)
    return {"align": 256, "dtype": dtype, "shape": list(shape), "strides": strides}


def autotune_configs(topk: int, h: int, group: int) -> list[SimpleNamespace]:
    """``_sparse_mla_autotune_configs``, in order: TILE_H 1 only for a 1:1 head mapping (group 0), else a divisor
    of the query group size; H % TILE_H == 0; TILE_N dividing topk."""
    return [SimpleNamespace(TILE_H=th, TILE_N=tn) for th in TILE_HS
            if (th == 1 if group == 0 else th <= group and group % th == 0) and h % th == 0
            for tn in TILE_NS if topk % tn == 0]


def sparse_mla(b: int, h: int, s: int, s_kv: int, d: int, d_pe: int, h_kv: int, topk: int, src: str,
               cfg: tuple[int, int] | None = None, dtype: str = "bfloat16") -> dict:
    """The one launch of ``tile_sparse_mla(q, k, v, indices, qpe, kpe, scaling=1/sqrt(D + D_PE))``: q / qpe
    (B, H, S, D / D_PE), k / v (B, H_kv, S_kv, D), kpe (B, 1, S_kv, D_PE), int32 indices (B, S, H_kv, topk), out
    like q; query_group_size 0 when H == H_kv else H // H_kv; ``cfg`` (TILE_H, TILE_N) of kernel_configs, or the
    first autotune config; NI = topk // TILE_N, NUM_H_BLOCKS = H // TILE_H, grid (S, B * NUM_H_BLOCKS, 1)."""
    group = 0 if h == h_kv else h // h_kv
    if cfg is None:
        first = autotune_configs(topk, h, group)[0]
        cfg = first.TILE_H, first.TILE_N
        site = "experimental/sparse_mla.py:236 (first autotune config)"
    else:
        site = "experimental/sparse_mla.py:236 (kernel_configs)"
    tile_h, tile_n = cfg
    # _validate_sparse_mla_config: what the host code asserts before launching
    assert tile_h & (tile_h - 1) == 0 and tile_n & (tile_n - 1) == 0
    assert tile_h == 1 if group == 0 else (tile_h <= group and group % tile_h == 0)
    assert h % tile_h == 0 and topk % tile_n == 0 and topk <= s_kv
    blocks = h // tile_h
    args = {"Q": _arr(dtype, b, h, s, d), "K": _arr(dtype, b, h_kv, s_kv, d), "V": _arr(dtype, b, h_kv, s_kv, d),
            "Indices": _arr("int32", b, s, h_kv, topk), "QPE": _arr(dtype, b, h, s, d_pe),
            "KPE": _arr(dtype, b, 1, s_kv, d_pe), "Out": _arr(dtype, b, h, s, d),
            "qk_scale": {"scalar": "float32", "value": 1.0 / math.sqrt(d + d_pe)}, "TILE_D": d, "TILE_KPE": d_pe,
            "H": h, "TILE_N": tile_n, "NI": {"scalar": "int32", "value": topk // tile_n}, "QUERY_GROUP_SIZE": group,
            "TILE_H": tile_h, "NUM_H_BLOCKS": blocks}
    tag = {"bfloat16": "bf16", "float16": "f16"}[dtype]
    return {"kernel": "_sparse_mla_fwd_kernel",
            "name": (f"_sparse_mla_fwd_kernel__{tag}_{b}x{h}x{s}_kv{h_kv}x{s_kv}_topk{topk}"
                     f"_TILE_H{tile_h}_TILE_N{tile_n}"),
            "args": args, "grid": [str(s), str(b * blocks), "1"],
            "sites": [site, src]}


T = "tests/ops/experimental/test_sparse_mla.py::Test_SparseMLA::"
D, D_PE = 128, 64

# (B, H, S, S_kv, D, D_PE, H_kv, topk) of each test's parametrisation
BASIC = [(1, 16, 64, 128, D, D_PE, 1, 64), (2, 32, 128, 256, D, D_PE, 1, 128), (1, 64, 128, 256, D, D_PE, 1, 256)]
GQA = [(1, 16, 64, 128, D, D_PE, 4, 64), (1, 32, 64, 128, D, D_PE, 8, 64)]
# test_op_topk_equals_skv (B, H, S_kv, D, D_PE, H_kv) = (1, 16, 64, 128, 64, 1), S = topk = S_kv
TOPK_EQ_SKV = [(1, 16, 64, 64, D, D_PE, 1, 64)]
IRREGULAR = [(1, 16, 33, 77, D, D_PE, 1, 64), (1, 16, 1, 128, D, D_PE, 1, 64)]
# test_op_tile_h_configs (H, H_kv, tile_h, tile_n, desc) at B 1, S 16, S_kv 128, topk 64
TILE_H_CONFIGS = [(16, 16, 1, 64, "1:1 mapping fallback"), (16, 1, 4, 64, "small TILE_H"),
                  (16, 4, 4, 64, "GQA group_size=4"), (64, 1, 16, 64, "large TILE_H"),
                  (16, 1, 16, 32, "TILE_H with small TILE_N"), (24, 8, 1, 64, "non-pow2 group_size=3 fallback"),
                  (24, 4, 2, 64, "non-pow2 group_size=6, TILE_H=2"), (18, 6, 1, 64, "odd prime group_size=3 fallback")]

TESTS = [
    *[(f"{test} B={p[0]} H={p[1]} S={p[2]} S_kv={p[3]} H_kv={p[6]} topk={p[7]} bfloat16 (first autotune config)",
       [sparse_mla(*p, src=T + test)])
      for test, points in (("test_op_basic", BASIC), ("test_op_gqa", GQA), ("test_op_topk_equals_skv", TOPK_EQ_SKV),
                           ("test_op_irregular_shapes", IRREGULAR)) for p in points],
    *[(f"test_op_tile_h_configs [{desc}] H={h} H_kv={h_kv} TILE_H={th} TILE_N={tn} bfloat16 (kernel_configs)",
       [sparse_mla(1, h, 16, 128, D, D_PE, h_kv, 64, src=f"{T}test_op_tile_h_configs[{desc}]", cfg=(th, tn))])
      for h, h_kv, th, tn, desc in TILE_H_CONFIGS],
]

BENCH = [(f"bench_sparse_mla topk={topk} B=1 H=16 S=256 S_kv=4096 H_kv=1 bfloat16 (first autotune config)",
          [sparse_mla(1, 16, 256, 4096, D, D_PE, 1, topk,
                      src="tests/benchmark/experimental/bench_sparse_mla.py::bench_sparse_mla")])
         for topk in [64, 128, 256, 512, 1024, 2048]]
