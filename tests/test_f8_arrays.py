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


@pytest.mark.model
def test_fp8_arrays_are_checked_as_fp8_by_the_wrapper_and_the_c_entry():
    """The wrapper takes float8_e4m3fn for `a` and `b` (not the float generics' list, which refused TileGym's fp8
    matmul on the H200), and the C entry checks the fp8 TensorDesc code; a port without fp8 arrays keeps the
    five codes it had."""
    out = translate.translate_source(KERNEL)
    wrapper, ffi = out["wrapper.py"], out["ffi.rs"]
    assert 'make_desc(_where, "a", a, 2, ("float8_e4m3fn",))' in wrapper
    assert 'make_desc(_where, "b", b, 2, ("float8_e4m3fn",))' in wrapper
    assert '    "float8_e4m3fn": 5,\n}' in wrapper
    assert "if d_a.dtype != 5 {" in ffi and "5 => std::mem::size_of::<cutile::cuda_core::f8e4m3fn>()," in ffi
    plain = translate.translate_source(DATA.parent.parent / "fixtures" / "vector_add" / "kernel.py")
    assert '"float8' not in plain["wrapper.py"] and "5 =>" not in plain["ffi.rs"]
