"""Measure the LLM fallback on real kernels (not a test): TileGym 1.5.1 (or unsloth 2026.10.9's Triton kernels,
``--corpus unsloth``; TileGym 1.5.1's suites/ tree of liger / unsloth / flashinfer cuTile ports, ``--corpus
tilegym-suites``) through ``benchmarks/corpus.py --llm``,
against the scripted local server (llm_fallback/scripted.py, 127.0.0.1) answering real constructs with answers
written by hand (ANSWERS below, attempt by attempt); every other construct that reaches the model gets a
non-answer (rejected before building). Answers are verified like any other: IR-equivalent for every committed spec
of the kernel (benchmarks/corpus/<corpus>/<front>/<file>.json, or --specs-dir), the specs ``ctrs check`` uses (a
Triton kernel needs its cuTile counterpart for a reference: unsloth's have none, so nothing is asked there).

    .venv/bin/python benchmarks/llm_measure.py [--corpus tilegym|unsloth|tilegym-suites] [--specs-dir DIR] [--extra-specs DIR]
        [--out DIR] [--only REGEX]

Prints and writes (``<out>/llm-measure-<corpus>.{md,json}``, e.g. llm-measure-tilegym-1.5.1) one row per
construct the fallback met (asked for, or not asked because no spec exercises it / nothing can verify it):
accepted / rejected / not asked, why, each attempt's verdict, and the specs that verified an accepted answer; and
one "not asked" row per refused kernel the fallback asked nothing for (no blocker of it is a construct an answer
can replace), on its first blocker's line, with every blocker and the reason (NOT_ASKED below).
``--extra-specs`` (default benchmarks/llm_measure_specs/<corpus>/, same layout as the committed specs) adds specs
for refused kernels that have none committed, merged with the committed ones (the verifier's set is the union).
Everything runs on this machine: the scripted server listens on 127.0.0.1, the verification builds are
``cargo --offline``, the corpus wheel is the pinned one in the ctrs cache.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

ATTEMPTS = 2


def _rust(*lets: str) -> str:
    return "```rust\n" + "\n".join(lets) + "\n```"


_N_BLOCK = ("let n_b: Tile<i32, { [BLOCK_SIZE] }> = "
            "scalar_to_tile(N).reshape(const_shape![1]).broadcast(const_shape![BLOCK_SIZE]);")
# construct (the Python text the prompt names) -> the answers the scripted "model" gives, attempt by attempt (the
# last one repeats)
ANSWERS: dict[str, list[str]] = {
    # moe_align_block.py _moe_align_block_size_stage3_kernel, line 83: `//` of two int32 tiles (no tile-operator
    # rule). Attempt 1 is deliberately wrong: it spells BLOCK_SIZE as 16, right for the BLOCK_SIZE=16 spec only;
    # attempt 2 divides by the tile the kernel built (Python's floor division: divi rounding toward -inf).
    "div_result // block_size_tile": [
        _rust("let sixteen: Tile<i32, { [1] }> = constant(16i32, const_shape![1]);",
              "let ceiled_div: Tile<i32, { [1] }> = divi(div_result, sixteen, rounding::NegativeInf);"),
        _rust("let ceiled_div: Tile<i32, { [1] }> = divi(div_result, block_size_tile, rounding::NegativeInf);"),
    ],
    # splitk_reduce.py _splitk_reduce_kernel, line 77 (under `if USE_DOT:`): the (0, 0) block of shape (1, TILE_D)
    # of a (1, TILE_D) tile is the tile itself (cuTile Python emits no op for it)
    "ct.extract(mma_result, (0, 0), shape=(1, TILE_D))": [_rust(
        "let numerator_normalized: Tile<f32, { [1, TILE_D] }> = mma_result;")],
    # activation/geglu.py _geglu_fwd_kernel (lines 92, 93) and _geglu_bwd_kernel (142, 143): `//` and `%` of an
    # int32 tile by a ct.Constant int, as cuTile Python emits them (divi rounding<negative_inf>; remi + the sign
    # fix-up select)
    "global_id // N": [_rust(
        _N_BLOCK, "let m_id: Tile<i32, { [BLOCK_SIZE] }> = divi(global_id, n_b, rounding::NegativeInf);")],
    "global_id % N": [_rust(
        _N_BLOCK,
        "let rem: Tile<i32, { [BLOCK_SIZE] }> = remi(global_id, n_b);",
        "let zero: Tile<i32, { [BLOCK_SIZE] }> = constant(0i32, const_shape![BLOCK_SIZE]);",
        "let fix: Tile<bool, { [BLOCK_SIZE] }> = andi(xori(cmpi(rem, zero, predicate::LessThan), cmpi(n_b, zero, "
        "predicate::LessThan)), cmpi(rem, zero, predicate::NotEqual));",
        "let n_offs: Tile<i32, { [BLOCK_SIZE] }> = select(fix, rem + n_b, rem);")],
    # layer_norm_legacy.py _persistent_layer_norm_fwd_kernel, line 191 (under `if IS_SWISH:`): the logistic function
    "ct.sigmoid(y)": [_rust(
        "let e: Tile<f32, { [BLOCK_N, BLOCK_D] }> = exp(negf(y));",
        "let one: Tile<f32, { [BLOCK_N, BLOCK_D] }> = constant(1.0f32, const_shape![BLOCK_N, BLOCK_D]);",
        "let llm_value: Tile<f32, { [BLOCK_N, BLOCK_D] }> = true_div(one, addf(one, e, rounding::NearestEven, "
        "ftz::Disabled));")],
    # moe_align_block.py _moe_align_block_size_stage2_kernel: inclusive prefix sum of an int32 (E) tile
    "ct.cumsum(token_cnts_vec, axis=0)": [_rust(
        "let cumsum: Tile<E, { [NUM_EXPERTS_POW2] }> = scan_sum(token_cnts_vec, 0i32, reverse::Forward, E::ZERO);")],
    # chunk_gated_delta_rule.py _intra_chunk_prepare_kernel: a prefix sum of an f32 tile along the chunk axis
    "ct.cumsum(g_raw, axis=0)": [_rust(
        "let g_cum: Tile<f32, { [CHUNK_SIZE] }> = scan_sum(g_raw, 0i32, reverse::Forward, 0.0f32);")],
}
# Constructs the typed path reaches as whole statements (a blocker inside a rule at an assignment) and statement
# ranges (consecutive stopped statements whose names are read later), answered by hand from the cutile 0.5.0 crate
# (src/_core.rs: reduce_max / reduce_sum / maxi / absf / min) and the spellings the rules prove elsewhere
# (`scalar_to_tile(C).reshape(..)` for a ct.full of a ct.Constant). `let x: Tile<i32, ..> = x;` re-declares an
# input at the dtype the answer is written for: the array's dtype variable is bound to it (llm_fallback/splice.py).
ANSWERS.update({
    # moe_align_block.py _moe_align_block_size_stage3_kernel, lines 79-81 (a range: both names are read later in
    # the loop). Attempt 1 is deliberately wrong: a ct.Constant as a constant() value (rustc accepts it, the cuTile
    # JIT does not: "Unexpected dense value"); attempt 2 spells the fill as the rules do.
    "max_cnt = ct.maximum(max_cnt, token_cnt); block_size_tile = ct.full((1,), BLOCK_SIZE, dtype=token_cnt.dtype)": [
        _rust("let token_cnt: Tile<i32, { [1] }> = token_cnt;",
              "let max_cnt: Tile<i32, { [1] }> = maxi(max_cnt, token_cnt);",
              "let block_size_tile: Tile<i32, { [1] }> = constant(BLOCK_SIZE, const_shape![1]);"),
        _rust("let token_cnt: Tile<i32, { [1] }> = token_cnt;",
              "let max_cnt: Tile<i32, { [1] }> = maxi(max_cnt, token_cnt);",
              "let block_size_tile: Tile<i32, { [1] }> = scalar_to_tile(BLOCK_SIZE).reshape(const_shape![1]);")],
    # splitk_reduce.py _splitk_reduce_kernel, line 61: max over every axis of the f32 lse tile (the lse array is
    # f32 in TileGym's launches: the answer says so), a 0-d tile
    "lse_max = ct.max(lse_splitk)": [_rust(
        "let lse_splitk: Tile<f32, { [NUM_KV_SPLITS_POW2] }> = lse_splitk;",
        "let lse_max: Tile<f32, { [] }> = reduce_max(lse_splitk, 0i32);")],
    # splitk_reduce.py line 68: sum over every axis. Attempt 1 deliberately wrong (a max, not a sum)
    "sumexp_normalized = ct.sum(sumexp_normalized_splitk)": [
        _rust("let sumexp_normalized: Tile<f32, { [] }> = reduce_max(sumexp_normalized_splitk, 0i32);"),
        _rust("let sumexp_normalized: Tile<f32, { [] }> = reduce_sum(sumexp_normalized_splitk, 0i32);")],
    # chunk_gated_delta_rule.py _ct_solve_tril_neumann_guarded (inlined into _intra_chunk_prepare_kernel), line 58:
    # the infinity norm of an f32 (CS, CS) tile
    "norm_inf = ct.max(ct.sum(ct.abs(A), axis=1))": [_rust(
        "let a_abs: Tile<f32, { [CHUNK_SIZE, CHUNK_SIZE] }> = absf(A);",
        "let row_sum: Tile<f32, { [CHUNK_SIZE] }> = reduce_sum(a_abs, 1i32);",
        "let norm_inf: Tile<f32, { [] }> = reduce_max(row_sum, 0i32);")],
    # attention_sink_decode.py _attention_sink_decode_kernel, line 92: min of two i32 scalars (Start_q is int32)
    "end_idx = ct.minimum(end_idx, start_q_val + 1)": [_rust(
        "let start_q_val: i32 = start_q_val;",
        "let end_idx: i32 = min(end_idx, start_q_val + 1i32);")],
})
# Session 5 (real constructs the typed path still refuses). mamba2.py chunk_cumsum_kernel, line 815: an inclusive
# prefix sum along axis 1 of a (1, chunk_size, BLOCK_H) f32 tile, times LOG2E (CTRS-E323: the rules refuse it).
# Attempt 1 is what the crate's signature invites, `scan_sum(t, 1i32, ..)`: it builds, but cutile 0.5.0 writes
# dim 0 whatever `dim` says (docs/cutile-defects.md), so the IR diff must reject it (the reference scans dim 1).
# Attempt 2 scans axis 0 of the tile permuted to (chunk_size, 1, BLOCK_H) and permutes back: the right values, not
# the reference's ops (two permutes around a dim-0 scan): rejected as well. No answer can be accepted here: the
# pinned crate cannot spell the reference's `scan dim = 1`.
_MAMBA_PROD = ("let a3: Tile<f32, { [1, 1, BLOCK_H] }> = a_tile.reshape(const_shape![1, 1, BLOCK_H]);",
               "let ab: Tile<f32, { [1, chunk_size, BLOCK_H] }> = a3.broadcast(const_shape![1, chunk_size, BLOCK_H]);",
               "let prod: Tile<f32, { [1, chunk_size, BLOCK_H] }> = ab * dt_tile;")
_MAMBA_LOG2E = ("let c: Tile<f32, { [] }> = constant(1.4426950216293335f32, const_shape![]);",
                "let cb: Tile<f32, { [1, chunk_size, BLOCK_H] }> = c.reshape(const_shape![1, 1, 1])"
                ".broadcast(const_shape![1, chunk_size, BLOCK_H]);",
                "let d_tile: Tile<f32, { [1, chunk_size, BLOCK_H] }> = cum * cb;")
ANSWERS.update({
    "d_tile = ct.cumsum(a_tile * dt_tile, axis=1) * LOG2E": [
        _rust(*_MAMBA_PROD,
              "let cum: Tile<f32, { [1, chunk_size, BLOCK_H] }> = scan_sum(prod, 1i32, reverse::Forward, 0.0f32);",
              *_MAMBA_LOG2E),
        _rust(*_MAMBA_PROD[:2],
              "let pt: Tile<f32, { [chunk_size, 1, BLOCK_H] }> = permute(ab * dt_tile, const_array![1, 0, 2]);",
              "let cum: Tile<f32, { [1, chunk_size, BLOCK_H] }> = permute(scan_sum(pt, 0i32, reverse::Forward, "
              "0.0f32), const_array![1, 0, 2]);",
              *_MAMBA_LOG2E)],
})
# Session 6 (issue 16 point 5). layer_norm.py _layer_norm_fwd_kernel_gather, lines 189, 242, 292 (the same statement
# three times, in the BLOCK_SIZE_W != 1 arms; specs: llm_measure_specs, TileGym's gather path W < 16): a rank-2
# ct.gather of the flat x (CTRS-E230, now asked for as a statement). The only cutile spelling of a padded gather is
# `load_ptr_tko`, a memory op outside the answer language (allowlist.txt: value-level math), so the vetting rejects
# it before building; and no value-level answer reads memory. (Had it been allowed: cutile's load_ptr_tko widens its
# scalar padding through a rank-1 reshape, invalid Tile IR at rank 2: docs/cutile-defects.md.)
ANSWERS.update({
    "x_tile = ct.gather(x, offsets, padding_value=0)": [_rust(
        "let x_tile: Tile<E, { [BLOCK_SIZE_C, BLOCK_SIZE_W] }> = load_ptr_tko(x_ptrs, ordering::Weak, "
        "None, Some(x_mask), Some(E::ZERO), None, latency::<0>).0;")],
})
# experimental/sparse_mla.py _sparse_mla_fwd_kernel, lines 163-169: three rank-2 gathers of rank-4 K / V / KPE
# (CTRS-E230), one statement range (all three names are read later; specs: llm_measure_specs, DeepSeek-style D=512,
# D_PE=64, one latent KV head). The same memory answer as above: vetted out before building.
_SMLA = ", ".join(("ordering::Weak", "None", "None", "Some(E::ZERO)", "None", "latency::<0>"))
ANSWERS.update({
    "gathered_k = ct.gather(K, (batch_idx, off_kv_h, s_idx, d_idx)); gathered_v = ct.gather(V, (batch_idx, "
    "off_kv_h, s_idx, d_idx)); gathered_kpe = ct.gather(KPE, (batch_idx, 0, s_idx, dpe_idx))": [_rust(
        f"let gathered_k: Tile<E, {{ [TILE_N, TILE_D] }}> = load_ptr_tko(k_ptrs, {_SMLA}).0;",
        f"let gathered_v: Tile<E, {{ [TILE_N, TILE_D] }}> = load_ptr_tko(v_ptrs, {_SMLA}).0;",
        f"let gathered_kpe: Tile<E, {{ [TILE_N, TILE_KPE] }}> = load_ptr_tko(kpe_ptrs, {_SMLA}).0;")],
})
# Session 8 (issue 16 point 5, --corpus tilegym-suites): real constructs of TileGym 1.5.1's suites/ tree.
# liger/cutile/fused_neighborhood_attention.py _fna_fused_forward_kernel, lines 107-108 and 163-164 (two statement
# ranges: both names of each are read by the next ct.mma): `X if t.dtype == ct.float32 else t` of a *tile* (the rule
# reads an array's dtype only, CTRS-E124). For the 16-bit element types the specs launch (f16, bf16: the operands
# go to the MMA as they are) the tile itself; an f32 launch needs the tf32 conversion, which no answer generic in E
# can choose (the specs decide: none launches f32).
ANSWERS.update({
    "q_mma = ct.astype(q, ct.tfloat32) if q.dtype == ct.float32 else q; "
    "k_mma = ct.astype(k, ct.tfloat32) if k.dtype == ct.float32 else k": [_rust(
        "let q_mma: Tile<E, { [BLOCK_M, HEAD_DIM] }> = q;",
        "let k_mma: Tile<E, { [HEAD_DIM, BLOCK_N] }> = k;")],
    "p_mma = ct.astype(p_cast, ct.tfloat32) if p_cast.dtype == ct.float32 else p_cast; "
    "v_mma = ct.astype(v, ct.tfloat32) if v.dtype == ct.float32 else v": [_rust(
        "let p_mma: Tile<E, { [BLOCK_M, BLOCK_N] }> = p_cast;",
        "let v_mma: Tile<E, { [BLOCK_N, HEAD_DIM] }> = v;")],
})
# unsloth/cutile/cross_entropy_loss.py _cross_entropy_backward_ct, line 200: `dloss_val = 0.0` before `if label_idx !=
# -100: dloss_val = ct.gather(dloss, ..).item()` leaves dloss_val a compile-time number on one path of a runtime
# `if` and a value of dloss's dtype variable on the other (CTRS-E124 at the `if`); the fallback asks for the
# statement that bound the number (ranges.ask_for_binding) and the answer binds it as a runtime f32 0-d tile (dloss
# is f32: the `if` then merges two f32 values). Attempt 1 is deliberately wrong: 1.0, the neutral element of the
# product dloss_val * y it feeds, not the value the kernel starts with (the IR diff rejects the constant).
ANSWERS.update({
    "dloss_val = 0.0": [
        _rust("let dloss_val: Tile<f32, { [] }> = constant(1.0f32, const_shape![]);"),
        _rust("let dloss_val: Tile<f32, { [] }> = constant(0.0f32, const_shape![]);")],
})
# Session 7 (issue 16 point 5, again): the kernels rules still do not cover, other than those other work covers. Why
# the fallback asks nothing for them (kernel regex -> the reason; the row lists every blocker as well).
NOT_ASKED: dict[str, str] = {
    # specs: llm_measure_specs (TileGym's autotune-disabled launch: BLOCK_M 128, BLOCK_N 128, BLOCK_K 64; int32
    # index arrays, f32 scores and ds). The f32-index gathers (CTRS-E124, lines 226/227/422) are those of the entry
    # with f32 index arrays, which no launch makes (the reported entry is the one that got furthest); every entry
    # stops at the same `.slice` (CTRS-E401, independent of the dtypes).
    r"moe_actgrad_bwd": "every per-dtype entry stops at `z_ptr.slice(axis=0, start=.., stop=..)` (CTRS-E401): an "
                        "array view, not a value; an answer is `let` statements binding tiles and scalars "
                        "(llm_fallback/answer.py) and an array is not usable in one, and cutile's only spelling, "
                        "make_tensor_view of an offset pointer, is unsafe (cutile 0.5.0 src/_core.rs) and outside the "
                        "allowed API; E401 is no construct code (pipeline.FALLBACK_CODES): a rule for array slices is "
                        "what this kernel needs",
    r"^triton/attention_variant": "a Triton file: an answer is verified against its cuTile counterpart's Tile IR "
                                  "(specs.json \"reference\"); none is named for this file (TileGym's cuTile "
                                  "attention_variant.py takes other parameters: Q/K/V arrays, not host-made tensor "
                                  "descriptors), so nothing could be proven; and the blockers are no statement an "
                                  "answer replaces (a descriptor parameter's block shape, a helper's `return` of a "
                                  "value or list, a string tl.constexpr compared)",
    # unsloth (--corpus unsloth): its refused kernels other work does not cover
    r"int4_packed\.py:_dequant_repacked_kernel": "unsloth's Triton kernels have no cuTile counterpart to verify an "
                                                  "answer against; and the blocker, a rank-7 tile, has no cutile "
                                                  "spelling at all (tile ops are declared up to rank 6: "
                                                  "#[cuda_tile::variadic_op(N = 6)], cutile 0.5.0 src/_core.rs)",
}
# tilegym-suites (session 8): refused kernels whose blockers no answer can replace (the row lists every blocker)
NOT_ASKED.update({
    r"ragged_bmm\.py:": "`a.slice(axis=.., start=.., stop=..)` (CTRS-E401) is an array view, not a value: an answer binds "
                        "tiles and scalars only, and cutile's spelling (make_tensor_view of an offset pointer) is unsafe "
                        "and outside the allowed API; a rule for array slices is what these kernels need",
    r"fmha_decode_bsr\.py:": "`ct.load_advanced_indexing(..)` (CTRS-E124 inside a call, not at a simple assignment) is a "
                             "memory read: the answer language is value-level math (allowlist.txt), so no answer can "
                             "carry it; a rule is what this kernel needs",
    r"liger/cutile/rms_norm\.py:": "the blocker is a parameter, `eps` (CTRS-E124: an unannotated runtime float, typed as "
                                   "an integer only): no statement an answer replaces; the parameter's type is a rule "
                                   "gap (a launch passes float(eps))",
    r"dyt\.py:": "the blocker is an `if HAVE_BETA:` that binds `db_acc` in one arm only (CTRS-E124, a ct.Constant "
                 "split): a compound statement, not a simple assignment an answer replaces",
})
NO_ANSWER = "I cannot port this construct."
_EXPR = re.compile(r"The \w+ to translate (?:is|are) `(.*?)` \(lines? ")
_LOG = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): llm: (?P<what>.*)$")


def answer_for(body: dict) -> str:
    user = body["messages"][1]["content"]
    m = _EXPR.search(user)
    script = ANSWERS.get(m.group(1) if m else "", [NO_ANSWER])
    attempt = sum(msg["role"] == "assistant" for msg in body["messages"])  # earlier answers of this construct
    return script[min(attempt, len(script) - 1)]


def _clean(text: str) -> str:
    return re.sub(r"\S*/(?:tilegym|unsloth)-[\d.]+/src/", "", text)  # no local cache paths in the report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", choices=sorted(corpus.CORPORA), default="tilegym", help="which corpus (default tilegym)")
    ap.add_argument("--specs-dir", help="committed corpus specs (per front end; default the corpus's own)")
    ap.add_argument("--extra-specs", help="specs for kernels without committed ones (default "
                    "benchmarks/llm_measure_specs/<corpus>/)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    ap.add_argument("--only", help="translate only the kernels matching this regex on '<front>/<file>:<kernel>'")
    ap.add_argument("--build-timeout", type=float, default=1800.0, help="seconds one verification build may take "
                    "(default 1800: a first build of the harness compiles the cutile crates)")
    ap.add_argument("--candidates", help="write every candidate kernel.rs that was built into this directory")
    a = ap.parse_args(argv)
    from ctrs.llm_fallback import verify  # noqa: PLC0415
    from ctrs.llm_fallback.config import Config  # noqa: PLC0415
    from ctrs.llm_fallback.scripted import Server  # noqa: PLC0415

    corpus.select(a.corpus)
    corpus.COMMITTED = Path(a.specs_dir) if a.specs_dir else corpus.COMMITTED
    extra = Path(a.extra_specs) if a.extra_specs else ROOT / "benchmarks" / "llm_measure_specs" / corpus.CORPUS
    merged_dir = Path(tempfile.mkdtemp(prefix="ctrs-llm-measure-specs-"))
    committed_file = corpus.spec_file

    def spec_file(k):  # the committed specs of k's file plus the extra ones (one list: what the verifier proves)
        mine, more = committed_file(k), extra / k.front / Path(committed_file(k)).relative_to(
            corpus.COMMITTED / k.front)
        if not more.exists():
            return mine
        items = []
        for f in (mine, more):
            if f.exists():
                doc = json.loads(f.read_text())
                items += doc["spec"] if isinstance(doc, dict) else doc
        out = merged_dir / k.front / Path(mine).relative_to(corpus.COMMITTED / k.front)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(items))
        return out

    corpus.spec_file = spec_file
    logs: list[str] = []
    records: dict[str, list[dict]] = {}  # kernel -> the fallback's records of its accepted answers
    plain = corpus.translate_kernel

    def translate_kernel(k, src, llm):
        if a.only and not re.search(a.only, f"{k.file.split('/ops/', 1)[-1]}:{k.name}"):
            k.tier, k.blockers = "refused", []
            return
        if llm is not None:
            llm.accepted = {}
        k.src_dir = src  # the unpacked corpus: the source line of a kernel's first blocker (_unasked)
        plain(k, src, llm)
        if llm is not None and k.tier == "llm":
            records[f"{k.file}:{k.name}"] = list(llm.accepted.values())

    def log(m: str) -> None:
        logs.append(m)
        print(m, file=sys.stderr, flush=True)

    verdicts: dict[str, list[dict]] = {}  # variant file name -> every build + IR diff of a candidate, in order
    check = verify.Verifier.verify

    def verify_candidate(self, files, mod):
        ok, stage, detail = check(self, files, mod)
        if a.candidates:
            n = len(verdicts.get(Path(self.kernel).name, [])) + 1
            Path(a.candidates).mkdir(parents=True, exist_ok=True)
            (Path(a.candidates) / f"{Path(self.kernel).stem}.{n}.rs").write_text(files["kernel.rs"])
        verdicts.setdefault(Path(self.kernel).name, []).append(
            {"stage": stage, "detail": _compact(_clean(detail)), "specs": [s.name for s in self.specs]})
        return ok, stage, detail

    corpus.translate_kernel = translate_kernel
    verify.Verifier.verify = verify_candidate
    with tempfile.TemporaryDirectory(prefix="ctrs-llm-measure-") as cache, Server([answer_for] * 2000) as srv:
        cfg = Config(model="scripted-hand-answers", base_url=srv.url, attempts=ATTEMPTS, cache_dir=Path(cache), log=log,
                     build_timeout=a.build_timeout)
        ks = corpus.run("translate", None, True, a.only, llm=cfg)
        requests = [r["body"] for r in srv.requests]
    if a.only:  # the kernels in scope only (the others were not translated; a variant name can repeat across
        ks = [k for k in ks if re.search(a.only, f"{k.file.split('/ops/', 1)[-1]}:{k.name}")]  # front ends)
    rows = _rows(ks, logs, records, requests, verdicts)
    _write(Path(a.out), ks, rows, a.only, a.corpus)
    return 0


def _rows(ks, logs: list[str], records: dict, requests: list[dict], verdicts: dict) -> list[dict]:
    """One row per construct the fallback met, in corpus order."""
    met: dict[tuple[str, int], dict] = {}  # (variant file name, line) -> row
    for body in requests:  # the constructs asked for (first request of each)
        user = body["messages"][1]["content"]
        m, where = _EXPR.search(user), re.search(r"at (_ctrs_\S+?):(\d+):\d+", user)
        if m and where:
            met.setdefault((where.group(1), int(where.group(2))), {"construct": m.group(1), "requests": 0})
            met[(where.group(1), int(where.group(2)))]["requests"] += 1
    for line in logs:
        lm = _LOG.match(line)
        if not lm:
            continue
        key = (Path(lm["file"]).name, int(lm["line"]))
        row = met.setdefault(key, {"construct": "", "requests": 0})
        what = lm["what"]
        att = re.match(r"attempt (\d+) not accepted: (.*?): (.*)$", what)
        if att:
            row.setdefault("attempts", []).append({"attempt": int(att[1]), "verdict": "rejected", "stage": att[2],
                                                   "detail": _clean(att[3])})
        elif what.startswith("accepted"):
            row.setdefault("attempts", []).append({"attempt": len(row.get("attempts", [])) + 1,
                                                   "verdict": "accepted", "stage": "EQUIVALENT", "detail": ""})
        elif what.startswith("not asked"):
            row["not_asked"] = what
            row["construct"] = row["construct"] or what.split("`", 1)[-1].rstrip("`")
    rows = []
    for k in ks:
        variant = f"_ctrs_{Path(k.file).stem}__{k.name}.py"
        mine = sorted((line, row) for (f, line), row in met.items() if f == variant)
        if not mine and k.tier == "refused":  # nothing asked: no blocker was a construct the fallback asks for
            rows.append(_unasked(k))
            continue
        if not mine or (k.tier == "rules"):
            continue
        accepted = {r["loc"][1]: r for r in records.get(f"{k.file}:{k.name}", [])}
        why = "" if k.tier == "llm" else _clean(k.blockers[0]["text"] if k.blockers else "")
        specs = [s["name"] for s in corpus.committed_specs(k)]
        builds = list(verdicts.get(variant, []))  # the kernel's builds, in order: one per built attempt
        for line, row in mine:
            if not row.get("attempts") and row["requests"]:  # spliced, held until the kernel's next construct
                row["attempts"] = [{"attempt": 1, "verdict": "held", "stage": "spliced, held while the kernel's next "
                                    "construct without a rule was asked for", "detail": ""}]
            for x in row.get("attempts", []):  # the full IR diff / rustc verdict of attempts that were built
                if x["verdict"] != "held" and x["stage"] not in ("it was rejected before building", "no entry",
                                                                 "no specs") and builds:
                    b = builds.pop(0)
                    x["detail"], x["specs"] = b["detail"] or x["detail"], b["specs"]
            python = row["construct"] or (accepted[line]["expr"] if line in accepted else "")
            rec = accepted.get(line)
            result = "accepted" if rec else "not asked" if row.get("not_asked") else "rejected"
            rows.append({
                "kernel": f"{k.file.split('/ops/', 1)[-1]}:{k.name}", "line": line, "construct": python,
                "scripted": python in ANSWERS, "requests": row["requests"], "attempts": row.get("attempts", []),
                "result": result, "kernel_translated": k.tier == "llm", "why": why,
                "verified_specs": rec.get("verified_specs", []) if rec else [], "committed_specs": specs,
                "rust": [f"let {s.name}: {s.type} = {s.expr};" for s in rec["stmts"]] if rec else []})
    return rows


def _unasked(k) -> dict:
    """The row of a kernel the fallback asked nothing for: its first blocker is the construct (its source line),
    ``why`` every blocker (code, line, message) and, where one is written, the reason no answer could carry it
    (NOT_ASKED)."""
    bs = k.blockers or [{"code": "", "line": 0, "message": "refused", "text": "refused"}]
    src = Path(getattr(k, "src_dir", "")) / k.file
    lines = src.read_text(errors="replace").splitlines() if src.is_file() else []
    kernel = f"{k.file.split('/ops/', 1)[-1]}:{k.name}"
    note = next((v for pat, v in NOT_ASKED.items() if re.search(pat, kernel)), "")
    named = re.search(r"\((CTRS-E\d+)\)", note)  # the blocker the reason names, else the first one
    first = next((b for b in bs if named and b["code"] == named.group(1)), bs[0])
    python = " ".join(lines[first["line"] - 1].split()) if 0 < first["line"] <= len(lines) else ""
    every = "; ".join(f"{b['code']} line {b['line']}: {_clean(b['message'])[:160]}" for b in bs[:6])
    return {"kernel": kernel, "line": first["line"], "construct": python, "scripted": python in ANSWERS,
            "requests": 0, "attempts": [], "result": "not asked", "kernel_translated": False,
            "why": f"the fallback asked nothing{': ' + note if note else ''} (blockers: {every})",
            "verified_specs": [], "committed_specs": [s["name"] for s in corpus.committed_specs(k)], "rust": []}


def _compact(detail: str) -> str:
    """An IR-diff verdict with every spec's head line kept and each finding cut to 240 characters (a finding quotes
    whole op signatures: uncut, the first spec's would hide the others')."""
    return "\n".join(t if t.startswith("spec ") else t[:240] for t in detail.splitlines())[:6000]


def _brief(detail: str) -> str:
    """An IR-diff verdict without its warnings: the head line, each spec's verdict and its critical findings."""
    lines = detail.splitlines()
    if not (lines and lines[0].startswith("not EQUIVALENT")):
        return " / ".join(lines[:2])[:600]
    keep = [lines[0]]  # per spec: its verdict and the (code, op) of each critical finding (the op text is long)
    for t in lines[1:]:
        if t.startswith("spec "):
            keep.append(t)
        elif t.startswith("critical:"):
            code_op = " ".join(t.split(":", 2)[1].split()[:2])
            if code_op not in keep[-1]:
                keep[-1] += f"; {code_op}"
    return " / ".join(keep)[:900]


def _write(out: Path, ks, rows: list[dict], only: str | None = None, which: str = "tilegym") -> None:
    n = {r: sum(x["result"] == r for x in rows) for r in ("accepted", "rejected", "not asked")}
    scripted = [r for r in rows if r["scripted"]]
    ns = {r: sum(x["result"] == r for x in scripted) for r in ("accepted", "rejected", "not asked")}
    kernels = sorted({r["kernel"] for r in rows if r["kernel_translated"]})
    scope = f" (--only '{only}')" if only else ""
    head = (f"{corpus.NAME} {corpus.VERSION}{scope}: {len(ks)} kernels, {sum(k.tier == 'rules' for k in ks)} by rules, "
            f"{len(kernels)} through the LLM fallback (verified); {len(rows)} constructs met "
            f"({n['accepted']} accepted, {n['rejected']} rejected, {n['not asked']} not asked); "
            f"{len(scripted)} with a scripted answer: {ns['accepted']} accepted, {ns['rejected']} rejected, "
            f"{ns['not asked']} not asked")
    print(head)
    lines = [f"# LLM fallback on {corpus.NAME} {corpus.VERSION} (scripted answers)\n\n{head}\n",
             f"Command: `.venv/bin/python benchmarks/llm_measure.py"
             f"{' --corpus ' + which if which != 'tilegym' else ''}{' --only ' + repr(only) if only else ''}` "
             "(answers: `ANSWERS` there; "
             f"`--llm-attempts {ATTEMPTS}`; verification: every committed spec of the kernel, IR-EQUIVALENT).\n",
             "| kernel | line | construct | scripted | result | attempts | verified specs | why |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        atts = "; ".join(f"{x['attempt']}: {x['verdict']}" + (
            f" ({x['stage']}: {_brief(x['detail'])})" if x["detail"] else
            f" ({x['stage']})" if x["verdict"] == "held" else "") for x in r["attempts"]) or "-"
        why = r["why"] if r["result"] != "accepted" else "the kernel translates and every committed spec is EQUIVALENT"
        lines.append(f"| {r['kernel']} | {r['line']} | `{r['construct']}` | {'yes' if r['scripted'] else '-'} | "
                     f"{r['result']} | {atts.replace('|', '/')[:1200]} | {', '.join(r['verified_specs']) or '-'} | "
                     f"{why.replace('|', '/')[:500 if r['requests'] else 1100]} |")
        print(f"{r['result']:9s} {r['kernel']}:{r['line']} `{r['construct']}`: {atts[:300]} {why[:300]}")
    out.mkdir(parents=True, exist_ok=True)
    (out / f"llm-measure-{corpus.CORPUS}.md").write_text("\n".join(lines) + "\n")
    (out / f"llm-measure-{corpus.CORPUS}.json").write_text(json.dumps({"summary": head, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
