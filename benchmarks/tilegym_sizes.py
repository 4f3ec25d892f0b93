"""TileGym 1.5.1's own test shapes and benchmark sizes, as host calls (data for benchmarks/h200_tilegym.py).

Per kernel file under ``tilegym/ops/cutile`` (the keys of ``corpus_specs.CALLS``): ``TESTS`` are host calls
at the shapes of TileGym's ``tests/ops/test_<op>.py`` parametrisations, ``BENCH`` host calls at the sizes of
its ``tests/benchmark/bench_<op>.py`` sweeps (read in the public repository NVIDIA/TileGym at 75a1430; the
source of each list is named next to it). ``h200_tilegym.py shapes`` captures them with ``ctrs specs`` (the
host code computes grid and constants) into ``benchmarks/corpus/tilegym-1.5.1/h200/<file>.json``; the bundle
verifies test shapes (numerics only) and times benchmark sizes (numerics + device time).

Benchmark tensors are ``torch.empty`` (the capture needs shapes, not values); test tensors are
``torch.randn`` like corpus_specs. Not covered: float8 configs (no port takes float8), backends other than
cuTile, and ops TileGym has no test / benchmark for (transpose: neither; relu, gelu: tests only).
"""

from __future__ import annotations

from corpus_specs import BF16, F16, F32, bwd, t

F8_SKIPPED = "float8_e5m2 configs of TileGym's lists are left out: no ctrs port takes float8"


def e(*shape: int, dt: str = F16, grad: bool = False) -> str:
    """A ``torch.empty`` call expression (benchmark sizes: shapes only, no random fill on the CPU)."""
    return f"torch.empty({', '.join(map(str, shape))}, {dt}{', requires_grad=True' if grad else ''})"


def _bmm(b: int, m: int, n: int, k: int, ta: bool, tb: bool, mk=t) -> str:
    a = mk(b, k, m) if ta else mk(b, m, k)
    bb = mk(b, n, k) if tb else mk(b, k, n)
    return f"bmm({a}, {bb}, transpose_a={ta}, transpose_b={tb}, static_persistent=False)"


TESTS: dict[str, list[str]] = {
    # tests/ops/activation/test_relu.py test_op: (m, n, dtype)
    "activation/relu.py": [f"relu({t(m, n, dt=dt)})" for m, n, dt in
                           [(256, 64, F16), (256, 256, F16), (256, 2048, F32), (256, 32768, F16)]],
    # tests/ops/activation/test_gelu.py test_op: (m, n, approximate, dtype); the backward kernel runs in backward
    "activation/gelu.py": [bwd(f"gelu({t(256, 2048, dt=dt, grad=True)}, '{ap}')")
                           for ap, dt in [("none", F32), ("tanh", F32), ("none", F16), ("tanh", F16)]],
    # tests/ops/test_softmax.py test_op: (m, n, dtype) x use_tma / chunked / multi_wave (all four variants)
    "softmax.py": [f"softmax({t(m, n, dt=dt)}{kw})" for m, n, dt in
                   [(256, 256, F32), (256, 2048, F32), (256, 32768, F32), (256, 256, F16), (256, 2048, F16),
                    (256, 9, F32), (256, 1009, F16)]
                   for kw in ("", ", use_tma=True", ", use_chunked=True", ", use_multi_wave=True")],
    # tests/ops/test_bmm.py test_op (batch 4, f16, static_persistent False = _bmm_kernel): m in {128, 1024},
    # n in {256, 512}, k in {511, 512, 1023, 1024}; untransposed only: TileGym 1.5.1's non-persistent host
    # path raises on transpose_a / transpose_b (its test crosses them with the persistent kernel)
    "bmm.py": [_bmm(4, m, n, k, False, False) for m in (128, 1024) for n in (256, 512) for k in (511, 512, 1023, 1024)],
    # tests/ops/test_swiglu.py test_op_backward (batch, seq, hidden, dtype) and test_op_backward_irregular (f32)
    "swiglu.py": [bwd(f"swiglu({t(b, s, h, dt=dt, grad=True)}, {t(b, s, h, dt=dt, grad=True)})") for b, s, h, dt in
                  [(4, 512, 1024, F32), (8, 256, 2048, F32), (2, 1024, 512, F32), (8, 512, 512, F16),
                   (8, 512, 1024, F16), (7, 256, 512, F32), (13, 128, 1024, F32), (8, 100, 512, F32),
                   (8, 333, 256, F32), (4, 256, 1000, F32), (4, 256, 1500, F32), (4, 128, 3000, F32),
                   (7, 100, 1000, F32), (13, 333, 1500, F32)]],
    # tests/ops/test_attention.py test_op (batch, heads, seq, head_dim, causal, dtype; float8 left out) and
    # tests/ops/experimental/test_attention_backward.py regular + irregular shapes (the backward kernels)
    "attention.py": [f"tile_fmha({t(b, h, s, d, dt=dt)}, {t(b, h, s, d, dt=dt)}, {t(b, h, s, d, dt=dt)}, "
                     f"is_causal={c})" for b, h, s, d, c, dt in
                     [(1, 1, 9, 128, False, BF16), (1, 32, 2047, 128, True, F16), (2, 32, 4095, 128, True, BF16)]]
                    + [bwd(f"tile_fmha_with_backward({t(b, h, s, d, dt=dt, grad=True)}, {t(b, h, s, d, dt=dt, grad=True)}, "
                           f"{t(b, h, s, d, dt=dt, grad=True)}, is_causal={c})") for b, h, s, d, c, dt in
                       [(2, 8, 256, 64, True, F16), (2, 8, 512, 128, False, BF16), (1, 4, 127, 64, True, F16),
                        (2, 8, 2047, 128, True, BF16)]],

    # -- group A (tests): start
    # -- group A (tests): end

    # -- group B (tests): start
    # -- group B (tests): end

    # -- group C (tests): start
    # tests/ops/test_recurrent_gated_delta_rule.py test_op: (B, T, H, K, V, use_init, out_final, use_l2) x dtype
    # (fp32 / bf16): 8 of its 9 x 2 configs -- decode (T 1: the decode_vstream kernel), qwen35_cached_decode,
    # T16, T32_final_state, init_final_state, K64_V128, l2norm, T64 (minimal, 1x1x1x64x64, left out: the
    # decode path of "decode" at one head), dtypes alternating
    "recurrent_gated_delta_rule.py": [
        f"recurrent_gated_delta_rule({t(b, s, h, k, dt=dt)}, {t(b, s, h, k, dt=dt)}, {t(b, s, h, v, dt=dt)}, "
        f"{t(b, s, h, dt=dt)}, {t(b, s, h, dt=dt)}, {t(b, h, k, v, dt=F32) if ini else None}, {fin}, {l2})"
        for b, s, h, k, v, ini, fin, l2, dt in
        [(2, 1, 4, 64, 64, False, False, False, F32), (1, 1, 16, 128, 128, True, True, True, BF16),
         (2, 16, 4, 64, 64, False, False, False, BF16), (1, 32, 8, 128, 128, False, True, False, F32),
         (2, 8, 4, 64, 64, True, True, False, BF16), (1, 16, 4, 64, 128, False, False, False, F32),
         (2, 8, 4, 128, 64, False, False, True, BF16), (1, 64, 4, 64, 64, False, False, False, F32)]],
    # tests/ops/test_chunk_gated_delta_rule.py test_op: (B, T, H, K, V, chunk_size, use_init, out_final, use_l2),
    # bfloat16 only (the test skips float32: "known failures"): 8 of its 16 configs -- minimal, T37_prime,
    # init_final_state, K64_V128, K256_V128, chunk32, T65_off_by_1, qwen3_5_T10782 (tails of T, each K / V,
    # chunk size 32 and 64, initial / final state, in-kernel l2norm)
    "chunk_gated_delta_rule.py": [
        f"chunk_gated_delta_rule({t(b, s, h, k, dt=BF16)}, {t(b, s, h, k, dt=BF16)}, {t(b, s, h, v, dt=BF16)}, "
        f"{t(b, s, h, dt=BF16)}, {t(b, s, h, dt=BF16)}, {cs}, {t(b, h, k, v, dt=F32) if ini else None}, {fin}, {l2})"
        for b, s, h, k, v, cs, ini, fin, l2 in
        [(1, 1, 1, 64, 64, 64, False, False, False), (1, 37, 4, 64, 64, 64, False, False, False),
         (2, 8, 4, 64, 64, 64, True, True, False), (1, 16, 4, 64, 128, 64, False, False, False),
         (2, 4, 8, 256, 128, 64, True, True, False), (2, 128, 4, 64, 64, 32, False, False, False),
         (2, 65, 4, 128, 128, 64, False, True, False), (1, 10782, 8, 128, 128, 64, False, False, True)]],
    # tests/ops/test_moe.py test_op (num_tokens, hidden, moe_intermediate, n_experts, top_k; bfloat16, float8 left
    # out): fused_moe's cuTile path calls moe_align_block_size(topk_ids, TILE_SIZE_M 128, n_experts) with
    # torch.long topk_ids from torch.randint(0, n_experts, (num_tokens, top_k))
    "moe_align_block.py": [f"moe_align_block_size(torch.randint(0, {ne}, ({n}, {k}), dtype=torch.long), 128, {ne})"
                           for n, ne, k in [(16, 8, 2), (32, 16, 4), (64, 20, 8)]],
    # tests/ops/experimental/test_fused_linear_cross_entropy.py test_op_forward_matches_pytorch (batch, seq,
    # hidden, vocab, dtype, reduction; chunk_size 128, target[:, 0] = -100 ignored) and
    # test_op_chunk_size_consistency (2 x 257 x 192, vocab 3072, float16, chunk_size 64 and 512)
    "experimental/fused_linear_cross_entropy.py": [
        f"fused_linear_cross_entropy({t(b, s, hd, dt=dt)}, {t(v, hd, dt=dt)}, torch.randint(0, {v}, ({b}, {s}))"
        f".index_fill_(1, torch.tensor([0]), -100), ignore_index=-100, chunk_size=128, reduction='{red}')"
        for b, s, hd, v, dt, red in [(2, 128, 256, 2048, F16, "mean"), (2, 64, 256, 2048, BF16, "mean"),
                                     (1, 256, 384, 4096, F16, "sum")]]
        + [f"fused_linear_cross_entropy({t(2, 257, 192)}, {t(3072, 192)}, torch.randint(0, 3072, (2, 257)), "
           f"ignore_index=-100, chunk_size={cs}, reduction='mean')" for cs in (64, 512)],
    # -- group C (tests): end

}

BENCH: dict[str, list[str]] = {
    # tests/benchmark/bench_softmax.py: M 4096, N 2^10..2^14, float32 / bfloat16, its four variants (baseline,
    # use_tma, use_chunked, use_multi_wave: one kernel of the file each)
    "softmax.py": [f"softmax({e(4096, n, dt=dt)}{kw})" for kw in ("", ", use_tma=True", ", use_chunked=True",
                                                                  ", use_multi_wave=True")
                   for dt in (F32, BF16) for n in (1024, 2048, 4096, 8192, 16384)],
    # tests/benchmark/bench_matrix_multiplication.py: M = N = K = 2^10..2^15 (its large-memory range), float16
    # (float8 left out), use_tma=True, static_persistent=False
    "matmul.py": [f"matmul({e(s, s)}, {e(s, s)}, use_tma=True, static_persistent=False)"
                  for s in (1024, 2048, 4096, 8192, 16384, 32768)],
    # tests/benchmark/bench_bmm.py: batch 2 / 8, M = N = K = 2^10..2^12, float16 (static_persistent False: the
    # proven _bmm_kernel; untransposed only, the non-persistent host path refuses transposes)
    "bmm.py": [_bmm(b, s, s, s, False, False, mk=e) for b in (2, 8) for s in (1024, 2048, 4096)],
    # tests/benchmark/bench_swiglu.py (forward: batch 1 / 4 / 8, M 128 / 4096, N 2^10..2^14, float16 / bfloat16 /
    # float32: the _swiglu_forward_kernel) and tests/benchmark/experimental/bench_swiglu_backward.py (M
    # 2^10..2^14, hidden 2048 / 4096, float32 / bfloat16, mode backward: the _swiglu_backward_kernel)
    "swiglu.py": [f"swiglu({e(b, m, n, dt=dt)}, {e(b, m, n, dt=dt)})" for b in (1, 4, 8) for m in (128, 4096)
                  for n in (1024, 2048, 4096, 8192, 16384) for dt in (F16, BF16, F32)]
                 + [bwd(f"swiglu({e(m, h, dt=dt, grad=True)}, {e(m, h, dt=dt, grad=True)})")
                  for dt in (F32, BF16) for h in (2048, 4096) for m in (1024, 2048, 4096, 8192, 16384)],
    # tests/benchmark/bench_fused_attention.py (batch 4, 32 heads, N_CTX 2^10..2^14, head_dim 128, fwd, causal
    # True / False, float16; float8 left out) and tests/benchmark/experimental/bench_attention_backward.py
    # (batch 4, 32 heads, N_CTX 2^8..2^13, head_dim 64 / 128, causal True / False, float16, mode bwd: the
    # backward's preprocess kernel)
    "attention.py": [f"tile_fmha({e(4, 32, n, 128)}, {e(4, 32, n, 128)}, {e(4, 32, n, 128)}, is_causal={c})"
                     for c in (True, False) for n in (1024, 2048, 4096, 8192, 16384)]
                    + [bwd(f"tile_fmha_with_backward({e(4, 32, n, d, grad=True)}, {e(4, 32, n, d, grad=True)}, "
                           f"{e(4, 32, n, d, grad=True)}, is_causal={c})")
                       for d in (64, 128) for c in (True, False) for n in (256, 512, 1024, 2048, 4096, 8192)],

    # -- group A (bench): start
    # -- group A (bench): end

    # -- group B (bench): start
    # -- group B (bench): end

    # -- group C (bench): start
    # tests/ops/test_recurrent_gated_delta_rule.py test_perf (TileGym has no tests/benchmark file for it): B 2,
    # H 4, K = V = 128, T 128 * 2^0..2^7, bfloat16
    "recurrent_gated_delta_rule.py": [
        f"recurrent_gated_delta_rule({e(2, s, 4, 128, dt=BF16)}, {e(2, s, 4, 128, dt=BF16)}, "
        f"{e(2, s, 4, 128, dt=BF16)}, {e(2, s, 4, dt=BF16)}, {e(2, s, 4, dt=BF16)})"
        for s in (128, 256, 512, 1024, 2048, 4096, 8192, 16384)],
    # tests/ops/test_chunk_gated_delta_rule.py test_perf (no tests/benchmark file): B 16, H 8, K = V = 128,
    # chunk_size 64, T 128 * 2^0..2^7, bfloat16
    "chunk_gated_delta_rule.py": [
        f"chunk_gated_delta_rule({e(16, s, 8, 128, dt=BF16)}, {e(16, s, 8, 128, dt=BF16)}, "
        f"{e(16, s, 8, 128, dt=BF16)}, {e(16, s, 8, dt=BF16)}, {e(16, s, 8, dt=BF16)}, 64)"
        for s in (128, 256, 512, 1024, 2048, 4096, 8192, 16384)],
    # tests/ops/test_moe.py test_perf (no tests/benchmark file; float16, its uncommented configs): num_tokens /
    # n_experts / top_k 64/8/2, 128/16/4, 256/32/6, 512/64/6, through fused_moe's moe_align_block_size(..., 128, E)
    "moe_align_block.py": [f"moe_align_block_size(torch.randint(0, {ne}, ({n}, {k}), dtype=torch.long), 128, {ne})"
                           for n, ne, k in [(64, 8, 2), (128, 16, 4), (256, 32, 6), (512, 64, 6)]],
    # tests/benchmark/experimental/bench_fused_linear_cross_entropy.py: hidden 1024, vocab 32768, chunk_size 512,
    # bfloat16 / float16, BT 512 / 4096 / 16384 of its 512..16384 (every BT launches the same per-chunk
    # (512, 32768) kernel spec: one spec per dtype)
    "experimental/fused_linear_cross_entropy.py": [
        f"fused_linear_cross_entropy({e(bt, 1024, dt=dt)}, {e(32768, 1024, dt=dt)}, torch.randint(0, 32768, ({bt},)), "
        "ignore_index=-100, chunk_size=512, reduction='mean')" for dt in (BF16, F16) for bt in (512, 4096, 16384)],
    # -- group C (bench): end

}
