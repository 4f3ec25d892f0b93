"""TileGym 1.5.1 moe.py: test shapes and benchmark sizes, written from its host code (read by
``benchmarks/h200_tilegym.py shapes moe.py``; see README.md here).

The host code cannot run on a CPU: ``invoke_fused_moe_kernel`` launches on ``torch.cuda.current_stream()``, and
``fused_experts_impl`` moves its inputs to CUDA. TileGym's tests call ``tilegym.ops.moe_interface.fused_moe``
(hidden_states (tokens, hidden), w1 (experts, 2 x intermediate, hidden), w2 (experts, hidden, intermediate),
topk_weights / topk_ids (tokens, top_k)), which with the cuTile backend runs ``fused_experts_impl``: one chunk
(tokens <= 32768), ``moe_align_block_size(topk_ids, TILE_SIZE_M, experts)`` and two ``_fused_moe_kernel`` launches
with its fixed cuTile config (TILE_SIZE_M / N / K 128 / 128 / 64, GROUP_SIZE_M 32: no autotuning):

* w1: A = hidden_states, B = w1, C = intermediate_cache1 viewed (tokens x top_k, 2 x intermediate), no routed
  weight, TOP_K = top_k;
* w2: A = intermediate_cache2 (tokens x top_k, intermediate), B = w2, C = intermediate_cache3 viewed
  (tokens x top_k, hidden), routed weight, TOP_K = 1.

A and the weights are in the test dtype, so are C, topk_weights (``softmax(...).to(dtype)`` in the tests) and the
empty (0,) scale placeholders; the routing arrays are int32.

Routing data: ``_fused_moe_kernel`` indexes A, B and C with ``sorted_token_ids`` / ``expert_ids`` /
``num_tokens_post_padded``, so the specs carry them as ``"values"``: what ``moe_align_block_size`` computes (see
``route``) from topk_ids drawn with ``random.Random(seed)`` like the tests' ``torch.randint(0, experts, (tokens,
top_k))``. Random data there (the GPU run's default: integers in [0, 100)) would make tiles race on C's rows and,
with num_tokens_post_padded < 128, leave every tile row but the first idle.

Shapes (read in NVIDIA/TileGym tests/ops/test_moe.py; TileGym has no tests/benchmark file for moe):

* ``TESTS``: ``Test_MOE.test_op`` (num_tokens, hidden, moe_intermediate, n_experts, top_k) x bfloat16, its three
  points (float8_e4m3fn is skipped there for cuTile, and no port takes float8);
* ``BENCH``: ``Test_MOE.test_perf`` (e2e_fused, float16), its four uncommented points.
"""

from __future__ import annotations

import random

CONFIG = {"TILE_SIZE_M": 128, "TILE_SIZE_N": 128, "TILE_SIZE_K": 64, "GROUP_SIZE_M": 32}  # fused_experts_impl, cuTile
TAG = {"bfloat16": "bf16", "float16": "f16"}


def _arr(dtype: str, *shape: int) -> dict:
    strides = [1]
    for d in reversed(shape[1:]):
        strides.insert(0, strides[0] * d)
    return {"align": 256, "dtype": dtype, "shape": list(shape), "strides": strides}


def _cdiv(a: int, b: int) -> int:
    return (a + b - 1) // b


def route(tokens: int, experts: int, top_k: int, block: int, seed: int) -> tuple[list[int], list[int], int]:
    """(sorted_token_ids, expert_ids, num_tokens_post_padded) as moe_align_block_size(topk_ids, block, experts)
    returns them for a seeded draw of topk_ids in [0, experts): the flat indices of each expert's (token, k)
    pairs in order, each expert's run padded with ``numel`` up to a multiple of ``block``, the buffer of
    numel + experts x (block - 1) filled with ``numel`` after the last run; expert_ids names the expert of every
    block of those runs (the blocks after them are never read: the kernel stops at num_tokens_post_padded; here
    0, torch.empty there)."""
    rng = random.Random(seed)
    topk = [rng.randrange(experts) for _ in range(tokens * top_k)]
    numel = len(topk)
    capacity = numel + experts * (block - 1)
    sorted_ids: list[int] = []
    expert_ids: list[int] = []
    for e in range(experts):
        run = [i for i, x in enumerate(topk) if x == e]
        padded = _cdiv(len(run), block) * block
        sorted_ids += run + [numel] * (padded - len(run))
        expert_ids += [e] * (padded // block)
    total = len(sorted_ids)
    return (sorted_ids + [numel] * (capacity - total), expert_ids + [0] * (_cdiv(capacity, block) - len(expert_ids)),
            total)


def fused_moe(tokens: int, hidden: int, inter: int, experts: int, top_k: int, dtype: str, seed: int) -> list[dict]:
    """fused_experts_impl's two invoke_fused_moe_kernel launches for fused_moe(hidden_states, w1, w2, topk_weights,
    topk_ids) at these sizes (a single chunk: tokens <= 32768)."""
    sorted_ids, expert_ids, total = route(tokens, experts, top_k, CONFIG["TILE_SIZE_M"], seed)
    numel = tokens * top_k
    em = len(sorted_ids)  # sorted_token_ids.shape[0]
    routing = {"topk_weights_ptr": _arr(dtype, numel),  # topk_weights.view(-1)
               "sorted_token_ids_ptr": _arr("int32", em) | {"values": sorted_ids},
               "expert_ids_ptr": _arr("int32", len(expert_ids)) | {"values": expert_ids},
               "num_tokens_post_padded_ptr": _arr("int32", 1) | {"values": [total]}}
    specs = []
    # (which, A's rows x columns, B = (experts, N, K), MUL_ROUTED_WEIGHT, TOP_K)
    for which, (m, k), n, mul, tk in (("w1", (tokens, hidden), 2 * inter, 0, top_k),
                                      ("w2", (numel, inter), hidden, 1, 1)):
        args = {"a_ptr": _arr(dtype, m * k),  # A.reshape(-1)
                "b_ptr": _arr(dtype, experts, n, k), "c_ptr": _arr(dtype, numel, n),  # C.view(-1, C.shape[2])
                "a_scale_ptr": _arr(dtype, 0), "b_scale_ptr": _arr(dtype, 0),  # torch.empty(0) of A's / B's dtype
                **routing, "N": n, "K": k, "EM": {"scalar": "int32", "value": em},
                "num_valid_tokens": {"scalar": "int32", "value": numel}, "GROUP_N": 0, "GROUP_K": 0,
                "TILE_SIZE_M": CONFIG["TILE_SIZE_M"], "TILE_SIZE_N": CONFIG["TILE_SIZE_N"],
                "TILE_SIZE_K": CONFIG["TILE_SIZE_K"], "GROUP_SIZE_M": CONFIG["GROUP_SIZE_M"],
                "MUL_ROUTED_WEIGHT": mul, "TOP_K": tk, "USE_FP8_W8A8": 0, "USE_INT8_W8A16": 0,
                "EVEN_KS": int(k % CONFIG["TILE_SIZE_K"] == 0), "A_STRIDE_1": k}
        grid = _cdiv(em, CONFIG["TILE_SIZE_M"]) * _cdiv(n, CONFIG["TILE_SIZE_N"])
        specs.append({"kernel": "_fused_moe_kernel",
                      "name": f"_fused_moe_kernel__{TAG[dtype]}_{which}_T{tokens}_E{experts}_N{n}_K{k}_TOP_K{tk}_"
                              f"MUL_ROUTED_WEIGHT{mul}",
                      "args": args, "grid": [str(grid)],
                      "sites": [f"moe.py:invoke_fused_moe_kernel via moe_interface.fused_experts_impl ({which}; "
                                f"cuTile config TILE 128/128/64, GROUP_SIZE_M 32; routing of "
                                f"moe_align_block_size for topk_ids of random.Random({seed}))"]})
    return specs


# test_moe.py (num_tokens, hidden_size, moe_intermediate_size, n_experts, top_k)
TEST_OP = [(16, 512, 256, 8, 2), (32, 1024, 512, 16, 4), (64, 1024, 512, 20, 8)]
TEST_PERF = [(64, 512, 256, 8, 2), (128, 1024, 512, 16, 4), (256, 2048, 1408, 32, 6), (512, 2048, 1408, 64, 6)]
NOTE = "fused_experts_impl's fixed cuTile config (no autotuning)"

TESTS = [(f"test_moe.py Test_MOE.test_op[bf16] (num_tokens, hidden, moe_intermediate, n_experts, top_k) = {c}; "
          f"{NOTE}", fused_moe(*c, "bfloat16", seed=i)) for i, c in enumerate(TEST_OP)]
BENCH = [(f"test_moe.py Test_MOE.test_perf[e2e_fused-f16] (num_tokens, hidden, moe_intermediate, n_experts, top_k) = "
          f"{c}; {NOTE}", fused_moe(*c, "float16", seed=100 + i)) for i, c in enumerate(TEST_PERF)]
