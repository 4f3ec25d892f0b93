"""Arrays of float8_e4m3fn as kernel parameters (tests/data/f8_arrays.py, TileGym fp8_quantization_matmul.py's A
and B): the port's C ABI borrows them as cuda_core's ``f8e4m3fn`` newtype (emitters/render_host.py
RUST_HOST_TYPE), an fp8 zero padding is spelled, the crate compiles, and the entry is IR-equivalent for tests/data/f8_arrays.json."""

from __future__ import annotations

import pytest

from ctrs import translate
from ctrs.spec import load_specs

from .conftest import DATA, assert_port_equivalent

KERNEL = DATA / "f8_arrays.py"


@pytest.mark.model
def test_fp8_arrays_are_borrowed_as_cuda_core_newtypes():
    ffi = translate.translate_source(KERNEL)["ffi.rs"]
    assert "borrow::<cutile::cuda_core::f8e4m3fn>(d_a, dev)" in ffi
    assert "borrow::<cutile::cuda_core::f8e4m3fn>(d_b, dev)" in ffi


@pytest.mark.model
def test_fp8_zero_padding_is_the_jit_encoded_zero():
    """ct.float8_e4m3fn(0.0) as a gather padding: no Rust fp8 literal; the JIT encodes the literal's text as the
    fp8 bits (cutile-compiler encode_literal_bytes), so `constant_f32(0.0f32, ..)` is +0.0; other fp8 values
    have no spelling (emitters/spelling.py constant_spelling)."""
    from ctrs.emitters.spelling import constant_spelling  # noqa: PLC0415

    rs = translate.translate_source(KERNEL)["kernel.rs"]
    assert "let a_zero_t: Tile<f8e4m3fn, { [] }> = constant_f32(0.0f32, const_shape![]);" in rs
    assert constant_spelling(0.0, "f8e4m3fn") == ("constant_f32", "0.0f32")
    assert constant_spelling(-0.0, "f8e4m3fn") is None and constant_spelling(1.0, "f8e5m2") is None


def test_fp8_array_port_is_ir_equivalent(tmp_path):
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "f8_arrays.json"))
    for s in specs:  # each against the entry the wrapper dispatches its launch to
        assert_port_equivalent(KERNEL, kernel_rs, s)
