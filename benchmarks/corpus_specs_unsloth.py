"""Write the committed specialisations of the unsloth corpus (not a test; no torch needed).

    .venv/bin/python benchmarks/corpus_specs_unsloth.py

For each translated kernel of ``unsloth==2026.10.9`` (``benchmarks/corpus.py --corpus unsloth``), two or more specs
at the shapes unsloth launches them with (hidden sizes 2048-8192, bf16 / f16 / f32; block sizes and flags as its host
code picks them: ``calculate_settings`` -> next power of two of the row, ``BLOCK_SIZE = 1024`` for elementwise
kernels, ``_fp8_rows_config`` for the gemv), written to ``benchmarks/corpus/unsloth-2026.10.9/triton/<file>.json``.

A spec names the arguments of the *port* and of the Triton launch map (analysis.json ``triton``): arrays (the tensor
passed to both), runtime scalars, constexprs; extents and strides the launch map reads from the tensors. Every
array of a port shares one element type (the typed front end's ``E``), so a spec gives all arrays one dtype (unsloth
passes f32 statistics next to bf16 rows: the Triton kernel takes either). A parameter the port reads as a flat
array (a gather/scatter, frontends/triton/gathers.py) is a 1-D tensor of the elements Triton addresses.
There is no cuTile Python counterpart of these kernels: ``ctrs check`` refuses them on a CPU (CTRS-E... "no
reference Tile IR for a Triton kernel"); the lead's H200 run compares port and Triton original numerically.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "corpus" / "unsloth-2026.10.9" / "triton"
DT = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "i32": "int32"}


def arr(dt: str, *shape: int) -> dict:
    return {"dtype": DT[dt], "shape": list(shape)}


def i32(v: int) -> dict:
    return {"scalar": "int32", "value": v}


def pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def elementwise(kernel: str, names: tuple[str, str, str], configs=None) -> list[dict]:
    """swiglu / geglu kernels: three flat buffers of n elements, BLOCK_SIZE 1024, one program per block."""
    out = []
    for dt, (b, s, h) in configs or (("bf16", (2, 512, 4096)), ("f16", (1, 1024, 8192)), ("f32", (4, 256, 2048))):
        n = b * s * h
        args = {x: arr(dt, n) for x in names} | {"n_elements": i32(n), "BLOCK_SIZE": 1024, "LONG_INDEXING": 0}
        out.append({"name": f"{dt}_{b}x{s}x{h}", "kernel": kernel, "args": args,
                    "grid": [f"({names[0]}.shape[0] + 1023) // 1024"]})
    return out


def layernorm_backward(configs=None) -> list[dict]:
    out = []
    for dt, rows, cols in configs or (("bf16", 512, 4096), ("f32", 256, 2048), ("f16", 128, 8192)):
        args = {"dY": arr(dt, rows * cols), "dX": arr(dt, rows * cols), "X": arr(dt, rows * cols), "W": arr(dt, cols),
                "b": i32(0), "r": arr(dt, rows), "mu": arr(dt, rows), "dY_row_stride": cols, "dX_row_stride": cols,
                "X_row_stride": cols, "n_cols": cols, "eps": 0, "LONG_INDEXING": 0, "BLOCK_SIZE": pow2(cols)}
        out.append({"name": f"{dt}_{rows}x{cols}", "kernel": "layernorm_backward", "args": args, "grid": [str(rows)]})
    return out


def layernorm_backward_dw(configs=None) -> list[dict]:
    out = []
    for dt, rows, cols, per in configs or (("bf16", 512, 4096, 4), ("f32", 300, 2048, 8)):
        progs = -(-rows // per)
        args = {"dY": arr(dt, rows * cols), "dX": arr(dt, rows * cols), "X": arr(dt, rows * cols), "W": arr(dt, cols),
                "r": arr(dt, rows), "mu": arr(dt, rows), "dW": arr(dt, progs * cols), "dB": arr(dt, progs * cols),
                "n_rows": i32(rows), "rows_per_program": i32(per), "dY_row_stride": cols, "dX_row_stride": cols,
                "X_row_stride": cols, "n_cols": cols, "LONG_INDEXING": 0, "BLOCK_SIZE": pow2(cols), "TRAIN_W": 1,
                "TRAIN_B": 1}
        out.append({"name": f"{dt}_{rows}x{cols}_per{per}", "kernel": "layernorm_backward_dw", "args": args,
                    "grid": [str(progs)]})
    return out


def layernorm_sum_partials(configs=None) -> list[dict]:
    """_layernorm_sum_partials: partials of (W, B) x programs x n_cols summed per column into out0 / out1."""
    out = []
    for dt, progs, cols in configs or (("f32", 132, 4096), ("bf16", 264, 2048), ("f16", 66, 8192)):
        args = {"partials": arr(dt, 2 * progs * cols), "out0": arr(dt, cols), "out1": arr(dt, cols),
                "n_programs": i32(progs), "BLOCK_ROWS": 64, "BLOCK_COLS": 64}
        out.append({"name": f"{dt}_{progs}x{cols}_sum", "kernel": "_layernorm_sum_partials", "args": args,
                    "grid": ["(out0.shape[0] + 63) // 64", "2"]})
    return out


def rms_backward(configs=None) -> list[dict]:
    out = []
    for dt, rows, cols, train, per in configs or (("bf16", 512, 4096, 1, 4), ("f32", 256, 2048, 0, 1), ("f16", 64, 8192, 1, 2)):
        progs = -(-rows // per)
        args = {"dY": arr(dt, rows * cols), "dX": arr(dt, rows * cols), "X": arr(dt, rows * cols), "W": arr(dt, cols),
                "r": arr(dt, rows), "dW": arr(dt, progs * cols), "n_rows": i32(rows), "rows_per_program": i32(per),
                "dY_row_stride": cols, "dX_row_stride": cols, "X_row_stride": cols, "W_row_stride": cols,
                "r_row_stride": 1, "n_cols": cols, "eps": 0, "GEMMA": 0, "LONG_INDEXING": 0,
                "BLOCK_SIZE": pow2(cols), "TRAIN_W": train, "FROM_Y": 0}
        out.append({"name": f"{dt}_{rows}x{cols}_train{train}", "kernel": "_rms_layernorm_backward", "args": args,
                    "grid": [str(progs)]})
    return out


def f32(v: float) -> dict:
    return {"scalar": "float32", "value": v}


def rms_forward(kernel: str, configs=None) -> list[dict]:
    out = []
    for dt, rows, cols in configs or (("bf16", 1024, 4096), ("f16", 256, 8192), ("f32", 512, 2048)):
        args = {"Y": arr(dt, rows * cols), "X": arr(dt, rows * cols), "W": arr(dt, cols), "r": arr(dt, rows),
                "Y_row_stride": cols, "X_row_stride": cols, "W_row_stride": 0, "r_row_stride": 1, "n_cols": cols,
                "eps": f32(1e-6), "LONG_INDEXING": 0, "BLOCK_SIZE": pow2(cols)}
        out.append({"name": f"{dt}_{rows}x{cols}", "kernel": kernel, "args": args, "grid": [str(rows)]})
    return out


def layernorm_forward(configs=None) -> list[dict]:
    out = []
    for dt, rows, cols, bias in configs or (("bf16", 512, 4096, 1), ("f32", 256, 2048, 0), ("f16", 128, 8192, 1)):
        args = {"Y": arr(dt, rows * cols), "X": arr(dt, rows * cols), "W": arr(dt, cols), "b": arr(dt, cols),
                "r": arr(dt, rows), "mu": arr(dt, rows), "Y_row_stride": cols, "X_row_stride": cols, "n_cols": cols,
                "eps": f32(1e-5), "LONG_INDEXING": 0, "BLOCK_SIZE": pow2(cols), "HAS_BIAS": bias}
        out.append({"name": f"{dt}_{rows}x{cols}_bias{bias}", "kernel": "layernorm_forward", "args": args,
                    "grid": [str(rows)]})
    return out


def add_rms_inference(configs=None) -> list[dict]:
    out = []
    for dt, rows, cols, res in configs or (("bf16", 64, 4096, 1), ("f16", 16, 8192, 1), ("f32", 128, 2048, 0)):
        args = {"X": arr(dt, rows, cols), "R": arr(dt, rows, cols), "W": arr(dt, cols), "n_cols": cols,
                "eps": f32(1e-6), "HAS_RESIDUAL": res, "BLOCK_SIZE": pow2(cols)}
        out.append({"name": f"{dt}_{rows}x{cols}_res{res}", "kernel": "_add_rms_layernorm_inference", "args": args,
                    "grid": [str(rows)]})
    return out


def rms_sum_dw(configs=None) -> list[dict]:
    out = []
    for dt, progs, cols in configs or (("bf16", 132, 4096), ("f32", 264, 2048), ("f16", 66, 8192)):
        args = {"partials": arr("f32", progs, cols), "dW": arr(dt, cols), "BLOCK_ROWS": 16, "BLOCK_COLS": 128}
        out.append({"name": f"{dt}_{progs}x{cols}", "kernel": "_rms_sum_dw_partials", "args": args,
                    "grid": ["(dW.shape[0] + 127) // 128"]})
    return out


def fp8_gemv(configs=None) -> list[dict]:
    out = []
    for dt, n, k, bn, bk in configs or (("bf16", 4096, 4096, 32, 256), ("f16", 2048, 8192, 16, 256), ("f32", 8192, 2048, 32, 256)):
        args = {"x_ptr": arr(dt, k), "w_ptr": arr(dt, n, k), "s_ptr": arr(dt, n), "y_ptr": arr(dt, n),
                "BLOCK_N": bn, "BLOCK_K": bk, "LONG_INDEXING": 0}
        out.append({"name": f"{dt}_{n}x{k}", "kernel": "_fp8_rowwise_gemv_kernel", "args": args,
                    "grid": [f"(w_ptr.shape[0] + {bn - 1}) // {bn}"]})
    return out


def fp8_rows_reduce(configs=None) -> list[dict]:
    out = []
    for dt, m, n, split in configs or (("f32", 4, 4096, 8), ("bf16", 16, 2048, 8), ("f16", 8, 8192, 1)):
        args = {"p_ptr": arr(dt, split * m * n), "s_ptr": arr(dt, n), "y_ptr": arr(dt, m * n), "M": i32(m),
                "N": i32(n), "SPLIT_K": split, "BLOCK": 1024}
        out.append({"name": f"{dt}_{m}x{n}_split{split}", "kernel": "_fp8_rowwise_gemv_rows_reduce", "args": args,
                    "grid": ["(y_ptr.shape[0] + 1023) // 1024"]})
    return out


def lh_bwd_pre(configs=None) -> list[dict]:
    out = []
    for dt, b, h, s, d in configs or (("bf16", 2, 16, 1024, 256), ("f16", 1, 8, 2048, 512), ("f32", 2, 4, 512, 256)):
        args = {"O": arr(dt, b, h, s, d), "DO": arr(dt, b, h, s, d), "DELTA": arr(dt, b * h, s), "H": i32(h),
                "HEAD_DIM": d, "BLOCK_M": 16}
        out.append({"name": f"{dt}_{b}x{h}x{s}x{d}", "kernel": "_lh_bwd_pre", "args": args,
                    "grid": ["(O.shape[2] + 15) // 16", f"{b * h}"]})
    return out


def lh_fwd(configs=None) -> list[dict]:
    """Large-head attention forward (unsloth's _fwd_impl: head dim 512, GQA G = H // HKV, one program per BLOCK_M
    query rows of one head). LO / HI are the int32 key interval of each query row ([B, S]: the port's int32 entry
    of their dtype variables, a loop bound); K / V are read flat. All float arrays share the one element type."""
    out = []
    for dt, b, h, hkv, s, bm, bn in configs or (("bf16", 1, 8, 2, 2048, 32, 32), ("f16", 2, 4, 4, 1024, 16, 16)):
        d = 512
        args = {"Q": arr(dt, b, h, s, d), "K": arr(dt, b * hkv * s * d), "V": arr(dt, b * hkv * s * d),
                "O": arr(dt, b, h, s, d), "LSE": arr(dt, b * h, s), "LO": arr("i32", b * s), "HI": arr("i32", b * s),
                "qk_scale": f32(1.4426950408889634 / math.sqrt(d)), "skb": hkv * s * d, "skh": s * d, "skn": d,
                "svb": hkv * s * d, "svh": s * d, "svn": d, "H": i32(h), "G": i32(h // hkv),
                "HEAD_DIM": d, "BLOCK_M": bm, "BLOCK_N": bn}
        out.append({"name": f"{dt}_{b}x{h}x{s}x{d}_g{h // hkv}_m{bm}n{bn}", "kernel": "_lh_fwd", "args": args,
                    "grid": [f"(Q.shape[2] + {bm - 1}) // {bm}", f"{b * h}"]})
    return out


def lh_bwd_dkdv(configs=None) -> list[dict]:
    """Large-head attention dK / dV (unsloth's _bwd_impl: one program per BLOCK_N keys of one kv head, looping over
    its G query heads between QLO / QHI, int32 [B, S] like LO / HI). Q / DO / LSE / DELTA are read flat."""
    out = []
    for dt, b, h, hkv, s, bm, bn in configs or (("bf16", 1, 8, 2, 2048, 16, 32), ("f16", 2, 4, 4, 1024, 32, 32)):
        d = 512
        args = {"Q": arr(dt, b * h * s * d), "K": arr(dt, b, hkv, s, d), "V": arr(dt, b, hkv, s, d),
                "DO": arr(dt, b * h * s * d), "DK": arr(dt, b, hkv, s, d), "DV": arr(dt, b, hkv, s, d),
                "LSE": arr(dt, b * h * s), "DELTA": arr(dt, b * h * s), "LO": arr("i32", b * s),
                "HI": arr("i32", b * s), "QLO": arr("i32", b * s), "QHI": arr("i32", b * s),
                "qk_scale": f32(1.4426950408889634 / math.sqrt(d)), "sm_scale": f32(1 / math.sqrt(d)),
                "sqb": h * s * d, "sqh": s * d, "sqm": d, "sdob": h * s * d, "sdoh": s * d, "sdom": d,
                "HKV": i32(hkv), "G": i32(h // hkv), "HEAD_DIM": d, "BLOCK_M": bm, "BLOCK_N": bn}
        out.append({"name": f"{dt}_{b}x{h}x{s}x{d}_g{h // hkv}_m{bm}n{bn}", "kernel": "_lh_bwd_dkdv", "args": args,
                    "grid": [f"(K.shape[2] + {bn - 1}) // {bn}", f"{b * hkv}"]})
    return out


def split_sum(configs=None) -> list[dict]:
    out = []
    for dt, m, n, split in configs or (("f32", 64, 4096, 4), ("bf16", 16, 8192, 2), ("f16", 128, 2048, 8)):
        args = {"partial_ptr": arr(dt, split * m * n), "out_ptr": arr(dt, m * n), "SPLIT": split, "BLOCK": 1024}
        out.append({"name": f"{dt}_{m}x{n}_split{split}", "kernel": "_split_sum_kernel", "args": args,
                    "grid": ["(out_ptr.shape[0] + 1023) // 1024"]})
    return out


def cross_entropy_forward() -> list[dict]:
    """One program per row, the whole vocab in one block (unsloth's path for vocab <= MAX_FUSED_SIZE = 65536);
    labels share the element type (the port's one E): whole numbers, -100 for an ignored row is in the data."""
    out = []
    for dt, rows, vocab, cap in (("f32", 64, 32000, 0), ("bf16", 32, 50257, 1), ("f16", 16, 8192, 0)):
        args = {"logits_ptr": arr(dt, rows * vocab), "logits_row_stride": vocab, "loss_ptr": arr(dt, rows),
                "logsumexp_ptr": arr(dt, rows), "labels_ptr": arr(dt, rows), "VOCAB_SIZE": vocab,
                "BLOCK_SIZE": pow2(vocab), "DO_SOFTCAPPING": cap, "SOFTCAP": f32(30.0), "DO_LOGIT_SCALING": 0,
                "LOGIT_SCALE": f32(1.0)}
        out.append({"name": f"{dt}_{rows}x{vocab}_cap{cap}", "kernel": "_cross_entropy_forward", "args": args,
                    "grid": [str(rows)]})
    return out


def chunked_cross_entropy_forward() -> list[dict]:
    """Vocab past 65536 (Gemma 256K, Llama 3 128256): (rows, chunks) programs of BLOCK_SIZE columns each."""
    out = []
    for dt, rows, vocab, block, scale in (("f32", 16, 128256, 65536, 0), ("bf16", 8, 256000, 65536, 1)):
        chunks = -(-vocab // block)
        args = {"logits_ptr": arr(dt, rows * vocab), "logits_row_stride": vocab, "loss_ptr": arr(dt, rows),
                "logsumexp_ptr": arr(dt, rows * chunks), "logsumexp_others_ptr": arr(dt, rows * chunks),
                "labels_ptr": arr(dt, rows), "VOCAB_SIZE": vocab, "N_CHUNKS": chunks, "BLOCK_SIZE": block,
                "DO_SOFTCAPPING": 0, "SOFTCAP": f32(0.0), "DO_LOGIT_SCALING": scale, "LOGIT_SCALE": f32(0.5),
                "EVICT": 0}  # a str constexpr ("" / "evict_first") specs cannot carry: the port drops the hint
        out.append({"name": f"{dt}_{rows}x{vocab}_scale{scale}", "kernel": "_chunked_cross_entropy_forward",
                    "args": args, "grid": [str(rows), str(chunks)]})
    return out


def act_quant() -> list[dict]:
    """Per-128-element blocks of a flat activation: one program per block, its absmax scale in s."""
    out = []
    for dt, m, k in (("bf16", 64, 4096), ("f32", 16, 8192), ("f16", 32, 2048)):
        n = m * k
        args = {"x_ptr": arr(dt, n), "y_ptr": arr(dt, n), "s_ptr": arr(dt, n // 128), "BLOCK_SIZE": 128,
                "LONG_INDEXING": 0}
        out.append({"name": f"{dt}_{m}x{k}", "kernel": "act_quant_kernel", "args": args, "grid": [str(n // 128)]})
    return out


def rms_rows(kernel: str, configs=None) -> list[dict]:
    """The multi-row RMS norm kernels (unsloth runs them for rows of 33..128 columns: per-head QK norm, tokens x
    heads rows): BLOCK_SIZE the row's power of two, ROWS = 4096 // BLOCK_SIZE rows per program, WARPS = BLOCK_SIZE
    // 32 (the CUDA row order, _multirow_settings); the backward with TRAIN_W accumulates dW partials over 132
    programs (_dw_launch), without it dW is r (unused)."""
    out = []
    for dt, rows, cols, train in configs or (("bf16", 4096 * 32, 128, 1), ("f16", 2048 * 16, 64, 0),
                                             ("f32", 1024 * 8, 128, 0)):
        block = pow2(cols)
        per, warps = 4096 // block, block // 32
        blocks = -(-rows // per)
        common = {"X": arr(dt, rows * cols), "W": arr(dt, cols), "r": arr(dt, rows), "n_rows": i32(rows),
                  "X_row_stride": cols, "n_cols": cols, "eps": 0, "GEMMA": 0, "BLOCK_SIZE": block, "ROWS": per,
                  "WARPS": warps, "LONG_INDEXING": 0}
        if kernel == "_rms_layernorm_forward_rows":
            args = {"Y": arr(dt, rows * cols), **common, "Y_row_stride": cols}
            name, grid = f"{dt}_{rows}x{cols}", [str(blocks)]
        else:
            progs, bpp = (132, -(-blocks // 132)) if train else (blocks, 1)
            args = {"dY": arr(dt, rows * cols), "dX": arr(dt, rows * cols), **common,
                    "dW": arr(dt, progs * cols) if train else arr(dt, rows), "blocks_per_program": i32(bpp),
                    "dY_row_stride": cols, "dX_row_stride": cols, "TRAIN_W": train, "FROM_Y": 0}
            name, grid = f"{dt}_{rows}x{cols}_train{train}", [str(progs)]
        out.append({"name": name, "kernel": kernel, "args": args, "grid": grid})
    return out


def weight_dequant(configs=None) -> list[dict]:
    """Block-scaled weight dequant: one (128, 128) block per program, its scale s[pid_m * n + pid_n]
    (weight_dequant's block_size = 128); EXACT_F16 rounds an f16 output exactly (_fp8_exact_f16_round)."""
    out = []
    for dt, m, n, exact in configs or (("bf16", 4096, 4096, 0), ("f16", 2048, 8192, 1), ("f32", 8192, 2048, 0)):
        sm, sn = -(-m // 128), -(-n // 128)
        args = {"x_ptr": arr(dt, m, n), "s_ptr": arr(dt, sm * sn), "y_ptr": arr(dt, m, n), "BLOCK_SIZE": 128,
                "EXACT_F16": exact}
        out.append({"name": f"{dt}_{m}x{n}_exact{exact}", "kernel": "weight_dequant_kernel", "args": args,
                    "grid": [str(sm), str(sn)]})
    return out


def e4m3fn_bytes_dequant(configs=None) -> list[dict]:
    """Raw-byte e4m3 dequant (_e4m3fn_bytes_dequant): (8, 512) tiles (_BYTES_DEQUANT_TILE), 128 x 128 quant
    blocks, a row-major (cdiv(m, 128), cdiv(n, 128)) scale gathered per element."""
    out = []
    for dt, m, n, exact in configs or (("bf16", 4096, 4096, 0), ("f16", 2048, 8192, 1), ("f32", 8192, 2048, 0)):
        sm, sn = -(-m // 128), -(-n // 128)
        args = {"x_ptr": arr(dt, m, n), "s_ptr": arr(dt, sm * sn), "y_ptr": arr(dt, m, n), "stride_sm": i32(sn),
                "stride_sn": i32(1), "BLOCK_M_Q": 128, "BLOCK_N_Q": 128, "BLOCK_R": 8, "BLOCK_C": 512,
                "LONG_INDEXING": 0, "EXACT_F16": exact}
        out.append({"name": f"{dt}_{m}x{n}_exact{exact}", "kernel": "_e4m3fn_bytes_dequant_kernel", "args": args,
                    "grid": [str(-(-m // 8)), str(-(-n // 512))]})
    return out


def nvfp4_dequant(configs=None) -> list[dict]:
    """NVFP4 dequant (_nvfp4_dequantize_triton): packed (rows, half) bytes, one e4m3 scale per 16 outputs,
    (8, 256) byte tiles; every array flat (the port gathers them, half_cols is a stride and a value)."""
    out = []
    for dt, rows, half in configs or (("bf16", 4096, 2048), ("f16", 2048, 4096), ("f32", 8192, 1024)):
        sc = half // 8
        args = {"packed_ptr": arr(dt, rows * half), "scale_ptr": arr(dt, rows * sc), "global_scale_ptr": arr(dt, 1),
                "out_ptr": arr(dt, rows * half * 2), "rows": i32(rows), "half_cols": i32(half), "scale_cols": i32(sc),
                "BLOCK_R": 8, "BLOCK_C": 256, "SCALE_E4M3_BYTES": 0, "INT64_OFFSETS": 0}
        out.append({"name": f"{dt}_{rows}x{2 * half}", "kernel": "_nvfp4_dequant_kernel", "args": args,
                    "grid": [str(-(-rows // 8)), str(-(-half // 256))]})
    return out


def nvfp4_matmul(kernel: str, configs=None) -> list[dict]:
    """The fused NVFP4 matmuls (_nvfp4_matmul_fwd_fused / _dx_fused): _fused_config's blocks for M rows, no
    split (the output is the (1, M, n_out) partial); fwd reduces over K (x [M, K] @ W^T), dx over N (g [M, N] @ W);
    the packed weight is (N, K / 2), its scales (N, K / 16)."""
    out = []
    dx = kernel == "_nvfp4_matmul_dx_kernel"
    for dt, m, n, k in configs or (("bf16", 16, 4096, 4096), ("f16", 64, 2048, 8192), ("f32", 128, 8192, 2048)):
        n_out, red = (k, n) if dx else (n, k)
        if m <= 16:
            bm, bo, br = (16, 128, 64) if dx else (16, 64, 128)
        elif m <= 64:
            bm, bo, br = (32, 128, 64) if dx else (32, 64, 128)
        else:
            bm, bo, br = (64, 128, 64) if dx else (128, 64, 128)
        half, sc = k // 2, k // 16
        a, o = ("g_ptr", "dx_ptr") if dx else ("x_ptr", "y_ptr")
        s = ("stride_gm", "stride_gn", "stride_dm", "stride_dk", "stride_ds", "n_per_split") if dx else \
            ("stride_xm", "stride_xk", "stride_ym", "stride_yn", "stride_ys", "k_per_split")
        args = {a: arr(dt, m * red), "packed_ptr": arr(dt, n * half), "scale_ptr": arr(dt, n * sc),
                "global_scale_ptr": arr(dt, 1), o: arr(dt, 1, m, n_out), "M": m, "N": n if not dx else i32(n),
                "K": i32(k) if not dx else k, "half_cols": i32(half), "scale_cols": i32(sc), s[0]: i32(red),
                s[1]: i32(1), "stride_pr": i32(half), "stride_pc": i32(1), "stride_sr": i32(sc), "stride_sc": i32(1),
                s[2]: n_out, s[3]: 1, s[4]: m * n_out, s[5]: i32(-(-red // br) * br), "BLOCK_M": bm,
                "BLOCK_N": br if dx else bo, "BLOCK_K": bo if dx else br, "GROUP_M": 8, "SCALE_E4M3_BYTES": 0,
                "INT64_OFFSETS": 0, "MASK_PAD": 0}
        out.append({"name": f"{dt}_{m}x{n}x{k}", "kernel": kernel, "args": args,
                    "grid": [str(-(-m // bm) * -(-n_out // bo)), "1"]})
    return out


def int4_dequant(configs=None) -> list[dict]:
    """int4 (compressed-tensors / GPTQ) dequant: packed int32 words (N, K / 8), group-128 scales (N, K / 128),
    no zero points or act-order (HAS_Z / HAS_G 0: Z and G are the packed words, never read); BLOCK_N 16, BLOCK_KP
    512 // PF as _dequant launches it."""
    out = []
    for dt, n, k in configs or (("bf16", 4096, 4096), ("f16", 2048, 8192), ("f32", 8192, 2048)):
        kp, groups = k // 8, k // 128
        args = {"P": arr("i32", n, kp), "S": arr(dt, n * groups), "Z": arr("i32", n * kp), "G": arr("i32", n * kp),
                "Out": arr(dt, n * k), "N": n, "K": i32(k), "KP": kp, "stride_pn": kp, "stride_sn": i32(groups),
                "stride_zn": i32(0), "stride_on": i32(k), "BITS": 4, "PF": 8, "GROUP": 128, "HAS_Z": 0, "HAS_G": 0,
                "BLOCK_N": 16, "BLOCK_KP": 64}
        out.append({"name": f"{dt}_{n}x{k}", "kernel": "_dequant_kernel", "args": args,
                    "grid": [str(-(-n // 16)), str(-(-kp // 64))]})
    return out


def int4_gemv(configs=None) -> list[dict]:
    """int4 decode gemv (_gemv_kernel): M activation rows (one per program axis 2), packed int32 words (N, K / 8),
    group-128 scales; BLOCK_N 8, BLOCK_KP 512 // PF; SPLIT_K 1 (the rows fill the GPU), no zero points/act-order."""
    out = []
    for dt, m, n, k in configs or (("bf16", 1, 4096, 4096), ("f16", 4, 8192, 2048), ("f32", 2, 2048, 8192)):
        kp, groups = k // 8, k // 128
        args = {"X": arr(dt, m * k), "P": arr("i32", n, kp), "S": arr(dt, n * groups), "Z": arr("i32", n * kp),
                "G": arr("i32", n * kp), "Y": arr(dt, m * n), "M": i32(m), "N": n, "K": i32(k), "KP": kp,
                "stride_xm": i32(k), "stride_pn": kp, "stride_sn": i32(groups), "stride_zn": i32(0),
                "stride_ym": i32(n), "BITS": 4, "PF": 8, "GROUP": 128, "HAS_Z": 0, "HAS_G": 0, "BLOCK_N": 8,
                "BLOCK_KP": 64, "SPLIT_K": 1}
        out.append({"name": f"{dt}_{m}x{n}x{k}", "kernel": "_gemv_kernel", "args": args,
                    "grid": [str(-(-n // 8)), "1", str(m)]})
    return out


def _block_h(nq: int, nk: int, hd: int) -> int:
    b = 1
    while b < min(nq, nk) and b * 2 * hd <= 2048:
        b *= 2
    return b


def qk_norm_rope(kernel: str, configs=None) -> list[dict]:
    """Fused QK RMSNorm + RoPE (_launch_forward / _launch_backward): Q [rows, n_heads_Q, head_dim] contiguous,
    per-(row, head) f32 rstd, a (seq_len, head_dim) cos / sin cache, no position indices; BLOCK_H = _block_h."""
    out = []
    bwd = kernel == "_qk_norm_rope_backward"
    for dt, b, s, nq, nk, hd in configs or (("bf16", 2, 512, 32, 8, 128), ("f16", 1, 1024, 16, 4, 128),
                                              ("f32", 1, 256, 64, 8, 128)):
        rows, bh = b * s, _block_h(nq, nk, hd)
        args: dict = {}
        for x, nh in (("Q", nq), ("K", nk)):
            if bwd:
                args |= {f"d{x}": arr(dt, rows * nh * hd), f"d{x}o": arr(dt, rows * nh * hd),
                         f"d{x}o_batch_stride": i32(s * nh * hd), f"d{x}o_seq_stride": i32(nh * hd),
                         f"d{x}o_head_stride": i32(hd)}
            else:
                args |= {f"{x}o": arr(dt, rows * nh * hd)}
            args |= {x: arr(dt, rows * nh * hd), f"{x}_row_stride": i32(nh * hd), f"{x}_head_stride": i32(hd),
                     f"W{x.lower()}": arr(dt, hd), f"r{x.lower()}": arr(dt, rows * nh), f"n_heads_{x}": i32(nh)}
            if not bwd:
                args[f"eps_{x}"] = f32(1e-6)
        args |= {"cos": arr(dt, s * hd), "cos_row_stride": i32(hd), "sin": arr(dt, s * hd), "sin_row_stride": i32(hd),
                 "rope_indices": arr(dt, rows), "seqlen": i32(s), "HEAD_DIM": hd, "BLOCK_H": bh,
                 "HAS_ROPE_INDICES": 0}
        grid = [str(rows), str(-(-nq // bh) + -(-nk // bh))]
        out.append({"name": f"{dt}_{b}x{s}_{nq}q{nk}k_{hd}", "kernel": kernel, "args": args, "grid": grid})
    return out


def rope_qk(configs=None) -> list[dict]:
    """Batched-heads RoPE (_rope_launch): Q / K [batch, n_heads, seq_len, head_dim] viewed from contiguous
    [batch, seq_len, n_heads, head_dim] (unsloth's layout), out of place, a (seq_len, head_dim) cos / sin cache;
    BLOCK_SIZE = head_dim / 2, HEADS = min(next_pow2(n_heads), 1024 // BLOCK_SIZE)."""
    out = []
    for dt, b, s, nq, nk, hd, bwd in configs or (("bf16", 2, 512, 32, 8, 128, 0), ("f16", 1, 1024, 16, 4, 128, 1),
                                                   ("f32", 1, 256, 64, 8, 128, 0)):
        half = hd // 2
        bs = pow2(half)
        hq, hk = max(1, min(pow2(nq), 1024 // bs)), max(1, min(pow2(nk), 1024 // bs))
        gq, gk = -(-nq // hq), -(-nk // hk)
        args: dict = {}
        for x, nh, pre in (("Q", nq, "q"), ("Q_out", nq, "qo"), ("K", nk, "k"), ("K_out", nk, "ko")):
            args |= {x: arr(dt, b * s * nh * hd), f"{pre}_batch_stride": i32(s * nh * hd), f"{pre}_seq_stride": nh * hd,
                     f"{pre}_head_stride": i32(hd), f"{pre}_dim_stride": 1}
        args |= {"cos": arr(dt, s * hd), "cos_row_stride": i32(hd), "sin": arr(dt, s * hd), "sin_row_stride": i32(hd),
                 "rope_embedding_indices": arr(dt, s * hd), "seqlen": i32(s), "n_heads_Q": nq, "n_heads_K": nk,
                 "n_groups_Q": gq, "half_head_dim": half, "BACKWARD_PASS": bwd, "HAS_ROPE_INDICES": 0,
                 "LONG_INDEXING": 0, "CAST_TO_SIN": 0, "HEADS_Q": hq, "HEADS_K": hk, "BLOCK_SIZE": bs,
                 "EVICT_INDICES": 0}
        out.append({"name": f"{dt}_{b}x{s}_{nq}q{nk}k_{hd}_bwd{bwd}", "kernel": "_rope_embedding_QK", "args": args,
                    "grid": [str(b * s), str(gq + gk)]})
    return out


def cross_entropy_backward(configs=None) -> list[dict]:
    """One program per (row, 4096-column block) (unsloth's backward: BLOCK_SIZE = 4096, n_blocks = cdiv(vocab,
    4096)); dloss is f32 [rows] (row stride 1), loss f32 or the logits' dtype; logits / logsumexp / labels share one
    element type (the port's dtype variable), labels whole numbers (-100 for an ignored row is in the data)."""
    out = []
    for dt, loss_dt, rows, vocab, cap, scale in configs or (("f32", "f32", 64, 32000, 0, 0),
                                                           ("bf16", "f32", 16, 256000, 1, 0),
                                                           ("f16", "f16", 8, 128256, 0, 1)):
        blocks = -(-vocab // 4096)
        args = {"logits_ptr": arr(dt, rows * vocab), "logits_row_stride": vocab, "dlogits_ptr": arr(dt, rows * vocab),
                "dloss_ptr": arr("f32", rows), "dloss_row_stride": 1, "logsumexp_ptr": arr(dt, rows),
                "loss_ptr": arr(loss_dt, rows), "labels_ptr": arr(dt, rows), "VOCAB_SIZE": vocab, "BLOCK_SIZE": 4096,
                "DO_SOFTCAPPING": cap, "SOFTCAP": f32(30.0), "DO_LOGIT_SCALING": scale, "LOGIT_SCALE": f32(0.0625)}
        out.append({"name": f"{dt}_{rows}x{vocab}_cap{cap}_scale{scale}", "kernel": "_cross_entropy_backward",
                    "args": args, "grid": [str(rows), str(blocks)]})
    return out


def fp8_block_gemv(configs=None) -> list[dict]:
    """Block-scaled fp8 GEMV (_fp8_block_gemv on an H200, 132 SMs: BLOCK_N 32, 4 programs per SM, BLOCK_M 16,
    BLOCK_K min(128, group_k), split-K as the host computes it); y [split, M, N], weight scales [N/gn, K/gk]."""
    out = []
    for dt, m, n, k in configs or (("f32", 4, 4096, 4096), ("bf16", 1, 28672, 8192), ("f16", 16, 14336, 4096)):
        gn = gk = 128
        bn, sms = 32, 132
        n_tiles, k_blocks = -(-n // bn), -(-k // gk)
        split = max(1, min(k_blocks, (4 * sms + n_tiles - 1) // n_tiles, 16))
        k_per = -(-k_blocks // split) * gk
        split = -(-k // k_per)
        sn, sk = -(-n // gn), -(-k // gk)
        args = {"x_ptr": arr(dt, m * k), "w_ptr": arr(dt, n * k), "s_ptr": arr(dt, sn * sk), "y_ptr": arr(dt, split, m, n),
                "K": i32(k), "K_PER_SPLIT": i32(k_per), "stride_xm": i32(k), "stride_wn": i32(k), "stride_sn": i32(sk),
                "stride_sk": i32(1), "GROUP_N": gn, "GROUP_K": gk, "BLOCK_M": 16, "BLOCK_N": bn, "BLOCK_K": min(128, gk),
                "LONG_INDEXING": 0}
        out.append({"name": f"{dt}_{m}x{n}x{k}_split{split}", "kernel": "_fp8_block_gemv_kernel", "args": args,
                    "grid": [str(n_tiles), str(split)]})
    return out


def e4m3fn_scale_dequant(configs=None) -> list[dict]:
    """Row- or column-scaled e4m3 dequant (_scale_dequant_one_pass: (16, 256) tiles, SCALE_ON_COLS for a transposed
    view, ROUND_SCALE unless the output is f16); one scale per row (or column), stride 1. Square weights (attention
    q / o projections: 2048, 4096, 8192): the port ties the scale vector's extent to both M and N (its launch map
    reads s_ptr for the row and the column branch alike), so a spec with M != N is refused by the wrapper."""
    out = []
    for dt, m, n, cols in configs or (("bf16", 4096, 4096, 0), ("f16", 2048, 2048, 1), ("f32", 8192, 8192, 0)):
        args = {"x_ptr": arr(dt, m, n), "s_ptr": arr(dt, n if cols else m), "y_ptr": arr(dt, m, n), "BLOCK_M": 16,
                "BLOCK_N": 256, "SCALE_ON_COLS": cols, "ROUND_SCALE": int(dt != "f16"), "LONG_INDEXING": 0}
        out.append({"name": f"{dt}_{m}x{n}_cols{cols}", "kernel": "_e4m3fn_scale_dequant_kernel", "args": args,
                    "grid": [str(-(-m // 16)), str(-(-n // 256))]})
    return out


def nf4_gemv_words(configs=None) -> list[dict]:
    """NF4 decode gemv reading int32 words (_gemv_nf4_words_kernel, unsloth's pre-3.7 pick): blocksize 64, one row
    per program (BLOCK_N 1), BLOCK_K max(64, min(2048, next_pow2(K))), grid N * M; M activation rows; the absmax
    flat (NESTED 0) or double quantized (NESTED 1: codes into CODE2 [256], ABSMAX2 per 256 blocks, OFFSET [1]).
    The packed weight [N, K / 2] bytes is passed as K / 8 float32 words per row: the kernel reads it through
    ``W.to(tl.pointer_type(tl.int32))``, so any 4-byte element type holds the same words, and the port keeps W's
    element type a generic of its own that its entries dispatch over the float dtypes only (unsloth's uint8 buffer
    has no entry yet).

    Dtypes as the port types them: one element type E for X, OUT, LUT, CODE2, ABSMAX2 and OFFSET (values of all of
    them meet in the dot product), ABSMAX an int32 array in both variants (NESTED 1 reads it as CODE2 indices; the
    dtype solve is shared by the variants). unsloth itself passes bf16 / f16 X and OUT with float32 bitsandbytes
    statistics and uint8 absmax codes: no entry of the port takes that mix yet (frontends/triton/element_types.py).
    USE_MUL_RN 1 (unsloth's value on CUDA) needs f32 operands in Triton (libdevice mul_rn has no f16 / bf16
    overload): the f32 configs use it, the bf16 one the plain product (USE_MUL_RN 0, unsloth's HIP path)."""
    out = []
    for dt, m, n, k, nested in configs or (("f32", 1, 4096, 4096, 0), ("f32", 1, 8192, 2048, 1),
                                           ("f32", 2, 2048, 8192, 1), ("bf16", 1, 4096, 4096, 1)):
        blocks = n * k // 64
        bk = max(64, min(2048, pow2(k)))
        args = {"X": arr(dt, m * k), "W": arr("f32", n * k // 8), "ABSMAX": arr("i32", blocks),
                "CODE2": arr(dt, 256 if nested else blocks), "ABSMAX2": arr(dt, -(-blocks // 256) if nested else blocks),
                "OFFSET": arr(dt, 1 if nested else blocks), "LUT": arr(dt, 16), "OUT": arr(dt, m, n), "N": n,
                "K": i32(k), "M": i32(m), "OUT_STRIDE": n, "BLOCKSIZE": 64, "BLOCKSIZE2": 256 if nested else 1,
                "NESTED": nested, "USE_MUL_RN": int(dt == "f32"), "BLOCK_N": 1, "BLOCK_K": bk}
        out.append({"name": f"{dt}_{m}x{n}x{k}_nested{nested}", "kernel": "_gemv_nf4_words_kernel", "args": args,
                    "grid": [str(n * m)]})
    return out


def dequant_repacked(configs=None) -> list[dict]:
    """int4 dequant of a repacked weight (_dequant_repacked: tinygemm tiles TN 8 x TK 128, marlin 64 x 16; R the
    tiles per program, group 128; 128 int32 words per tile); scales [N, K / group], zero points int32 [N / 8,
    K / group] (HAS_Z) or the scale tensor passed again (unused)."""
    layouts = {"tinygemm": (0, 8, 128), "marlin": (1, 64, 16)}
    out = []
    for dt, layout, n, k, has_z in configs or (("bf16", "tinygemm", 4096, 4096, 1), ("f16", "marlin", 4096, 14336, 0),
                                               ("f32", "tinygemm", 2048, 8192, 0), ("bf16", "marlin", 8192, 2048, 1)):
        marlin, tn, tk = layouts[layout]
        group = 128
        nt_n, nt_k = n // tn, k // tk
        r = max(8, group // tk)
        while nt_k % r:
            r //= 2
        ng = k // group
        args = {"P": arr("i32", n * k // 8), "S": arr(dt, n * ng), "Z": arr("i32", (n // 8) * ng if has_z else 1),
                "Out": arr(dt, n * k), "NT_N": i32(nt_n), "NT_K": i32(nt_k), "stride_sn": i32(ng),
                "stride_zn": i32(ng if has_z else 0), "stride_on": i32(k), "MARLIN": marlin, "TN": tn, "TK": tk, "R": r,
                "GROUP": group, "HAS_Z": has_z, "RAW": 0}
        out.append({"name": f"{dt}_{layout}_{n}x{k}_z{has_z}", "kernel": "_dequant_repacked_kernel", "args": args,
                    "grid": [str(nt_n * (nt_k // r))]})
    return out


def lh_bwd_dq(configs=None) -> list[dict]:
    """Large-head attention dQ (unsloth's _bwd_impl: one program per BLOCK_M query rows of one head, keys between
    LO / HI, int32 [B, S] like _lh_fwd's: the H200 run needs lo <= hi per row in them). K / V are read flat."""
    out = []
    for dt, b, h, hkv, s, bm, bn in configs or (("bf16", 1, 8, 2, 2048, 16, 32), ("f16", 2, 4, 4, 1024, 32, 32)):
        d = 512
        args = {"Q": arr(dt, b, h, s, d), "K": arr(dt, b * hkv * s * d), "V": arr(dt, b * hkv * s * d),
                "DO": arr(dt, b, h, s, d), "DQ": arr(dt, b, h, s, d), "LSE": arr(dt, b * h, s),
                "DELTA": arr(dt, b * h, s), "LO": arr("i32", b * s), "HI": arr("i32", b * s),
                "qk_scale": f32(1.4426950408889634 / math.sqrt(d)), "sm_scale": f32(1 / math.sqrt(d)),
                "skb": i32(hkv * s * d), "skh": i32(s * d), "skn": i32(d), "svb": i32(hkv * s * d), "svh": i32(s * d),
                "svn": i32(d), "H": i32(h), "G": i32(h // hkv), "HEAD_DIM": d, "BLOCK_M": bm, "BLOCK_N": bn}
        out.append({"name": f"{dt}_{b}x{h}x{s}x{d}_g{h // hkv}_m{bm}n{bn}", "kernel": "_lh_bwd_dq", "args": args,
                    "grid": [f"(Q.shape[2] + {bm - 1}) // {bm}", f"{b * h}"]})
    return out


def w8a8_block_matmul(configs=None) -> list[dict]:
    """Block-wise fp8 GEMM, pointer kernel (w8a8_block_fp8_matmul_triton: 128 x 128 quant blocks, BLOCK_SIZE_M 128
    or next_power_of_2(M) >= 16 for few rows, GROUP_SIZE_M 8); A [M, K] / B [N, K] / scales read flat (their float
    dtype holds the e4m3 values exactly), C [M, N] in the output dtype."""
    out = []
    for a_dt, c_dt, m, n, k in configs or (("f32", "bf16", 4096, 4096, 4096), ("bf16", "bf16", 16, 14336, 4096),
                                           ("f16", "f16", 2048, 8192, 2048)):
        bm = 128 if m >= 128 else max(pow2(m), 16)
        sk, sn = -(-k // 128), -(-n // 128)
        args = {"A": arr(a_dt, m * k), "B": arr(a_dt, n * k), "C": arr(c_dt, m, n), "As": arr(a_dt, m * sk),
                "Bs": arr(a_dt, sn * sk), "K": i32(k), "group_n": i32(128), "group_k": i32(128), "stride_am": i32(k),
                "stride_ak": i32(1), "stride_bk": i32(1), "stride_bn": i32(k), "stride_As_m": i32(sk),
                "stride_As_k": i32(1), "stride_Bs_k": i32(1), "stride_Bs_n": i32(sk), "BLOCK_SIZE_M": bm,
                "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8, "LONG_INDEXING": 0}
        out.append({"name": f"{a_dt}_{c_dt}_{m}x{n}x{k}", "kernel": "_w8a8_block_fp8_matmul", "args": args,
                    "grid": [str(-(-m // bm) * sn)]})
    return out


def w8a8_block_matmul_tma(configs=None) -> list[dict]:
    """Block-wise fp8 GEMM, TMA kernel (_launch_fp8_tma_gemm: A [M, K] / B [N, K] / C [M, N] as tensor descriptors
    of 128 x 128 blocks, BLOCK_SIZE_M 128, GROUP_SIZE_M 8, OUT_DTYPE the triton dtype of C: the port takes it from
    C, one element type E, so A / B are read in C's float dtype, which holds the e4m3 values exactly). Scales flat:
    As [M, K / 128], Bs [N / 128, K / 128] (stride_Bs_n = its row pitch). NUM_STAGES 2, not unsloth's B200 4: with
    16-bit A / B tiles a stage is 2 x 32 KiB, so 4 stages (128 KiB fp8 on B200) would be 256 KiB, over sm_90's
    227 KiB; 2 stages plus the 32 KiB C tile fit. CAST_TF32: the port's host-computed flag (a_desc.dtype == f32, the
    dot's tf32 cast), a const generic a spec names."""
    out = []
    for dt, m, n, k in configs or (("bf16", 4096, 4096, 4096), ("bf16", 1, 8192, 2048), ("bf16", 300, 2048, 8192)):
        sk, sn = -(-k // 128), -(-n // 128)
        args = {"a_desc": arr(dt, m, k), "b_desc": arr(dt, n, k), "c_desc": arr(dt, m, n), "As": arr(dt, m * sk),
                "Bs": arr(dt, sn * sk), "M": i32(m), "N": i32(n), "K": i32(k), "stride_As_m": i32(sk),
                "stride_As_k": i32(1), "stride_Bs_k": i32(1), "stride_Bs_n": i32(sk), "BLOCK_SIZE_M": 128,
                "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8, "NUM_STAGES": 2,
                "CAST_TF32": int(dt == "f32")}
        out.append({"name": f"tma_{dt}_{m}x{n}x{k}", "kernel": "_w8a8_block_fp8_matmul_tma", "args": args,
                    "grid": [str(-(-m // 128) * sn)]})
    return out


H200_SMS = 132  # _sm_count of an H200 (the small-M config below depends on it)


def w8a8_small_m(configs=None) -> list[dict]:
    """Decode-sized fused act_quant + w8a8 block GEMM (fp8_block_small_m_linear: M <= 16 rows of X [M, K], the
    weight B [N, K] and its 128 x 128 block scales Bs [N / 128, K / 128] read flat, C [M, N]), with the config
    _small_m_config picks on an H200 (132 SMs): the widest BLOCK_SIZE_N of 128 / 64 / 32 giving two tiles per SM
    (else 16), SPLIT_K while the grid stays within 4 programs per SM. Only SPLIT_K == 1 configs (Llama-3 8B / 70B
    MLP widths): with SPLIT_K > 1 the arrival counters L must start at zero, and the runner fills int32 arrays with
    random values. Shared memory of the Triton reference at its default 3 stages: (16 x 128 + 128 x BLOCK_SIZE_N)
    half-precision elements per stage, 3 x 12 KiB at BLOCK_SIZE_N 32 and 3 x 20 KiB at 64, far below sm_90's
    227 KiB (f32 operands at BLOCK_SIZE_N 128 would need 3 x 72 KiB plus the dot's layout conversions: out of
    resources, so no f32 spec; unsloth passes bf16 / f16 X only)."""
    out = []
    for dt, m, n, k in configs or (("bf16", 4, 14336, 4096), ("f16", 16, 28672, 4096)):
        block_n = next((c for c in (128, 64, 32) if -(-n // c) >= 2 * H200_SMS), 16)
        tiles, k_blocks = -(-n // block_n), -(-k // 128)
        split = 1
        while tiles * split * 2 <= 4 * H200_SMS and k_blocks // (split * 2) >= 8:
            split *= 2
        assert split == 1, (dt, m, n, k, split)
        args = {"X": arr(dt, m, k), "B": arr(dt, n * k), "C": arr(dt, m, n), "Bs": arr(dt, -(-n // 128) * (k // 128)),
                "P": arr(dt, m * n), "L": arr("i32", tiles), "K": i32(k), "stride_bn": i32(k),
                "stride_Bs_n": i32(k // 128), "stride_Bs_k": i32(1), "KB_PER_SPLIT": i32(k_blocks),
                "GROUP_N": 128, "BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": block_n, "BLOCK_SIZE_K": 128, "SPLIT_K": split}
        out.append({"name": f"{dt}_{m}x{n}x{k}_n{block_n}", "kernel": "_w8a8_block_fp8_small_m", "args": args,
                    "grid": [str(tiles), str(split)]})
    return out


def fp8_rows_gemv(configs=None) -> list[dict]:
    """Row-wise fp8 GEMV of up to 16 rows (_fp8_rowwise_gemv_rows: BLOCK_M 16, _fp8_rows_config's BLOCK_N /
    BLOCK_K / SPLIT_K); with SPLIT_K > 1 the f32 partials [SPLIT_K, M, N] go to p, else p is the output."""
    out = []
    for dt, m, n, k in configs or (("bf16", 4, 4096, 4096), ("f32", 8, 4096, 8192), ("f16", 16, 14336, 4096)):
        if k >= 8192:
            bn, bk, split = (64 if dt == "f16" else 32), 128, 8
        elif n <= 1024 and k >= 4096:
            bn, bk, split = 32, 128, 8
        else:
            bn, bk, split = (16 if n <= 2048 else (64 if n >= 12288 and dt == "f16" else 32)), 256, 1
        args = {"x_ptr": arr(dt, m * k), "w_ptr": arr(dt, n * k), "s_ptr": arr(dt, n), "y_ptr": arr(dt, m, n),
                "p_ptr": arr(dt, split * m * n), "K": i32(k), "stride_wn": i32(k), "BLOCK_M": 16, "BLOCK_N": bn,
                "BLOCK_K": bk, "SPLIT_K": split, "LONG_INDEXING": 0}
        out.append({"name": f"{dt}_{m}x{n}x{k}_split{split}", "kernel": "_fp8_rowwise_gemv_rows_kernel", "args": args,
                    "grid": [str(-(-n // bn)), str(split)]})
    return out


# MoE grouped GEMM backward (moe/grouped_gemm/kernels/backward.py): shapes of the MoE models unsloth trains --
# (dtype, experts, top-k, tokens, N, K): DeepSeek-V2-Lite's gate/up projection (64 experts, top-6, hidden 2048,
# 2 x 1408 intermediate), Mixtral-8x7B's down projection (8 experts, top-2, 14336 -> 4096), Qwen1.5-MoE's down
# projection (60 experts, top-4, 1408 -> 2048). The H200 run fills int32 arrays with values in [0, 100): every
# expert's m_sizes entry is below 100, so TOTAL_TOKENS = tokens x top-k >= 100 x experts keeps each expert's rows
# in the arrays; gather indices below 100 are rows too. Tiles: the host's heuristic 64 x 64 (M, N) with BLOCK_K 128
# (Triton's default 3 stages: 3 * 128 * (64 + 64) + 64 * 64 elements, 106,496 B in 16-bit types, under the H200's
# 227 KB per block). The port reads every array flat (gathers.py, descriptors.py).
# m_sizes / gather_indices are int32 here, as unsloth launches them: their loaded tiles are cast to an integer
# before use, so the Triton front end gives each such array its own integer dtype variable (i32 entries beside the
# rows' bf16/f16; frontends/triton/element_types.py), and random float sizes would make negative rows anyway.
MOE_DW = (("bf16", 64, 6, 1072, 2816, 2048), ("f16", 8, 2, 512, 4096, 14336), ("bf16", 60, 4, 1536, 2048, 1408))


def _moe_dw_args(dt: str, e: int, topk: int, tokens: int, n: int, k: int, tma: int) -> dict:
    total = tokens * topk
    return {"x_ptr": arr(dt, total * k), "dY_ptr": arr(dt, total * n), "dW_ptr": arr(dt, e * n * k),
            "m_sizes_ptr": arr("i32", e), "gather_indices_ptr": arr("i32", total), "NUM_TOKENS": i32(tokens),
            "TOPK": topk, "NUM_EXPERTS": e, "N": n, "K": k, "NUM_SMS": i32(132), "BLOCK_SIZE_N": 64,
            "BLOCK_SIZE_K": 128, "BLOCK_SIZE_M": 64, "PERMUTE_X": 0, "PERMUTE_Y": 0, "USE_TMA_LOAD_dY": tma,
            "USE_TMA_LOAD_X": tma, "USE_TMA_STORE": 0}


def moe_dw_per_expert(configs=None) -> list[dict]:
    """_grouped_gemm_dW_per_expert_kernel: one program per (expert, N tile, K tile), grid E * cdiv(N, 64) *
    cdiv(K, 128); EXPERTS_POW2 the next power of two of E. The first spec reads dY / X through the per-expert
    descriptors (TMA loads: their extent is the expert's m_end) and accumulates (an empty expert returns early)."""
    out = []
    for i, (dt, e, topk, tokens, n, k) in enumerate(configs or MOE_DW):
        tma, acc = (1, 1) if i == 0 else (0, 0)
        args = _moe_dw_args(dt, e, topk, tokens, n, k, tma) | {"ACCUMULATE": acc, "EXPERTS_POW2": pow2(e)}
        out.append({"name": f"{dt}_e{e}_top{topk}_{tokens}x{n}x{k}{'_tma_acc' if tma else ''}",
                    "kernel": "_grouped_gemm_dW_per_expert_kernel", "args": args,
                    "grid": [str(e * -(-n // 64) * -(-k // 128))]})
    return out


def moe_dw(configs=None) -> list[dict]:
    """_grouped_gemm_dW_kernel (the legacy persistent dW): NUM_SMS (132 on an H200) programs striding over the
    (N tile, K tile) outputs, every expert's rows per tile; dW is zeroed by the host (torch.zeros), the spec's
    random dW is overwritten for every tile. The first spec loads both operands through descriptors re-made per
    expert (TMA_LOAD_BOTH: extent m_end)."""
    out = []
    for i, (dt, e, topk, tokens, n, k) in enumerate(configs or MOE_DW):
        tma = 1 if i == 0 else 0
        args = _moe_dw_args(dt, e, topk, tokens, n, k, tma) | {"ACCUMULATE": 0}
        out.append({"name": f"{dt}_e{e}_top{topk}_{tokens}x{n}x{k}{'_tma' if tma else ''}",
                    "kernel": "_grouped_gemm_dW_kernel", "args": args, "grid": ["132"]})
    return out



# MoE grouped GEMM forward / dX (forward.py, backward.py): the persistent kernels, NUM_SMS (132 on an H200) programs
# striding over every expert's (M tile, N / K tile) outputs, the same models' shapes and launch conventions as the
# dW specs above (int32 m_sizes with values below 100, tokens x top-k >= 100 x experts; 64 x 64 x
# 128 tiles; the kernels take no NUM_STAGES, Triton's default stages apply). The flags follow unsloth's MoE MLP:
# the first GEMM gathers the tokens into expert order (PERMUTE_X: no TMA load of x, the descriptor would read
# unpermuted rows; the port has no entry for that combination, CTRS-E713), the second scatters back and scales by
# the routing weights (PERMUTE_Y, FUSE_MUL_POST); the third reads both operands through TMA descriptors. Arrays
# are sized for TOTAL_TOKENS rows on both sides (the permuted side reads fewer). The gather indices are a permutation
# of the TOTAL_TOKENS rows (spec "values": "permutation"), as unsloth's routing makes them: PERMUTE_Y (forward) and
# PERMUTE_X (dX) store rows at those indices, and the H200 run's default integers (below 100, with repeats) made
# tiles race for one row, a different winner in the reference and the port (max abs err 2.3e3 / 344 on 2026-12-03).
def _moe_rows_args(dt: str, e: int, topk: int, tokens: int, n: int, k: int, a: str, b: str) -> dict:
    total = tokens * topk
    return {a: arr(dt, total * (n if a == "dY_ptr" else k)), "w_ptr": arr(dt, e * n * k),
            b: arr(dt, total * (k if b == "dX_ptr" else n)), "m_sizes_ptr": arr("i32", e),
            "gather_indices_ptr": arr("i32", total) | {"values": "permutation"}, "NUM_EXPERTS": e,
            "NUM_TOKENS": i32(tokens), "TOPK": topk,
            "N": n, "K": k, "NUM_SMS": i32(132), "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128}


MOE_ROWS_FLAGS = ({"PERMUTE_X": 1, "PERMUTE_Y": 0, "TMA": 0, "FUSE": 0},
                  {"PERMUTE_X": 0, "PERMUTE_Y": 1, "TMA": 0, "FUSE": 1},
                  {"PERMUTE_X": 0, "PERMUTE_Y": 0, "TMA": 1, "FUSE": 0})


def _moe_rows_name(dt, e, topk, tokens, n, k, f) -> str:
    tag = "_px" if f["PERMUTE_X"] else "_py" if f["PERMUTE_Y"] else ""
    return f"{dt}_e{e}_top{topk}_{tokens}x{n}x{k}{tag}{'_mul' if f['FUSE'] else ''}{'_tma' if f['TMA'] else ''}"


def moe_forward(configs=None) -> list[dict]:
    """_grouped_gemm_forward_kernel: y[rows of each expert] = x[rows] @ w[expert].T, (N, K) the weight's (out, in)."""
    out = []
    for (dt, e, topk, tokens, n, k), f in zip(configs or MOE_DW, MOE_ROWS_FLAGS):
        args = _moe_rows_args(dt, e, topk, tokens, n, k, "x_ptr", "y_ptr") | {
            "topk_weights_ptr": arr(dt, tokens * topk), "PERMUTE_X": f["PERMUTE_X"], "PERMUTE_Y": f["PERMUTE_Y"],
            "FUSE_MUL_PRE": 0, "FUSE_MUL_POST": f["FUSE"], "USE_TMA_LOAD_W": f["TMA"], "USE_TMA_LOAD_X": f["TMA"],
            "USE_TMA_STORE": 0}
        out.append({"name": _moe_rows_name(dt, e, topk, tokens, n, k, f), "kernel": "_grouped_gemm_forward_kernel",
                    "args": args, "grid": ["132"]})
    return out


def moe_dx(configs=None) -> list[dict]:
    """_grouped_gemm_dX_kernel: dX[rows of each expert] = dY[rows] @ w[expert] (N the reduced axis)."""
    out = []
    for (dt, e, topk, tokens, n, k), f in zip(configs or MOE_DW, MOE_ROWS_FLAGS):
        args = _moe_rows_args(dt, e, topk, tokens, n, k, "dY_ptr", "dX_ptr") | {
            "PERMUTE_X": f["PERMUTE_X"], "PERMUTE_Y": f["PERMUTE_Y"], "USE_TMA_LOAD_W": f["TMA"],
            "USE_TMA_LOAD_dY": f["TMA"], "USE_TMA_STORE": 0}
        out.append({"name": _moe_rows_name(dt, e, topk, tokens, n, k, f | {"FUSE": 0}),
                    "kernel": "_grouped_gemm_dX_kernel", "args": args, "grid": ["132"]})
    return out

FILES: dict[str, list[dict]] = {
    "swiglu.json": elementwise("_fg_kernel", ("e", "g", "h")) + elementwise("_DWf_DW_dfg_kernel", ("DW", "e", "g")),
    "geglu.json": elementwise("_approx_forward_kernel", ("e", "g", "h"))
    + elementwise("_approx_backward_kernel", ("DW", "e", "g")) + elementwise("_exact_forward_kernel", ("e", "g", "h"))
    + elementwise("_exact_backward_kernel", ("DW", "e", "g")),
    "layernorm.json": layernorm_forward() + layernorm_backward() + layernorm_backward_dw() + layernorm_sum_partials(),
    "rms_layernorm.json": rms_forward("_rms_layernorm_forward") + rms_forward("_gemma_rms_layernorm_forward")
    + rms_backward() + rms_sum_dw() + rms_rows("_rms_layernorm_forward_rows") + rms_rows("_rms_layernorm_backward_rows"),
    "fused_add_rms_layernorm.json": add_rms_inference(),
    "fp8.json": fp8_gemv() + fp8_rows_reduce() + act_quant() + weight_dequant() + e4m3fn_bytes_dequant()
    + fp8_block_gemv() + e4m3fn_scale_dequant() + w8a8_block_matmul() + fp8_rows_gemv() + w8a8_small_m()
    + w8a8_block_matmul_tma(),
    "cross_entropy_loss.json": cross_entropy_forward() + chunked_cross_entropy_forward() + cross_entropy_backward(),
    "large_head_attention.json": lh_bwd_pre() + lh_fwd() + lh_bwd_dkdv() + lh_bwd_dq(),
    "nvfp4.json": split_sum() + nvfp4_dequant() + nvfp4_matmul("_nvfp4_matmul_fwd_kernel")
    + nvfp4_matmul("_nvfp4_matmul_dx_kernel"),
    "int4_packed.json": int4_dequant() + int4_gemv() + dequant_repacked(),
    "qk_norm_rope.json": qk_norm_rope("_qk_norm_rope_forward") + qk_norm_rope("_qk_norm_rope_backward"),
    "rope_embedding.json": rope_qk(),
    "moe/grouped_gemm/kernels/backward.json": moe_dw_per_expert() + moe_dw() + moe_dx(),
    "moe/grouped_gemm/kernels/forward.json": moe_forward(),
    "nf4_gemv.json": nf4_gemv_words(),
}


# ------------------------------------------------------------------------------------------ drawn shapes
#
# Numerics beyond the committed configs (issue 18: "plus hypothesis-drawn shapes"): per generator, configs drawn
# by hypothesis (derandomized: the same list on every machine), rows and hidden sizes anywhere in unsloth's range,
# not only powers of two, block sizes recomputed as the host code does. Written to
# benchmarks/corpus/unsloth-2026.10.9/h200/<file>.json in the layout of the TileGym captures (``fuzz`` entries,
# ``<committed spec of that dtype>@<sizes>``), which benchmarks/h200_tilegym.py --corpus unsloth ships as
# numerics-only specs.

DRAWN_PER_GENERATOR = 4
SHAPES_OUT = OUT.parent / "h200"


def _draw_strategies():
    from hypothesis import strategies as st  # noqa: PLC0415 - dev dependency, only to write the files

    dt = st.sampled_from(("bf16", "f16", "f32"))
    rows, cols = st.integers(1, 700), st.integers(1, 8192)
    return {
        "swiglu.json": [(lambda c: elementwise("_fg_kernel", ("e", "g", "h"), c),
                         st.tuples(dt, st.tuples(st.integers(1, 4), st.integers(1, 600), cols))),
                        (lambda c: elementwise("_DWf_DW_dfg_kernel", ("DW", "e", "g"), c),
                         st.tuples(dt, st.tuples(st.integers(1, 4), st.integers(1, 600), cols)))],
        "geglu.json": [(lambda c: elementwise("_approx_forward_kernel", ("e", "g", "h"), c),
                        st.tuples(dt, st.tuples(st.integers(1, 4), st.integers(1, 600), cols))),
                       (lambda c: elementwise("_approx_backward_kernel", ("DW", "e", "g"), c),
                        st.tuples(dt, st.tuples(st.integers(1, 4), st.integers(1, 600), cols)))],
        "layernorm.json": [(layernorm_forward, st.tuples(dt, rows, cols, st.integers(0, 1))),
                           (layernorm_sum_partials, st.tuples(dt, st.integers(1, 300), cols)),
                           (layernorm_backward, st.tuples(dt, rows, cols)),
                           (layernorm_backward_dw, st.tuples(dt, rows, cols, st.integers(1, 8)))],
        "rms_layernorm.json": [(lambda c: rms_forward("_rms_layernorm_forward", c), st.tuples(dt, rows, cols)),
                               (lambda c: rms_forward("_gemma_rms_layernorm_forward", c), st.tuples(dt, rows, cols)),
                               (rms_backward, st.tuples(dt, rows, cols, st.integers(0, 1), st.integers(1, 8))),
                               (rms_sum_dw, st.tuples(dt, st.integers(1, 300), cols))],
        "fused_add_rms_layernorm.json": [(add_rms_inference, st.tuples(dt, rows, cols, st.integers(0, 1)))],
        "fp8.json": [(fp8_gemv, st.tuples(dt, st.integers(1, 8192), st.integers(1, 8192), st.sampled_from((16, 32)),
                                          st.just(256))),
                     (fp8_rows_reduce, st.tuples(dt, st.integers(1, 16), cols, st.sampled_from((1, 2, 4, 8))))],
        "large_head_attention.json": [(lh_bwd_pre, st.tuples(dt, st.integers(1, 2), st.integers(1, 16),
                                                              st.integers(1, 2048), st.sampled_from((64, 128, 256))))],
        "nvfp4.json": [(split_sum, st.tuples(dt, st.integers(1, 128), cols, st.sampled_from((2, 4, 8))))],
    }


MAX_ELEMENTS = 1 << 24  # no drawn tensor above this (GPU run time)


def drawn(gen, strategy, committed: list[dict], n: int) -> list[dict]:
    """``n`` configs of ``gen`` drawn from ``strategy``, each one spec named after the committed spec of its kernel
    and dtype (``<that spec>@<sizes>``)."""
    from hypothesis import HealthCheck, given, settings  # noqa: PLC0415

    configs: list = []

    @settings(max_examples=25 * n, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(c):
        if c not in configs:
            specs = gen([c])
            if all(math.prod(a["shape"]) <= MAX_ELEMENTS for s in specs for a in s["args"].values()
                   if isinstance(a, dict) and "shape" in a):
                configs.append(c)

    collect()
    # hypothesis starts from the simplest examples (1 x 1): keep one of them, then evenly spaced later draws
    configs = [configs[0]] + [configs[len(configs) * (i + 1) // n - 1] for i in range(1, n)] if configs else []
    out = []
    for c in configs:
        for spec in gen([c]):
            base = next((b["name"] for b in committed if b["kernel"] == spec["kernel"]
                         and b["name"].split("_")[0] == spec["name"].split("_")[0]),
                        next(b["name"] for b in committed if b["kernel"] == spec["kernel"]))
            out.append({"call": f"{spec['kernel']}{c!r}", "base": base, "spec": dict(spec, name=f"{base}@{spec['name']}")})
    return out


def write_drawn() -> None:
    SHAPES_OUT.mkdir(parents=True, exist_ok=True)
    for name, gens in _draw_strategies().items():
        committed = FILES[name]
        fuzz = [d for gen, strat in gens for d in drawn(gen, strat, committed, DRAWN_PER_GENERATOR)]
        doc = {"file": name.replace(".json", ".py"), "tests": [], "bench": [], "fuzz": fuzz, "rejected": []}
        (SHAPES_OUT / name).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
        print(f"{SHAPES_OUT / name}: {len(fuzz)} drawn specs")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, specs in FILES.items():
        (OUT / name).parent.mkdir(parents=True, exist_ok=True)
        (OUT / name).write_text("[\n" + ",\n".join(json.dumps(s) for s in specs) + "\n]\n")
        print(f"{OUT / name}: {len(specs)} specs")
    write_drawn()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
