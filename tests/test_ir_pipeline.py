"""Which kernels take the typed-IR pipeline (transpiler/pipeline.py) and which the text-model one.

A ratchet: TYPED_IR is the exact set of cuTile Python fixtures (fixtures/*/kernel.py) and tests/data kernels
that translate through the typed IR today. A kernel leaving it fails (a regression of the IR front end or
emitter); a kernel joining it fails too until it is added here, after its IR-equivalence tests passed on the
new path. Raise it until the text-model pipeline can be deleted. No cargo, no cuda-tile.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends.triton.source import is_triton_file

pytestmark = pytest.mark.model  # model-only: no cargo, no cuda-tile (tests/conftest.py guard)

ROOT = Path(__file__).resolve().parent.parent
TYPED_IR = {
    "fixtures/activations/kernel.py",
    "fixtures/attention/kernel.py",
    "fixtures/bf16_consts/kernel.py",
    "fixtures/bmm/kernel.py",
    "fixtures/const_branches/kernel.py",
    "fixtures/fused_rms_norm/kernel.py",
    "fixtures/gather_rank2/kernel.py",
    "fixtures/helpers_multi/kernel.py",
    "fixtures/kernel_hints/kernel.py",
    "fixtures/layer_norm_persistent/kernel.py",
    "fixtures/masked_gather/kernel.py",
    "fixtures/matmul/kernel.py",
    "fixtures/persistent_matmul/kernel.py",
    "fixtures/persistent_rows/kernel.py",
    "fixtures/rms_norm/kernel.py",
    "fixtures/rope/kernel.py",
    "fixtures/rope_f16/kernel.py",
    "fixtures/row_softmax/kernel.py",
    "fixtures/splat_const/kernel.py",
    "fixtures/splitk_reduce/kernel.py",
    "fixtures/vector_add/kernel.py",
    "tests/data/apart_launches.py",
    "tests/data/cf_arm_number.py",
    "tests/data/cf_const_expr.py",
    "tests/data/cf_const_if.py",
    "tests/data/cf_early_return.py",
    "tests/data/cf_flag_arm_types.py",
    "tests/data/cf_helpers_float.py",
    "tests/data/cf_ifexp.py",
    "tests/data/cf_int_variant.py",
    "tests/data/cf_loop_arm.py",
    "tests/data/cf_loop_counter.py",
    "tests/data/cf_loop_if.py",
    "tests/data/cf_loop_split.py",
    "tests/data/cf_rank_variant.py",
    "tests/data/cf_split.py",
    "tests/data/cf_tile0_bounds.py",
    "tests/data/i64_pad.py",
    "tests/data/inplace_rows.py",
    "tests/data/inplace_tokens.py",
    "tests/data/suite_div_modes.py",
    "tests/data/suite_half_label.py",
    "tests/data/suite_not_flag.py",
    "tests/data/suite_not_test.py",
    "tests/data/suite_scalar_astype.py",
    "tests/data/suite_scalar_params.py",
    "tests/data/cf_typed_loop_if.py",
    "tests/data/cf_typed_runtime.py",
    "tests/data/cf_variant.py",
    "tests/data/const_check_bounds.py",
    "tests/data/const_float_fold.py",
    "tests/data/derived_dims.py",
    "tests/data/diff_persistent_mod.py",
    "tests/data/expr_approx.py",
    "tests/data/expr_bits.py",
    "tests/data/expr_const_mod.py",
    "tests/data/expr_intarr.py",
    "tests/data/expr_misc.py",
    "tests/data/expr_tuples.py",
    "tests/data/expr_uint.py",
    "tests/data/f8_arrays.py",
    "tests/data/float_const_bits.py",
    "tests/data/gather_two_dtype_vars.py",
    "tests/data/gather_unit_axis.py",
    "tests/data/scatter_unit_inner.py",
    "tests/data/loop_extract.py",
    "tests/data/dead_if_result.py",
    "tests/data/promoted_fma.py",
    "tests/data/i64_lengths.py",
    "tests/data/index_array_astype.py",
    "tests/data/int_elements.py",
    "tests/data/ir_atomics.py",
    "tests/data/ir_const_attrs.py",
    "tests/data/ir_const_cdiv.py",
    "tests/data/ir_dtypes.py",
    "tests/data/ir_f8.py",
    "tests/data/ir_fill_sym.py",
    "tests/data/ir_gather_forms.py",
    "tests/data/ir_gather_pads.py",
    "tests/data/ir_half_consts.py",
    "tests/data/ir_half_consts2.py",
    "tests/data/ir_int_fill.py",
    "tests/data/ir_load_options.py",
    "tests/data/ir_matmul.py",
    "tests/data/ir_ops_arith.py",
    "tests/data/ir_ops_newaxes.py",
    "tests/data/ir_ops_shapes.py",
    "tests/data/ir_rest_forms.py",
    "tests/data/ir_scan_generic.py",
    "tests/data/ir_scan_half.py",
    "tests/data/ir_sinh.py",
    "tests/data/ir_store_order.py",
    "tests/data/ir_strides.py",
    "tests/data/ir_view_atomic.py",
    "tests/data/llm_ceil_div.py",
    "tests/data/loose_float_const.py",
    "tests/data/loopsplit_flags.py",
    "tests/data/mem_assume.py",
    "tests/data/mem_assume_lit.py",
    "tests/data/view_singleton_stride.py",
    "tests/data/tok_row_loops.py",
    "tests/data/pad_fold.py",
    "tests/data/mixed_launch.py",
    "tests/data/mem_bad_store_order.py",
    "tests/data/mem_gather0d.py",
    "tests/data/mem_gather2d.py",
    "tests/data/mem_hints.py",
    "tests/data/mem_mixed.py",
    "tests/data/mem_order.py",
    "tests/data/mem_scalar1d.py",
    "tests/data/neg_const.py",
    "tests/data/ops_const_mod.py",
    "tests/data/ops_divmod.py",
    "tests/data/ops_flag_dead_call.py",
    "tests/data/ops_flag_store_dtype.py",
    "tests/data/ops_fma_const_if.py",
    "tests/data/ops_fma_left_mul.py",
    "tests/data/ops_gather_mask.py",
    "tests/data/ops_gather_mask_bcast.py",
    "tests/data/ops_gather_pad.py",
    "tests/data/ops_mix.py",
    "tests/data/ops_mix3.py",
    "tests/data/ops_named_fns.py",
    "tests/data/ops_pack_bytes.py",
    "tests/data/ops_reduce_generic.py",
    "tests/data/ops_scalar_float.py",
    "tests/data/ops_scalar_minmax.py",
    "tests/data/ops_scalar_neg.py",
    "tests/data/ops_zeros_e.py",
    "tests/data/rank6_view.py",
    "tests/data/ref_torch_standin.py",
    "tests/data/rule_sqrt_approx.py",
    "tests/data/spelling_vector_add.py",
}


def _kernel_files() -> list[Path]:
    files = sorted((ROOT / "fixtures").glob("*/kernel.py")) + sorted((ROOT / "tests" / "data").glob("*.py"))
    return [p for p in files if not is_triton_file(p)]


def test_typed_ir_ratchet():
    typed, text = set(), set()
    for p in _kernel_files():
        rel = str(p.relative_to(ROOT))
        try:
            mod = translate.translate_module(p)
        except errors.CtrsError:
            continue  # a diagnostic test input (either pipeline refuses it)
        if mod.refused is not None:  # translate kept going: some kernels refused (a diagnostic test input too)
            continue
        (typed if mod.pipeline == pipeline.PIPELINE_NAME else text).add(rel)
    assert typed == TYPED_IR, f"joined: {sorted(typed - TYPED_IR)}; left: {sorted(TYPED_IR - typed)}"
    assert not text  # every cuTile kernel file that translates takes the typed IR (issue 11)


def test_every_typed_ir_kernel_prints_its_ir():
    for rel in sorted(TYPED_IR):
        text = pipeline.emit_model(ROOT / rel, "all")
        for stage in ("frontend", "constfold", "specialise", "fma", "hoist", "tokens", "dce", "assume", "final"):
            assert f"// stage: {stage}\nkernel @" in text


def test_persistent_matmul_keeps_the_grid_stride_step():
    """Issue 11: the text-model pipeline looped `start..num_tiles` (every block computed every tile)."""
    rs = translate.translate_source(ROOT / "fixtures" / "persistent_matmul" / "kernel.py")["kernel.rs"]
    assert "        for tile in (bid..num_tiles).step_by(nblocks as usize) {\n" in rs
    assert "        let nblocks: i32 = nblocks_nb.0;\n" in rs and "get_num_tile_blocks()" in rs
    lines = translate.explain_lines(ROOT / "fixtures" / "persistent_matmul" / "kernel.py")
    want = ": persistent_matmul: ordering: persistent_matmul: the store at line 28 is ordered"
    assert any(want in ln for ln in lines)
