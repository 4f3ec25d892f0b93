"""The tile operators, shape ops, reductions and scans of the typed cuTile front end, proven against cuTile
Python's reference: each tests/data/ir_ops_*.py kernel takes the typed-IR path (tests/test_ir_pipeline.py
TYPED_IR) and must be IR-equivalent (diff-ir EQUIVALENT) for every spec next to it. Model-only typing tests:
tests/test_ir_ops.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNELS = ["ir_ops_arith", "ir_ops_shapes", "ir_ops_newaxes", "ir_matmul", "ir_fill_sym", "ir_f8", "ir_scan_half"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    return translate_data(tmp_path_factory.mktemp("ir_ops"), KERNELS)


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(KERNELS)))
def test_ir_ops_equivalent(translated, kernel, spec):
    assert_port_equivalent(DATA / f"{kernel}.py", translated[kernel], spec)


def test_ir_ops_generated_forms(translated):
    ar = translated["ir_ops_arith"].read_text()
    assert "divi(a, b, rounding::NegativeInf)" in ar and "rounding::PositiveInf)" in ar  # // and ct.cdiv
    assert "let m_bneg_s: bool = false;" in ar  # pid % 4: the constant divisor's sign test folded, as the reference
    assert "shli_wrap(" in ar and "shri(" in ar and "negi(a, overflow::None)" in ar and "pow(a, b)" in ar
    assert "cmp_ordering::Unordered" in ar and "exp2(a, ftz::Enabled)" in ar and "exp_approx(b, rounding::Approx)" in ar
    sh = translated["ir_ops_shapes"].read_text()
    assert "permute(a, const_array![1, 0])" in sh and "scan_sum(s, 0i32, reverse::Forward, 0.0f32)" in sh
    assert "cat(" in sh and "extract(u, [" in sh and "let x_dim0: i32 = x_shape[0];" in sh
    assert "let iota_1: Tile<i32, { [64] }> = iota(const_shape![64]);" in sh  # never a variable named like a function
    half = translated["ir_scan_half"].read_text()  # the per-dtype entries' scan identities (rustc-checked)
    assert "scan_sum(t, 0i32, reverse::Forward, f16::ZERO)" in half and "bf16::ZERO)" in half
    na = translated["ir_ops_newaxes"].read_text()
    assert "o.reshape(const_shape![TILE, 1])" in na and "o.reshape(const_shape![1, TILE])" in na  # o[:, None], o[None, :]
    assert "true_div(" in na and "ftz::Enabled)" in na and "mini(" in na
