"""ctrs translate: operations (masks, select, gather/scatter, shape ops, floor division, fma contraction).

Each kernel under tests/data/ops_*.py is translated with rules only and must be IR-equivalent
(diff-ir exit 0) to cuTile Python's reference for every spec next to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import translate

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data
KERNELS = ["ops_mix", "ops_mix3", "ops_divmod", "ops_scalar_minmax", "ops_scalar_neg", "ops_scalar_float",
           "ops_gather_pad", "ops_zeros_e", "ops_fma_const_if",
           "ops_named_fns", "ops_reduce_generic", "ops_fma_left_mul"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    return translate_data(tmp_path_factory.mktemp("ops"), KERNELS)


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(KERNELS)))
def test_ops_ir_equivalent(translated, kernel, spec):
    assert_port_equivalent(DATA / f"{kernel}.py", translated[kernel], spec)


def test_ops_generated_forms(translated):
    mix = translated["ops_mix"].read_text()
    assert "iota(const_shape![TM])" in mix
    assert "cmpi(" in mix and "predicate::LessThan" in mix and "predicate::GreaterThanOrEqual" in mix
    assert "cmpf(" in mix and "cmp_ordering::Ordered" in mix
    assert "andi(" in mix and "ori(" in mix and "select(" in mix
    assert "get_num_tile_blocks()" in mix
    assert "permute(" in mix and "const_array![1, 0]" in mix
    assert "fma(" in mix and "negf(" in mix  # a*b - c contracted like cuTile Python: fma(a, b, negf(c))
    assert "1.5707963705062866f32" in mix  # module constant math.pi / 2 folded at translate time
    mix3 = translated["ops_mix3"].read_text()
    assert "divi(k_t, TN_t, rounding::PositiveInf)" in mix3  # ct.cdiv, as the reference lowers it
    assert "divi(" in mix3 and "rounding::NegativeInf" in mix3 and "remi(" in mix3
    assert "const_array![2, 0, 1]" in mix3
    dm = translated["ops_divmod"].read_text()
    assert dm.count("rounding::NegativeInf") == 3
    lm = translated["ops_fma_left_mul"].read_text()
    # `a - t * s` with `a` (a mul) used again stays mulf + subf; `d + t * s` contracts (cuTile's left-first match)
    assert lm.count("fma(") == 1 and "negf(" not in lm
    mm = translated["ops_scalar_minmax"].read_text()
    assert mm.count("maxi(") == 2 and "mini(" in mm and "maxf(" in mm


def test_masked_gather_per_dtype_entries(tmp_path):
    files = translate.translate(Path(__file__).resolve().parent.parent / "fixtures" / "masked_gather" / "kernel.py",
                                tmp_path / "mg")
    text = next(p for p in files if p.name == "kernel.rs").read_text()
    for dt in ("f32", "f16", "bf16"):
        assert f"pub fn masked_gather_{dt}<const TILE: i32>(" in text
        assert f"x: &Tensor<{dt}, {{ [-1] }}>," in text
    assert "pub fn masked_gather<" not in text
    assert "constant(f16::ZERO, const_shape![])" in text and "tile_to_scalar(x_zero_t)" in text
    assert "load_ptr_tko(" in text and "store_ptr_tko(" in text and "get_tensor_base(x)" in text


def test_const_modulo_translates(tmp_path):
    # `%` by a constant now translates (the i1 sign constant is a bool let; IR-checked in tests/test_translate_expr.py)
    files = translate.translate(DATA / "ops_const_mod.py", tmp_path / "out")
    text = next(p for p in files if p.name == "kernel.rs").read_text()
    assert "let m_bneg_s: bool = false;" in text and "remi(" in text  # the typed-IR path (frontends/builder.py)


def test_reduce_over_a_constant_dim_is_retyped(translated):
    """cutile 0.3.1 rejects `[4]` (a reduce result) against `[BM]` (a broadcast) in one op; the port re-types the
    reduce result with a same-shape broadcast, which the IR diff treats as the identity (IR-equivalent above)."""
    k = translated["ops_reduce_generic"].read_text()
    # (the typed-IR path's spelling, emitters/ir_rust.py compute: the reduce result's uses are not a reshape)
    assert "let t_raw: Tile<f32, { [BM] }> = reduce_sum(t, 1i32);" in k
    assert "let t_1: Tile<f32, { [BM] }> = t_raw.broadcast(const_shape![BM]);" in k
    assert "let t_red: Tile<f32, { [BM] }> = reduce_max(t, 1i32);" in k  # keepdims: the reshape re-types it
