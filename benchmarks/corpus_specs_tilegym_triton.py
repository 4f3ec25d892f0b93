"""Write the committed specialisations of TileGym 1.5.1's Triton kernels (not a test; no torch needed).

    .venv/bin/python benchmarks/corpus_specs_tilegym_triton.py

For each Triton kernel of ``tilegym/ops/triton`` that ctrs translates by rules (``benchmarks/corpus.py``: dropout.py,
layer_norm_legacy.py, rms_norm.py, rope.py), two or more specs at the shapes and dtypes of TileGym's own tests
(``tests/ops/test_<op>.py``, their ``triton`` backend parametrisations) with the constexprs and block sizes its Triton
host code picks for them (``triton.next_power_of_2`` of a row, ``MAX_FUSED_SIZE``, an autotune config's
``BLOCK_SIZE`` / ``BLOCK_SIZE_M`` / ``BLOCK_N``, ``NUM_SMS`` = 132 on an H200, the persistent grids
``min(NUM_SMS, cdiv(rows, BLOCK))``), written to ``benchmarks/corpus/tilegym-1.5.1/triton/<file>.json`` (the path
``corpus.spec_file`` gives a Triton kernel of the corpus).

As for unsloth (benchmarks/corpus_specs_unsloth.py): a spec names every argument of the *port* and of the Triton launch
map (analysis.json ``triton``): arrays, runtime scalars, constexprs (a float constexpr -- ``eps``/``offset`` of
``_rms_norm_kernel`` -- is a float constant: the port takes it as a runtime f32); extents and strides the map reads from
the tensors. Every array of a port shares one element type (the typed front end's ``E``), so a spec gives all arrays
one dtype (TileGym passes f32 mean / rstd next to f16 / bf16 rows: the Triton kernels take either). A parameter the
port reads as a flat array (``_rope_kernel``'s q / k / cos / sin: pointer arithmetic over rows) is a 1-D tensor.
There is no cuTile Python counterpart of these kernels, so ``ctrs check`` refuses them on a CPU (CTRS-E112, no
reference Tile IR); the corpus check tier counts them apart, and the H200 run (benchmarks/h200_tilegym.py bundle)
compares each port with its @triton.jit original numerically.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "corpus" / "tilegym-1.5.1" / "triton"
DT = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "i32": "int32"}
NUM_SMS = 132  # torch.cuda.get_device_properties("cuda").multi_processor_count on an H200
ELEM = {"bf16": 2, "f16": 2, "f32": 4}


def arr(dt: str, *shape: int) -> dict:
    return {"dtype": DT[dt], "shape": list(shape)}


def f32(v: float) -> dict:
    return {"scalar": "float32", "value": v}


def i32(v: int) -> dict:
    return {"scalar": "int32", "value": v}


def pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


# ------------------------------------------------------------------------------------------ dropout.py
# test_dropout.py: (m, p, dtype) in (2**10, 0.2, f32), (2**12, 0.4, f32), (2**16, 0.8, f32), (2**16, 0.8, f16);
# _Dropout.forward launches _seeded_dropout[cdiv(n, BLOCK_SIZE)](x, output, n, p, seed), BLOCK_SIZE from the autotune
# configs (1024 / 2048 / 4096 off the nvt backend), USE_PHILOX its default True (tl.rand: Philox).
DROPOUT = (("f32", 1 << 10, 0.2, 1024, 42), ("f32", 1 << 12, 0.4, 2048, 1234), ("f32", 1 << 16, 0.8, 4096, 7),
           ("f16", 1 << 16, 0.8, 1024, 2024))


def seeded_dropout() -> list[dict]:
    out = []
    for dt, n, p, bs, seed in DROPOUT:
        args = {"x_ptr": arr(dt, n), "output_ptr": arr(dt, n), "p": f32(p), "seed": i32(seed), "BLOCK_SIZE": bs,
                "USE_PHILOX": 1}
        out.append({"name": f"{dt}_n{n}_p{p}_bs{bs}", "kernel": "_seeded_dropout", "args": args,
                    "grid": [f"cdiv(x_ptr.shape[0], {bs})"]})
    return out


# ------------------------------------------------------------------------------------------ layer_norm_legacy.py
# test_layer_norm_legacy.py TestLayerNormLegacy: (m, n, weight_shift, dtype) in (256, 256, 0.0, f16),
# (256, 256, 0.0, f32), (256, 256, 1.0, f16), (9, 9, 0.0, f16), eps 1e-5; _LayerNorm.forward: one program per row,
# BLOCK_SIZE = min(65536 // element size, next_power_of_2(n)).
LAYER_NORM = (("f16", 256, 256, 0.0), ("f32", 256, 256, 0.0), ("f16", 256, 256, 1.0), ("f16", 9, 9, 0.0))


def layer_norm_fwd_fused() -> list[dict]:
    out = []
    for dt, m, n, shift in LAYER_NORM:
        bs = min(65536 // ELEM[dt], pow2(n))
        args = {"X": arr(dt, m, n), "Y": arr(dt, m, n), "W": arr(dt, n), "B": arr(dt, n), "Mean": arr(dt, m),
                "Rstd": arr(dt, m), "eps": f32(1e-5), "weight_shift": f32(shift), "BLOCK_SIZE": bs}
        out.append({"name": f"{dt}_{m}x{n}_shift{shift:g}", "kernel": "_layer_norm_fwd_fused", "args": args,
                    "grid": [str(m)]})
    return out


# TestPersistentLayerNorm: (m, n, dtype) in (256, 256, bf16), (1024, 1024, bf16), (4096, 512, bf16),
# (30000, 1024, bf16), eps 1e-6; _triton_persistent_layer_norm_fwd: TMA descriptors of x [BLOCK_N, BLOCK_D] and
# w / b [BLOCK_D], BLOCK_D = next_power_of_2(n), BLOCK_N from the autotune configs (2 ... 32), IS_SWISH False,
# TRAINING True, COMPUTE_MEAN_AND_RSTD True (no mean / rstd given), grid min(NUM_SMS, cdiv(m, BLOCK_N)).
PERSISTENT_LAYER_NORM = (("bf16", 256, 256, 4), ("bf16", 1024, 1024, 8), ("bf16", 4096, 512, 16),
                         ("bf16", 30000, 1024, 32))


def persistent_layer_norm_fwd() -> list[dict]:
    out = []
    for dt, m, n, bn in PERSISTENT_LAYER_NORM:
        args = {"x_desc": arr(dt, m, n), "Y": arr(dt, m, n), "w_desc": arr(dt, n), "b_desc": arr(dt, n),
                "Mean": arr(dt, m), "Rstd": arr(dt, m), "eps": f32(1e-6), "IS_SWISH": 0, "TRAINING": 1,
                "BLOCK_N": bn, "BLOCK_D": pow2(n), "COMPUTE_MEAN_AND_RSTD": 1, "NUM_SMS": NUM_SMS}
        out.append({"name": f"{dt}_{m}x{n}_n{bn}", "kernel": "_persistent_layer_norm_fwd", "args": args,
                    "grid": [str(min(NUM_SMS, cdiv(m, bn)))]})
    return out


# ------------------------------------------------------------------------------------------ rms_norm.py
# test_rms_norm.py test_op: (m, n, dtype) in (256, 256, f16), (256, 768, f16), (256, 18432, f16), (4096, 256, bf16),
# (31072, 4096, bf16), (256, 256, f32), eps 1e-5, offset 0.0; modes None / static_persistent / multi_wave_reload
# (mode None: static persistent when m > 2 * NUM_SMS; static persistent is skipped for n > 16384).
# multi_wave_reload: _rms_norm_kernel[(m,)], BLOCK_SIZE = min(4096 // element size, next_power_of_2(n)).
RMS_NORM = (("f16", 256, 768), ("f16", 256, 18432), ("bf16", 4096, 256), ("f32", 256, 256))


def rms_norm_kernel() -> list[dict]:
    out = []
    for dt, m, n in RMS_NORM:
        bs = min(4096 // ELEM[dt], pow2(n))
        args = {"X": arr(dt, m, n), "W": arr(dt, n), "Y": arr(dt, m, n), "Rstd": arr(dt, m), "N": n, "eps": 1e-5,
                "offset": 0.0, "BLOCK_SIZE": bs}
        out.append({"name": f"{dt}_{m}x{n}_bs{bs}", "kernel": "_rms_norm_kernel", "args": args, "grid": [str(m)]})
    return out


# static_persistent: TMA descriptors of x [BLOCK_SIZE_M, BLOCK_SIZE_N] and w (and bias) [BLOCK_SIZE_N],
# BLOCK_SIZE_N = next_power_of_2(n), BLOCK_SIZE_M from the autotune configs (2 / 4 / 8 / 16, kept when
# BLOCK_SIZE_N * BLOCK_SIZE_M / (num_warps * 32) <= 256), grid min(NUM_SMS, cdiv(m, BLOCK_SIZE_M)). The tests pass no
# bias (USE_BIAS False: b_ptr unused, an array of the row's extent here); rms_norm(..., bias=b) takes this path with
# USE_BIAS True, the f32 spec's.
RMS_NORM_PERSISTENT = (("f16", 256, 768, 4, 0), ("bf16", 4096, 256, 16, 0), ("f32", 256, 256, 8, 1),
                       ("bf16", 31072, 4096, 2, 0))


def rms_norm_kernel_static_persistent() -> list[dict]:
    out = []
    for dt, m, n, bm, bias in RMS_NORM_PERSISTENT:
        args = {"X": arr(dt, m, n), "Y": arr(dt, m, n), "w_desc": arr(dt, n), "b_ptr": arr(dt, n), "eps": f32(1e-5),
                "offset": 0.0, "BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": pow2(n), "USE_BIAS": bias, "NUM_SMS": NUM_SMS}
        out.append({"name": f"{dt}_{m}x{n}_m{bm}{'_bias' if bias else ''}",
                    "kernel": "_rms_norm_kernel_static_persistent", "args": args,
                    "grid": [str(min(NUM_SMS, cdiv(m, bm)))]})
    return out


# ------------------------------------------------------------------------------------------ rope.py
# test_rope.py: q (bsz, n_qh, seq, hd) and k (bsz, n_kh, seq, hd), cos / sin (bsz, seq, rope_dim) from
# LlamaRotaryEmbedding at position ids expanded to bsz (so cos_bs = bsz), in the data's dtype. test_op (f32; bf16 is
# skipped) and test_op_backward (f32, f16) call apply_rope_base with use_tma=True: full RoPE goes through
# _rope_forward_tma, partial RoPE (and every backward) through _rope_kernel.
# _rope_forward_tma: q / k reshaped to (bsz, heads, seq, 2, hd // 2), cos / sin to (cos_bs, seq, 2, hd // 2) (cos of
# the full head dim), descriptors [1, BLOCK_QH|BLOCK_KH, 1, 1, BLOCK_HD] / [1, 1, 1, BLOCK_HD], BLOCK_HD =
# next_power_of_2(hd // 2), BLOCK_QH / BLOCK_KH the heads' next power of two; grid bsz * seq. The spec's arrays are
# contiguous in that shape (TileGym's q / k are transposed views of (bsz, seq, heads, hd) storage).
ROPE_TMA = (("f32", 1, 128, 32, 32, 64), ("f32", 2, 128, 32, 8, 64), ("f16", 1, 512, 16, 16, 128),
            ("f16", 2, 128, 32, 8, 64))


def triton_rope_kernel_tma() -> list[dict]:
    out = []
    for dt, b, s, hq, hk, hd in ROPE_TMA:
        half = hd // 2
        args = {"Q_desc": arr(dt, b, hq, s, 2, half), "K_desc": arr(dt, b, hk, s, 2, half),
                "cos_desc": arr(dt, b, s, 2, half), "sin_desc": arr(dt, b, s, 2, half), "cos_bs": b, "seq_len": s,
                "BLOCK_QH": pow2(hq), "BLOCK_KH": pow2(hk), "BLOCK_HD": pow2(half)}
        out.append({"name": f"{dt}_b{b}_s{s}_q{hq}_k{hk}_d{hd}", "kernel": "_triton_rope_kernel_tma", "args": args,
                    "grid": [str(b * s)]})
    return out


# _rope_forward / _rope_backward: q / k (bsz, seq, heads, hd) contiguous, cos / sin (cos_bs, seq, rope_dim); one
# program per (batch, position); row strides heads * hd and rope_dim; pad_* the next powers of two; rope_hd the rotated
# dims (partial_rotary_factor * hd; the backward of a full RoPE passes rope_dim = hd). Forward: test_op's partial
# shapes (f32); backward (BACKWARD_PASS): test_op_backward's (f32 / f16).
ROPE = (("f32", 1, 128, 32, 8, 256, 0.25, 0), ("f32", 2, 128, 32, 8, 128, 0.5, 0), ("f32", 1, 128, 32, 32, 128, 0.5, 0),
        ("f16", 2, 128, 32, 8, 64, 1.0, 1), ("f32", 1, 128, 32, 8, 256, 0.25, 1), ("f16", 1, 512, 16, 16, 128, 1.0, 1))


def rope_kernel() -> list[dict]:
    out = []
    for dt, b, s, hq, hk, hd, frac, bwd in ROPE:
        rope = int(hd * frac)
        args = {"q": arr(dt, b * s * hq * hd), "q_row_stride": i32(hq * hd), "k": arr(dt, b * s * hk * hd),
                "k_row_stride": i32(hk * hd), "cos": arr(dt, b * s * rope), "cos_row_stride": i32(rope),
                "sin": arr(dt, b * s * rope), "sin_row_stride": i32(rope), "sl": i32(s), "bs": b, "cos_bs": b,
                "n_qh": hq, "n_kh": hk, "hd": hd, "pad_n_qh": pow2(hq), "pad_n_kh": pow2(hk), "pad_hd": pow2(hd),
                "BACKWARD_PASS": bwd, "rope_hd": rope, "pad_rope_hd": pow2(rope)}
        out.append({"name": f"{dt}_b{b}_s{s}_q{hq}_k{hk}_d{hd}_rope{rope}{'_bwd' if bwd else ''}",
                    "kernel": "_rope_kernel", "args": args, "grid": [str(b * s)]})
    return out


FILES: dict[str, list[dict]] = {
    "dropout.json": seeded_dropout(),
    "layer_norm_legacy.json": persistent_layer_norm_fwd() + layer_norm_fwd_fused(),
    "rms_norm.json": rms_norm_kernel() + rms_norm_kernel_static_persistent(),
    "rope.json": triton_rope_kernel_tma() + rope_kernel(),
}


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, specs in FILES.items():
        (OUT / name).write_text("[\n" + ",\n".join(json.dumps(s) for s in specs) + "\n]\n")
        print(f"{OUT / name}: {len(specs)} specs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
