"""Constructs that sent a cuTile file to the text-model pipeline, now on the typed IR (issue 11): an ``if`` on a
comparison of two ct.Constant ints, len() of tuples, reductions of every axis, allow_tma= of a ct.Constant[bool]
inside a loop, loop-carried scalars (a Python number re-bound from itself in a loop), view ops on an array an
N-d gather reads raw.

tests/data/ir_rest_forms.py is IR-equivalent to cuTile Python's reference for every spec (cargo); the rest are
model-only."""

from __future__ import annotations

import pytest

from ctrs import errors, pipeline, translate
from ctrs.spec import load_specs

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = DATA / "ir_rest_forms.py"


@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("rest"), ["ir_rest_forms"])["ir_rest_forms"]


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(["ir_rest_forms"])))
def test_rest_forms_ir_equivalent(translated, kernel, spec):
    assert translate.translate_module(KERNEL).pipeline == pipeline.PIPELINE_NAME
    assert_port_equivalent(KERNEL, translated, spec)


@pytest.fixture(scope="module")
def half_consts(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("half"), ["ir_half_consts"])["ir_half_consts"]


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(["ir_half_consts"])))
def test_half_constants_ir_equivalent(half_consts, kernel, spec):
    assert_port_equivalent(DATA / "ir_half_consts.py", half_consts, spec)


@pytest.fixture(scope="module")
def const_cdiv(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("cdiv"), ["ir_const_cdiv"])["ir_const_cdiv"]


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(["ir_const_cdiv"])))
def test_cdiv_of_constants_ir_equivalent(const_cdiv, kernel, spec):
    assert_port_equivalent(DATA / "ir_const_cdiv.py", const_cdiv, spec)


@pytest.mark.model
def test_cdiv_of_constants_is_a_scalar_ceil_div():
    """cuTile Python folds ct.cdiv(SPAN, TILE) to a constant; a divi of constant tiles stays a divi in the port's IR
    (the JIT does not fold it), cutile's scalar ceil_div of the const generics is folded."""
    rs = translate.translate_source(DATA / "ir_const_cdiv.py")["kernel.rs"]
    assert "let cdiv: i32 = ceil_div(SPAN, TILE);" in rs and "for j in j_zero..(j_zero + cdiv) {" in rs
    assert "divi(" not in rs


@pytest.mark.model
def test_every_kernel_has_specs_with_different_values():
    specs = load_specs(str(DATA / "ir_rest_forms.json"))
    for k in ("cmp_if", "reduce_all", "tma_loop", "carried_scalar"):
        assert len({repr(s.args) for s in specs if s.kernel == k}) >= 2, k


# -- model-only ---------------------------------------------------------------------------------------------

def _model(stage: str = "final") -> str:
    return pipeline.emit_model(KERNEL, stage)


@pytest.mark.model
def test_comparison_of_two_constants_is_a_constant_if():
    text = pipeline.emit_model(KERNEL, "frontend")
    cmp_if = text.split("kernel @cmp_if")[1].split("kernel @")[0]
    assert "= if const GROUP eq HEADS -> (tile<TILExf32>) {" in cmp_if
    assert "= if const TILE gt GROUP -> (tile<TILExf32>) {" in cmp_if  # `wide = TILE > GROUP; if wide:`
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    assert "if GROUP == HEADS {" in rs and "if TILE > GROUP {" in rs


@pytest.mark.model
def test_len_of_tuples_folds():
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    body = rs.split("pub fn tuple_len")[1].split("pub fn")[0]
    assert "4.0f32" in body or "4i32" in body  # len((TILE, 2 * TILE)) + len(x.shape) = 4


@pytest.mark.model
def test_reduction_of_every_axis_reduces_axis_0_rank_times():
    text = _model("frontend")
    red = text.split("kernel @reduce_all")[1].split("kernel @")[0]
    assert red.count("reduce_max") == 2 and red.count("reduce_sum") == 4
    assert "axis = 1" not in red  # axis 0 each time, as cuTile Python's reduce of axis=None


@pytest.mark.model
def test_allow_tma_of_a_bool_in_a_loop_splits_the_entry():
    heads = [ln.split("<")[0] for ln in _model().splitlines() if ln.startswith("kernel @tma_loop")]
    assert heads == ["kernel @tma_loop__USE_TMA_0", "kernel @tma_loop__USE_TMA_1"]
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    off, on = rs.split("pub fn tma_loop__USE_TMA_0")[1].split("pub fn tma_loop__USE_TMA_1")
    assert "tma::Disabled" in off and "tma::Enabled" not in off.split("pub fn")[0]
    assert "tma::Enabled" in on and "tma::Disabled" not in on


@pytest.mark.model
def test_loop_carried_scalars_are_mutable_scalars():
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    body = rs.split("pub fn carried_scalar")[1]
    assert "let mut row_1: i32 = row;" in body and "let mut s: f32 = 0.0f32;" in body
    assert "row_1 = row_2;" in body and "s = s_1;" in body
    assert "let s_tile: Tile<f32, { [] }> = scalar_to_tile(s);" in body  # the tile form, per iteration


@pytest.mark.model
def test_a_comparison_of_constants_as_allow_tma_in_a_loop_is_still_refused(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\n"
                   "def k(x, y, T: ct.Constant[int], N: ct.Constant[int]):\n"
                   "    for j in range(4):\n"
                   "        t = ct.load(x, (j,), (T,), allow_tma=T != N)\n"
                   "        ct.store(y, (j,), t)\n")
    with pytest.raises(errors.CtrsError) as ei:
        pipeline.translate_module(src, "k")
    assert ei.value.code == errors.IR_UNSUPPORTED and ei.value.loc.line == 7
    assert "inside a loop" in ei.value.message


@pytest.mark.model
def test_views_of_a_raw_array_read_its_tensor_view():
    rs = translate.translate_source(DATA / "mem_mixed.py")["kernel.rs"]
    mixed = rs.split("pub unsafe fn mixed_f32")[1].split("pub unsafe fn")[0]
    assert "let x_dims: Shape<{ [-1, -1] }> = Shape::<{ [-1, -1] }> { dims: &[x_shape_0, x_shape_1] };" in mixed
    assert "let x_strides: Array<{ [-1, 1] }> = Array::<{ [-1, 1] }> { dims: &[x_stride_0] };" in mixed
    assert "make_tensor_view(x_vbase, x_dims, x_strides, x_vtok)" in mixed
    assert "let px: Partition<f32, { [1, T] }> = x_view.partition(const_shape![1, T]);" in mixed
    assert "y_view.partition_full_mut(const_shape![1, T])" in mixed


@pytest.mark.model
def test_fma_across_a_comparison_of_constants_is_refused(tmp_path):
    """cuTile Python folds `GROUP == HEADS` per launch and then contracts `t * t - 1.0` into an fma; the port's
    constant if keeps them apart, and a comparison cannot be split into entries as a ct.Constant[bool] is."""
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\n"
                   "def k(x, y, T: ct.Constant[int], G: ct.Constant[int], H: ct.Constant[int]):\n"
                   "    t = ct.astype(ct.load(x, (0,), (T,)), ct.float32)\n"
                   "    if G == H:\n"
                   "        t = t * t\n"
                   "    ct.store(y, (0,), ct.astype(t - 1.0, y.dtype))\n")
    with pytest.raises(errors.CtrsError) as ei:
        pipeline.translate_module(src, "k")
    assert ei.value.code == errors.IR_CONST_COMPARE_FMA and (ei.value.loc.line, ei.value.loc.col) == (7, 5)
    assert "G eq H" in ei.value.message and ei.value.hint


@pytest.mark.model
def test_half_constants_are_spelled_through_constant_f32():
    rs = translate.translate_source(DATA / "ir_half_consts.py")["kernel.rs"]
    bf16 = rs.split("pub fn tanh_gelu_bf16")[1].split("pub fn")[0]
    assert "let c: Tile<bf16, { [] }> = constant_f32(0.044714998453855515f32, const_shape![]);" in bf16
    assert "constant(bf16::ONE" not in bf16  # 1.0 of bf16 too (cutile_defects: bf16::ONE mis-encodes)


@pytest.mark.model
def test_half_constant_on_a_double_rounding_tie_is_not_spelled():
    """f64 -> f32 -> half rounds twice; where the f32 value is exactly halfway between two half values (and the
    Python float is not that f32) the two roundings may differ from the reference's one: no spelling."""
    from ctrs.emitters.ir_rust import _half_via_f32
    from ctrs.ir.types import DTYPES

    tie = 1.0 + 2.0 ** -8  # halfway between two bf16 values, exact in f32
    above = tie + 2.0 ** -40  # rounds to the tie in f32, above it in f64
    assert _half_via_f32(tie, DTYPES["bf16"]) == "1.00390625f32"  # exact in f32: one rounding either way
    assert _half_via_f32(above, DTYPES["bf16"]) is None
    assert _half_via_f32(0.044715, DTYPES["f16"]) == "0.044714998453855515f32"
    assert _half_via_f32(1e6, DTYPES["f16"]) is None  # above f16's range
    assert _half_via_f32(0.5, DTYPES["f32"]) is None  # f32 has its own spelling
