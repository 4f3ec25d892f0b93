"""General rules the TileGym 1.5.1 suites/ tree (cuTile ports of liger / unsloth / flashinfer kernels,
``benchmarks/corpus.py --corpus tilegym-suites``) needed, each proven on a kernel of our own under tests/data
(IR-EQUIVALENT to cuTile Python's reference for its specs):

* ``ct.astype`` of a runtime scalar (a block id, ``t.item()``): the same cast as on a 0-d tile;
* ``ct.truediv(.., rounding_mode=FULL | APPROX[, flush_to_zero=])``: divf with that rounding and its own ftz flag;
* an annotated module constant (``LOG2E: float = ..``) read by name: its value at compile time;
* ``not FLAG`` of a ct.Constant int, ``not (TILE == N)`` of a comparison of them (and ``check_bounds=`` of
  either, in a helper too): a constant test known per specialisation;
* ``ct.load(A, 0, shape=())`` (one index: a rank-1 array) and a parameter only ``ct.cdiv`` reads (an integer);
* a half-precision scalar compared with a Python number (``lab != -100`` of an f16 label): the number's 0-d tile
  constant spelled ``constant_f32`` (f16 / bf16 have no Rust literal), as a half tile constant is; the runtime
  ``if``'s float ``!=`` is ``cmpf`` unordered (NaN != x is true), as cuTile Python's and a tile ``!=``.
"""

from __future__ import annotations

import pytest

from ctrs import translate

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNELS = ["suite_scalar_astype", "suite_div_modes", "suite_not_flag", "suite_not_test", "suite_scalar_params",
           "suite_half_label"]


@pytest.fixture(scope="module")
def ports(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("suites"), KERNELS)


@pytest.mark.model
def test_suite_constructs_translate_with_rules_only(tmp_path):
    for k in KERNELS:
        mod = translate.translate_module(DATA / f"{k}.py")
        assert mod.refused is None, k
    rs = translate.translate_source(DATA / "suite_div_modes.py")["kernel.rs"]
    assert "divf_rounded(a, t, rounding::Full, ftz::Disabled)" in rs
    assert ", rounding::Approx, ftz::Disabled)" in rs and "divf_rounded(r, b, rounding::Full, ftz::Enabled)" in rs
    assert "constant(1.4426950216293335f32, const_shape![])" in rs  # INV_LN2's value (f32)
    rs = translate.translate_source(DATA / "suite_scalar_astype.py")["kernel.rs"]
    assert "let r: Tile<f32, { [] }> = convert_tile(row_t);" in rs
    rs = translate.translate_source(DATA / "suite_not_flag.py")["kernel.rs"]
    assert "if EXACT == 0i32 {" in rs
    rs = translate.translate_source(DATA / "suite_not_test.py")["kernel.rs"]
    assert "if TILE != N {" in rs and "TILE == N" not in rs
    rs = translate.translate_source(DATA / "suite_scalar_params.py")["kernel.rs"]
    assert "n: i32," in rs and "alpha: &Tensor<E, { [-1] }>" in rs
    rs = translate.translate_source(DATA / "suite_half_label.py")["kernel.rs"]
    assert "let c: Tile<f16, { [] }> = constant_f32(-100.0f32, const_shape![]);" in rs
    assert "let c: Tile<bf16, { [] }> = constant_f32(-100.0f32, const_shape![]);" in rs
    assert "let c: Tile<f32, { [] }> = constant(-100.0f32, const_shape![]);" in rs
    assert "cmpf(lab, c, predicate::NotEqual, cmp_ordering::Unordered)" in rs and "Ordered)" not in rs


@pytest.mark.parametrize("name,spec", list(data_cases(KERNELS)))
def test_suite_construct_ports_are_ir_equivalent(ports, name, spec):
    assert_port_equivalent(DATA / f"{name}.py", ports[name], spec)
