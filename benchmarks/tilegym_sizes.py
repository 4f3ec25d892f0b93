"""TileGym 1.5.1's own test shapes and benchmark sizes, as host calls (data for benchmarks/h200_tilegym.py).

Per kernel file under ``tilegym/ops/cutile`` (the keys of ``corpus_specs.CALLS``): ``TESTS`` are host calls
at the shapes of TileGym's ``tests/ops/test_<op>.py`` parametrisations, ``BENCH`` host calls at the sizes of
its ``tests/benchmark/bench_<op>.py`` sweeps (read in the public repository NVIDIA/TileGym at 75a1430; the
source of each list is named next to it). ``h200_tilegym.py shapes`` captures them with ``ctrs specs`` (the
host code computes grid and constants) into ``benchmarks/corpus/tilegym-1.5.1/h200/<file>.json``; the bundle
verifies test shapes (numerics only) and times benchmark sizes (numerics + device time).

Benchmark tensors are ``torch.empty`` (the capture needs shapes, not values); test tensors are
``torch.randn`` like corpus_specs. Not covered: float8 configs (no port takes float8), backends other than
cuTile, and ops TileGym has no benchmark for (relu, gelu: tests only). Where TileGym has no tests/benchmark file
for an op but its test file has a ``test_perf`` sweep, ``BENCH`` takes that sweep (named next to the list).
Keys of ``TESTS`` / ``BENCH`` outside ``corpus_specs.CALLS`` (attention_variant.py: its committed specs are
hand-written) are captured all the same: their host code runs on a CPU.
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


I32 = "dtype=torch.int32"


def _varlen(b: int, h: int, hk: int, sq: int, skv: int, d: int, causal: bool, varlen: bool, dt: str, mk=t,
            fixed: bool = False) -> str:
    """attention_varlen.py's tile_fmha_varlen on (b, heads, seq, head_dim) q / k / v; ``varlen``: int32 (b,)
    q_lens / kv_lens (random with kv_len >= q_len as the test draws them, or full when ``fixed``, as its perf test)."""
    if not varlen:
        lens = ""
    elif fixed:
        lens = f", q_lens=torch.full(({b},), {sq}, {I32}), kv_lens=torch.full(({b},), {skv}, {I32})"
    else:
        lens = (f", q_lens=torch.randint({sq // 2}, {sq}, ({b},), {I32}), "
                f"kv_lens=torch.randint({sq}, {skv}, ({b},), {I32})")
    return (f"tile_fmha_varlen({mk(b, h, sq, d, dt=dt)}, {mk(b, hk, skv, d, dt=dt)}, {mk(b, hk, skv, d, dt=dt)}, "
            f"is_causal={causal}{lens})")


def _variant(b: int, h: int, hk: int, sq: int, skv: int, d: int, causal: bool, dt: str, window: int = 0,
             rmask: bool = False, bias: str | None = None, layout: str = "bnsd", varlen: bool = False, mk=t) -> str:
    """attention_variant.py's fmha_variant_cutile with the inputs TileGym's test builds for a variant: q / k / v in
    ``layout`` (bnsd or nsbd), an int8 (b, heads, S_qo, S_kv) random mask, a vector (b, heads, 1, S_kv) / matrix
    (b, heads, S_qo, S_kv) bias of q's dtype or float32 (heads,) alibi slopes, int32 (b,) q_lens / kv_lens."""
    def qkv(n: int, s: int) -> str:
        return mk(*((b, n, s, d) if layout == "bnsd" else (n, s, b, d)), dt=dt)

    kw = f", is_causal={causal}"
    if window:
        kw += f", window_size={window}"
    if rmask:
        kw += f", random_mask=torch.randint(0, 2, ({b}, {h}, {sq}, {skv}), dtype=torch.int8)"
    if bias == "vector":
        kw += f", bias_type='vector', bias={mk(b, h, 1, skv, dt=dt)}"
    elif bias == "matrix":
        kw += f", bias_type='matrix', bias={mk(b, h, sq, skv, dt=dt)}"
    elif bias == "alibi":
        kw += f", bias_type='alibi', bias=torch.rand({h})"
    if layout != "bnsd":
        kw += f", layout='{layout}'"
    if varlen:
        kw += (f", q_lens=torch.randint({sq // 2}, {sq}, ({b},), {I32}), "
               f"kv_lens=torch.randint({sq}, {skv}, ({b},), {I32})")
    return f"fmha_variant_cutile({qkv(h, sq)}, {qkv(hk, skv)}, {qkv(hk, skv)}{kw})"


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
    "bmm.py": [_bmm(4, m, n, k, False, False) for m in (128, 1024) for n in (256, 512) for k in (511, 512, 1023, 1024)]
              # the same test_op with static_persistent True (_static_persistent_bmm_kernel): each transpose pair twice
              + [_bmm(4, m, n, k, ta, tb).replace("static_persistent=False", "static_persistent=True")
                 for m, n, k, ta, tb in [(128, 256, 511, False, False), (1024, 512, 1024, False, False),
                                         (128, 512, 1023, True, False), (1024, 256, 512, True, False),
                                         (1024, 256, 511, False, True), (128, 512, 1024, False, True),
                                         (1024, 512, 1023, True, True), (128, 256, 512, True, True)]],
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
    # tests/ops/test_rms_norm.py test_op (m, n, dtype) x mode: static_persistent f16 non-pow2, multi_wave_cached f32 and
    # bf16 (31072, 4096), multi_wave_reload (the _rms_norm_kernel_gather) f16 non-pow2 (256, 18432);
    # tests/ops/experimental/test_rmsnorm_backward.py Test_RMSNormAutogradBackward (mode None -> static persistent at
    # M 4096 > 2 x 132 SMs; multi_wave_reload f32): forward then the _rms_bwd_kernel; and its Test_RMSNormBackward
    # (the standalone rms_norm_backward; rstd as the forward saves it, float32 (M,)): (2003, 2001) f16,
    # (31072, 4096) bf16
    "rms_norm.py": [f"rms_norm({t(m, n, dt=dt)}, ({n},), {t(n, dt=dt)}, 1e-5, mode='{mode}')" for m, n, dt, mode in
                    [(256, 768, F16, "static_persistent"), (256, 256, F32, "multi_wave_cached"),
                     (256, 18432, F16, "multi_wave_reload"), (31072, 4096, BF16, "multi_wave_cached")]]
                   + [bwd(f"rms_norm({t(m, n, dt=dt, grad=True)}, ({n},), {t(n, dt=dt, grad=True)}, 1e-5{kw})")
                      for m, n, dt, kw in [(4096, 256, BF16, ""), (256, 256, F32, ", mode='multi_wave_reload'")]]
                   + [f"rms_norm_backward({t(m, n, dt=dt)}, {t(m, n, dt=dt)}, {t(n, dt=dt)}, torch.rand({m}, {F32}))"
                      for m, n, dt in [(2003, 2001, F16), (31072, 4096, BF16)]],
    # tests/ops/test_layer_norm_legacy.py Test_PersistentLayerNorm test_op (m, n, bfloat16, eps 1e-6): the
    # persistent path only (Test_LayerNorm's layer_norm_legacy allocates with device="cuda": no CPU capture)
    "layer_norm_legacy.py": [f"persistent_layer_norm({t(m, n, dt=BF16)}, ({n},), {t(n, dt=BF16)}, {t(n, dt=BF16)}, "
                             "1e-6)"
                             for m, n in [(256, 256), (1024, 1024), (4096, 512), (30000, 1024)]],
    # tests/ops/test_dropout.py test_op (m, p, dtype) x inplace, training True (training False launches nothing)
    "dropout.py": [f"dropout(torch.rand({m}, {dt}), 42, {p}, True, {ip})" for m, p, dt, ip in
                   [(1024, 0.2, F32, False), (4096, 0.4, F32, False), (4096, 0.4, F32, True), (65536, 0.8, F32, False),
                    (65536, 0.8, F16, True)]],
    # tests/ops/test_silu_and_mul.py test_op (batch, seq, hidden, dtype; input (batch, seq, 2 x hidden)) and
    # test_op_irregular_shapes (float32), forward then backward (both kernels)
    "silu_and_mul.py": [bwd(f"silu_and_mul({t(b, s, 2 * h, dt=dt, grad=True)})") for b, s, h, dt in
                        [(8, 512, 512, F16), (8, 512, 2048, F32), (16, 1024, 1024, F16), (32, 1024, 4096, F32),
                         (7, 512, 512, F32), (8, 100, 512, F32), (8, 256, 1000, F32), (13, 333, 1500, F32)]],
    # tests/ops/activation/test_geglu.py test_op (x_shape, dim, dtype, approximate), forward then backward with a
    # contiguous gradient (corpus_specs.bwd_ones: the host code asserts dy.is_contiguous())
    "activation/geglu.py": [f"(lambda y: y.backward(torch.ones_like(y)))"
                            f"(geglu({t(*shape, dt=dt, grad=True)}, {d}, '{ap}'))"
                            for shape, d, dt, ap in
                            [((4,), 0, F32, "none"), ((16, 4), 0, F16, "tanh"), ((16, 4), 1, F32, "none"),
                             ((64, 16, 4), 0, F32, "tanh"), ((64, 16, 4), 1, F16, "none"),
                             ((256, 64, 16, 4), 1, F32, "tanh"), ((256, 64, 16, 4), 2, F16, "tanh"),
                             ((256, 64, 16, 4), 3, F16, "none")]],
    # tests/ops/test_rope.py test_op (bsz, seq, q heads, kv heads, head_dim, partial_rotary_factor; float32: bfloat16
    # is skipped there) and test_op_backward's shapes at float16 (forward launch); q / k are (bsz, seq, heads,
    # head_dim).transpose(1, 2) as there, cos / sin (bsz, seq, rope_dim)
    "rope.py": [f"apply_rope_base({t(b, s, hq, d, dt=dt)}.transpose(1, 2), {t(b, s, hk, d, dt=dt)}.transpose(1, 2), "
                f"{t(b, s, int(d * f), dt=dt)}, {t(b, s, int(d * f), dt=dt)}"
                f"{'' if f == 1.0 else f', partial_rotary_factor={f}'})" for b, s, hq, hk, d, f, dt in
                [(1, 128, 32, 32, 64, 1.0, F32), (2, 128, 32, 8, 64, 1.0, F32), (1, 128, 32, 8, 256, 0.25, F32),
                 (1, 128, 32, 32, 128, 0.5, F32), (2, 128, 32, 8, 128, 0.5, F32), (1, 512, 16, 16, 128, 1.0, F16),
                 (2, 128, 32, 8, 256, 0.25, F16), (1, 128, 32, 32, 64, 1.0, F16)]],
    # tests/ops/test_splitk_reduce.py test_op (batch, heads, head_dim 512, kv splits, dtype; S_kv as the test picks it
    # per split count: 1 -> 129, 2 -> 256, 8 -> 1024, 16 -> 2048)
    "splitk_reduce.py": [f"splitk_reduce({t(b, h, sp, 512, dt=dt)}, {t(b, h, sp, dt=F32)}, "
                         f"torch.empty({b}, {h}, 512, {dt}), {skv})" for b, h, sp, skv, dt in
                         [(1, 16, 1, 129, F16), (2, 32, 1, 129, BF16), (1, 32, 2, 256, BF16), (2, 16, 2, 256, F16),
                          (2, 16, 8, 1024, BF16), (1, 32, 8, 1024, F16), (1, 16, 16, 2048, BF16),
                          (2, 32, 16, 2048, F16)]],
    # tests/ops/test_matmul.py test_op (cutile: use_tma True) x static_persistent True / False (the
    # _static_persistent_matmul_kernel / _matmul_kernel) on its base inputs, bfloat16 (k 1023 is skipped there)
    "matmul.py": [f"matmul({t(m, k, dt=BF16)}, {t(k, n, dt=BF16)}, use_tma=True, static_persistent={sp})"
                  for sp in (True, False) for m, n, k in [(1024, 1024, 1024), (8192, 8192, 8192), (8, 8, 8),
                                                          (3072, 6144, 2720)]],
    # -- group A (tests): end

    # -- group B (tests): start
    # tests/ops/test_attention_sink.py test_op (bfloat16, 8 kv heads x 8 groups, head_dim 64, sm_scale 0.125): 8 of
    # its (batch, num_queries, num_keys, sliding_window, start_q) points (num_queries > num_keys is skipped there);
    # start_q as an int (the host code moves a CPU start_q tensor with .cuda())
    "attention_sink.py": [f"attention_sink({t(b, nq, 8, 8, 64, dt=BF16)}, {t(b, nk, 8, 64, dt=BF16)}, "
                          f"{t(b, nk, 8, 64, dt=BF16)}, {t(64, dt=BF16)}, 0.125, {sw}, {sq})"
                          for b, nq, nk, sw, sq in
                          [(1, 128, 128, None, 0), (1, 128, 128, 128, 5), (2, 128, 128, None, 5), (2, 128, 128, 128, 0),
                           (1, 1, 128, None, 5), (2, 1, 128, 128, 0), (1, 1, 32, 128, 0), (2, 1, 32, None, 5)]],
    # tests/ops/test_attention_sink.py test_op's single-token points (num_queries 1, the decode phase, which
    # tilegym.ops.attn_interface routes to attention_sink_decode; the test itself calls attention_sink): batch,
    # num_keys, sliding_window, start_q (a half fraction of its 16 points), bfloat16, 8 x 8 heads, head_dim 64
    "attention_sink_decode.py": [f"attention_sink_decode({t(b, 1, 8, 8, 64, dt=BF16)}, {t(b, nk, 8, 64, dt=BF16)}, "
                                 f"{t(b, nk, 8, 64, dt=BF16)}, {t(64, dt=BF16)}, 0.125, {sw}, "
                                 f"torch.tensor([{sq}], dtype=torch.int32))" for b, nk, sw, sq in
                                 [(1, 128, None, 0), (1, 128, 128, 5), (1, 32, None, 5), (1, 32, 128, 0),
                                  (2, 128, None, 5), (2, 128, 128, 0), (2, 32, None, 0), (2, 32, 128, 5)]],
    # tests/ops/test_flash_decode.py test_op (batch 2, 32 heads, head_dim 64, float16, sm_scale 1/8): 8 of its
    # seq_len {9, 119, 256, 8192} x group_size {1, 4, 8} points
    "flash_decode.py": [f"fmha_decode({t(2, 32, 1, 64)}, {t(2, 32 // g, s, 64)}, {t(2, 32 // g, s, 64)}, 0.125)"
                        for s, g in [(9, 1), (9, 8), (119, 4), (119, 8), (256, 1), (256, 4), (8192, 1), (8192, 8)]],
    # tests/ops/test_gemma_attention.py test_op: all four (batch, heads, kv heads, seq, head_dim, window_size,
    # soft_cap, is_causal, dtype) rows (scaling 1/sqrt(head_dim), the host default)
    "gemma_attention.py": [f"gemma_attention_cutile({t(b, h, s, d, dt=dt)}, {t(b, hk, s, d, dt=dt)}, {t(b, hk, s, d, dt=dt)}, "
                           f"window_size={w}, soft_cap={cap}, is_causal={c})" for b, h, hk, s, d, w, cap, c, dt in
                           [(1, 8, 8, 128, 64, 64, 10.0, True, F16), (1, 12, 4, 512, 64, 256, 30.0, True, BF16),
                            (1, 8, 8, 128, 64, 0, None, False, F16), (1, 8, 8, 128, 64, 64, 10.0, False, F32)]],
    # tests/ops/test_gemma_attention_decode.py test_op: all six (batch, heads, kv heads, seq_len_kv, head_dim,
    # window_size, soft_cap, dtype) rows
    "gemma_attention_decode.py": [f"gemma_fmha_decode({t(b, h, 1, d, dt=dt)}, {t(b, hk, s, d, dt=dt)}, "
                                  f"{t(b, hk, s, d, dt=dt)}, window_size={w}, soft_cap={cap})"
                                  for b, h, hk, s, d, w, cap, dt in
                                  [(1, 8, 8, 128, 64, 0, None, F16), (1, 8, 8, 128, 64, 0, 10.0, F16),
                                   (1, 8, 8, 256, 64, 64, 10.0, F16), (1, 8, 4, 256, 64, 64, 10.0, F16),
                                   (1, 8, 8, 10024, 64, 0, None, F16), (1, 8, 8, 10019, 64, 256, 50.0, BF16)]],
    # tests/ops/test_mla.py test_op (batch 1, 16 query heads, S 9, head_dim 128, kpe 64, bfloat16, causal: cuTile
    # skips non-causal): num_group_size 1 / 4; its BLOCK_M / BLOCK_N kernel_configs are ignored by the cuTile host
    # code (autotuned launch), so they add no shapes
    "mla.py": [f"tile_mla({t(1, 16, 9, 128, dt=BF16)}, {t(1, 16 // g, 9, 128, dt=BF16)}, {t(1, 16 // g, 9, 128, dt=BF16)}, "
               f"{t(1, 16, 9, 64, dt=BF16)}, {t(1, 1, 9, 64, dt=BF16)}, True, None)" for g in (1, 4)],
    # tests/ops/test_mla_decoding.py test_op (cuTile runs transpose=True only; its body fixes num_heads = 32, so the
    # (16, True) and (32, True) rows are one shape): batch 2, S_kv 1024, BLOCK_D 512, BLOCK_KPE 64, float16
    "mla_decoding.py": [f"mla_decoding({t(2, 32, 512)}, {t(2, 32, 64)}, {t(2, 1024, 512)}, {t(2, 1024, 64)}, None)"],
    # tests/ops/test_mla_decoding_split_kv.py test_op (batch 1, head_dim 512, kpe 64, float16): 8 of its num_heads
    # {8, 16, 24, 32} x seq_len {129, 1024, 8192, 11049} x kv_len_per_split {128, 512} points
    "mla_decoding_split_kv.py": [f"mla_decoding_split_kv({t(1, h, 512)}, {t(1, h, 64)}, {t(1, s, 512)}, {t(1, s, 64)}, "
                                 f"None, {kvs})" for h, s, kvs in
                                 [(8, 129, 128), (8, 8192, 512), (16, 1024, 512), (16, 11049, 128), (24, 129, 512),
                                  (24, 8192, 128), (32, 1024, 128), (32, 11049, 512)]],
    # tests/ops/experimental/test_swa_attention.py (float16, head_dim 128, causal): window_equals_seq, window_of_one,
    # multi_head, seq_not_divisible_by_tile, very_small_seq, gqa (32 / 8 heads), various_configs (4096, 2048),
    # long_context_mistral (B, H, H_kv, S, W)
    "experimental/swa_attention.py": [f"tile_swa_attention({t(b, h, s, 128)}, {t(b, hk, s, 128)}, {t(b, hk, s, 128)}, {w})"
                                      for b, h, hk, s, w in
                                      [(1, 1, 1, 128, 128), (1, 1, 1, 128, 1), (2, 8, 8, 256, 128), (1, 1, 1, 100, 64),
                                       (1, 1, 1, 16, 8), (1, 32, 8, 256, 128), (1, 1, 1, 4096, 2048),
                                       (1, 1, 1, 8192, 4096)]],
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

    # -- group D (tests): start
    # (these four test files are not in 75a1430's tree; read at NVIDIA/TileGym 1bf017b test_transpose.py, 85d5ff5
    # test_attention_varlen.py, 152c784 test_linear_gluact_linear.py, 32bbfb6 test_attention_variant.py)
    # tests/ops/test_transpose.py test_op: (m = n = 2^s, s 1..13) x float16 / float32, forward (its backward transposes
    # the square gradient: the same launch); 10 of its 26 points, every dtype at the smallest and largest s and at
    # s 12 (float16 from M, N >= 4096: BLOCK 128)
    "transpose.py": [f"transpose({t(1 << s, 1 << s, dt=dt)})"
                     for dt, ss in ((F16, (1, 5, 9, 12, 13)), (F32, (1, 6, 10, 12, 13))) for s in ss],
    # tests/ops/test_attention_varlen.py test_op (get_configs_test: batch 4, 32 heads, num_head_groups 1 = one kv
    # head, head_dim 128, bfloat16, scaling 1/sqrt(head_dim)): 8 of its max_q_seq_len {128, 257} x max_kv_seq_len
    # {496, 2064} x is_causal x varlen points (a half fraction: varlen = q x kv x causal); varlen: int32 lens
    "attention_varlen.py": [_varlen(4, 32, 1, sq, skv, 128, c, vl, BF16) for sq, skv, c, vl in
                            [(128, 496, False, False), (257, 496, False, True), (128, 2064, False, True),
                             (257, 2064, False, False), (128, 496, True, True), (257, 496, True, False),
                             (128, 2064, True, False), (257, 2064, True, True)]],
    # tests/ops/test_linear_gluact_linear.py test_op (m, n, k, act_type, dtype): its four points that run (k 1023 is
    # skipped there). The test calls the tilegym.ops.linear_gluact_linear dispatcher, which with the cuTile backend
    # is this file's registered linear_gluact_linear: called directly (input (m, k), weight_act / weight_noact (n, k),
    # weight2 (k, n)); its final linear launches matmul.py's persistent kernel (not captured here: another file)
    "linear_gluact_linear.py": [f"linear_gluact_linear({t(m, k, dt=dt)}, {t(n, k, dt=dt)}, {t(n, k, dt=dt)}, "
                                f"{t(k, n, dt=dt)}, '{act}')" for m, n, k, act, dt in
                                [(1024, 1024, 512, "gelu-tanh", F32), (1024, 1024, 1024, "silu", F32),
                                 (1024, 1024, 1024, "relu", F32), (512, 512, 256, "silu", F16)]],
    # tests/ops/test_attention_variant.py test_op (get_configs_test, cuTile: batch 4, 32 heads, num_head_groups 1 =
    # one kv head, bfloat16, scaling 1/sqrt(head_dim)): 12 of its max_q_seq_len {128, 257} x max_kv_seq_len {496,
    # 2064} x head_dim {64, 128} x is_causal x variant-row points, every variant row the cuTile backend runs (its
    # three dropout rows are skipped there): (window_size, random_mask, bias_type, layout, varlen). Without a mask,
    # bias or lens the host code passes empty rank-1 dummies (the committed hand specs pass full-rank ones)
    "attention_variant.py": [_variant(4, 32, 1, sq, skv, d, c, BF16, window=w, rmask=rm, bias=bias, layout=lay,
                                      varlen=vl)
                             for sq, skv, d, c, w, rm, bias, lay, vl in
                             [(128, 496, 64, True, 0, False, None, "bnsd", False),
                              (257, 2064, 128, False, 0, False, None, "bnsd", False),
                              (257, 2064, 64, True, 512, False, None, "bnsd", False),
                              (128, 2064, 128, False, 0, True, None, "bnsd", False),
                              (257, 496, 128, True, 0, False, "vector", "bnsd", False),
                              (128, 496, 128, False, 0, False, "matrix", "bnsd", False),
                              (257, 2064, 128, True, 0, False, "alibi", "bnsd", False),
                              (128, 496, 64, False, 0, False, "alibi", "bnsd", False),
                              (128, 2064, 64, False, 0, False, None, "nsbd", False),
                              (257, 496, 64, False, 0, False, None, "bnsd", True),
                              (128, 496, 64, True, 512, True, None, "nsbd", True),
                              (257, 2064, 128, False, 512, True, None, "nsbd", True)]],
    # -- group D (tests): end

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
                  for s in (1024, 2048, 4096, 8192, 16384, 32768)]
                 # tests/benchmark/bench_persistent_matmul.py: the same sweep, static_persistent=True (its default)
                 + [f"matmul({e(s, s)}, {e(s, s)}, use_tma=True, static_persistent=True)"
                    for s in (1024, 2048, 4096, 8192, 16384, 32768)],
    # tests/benchmark/bench_bmm.py: batch 2 / 8, M = N = K = 2^10..2^12, float16 (static_persistent False: the
    # proven _bmm_kernel; untransposed only, the non-persistent host path refuses transposes)
    "bmm.py": [_bmm(b, s, s, s, False, False, mk=e) for b in (2, 8) for s in (1024, 2048, 4096)]
              # the same bench_bmm.py sweep as it runs (bmm's default static_persistent True:
              # _static_persistent_bmm_kernel), all four transpose pairs
              + [_bmm(b, s, s, s, ta, tb, mk=e).replace("static_persistent=False", "static_persistent=True")
                 for b, s, ta, tb in [(2, 1024, False, False), (2, 1024, True, True), (2, 2048, True, False),
                                      (2, 4096, False, True), (2, 4096, False, False), (8, 1024, False, True),
                                      (8, 2048, False, False), (8, 2048, True, True), (8, 4096, True, False),
                                      (8, 4096, True, True)]],
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
    # tests/benchmark/bench_rmsnorm.py (M 4096, N 2^10..2^14, float16 / bfloat16, cutile modes static_persistent,
    # multi_wave_reload, multi_wave_cached: each mode at N 1024 and 16384) and
    # tests/benchmark/experimental/bench_rmsnorm_backward.py (the standalone rms_norm_backward: M 4096, N 2^10..2^14,
    # bfloat16 / float16 / float32; rstd float32 (M,))
    "rms_norm.py": [f"rms_norm({e(4096, n, dt=dt)}, ({n},), {e(n, dt=dt)}, 1e-5, mode='{mode}')"
                    for mode in ("static_persistent", "multi_wave_reload", "multi_wave_cached")
                    for n, dt in [(1024, F16), (16384, BF16)]]
                   + [f"rms_norm_backward({e(4096, n, dt=dt)}, {e(4096, n, dt=dt)}, {e(n, dt=dt)}, {e(4096, dt=F32)})"
                      for n, dt in [(1024, BF16), (2048, F32), (8192, F16), (16384, BF16)]],
    # tests/benchmark/bench_layernorm.py bench_persistent_layer_norm (M 30000 / 128000, N 256..16384, bfloat16, eps
    # 1e-6; 128000 x 16384 left out: over 8 GB); its bench_legacy_layer_norm path allocates with device="cuda"
    "layer_norm_legacy.py": [f"persistent_layer_norm({e(m, n, dt=BF16)}, ({n},), {e(n, dt=BF16)}, {e(n, dt=BF16)}, "
                             "1e-6)" for m, ns in [(30000, (256, 1024, 2048, 4096, 8192, 16384)),
                                                  (128000, (256, 1024, 4096, 8192))]
                             for n in ns],
    # tests/benchmark/bench_dropout.py: M 2^20..2^26 (step 4x), p 0.5, float16 / float32, training, not in place
    "dropout.py": [f"dropout({e(m, dt=dt)}, 42, 0.5, True, False)" for dt in (F16, F32)
                   for m in (1 << 20, 1 << 22, 1 << 24, 1 << 26)],
    # tests/benchmark/bench_silu_and_mul.py (forward: M 2^10..2^14, hidden 2048, float16 / float32; input (M, 2 x
    # hidden)) and tests/benchmark/experimental/bench_silu_and_mul_backward.py (M 2^10..2^14, hidden 2048 / 4096 /
    # 11008, float32 / bfloat16, modes backward / full: forward then backward, both kernels)
    "silu_and_mul.py": [f"silu_and_mul({e(m, 2 * 2048, dt=dt)})" for m, dt in
                        [(1024, F16), (4096, F32), (16384, F16), (16384, F32)]]
                       + [bwd(f"silu_and_mul({e(m, 2 * h, dt=dt, grad=True)})") for m, h, dt in
                          [(1024, 2048, F32), (16384, 2048, BF16), (4096, 4096, BF16), (8192, 4096, F32),
                           (1024, 11008, BF16), (16384, 11008, F32)]],
    # tests/benchmark/bench_rope.py: batch 1, 16 heads (q and k), head_dim 64, SEQ_LEN 2^12..2^15, float16; cos / sin
    # (1, SEQ_LEN, 64)
    "rope.py": [f"apply_rope_base({e(1, 16, s, 64)}, {e(1, 16, s, 64)}, {e(1, s, 64)}, {e(1, s, 64)})"
                for s in (4096, 8192, 16384, 32768)],
    # -- group A (bench): end

    # -- group B (bench): start
    # tests/ops/test_attention_sink.py test_perf (TileGym's benchmark of the op; bfloat16, sm_scale 1/sqrt(head_dim),
    # start_q 0): all eight (batch, num_queries, num_keys, kv heads, groups, head_dim, sliding_window) rows
    "attention_sink.py": [f"attention_sink({e(b, nq, hk, g, d, dt=BF16)}, {e(b, nk, hk, d, dt=BF16)}, "
                          f"{e(b, nk, hk, d, dt=BF16)}, {e(hk * g, dt=BF16)}, {1 / d ** 0.5}, {sw}, 0)"
                          for b, nq, nk, hk, g, d, sw in
                          [(1, 128, 2048, 8, 8, 64, None), (1, 128, 4096, 8, 8, 64, None), (1, 128, 2048, 8, 8, 64, 128),
                           (1, 128, 4096, 8, 8, 64, 128), (2, 128, 2048, 8, 8, 128, None),
                           (1, 10820, 10820, 8, 8, 64, None), (1, 10820, 10820, 8, 8, 64, 128),
                           (1, 1, 10919, 8, 8, 64, None)]],
    # tests/ops/test_attention_sink.py test_perf's decode-phase row (batch 1, 1 query, 10919 keys, 8 x 8 heads,
    # head_dim 64, no window, bfloat16: the single-token case attn_interface routes to attention_sink_decode)
    "attention_sink_decode.py": [f"attention_sink_decode({e(1, 1, 8, 8, 64, dt=BF16)}, {e(1, 10919, 8, 64, dt=BF16)}, "
                                 f"{e(1, 10919, 8, 64, dt=BF16)}, {e(64, dt=BF16)}, 0.125, None, "
                                 "torch.tensor([0], dtype=torch.int32))"],
    # tests/ops/test_flash_decode.py test_perf (batch 1, 32 heads, head_dim 128, float16): 10 of its seq_len
    # {2^9..2^14, 31079} x group_size {1, 4, 8} points (every seq_len, every group size)
    "flash_decode.py": [f"fmha_decode({e(1, 32, 1, 128)}, {e(1, 32 // g, s, 128)}, {e(1, 32 // g, s, 128)}, {1 / 128 ** 0.5})"
                        for s, g in [(512, 1), (512, 8), (1024, 4), (2048, 8), (4096, 1), (8192, 4), (16384, 8),
                                     (31079, 1), (31079, 4), (31079, 8)]],
    # tests/benchmark/bench_gemma_attention.py (batch 2, 8 heads / 1 kv head, head_dim 256, soft_cap 50, causal,
    # bfloat16, N_CTX 2^9..2^13) and tests/ops/test_gemma_attention.py test_perf (1, 16 / 8 heads, 8192, head_dim
    # 128, window 4096, soft_cap 50, causal, bfloat16)
    "gemma_attention.py": [f"gemma_attention_cutile({e(2, 8, n, 256, dt=BF16)}, {e(2, 1, n, 256, dt=BF16)}, "
                           f"{e(2, 1, n, 256, dt=BF16)}, soft_cap=50.0, is_causal=True)" for n in (512, 1024, 2048, 4096, 8192)]
                          + [f"gemma_attention_cutile({e(1, 16, 8192, 128, dt=BF16)}, {e(1, 8, 8192, 128, dt=BF16)}, "
                             f"{e(1, 8, 8192, 128, dt=BF16)}, window_size=4096, soft_cap=50.0, is_causal=True)"],
    # tests/ops/test_gemma_attention_decode.py test_perf (TileGym has no bench file for it): its three (batch, heads,
    # kv heads, seq_len_kv, head_dim, window_size, soft_cap) rows, bfloat16
    "gemma_attention_decode.py": [f"gemma_fmha_decode({e(b, h, 1, d, dt=BF16)}, {e(b, hk, s, d, dt=BF16)}, "
                                  f"{e(b, hk, s, d, dt=BF16)}, window_size={w}, soft_cap={cap})"
                                  for b, h, hk, s, d, w, cap in
                                  [(1, 16, 8, 4096, 128, 0, 50.0), (1, 16, 8, 8192, 128, 4096, 50.0),
                                   (1, 32, 8, 16384, 128, 0, 50.0)]],
    # tests/benchmark/bench_mla.py (batch 4, 16 heads, head_dim 128, d_pe 64, causal, bfloat16, seq_len 2^10..2^13)
    # and tests/ops/test_mla.py test_perf (batch 4, 32 heads, seq_len 2^9..2^13, bfloat16; float8 left out)
    "mla.py": [f"tile_mla({e(4, h, s, 128, dt=BF16)}, {e(4, h, s, 128, dt=BF16)}, {e(4, h, s, 128, dt=BF16)}, "
               f"{e(4, h, s, 64, dt=BF16)}, {e(4, 1, s, 64, dt=BF16)}, True, None)"
               for h, ss in ((16, (1024, 2048, 4096, 8192)), (32, (512, 1024, 2048, 4096, 8192))) for s in ss],
    # tests/ops/test_mla_decoding.py test_perf (cuTile: transpose=True rows, num_heads 16 / 32; float16, float8 left
    # out; BLOCK_D 512, BLOCK_KPE 64): num_batch {1, 128, 1024} x S_kv {1024, 2048, 8192}, 5 points per head count
    # (1024 x 8192 left out: ~10 GB of tensors). TileGym's bench_mla_decoding.py runs the split-KV op only.
    "mla_decoding.py": [f"mla_decoding({e(b, h, 512)}, {e(b, h, 64)}, {e(b, s, 512)}, {e(b, s, 64)}, None)"
                        for h in (16, 32) for b, s in [(1, 1024), (1, 8192), (128, 2048), (128, 8192), (1024, 2048)]],
    # tests/benchmark/bench_mla_decoding.py (use_split_kv True: mla_decoding_split_kv; batch 1, 16 heads, d_pe 64,
    # float16, kv_len_per_split from the SM count): head_dim 512 / 128, 5 of its kv_seq_len 2^8..2^14 + 11043 each
    "mla_decoding_split_kv.py": [f"mla_decoding_split_kv({e(1, 16, d)}, {e(1, 16, 64)}, {e(1, s, d)}, {e(1, s, 64)}, None)"
                                 for d, ss in ((512, (256, 1024, 4096, 11043, 16384)), (128, (256, 2048, 8192, 11043, 16384)))
                                 for s in ss],
    # tests/benchmark/experimental/bench_swa_attention.py (batch 1, 32 heads, head_dim 128, window min(4096, seq_len),
    # causal, float16): every seq_len 512..16384
    "experimental/swa_attention.py": [f"tile_swa_attention({e(1, 32, s, 128)}, {e(1, 32, s, 128)}, {e(1, 32, s, 128)}, "
                                      f"{min(4096, s)})" for s in (512, 1024, 2048, 4096, 8192, 16384)],
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

    # -- group D (bench): start
    # tests/ops/test_transpose.py test_perf (TileGym has no tests/benchmark file for transpose): m = n = 2^6..2^14
    # (step 4x), float16 / float32
    "transpose.py": [f"transpose({e(1 << s, 1 << s, dt=dt)})" for dt in (F16, F32) for s in (6, 8, 10, 12, 14)],
    # tests/ops/test_attention_varlen.py test_perf_varlen (no tests/benchmark file): batch 4, 32 heads (q and kv),
    # q_seq_len 2^9 / 2^12, kv_seq_len 2^13, head_dim 128, causal, float16, varlen (full int32 lens) or not
    "attention_varlen.py": [_varlen(4, 32, 32, sq, 8192, 128, True, vl, F16, mk=e, fixed=True)
                            for sq in (512, 4096) for vl in (True, False)],
    # tests/ops/test_linear_gluact_linear.py test_perf (no tests/benchmark file): m = n = k 1024 / 2048 / 4096,
    # silu, float16
    "linear_gluact_linear.py": [f"linear_gluact_linear({e(s, s)}, {e(s, s)}, {e(s, s)}, {e(s, s)}, 'silu')"
                                for s in (1024, 2048, 4096)],
    # tests/ops/test_attention_variant.py test_perf_variants (no tests/benchmark file; cuTile: batch 4, 32 heads
    # (q and kv), seq_len 2^9 / 2^13, head_dim 128, causal, float16; float8 left out): its variant configs the cuTile
    # backend runs (dropout ones skipped there, and at 2^13 matrix bias / random mask); {} and {layout bnsd} are one
    "attention_variant.py": [_variant(4, 32, 32, s, s, 128, True, F16, mk=e, **kw) for s in (512, 8192) for kw in
                             [{}, {"window": 512}, {"rmask": True}, {"bias": "vector"}, {"bias": "matrix"},
                              {"bias": "alibi"}, {"layout": "nsbd"}, {"window": 512, "bias": "matrix"}]
                             if s < 8192 or not (kw.get("rmask") or kw.get("bias") == "matrix")],
    # -- group D (bench): end

}
