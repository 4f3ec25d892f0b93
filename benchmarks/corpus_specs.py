"""Regenerate the corpus benchmark's committed specialisations with ``ctrs specs`` (not a test).

    .venv/bin/python benchmarks/corpus_specs.py [FILE ...]    # needs the [specs] extra (CPU torch)

For each kernel file of ``tilegym==1.5.1`` listed in ``CALLS`` (path under ``tilegym/ops/cutile``), runs
``ctrs specs FILE --call EXPR ...`` on the unpacked wheel in the ctrs cache (``benchmarks/corpus.py`` fetches
it) and writes ``benchmarks/corpus/tilegym-1.5.1/cutile/<file>.json``. The call expressions are ours: the host
entry points of TileGym with CPU tensors at the shapes and dtypes of TileGym's own tests and benchmarks
(``tests/ops/test_<op>.py`` parametrisations, read in its public repository). Autotuned launches record one
spec per config; of those only the first config of a kernel is kept (what TileGym runs with
``TILEGYM_DISABLE_AUTOTUNE``), so the check tier proves every shape without multiplying cargo runs.
Files whose host code cannot run on a CPU get specs written from their host code (``HAND``: layer_norm.py,
fp8_quantization_matmul.py). Not covered:
``layer_norm_legacy.py``'s non-persistent path (host code allocates with ``device="cuda"``), ``group_gemm.py`` (its kernel takes lists of arrays, which the spec format cannot describe).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import corpus  # noqa: E402 - the benchmark's fetch and paths

F16, BF16, F32 = "dtype=torch.float16", "dtype=torch.bfloat16", "dtype=torch.float32"


def t(*shape: int, dt: str = F16, grad: bool = False) -> str:
    """A ``torch.randn`` call expression."""
    return f"torch.randn({', '.join(map(str, shape))}, {dt}{', requires_grad=True' if grad else ''})"


def bwd(fwd: str) -> str:
    """Forward, then backward through autograd (the backward kernels launch from ``Function.backward``)."""
    return f"{fwd}.float().sum().backward()"


def bwd_ones(fwd: str) -> str:
    """Forward, then backward with a contiguous all-ones gradient (for host code that asserts contiguity)."""
    return f"(lambda y: y.backward(torch.ones_like(y)))({fwd})"


CALLS: dict[str, list[str]] = {
    "activation/relu.py": [f"relu({t(256, 2048, dt=F32)})", f"relu({t(256, 256)})", f"relu({t(256, 32768)})"],
    "activation/gelu.py": [bwd(f"gelu({t(256, 2048, dt=F32, grad=True)}, 'none')"),
                           bwd(f"gelu({t(256, 2048, grad=True)}, 'tanh')"),
                           bwd(f"gelu({t(256, 2048, grad=True)}, 'none')")],
    "softmax.py": [f"softmax({t(256, 2048, dt=F32)})", f"softmax({t(256, 256)})",
                   f"softmax({t(256, 2048, dt=F32)}, use_tma=True)", f"softmax({t(256, 256)}, use_tma=True)",
                   f"softmax({t(256, 2048, dt=F32)}, use_chunked=True)", f"softmax({t(256, 32768)}, use_chunked=True)",
                   f"softmax({t(256, 2048, dt=F32)}, use_multi_wave=True)",
                   f"softmax({t(256, 256)}, use_multi_wave=True)"],
    "matmul.py": [f"matmul({t(2048, 2048)}, {t(2048, 2048)})", f"matmul({t(256, 256, dt=F32)}, {t(256, 256, dt=F32)})",
                  f"matmul({t(2048, 2048)}, {t(2048, 2048)}, static_persistent=True)",
                  f"matmul({t(4096, 2728)}, {t(2728, 8192)}, static_persistent=True)"],
    "bmm.py": [f"bmm({t(4, 512, 256)}, {t(4, 256, 384)}, static_persistent=False)",
               f"bmm({t(8, 2048, 2048)}, {t(8, 2048, 2048)}, static_persistent=False)",
               f"bmm({t(4, 512, 256)}, {t(4, 256, 384)}, static_persistent=True)",
               f"bmm({t(2, 2048, 2048, dt=BF16)}, {t(2, 2048, 2048, dt=BF16)}, static_persistent=True)"],
    "silu_and_mul.py": [bwd(f"silu_and_mul({t(8, 512, 1024, grad=True)})"),
                        bwd(f"silu_and_mul({t(8, 512, 4096, dt=F32, grad=True)})")],
    "swiglu.py": [bwd(f"swiglu({t(4, 1024, 8192, grad=True)}, {t(4, 1024, 8192, grad=True)})"),
                  bwd(f"swiglu({t(7, 512, 1024, dt=BF16, grad=True)}, {t(7, 512, 1024, dt=BF16, grad=True)})")],
    "transpose.py": [f"transpose({t(2048, 1024)})", f"transpose({t(256, 384, dt=F32)})"],
    "rms_norm.py": [f"rms_norm({t(256, 768)}, (768,), {t(768)}, 1e-5, mode='multi_wave_cached')",
                    f"rms_norm({t(4096, 256, dt=BF16)}, (256,), {t(256, dt=BF16)}, 1e-5, mode='multi_wave_cached')",
                    f"rms_norm({t(256, 768)}, (768,), {t(768)}, 1e-5)",
                    f"rms_norm({t(4096, 256, dt=BF16)}, (256,), {t(256, dt=BF16)}, 1e-5)",
                    f"rms_norm({t(4096, 256, dt=BF16)}, (256,), {t(256, dt=BF16)}, 1e-5, mode='static_persistent')",
                    f"rms_norm({t(256, 18432)}, (18432,), {t(18432)}, 1e-5, mode='static_persistent')",
                    bwd(f"rms_norm({t(256, 768, grad=True)}, (768,), {t(768, grad=True)}, 1e-5)"),
                    bwd(f"rms_norm({t(4096, 256, dt=BF16, grad=True)}, (256,), {t(256, dt=BF16, grad=True)}, 1e-5)")],
    "rope.py": [f"apply_rope_base({t(1, 32, 128, 64, dt=F32)}, {t(1, 32, 128, 64, dt=F32)}, "
                f"{t(1, 128, 64, dt=F32)}, {t(1, 128, 64, dt=F32)})",
                f"apply_rope_base({t(2, 32, 128, 64, dt=BF16)}, {t(2, 8, 128, 64, dt=BF16)}, "
                f"{t(2, 128, 64, dt=BF16)}, {t(2, 128, 64, dt=BF16)})"],
    "attention.py": [f"tile_fmha({t(1, 32, 2047, 128)}, {t(1, 32, 2047, 128)}, {t(1, 32, 2047, 128)}, is_causal=True)",
                     f"tile_fmha({t(2, 32, 1024, 128, dt=BF16)}, {t(2, 32, 1024, 128, dt=BF16)}, "
                     f"{t(2, 32, 1024, 128, dt=BF16)}, is_causal=False)",
                     bwd(f"tile_fmha_with_backward({t(1, 8, 1024, 128, grad=True)}, {t(1, 8, 1024, 128, grad=True)}, "
                         f"{t(1, 8, 1024, 128, grad=True)})"),
                     bwd(f"tile_fmha_with_backward({t(2, 8, 512, 64, dt=BF16, grad=True)}, "
                         f"{t(2, 8, 512, 64, dt=BF16, grad=True)}, {t(2, 8, 512, 64, dt=BF16, grad=True)}, "
                         "is_causal=False)")],
    "flash_decode.py": [f"fmha_decode({t(1, 32, 1, 128)}, {t(1, 8, 8192, 128)}, {t(1, 8, 8192, 128)}, None)",
                        f"fmha_decode({t(1, 32, 1, 128)}, {t(1, 32, 256, 128)}, {t(1, 32, 256, 128)}, None)",
                        f"fmha_decode({t(4, 32, 1, 128)}, {t(4, 8, 1024, 128)}, {t(4, 8, 1024, 128)}, None)"],
    "mla.py": [f"tile_mla({t(4, 32, 512, 128, dt=BF16)}, {t(4, 32, 512, 128, dt=BF16)}, {t(4, 32, 512, 128, dt=BF16)}, "
               f"{t(4, 32, 512, 64, dt=BF16)}, {t(4, 1, 512, 64, dt=BF16)}, True, None)",
               f"tile_mla({t(2, 32, 1024, 128)}, {t(2, 32, 1024, 128)}, {t(2, 32, 1024, 128)}, "
               f"{t(2, 32, 1024, 64)}, {t(2, 1, 1024, 64)}, True, None)"],
    "mla_decoding.py": [f"mla_decoding({t(8, 16, 512)}, {t(8, 16, 64)}, {t(8, 1024, 512)}, {t(8, 1024, 64)}, 0.1)",
                        f"mla_decoding({t(2, 32, 512)}, {t(2, 32, 64)}, {t(2, 2048, 512)}, {t(2, 2048, 64)}, 0.1)"],
    "mla_decoding_split_kv.py": [f"mla_decoding_split_kv({t(1, 16, 512)}, {t(1, 16, 64)}, {t(1, 1024, 512)}, "
                                 f"{t(1, 1024, 64)}, None, 128)",
                                 f"mla_decoding_split_kv({t(1, 32, 512)}, {t(1, 32, 64)}, {t(1, 8192, 512)}, "
                                 f"{t(1, 8192, 64)}, None, 512)",
                                 f"mla_decoding_split_kv({t(4, 16, 512)}, {t(4, 16, 64)}, {t(4, 1024, 512)}, "
                                 f"{t(4, 1024, 64)}, None, 128)"],
    "experimental/swa_attention.py": [f"tile_swa_attention({t(2, 8, 256, 128)}, {t(2, 8, 256, 128)}, "
                                      f"{t(2, 8, 256, 128)}, 128)",
                                      f"tile_swa_attention({t(1, 1, 100, 128)}, {t(1, 1, 100, 128)}, "
                                      f"{t(1, 1, 100, 128)}, 64)",
                                      f"tile_swa_attention({t(1, 4, 1024, 128)}, {t(1, 4, 1024, 128)}, "
                                      f"{t(1, 4, 1024, 128)}, 256)"],
    "recurrent_gated_delta_rule.py": [
        f"recurrent_gated_delta_rule({t(2, 128, 4, 128, dt=BF16)}, {t(2, 128, 4, 128, dt=BF16)}, "
        f"{t(2, 128, 4, 128, dt=BF16)}, {t(2, 128, 4, dt=F32)}, {t(2, 128, 4, dt=BF16)})",
        f"recurrent_gated_delta_rule({t(1, 1, 4, 128, dt=BF16)}, {t(1, 1, 4, 128, dt=BF16)}, "
        f"{t(1, 1, 4, 128, dt=BF16)}, {t(1, 1, 4, dt=F32)}, {t(1, 1, 4, dt=BF16)}, "
        f"{t(1, 4, 128, 128, dt=F32)}, True)",
        f"recurrent_gated_delta_rule({t(8, 1, 16, 128, dt=BF16)}, {t(8, 1, 16, 128, dt=BF16)}, "
        f"{t(8, 1, 16, 128, dt=BF16)}, {t(8, 1, 16, dt=F32)}, {t(8, 1, 16, dt=BF16)}, "
        f"{t(8, 16, 128, 128, dt=F32)}, True)"],
    # kernels that do not translate yet: their specs are proven as coverage grows
    "attention_sink_decode.py": [f"attention_sink_decode({t(1, 1, 8, 8, 64, dt=BF16)}, {t(1, 10919, 8, 64, dt=BF16)}, {t(1, 10919, 8, 64, dt=BF16)}, {t(64, dt=BF16)}, 0.125, None, torch.tensor([0], dtype=torch.int32))",
                                 f"attention_sink_decode({t(2, 1, 8, 8, 64, dt=BF16)}, {t(2, 128, 8, 64, dt=BF16)}, {t(2, 128, 8, 64, dt=BF16)}, {t(64, dt=BF16)}, 0.125, 128, torch.tensor([5], dtype=torch.int32))"],
    "dropout.py": ["dropout(torch.rand(4096), 42, 0.4)", f"dropout(torch.rand(65536, {F16}), 42, 0.8)"],
    "splitk_reduce.py": [f"splitk_reduce({t(1, 16, 8, 512)}, {t(1, 16, 8, dt=F32)}, torch.empty(1, 16, 512, {F16}), 4096)",
                         f"splitk_reduce({t(2, 32, 16, 512, dt=BF16)}, {t(2, 32, 16, dt=F32)}, torch.empty(2, 32, 512, {BF16}), 8192)"],
    "layer_norm_legacy.py": [f"persistent_layer_norm({t(4096, 512, dt=BF16)}, (512,), {t(512, dt=BF16)}, {t(512, dt=BF16)}, 1e-5)",
                             f"persistent_layer_norm({t(1024, 1024, dt=BF16)}, (1024,), {t(1024, dt=BF16)}, {t(1024, dt=BF16)}, 1e-5)",
],
    "activation/geglu.py": [bwd_ones(f"geglu({t(64, 16, 4, grad=True)}, 2, 'none')"),
                            bwd_ones(f"geglu({t(16, 4, dt=F32, grad=True)}, 1, 'tanh')")],
    "gemma_attention.py": [f"gemma_attention_cutile({t(1, 8, 128, 64)}, {t(1, 8, 128, 64)}, {t(1, 8, 128, 64)}, window_size=64, soft_cap=10.0)",
                           f"gemma_attention_cutile({t(1, 12, 512, 256, dt=BF16)}, {t(1, 4, 512, 256, dt=BF16)}, {t(1, 4, 512, 256, dt=BF16)}, window_size=0, soft_cap=30.0)"],
    "gemma_attention_decode.py": [f"gemma_fmha_decode({t(1, 8, 1, 64)}, {t(1, 8, 256, 64)}, {t(1, 8, 256, 64)}, window_size=64, soft_cap=10.0)",
                                  f"gemma_fmha_decode({t(1, 8, 1, 64, dt=BF16)}, {t(1, 8, 10019, 64, dt=BF16)}, {t(1, 8, 10019, 64, dt=BF16)}, window_size=256, soft_cap=50.0)"],
    "moe_align_block.py": ["moe_align_block_size(torch.randint(0, 8, (64, 2), dtype=torch.int32), 16, 8)",
                           "moe_align_block_size(torch.randint(0, 64, (4096, 8), dtype=torch.long), 64, 64)"],
    "chunk_gated_delta_rule.py": [f"chunk_gated_delta_rule({t(2, 256, 4, 128, dt=BF16)}, {t(2, 256, 4, 128, dt=BF16)}, {t(2, 256, 4, 128, dt=BF16)}, {t(2, 256, 4, dt=BF16)}, {t(2, 256, 4, dt=BF16)})",
                                  f"chunk_gated_delta_rule({t(1, 512, 8, 128, dt=F32)}, {t(1, 512, 8, 128, dt=F32)}, {t(1, 512, 8, 128, dt=F32)}, {t(1, 512, 8, dt=F32)}, {t(1, 512, 8, dt=F32)})"],
    # start_q as an int: a CPU tensor would be moved with .cuda(); one sink per query head, its length written
    # as q's heads (kv heads x group) so that a drawn shape keeps it so (an extent literal would be drawn apart)
    "attention_sink.py": [
        f"(lambda q: attention_sink(q, {t(1, 2048, 8, 64, dt=BF16)}, {t(1, 2048, 8, 64, dt=BF16)}, "
        f"torch.randn(q.shape[2] * q.shape[3], {BF16}), 0.125, None, 0))({t(1, 128, 8, 8, 64, dt=BF16)})",
        f"(lambda q: attention_sink(q, {t(2, 2048, 8, 128, dt=BF16)}, {t(2, 2048, 8, 128, dt=BF16)}, "
        f"torch.randn(q.shape[2] * q.shape[3], {BF16}), 0.125, 128, 5))({t(2, 128, 8, 8, 128, dt=BF16)})"],
    "linear_gluact_linear.py": [
        f"linear_gluact_linear({t(512, 1024, dt=BF16)}, {t(2816, 1024, dt=BF16)}, {t(2816, 1024, dt=BF16)}, "
        f"{t(1024, 2816, dt=BF16)})",
        f"linear_gluact_linear({t(128, 4096)}, {t(1024, 4096)}, {t(1024, 4096)}, {t(4096, 1024)})"],
    "experimental/fused_linear_cross_entropy.py": [
        f"fused_linear_cross_entropy({t(1024, 512, dt=BF16)}, {t(32000, 512, dt=BF16)}, torch.randint(0, 32000, (1024,)))",
        f"fused_linear_cross_entropy({t(256, 1024, dt=F32)}, {t(8192, 1024, dt=F32)}, torch.randint(0, 8192, (256,)))"],
    "attention_varlen.py": [
        f"tile_fmha_varlen({t(1, 32, 1024, 128)}, {t(1, 32, 1024, 128)}, {t(1, 32, 1024, 128)}, "
        "q_lens=torch.tensor([512, 512]), kv_lens=torch.tensor([512, 512]))",
        f"tile_fmha_varlen({t(1, 8, 768, 64, dt=BF16)}, {t(1, 8, 768, 64, dt=BF16)}, {t(1, 8, 768, 64, dt=BF16)}, "
        "q_lens=torch.tensor([256, 512]), kv_lens=torch.tensor([256, 512]))"],
}


def _arr(dtype: str, *shape: int) -> dict:
    strides = [1]
    for d in reversed(shape[1:]):
        strides.insert(0, strides[0] * d)
    return {"align": 256, "dtype": dtype, "shape": list(shape), "strides": strides}


def _layer_norm(n: int, c: int, w: int, dtype: str, tag: str) -> dict:
    """layer_norm.py's tiled launch (W >= 16), as its host code computes it: the host code allocates its
    statistics with ``device="cuda"``, which a CPU capture cannot run."""
    bw = min(1024, 1 << (w - 1).bit_length())
    bc = min(65536 // bw // (2 if dtype != "float32" else 4), 1 << (c - 1).bit_length(), 1024)
    return {"kernel": "_layer_norm_fwd_kernel", "name": f"_layer_norm_fwd_kernel__{tag}_{n}x{c}x{w}",
            "args": {"x": _arr(dtype, n, c, w), "y": _arr(dtype, n, c, w), "w": _arr(dtype, c), "b": _arr(dtype, c),
                     "mean": _arr("float32", n, w), "rstd": _arr("float32", n, w), "C": c, "W": w, "EPS": 1e-05,
                     "WEIGHT_SHIFT": 0.0, "BLOCK_SIZE_C": bc, "BLOCK_SIZE_W": bw},
            "grid": [str(n), str(-(-w // bw)), "1"], "sites": ["layer_norm.py:400"]}


def _w8a8(m: int, n: int, k: int, out: str, cfg: dict, hints: dict, site: int) -> dict:
    """fp8_quantization_matmul.py's launch as its host code computes it (block_size [128, 128], fp8 e4m3 A and B,
    f32 per-block scales; ``cfg``: BLOCK_SIZE_M, swap_ab, use_tma of an autotune config or of kernel_configs).
    A CPU capture cannot run it: the fp8 inputs and its host path need CUDA."""
    bn = bk = 128
    kg, ng = -(-k // bk), -(-n // bn)
    code = {"float32": 0, "float16": 1, "bfloat16": 2}[out]
    bm = cfg["BLOCK_SIZE_M"]
    args = {"A": _arr("float8_e4m3fn", m, k), "B": _arr("float8_e4m3fn", n, k), "C": _arr(out, m, n),
            "As": _arr("float32", m, kg), "Bs": _arr("float32", ng, kg), "M": m, "N": n, "K": k,
            "GROUP_N": bn, "GROUP_K": bk, "STRIDE_AM": k, "STRIDE_AK": 1, "STRIDE_BK": 1, "STRIDE_BN": k,
            "STRIDE_CM": n, "STRIDE_CN": 1, "STRIDE__AS_M": kg, "STRIDE__AS_K": 1, "STRIDE__BS_K": 1,
            "STRIDE__BS_N": kg, "BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 16,
            "OUTPUT_DTYPE": code, "SWAP_AB": int(cfg["swap_ab"]), "USE_TMA": int(cfg["use_tma"])}
    tag = f"{out}_{m}x{n}x{k}_BM{bm}_SWAP{int(cfg['swap_ab'])}_TMA{int(cfg['use_tma'])}"
    return {"kernel": "_w8a8_block_fp8_matmul_kernel", "name": f"_w8a8_block_fp8_matmul_kernel__{tag}", "args": args,
            "grid": [str(-(-m // bm) * ng), "1", "1"], "hints": hints, "sites": [f"fp8_quantization_matmul.py:{site}"]}


# files whose host code cannot run on a CPU: specs written here from the host code
HAND: dict[str, list[dict]] = {
    # the first autotune config (BLOCK_SIZE_M 16, swap_ab, no TMA), and kernel_configs launches (TMA, both orders)
    "fp8_quantization_matmul.py": [
        _w8a8(256, 1536, 7168, "bfloat16", {"BLOCK_SIZE_M": 16, "swap_ab": True, "use_tma": False},
              {"num_ctas": 1, "occupancy": 1}, 305),
        _w8a8(2048, 4096, 4096, "float16", {"BLOCK_SIZE_M": 64, "swap_ab": False, "use_tma": True},
              {"num_ctas": 1}, 375),
        _w8a8(512, 2048, 1024, "float32", {"BLOCK_SIZE_M": 32, "swap_ab": True, "use_tma": True},
              {"num_ctas": 1, "occupancy": 2}, 375)],
    "layer_norm.py": [_layer_norm(4, 32, 3136, "float16", "f16"), _layer_norm(8, 64, 1024, "bfloat16", "bf16"),
                      _layer_norm(2, 128, 4096, "float32", "f32")],
}


def keep(specs: list[dict]) -> list[dict]:
    """Of one call's specs, per kernel: the first (autotune: the first config) and, when that one has no
    kernel hints, the first one with hints (so a port that drops launch hints is seen)."""
    out = []
    for s in specs:
        mine = [x for x in out if x["kernel"] == s["kernel"]]
        if not mine or (s.get("hints") and not any(x.get("hints") for x in mine) and len(mine) == 1):
            out.append(s)
    return out


def capture(src: Path, rel: str, calls: list[str]) -> tuple[list[dict], str]:
    """The kept specs of every call (one ``ctrs specs`` run per call), or the first error."""
    specs: list[dict] = []
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "s.json"
        for c in calls:
            out.unlink(missing_ok=True)
            cmd = [sys.executable, "-m", "ctrs.workflow.cli", "specs", str(src / corpus.TREES["cutile"] / rel), "-o", str(out),
                   "--call", c]
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
            if res.returncode != 0:
                return [], next((x for x in res.stderr.splitlines() if "error[" in x), res.stderr.strip()[-300:])
            names = {s["name"] for s in specs}
            specs += [s for s in keep(json.loads(out.read_text())) if s["name"] not in names]
    return specs, ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", help="files under tilegym/ops/cutile (default: every one in CALLS)")
    a = ap.parse_args(argv)
    from ctrs import toolchain  # noqa: PLC0415

    src = corpus.fetch(toolchain.cache_root() / "corpus" / corpus.CORPUS)
    bad = 0
    for rel in a.files or sorted({*CALLS, *HAND}):
        specs, err = (HAND[rel], "") if rel in HAND else capture(src, rel, CALLS[rel])
        if err:
            bad += 1
            print(f"{rel}: FAILED {err}")
            continue
        dest = corpus.COMMITTED / "cutile" / Path(rel).with_suffix(".json")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps(specs, indent=1, sort_keys=True) + "\n")
        per = {}
        for s in specs:
            per[s["kernel"]] = per.get(s["kernel"], 0) + 1
        print(f"{rel}: {len(specs)} specs: " + ", ".join(f"{k} {n}" for k, n in per.items()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
