"""Bit-level Triton on the typed path (model only, no cargo): ``x.to(dtype, bitcast=True)``, unsigned integer
arithmetic, Philox (tl.rand / tl.randint inline rules/triton_philox.py), and the emitter's spellings of them
(bitcast, exti / trunci, a u32 constant >= 2**31 through its i32 bits). The IR-equivalence proof of the dropout
fixture against cuTile Python is tests/test_triton.py::test_dropout_philox_differs_only_by_the_trunci_flag."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate

ROOT = Path(__file__).resolve().parent.parent
DROPOUT = ROOT / "fixtures" / "triton_dropout" / "kernel.py"


def _kernel(tmp_path, body: str, sig: str = "x, y, n, seed, T: tl.constexpr") -> Path:
    f = tmp_path / "k.py"
    f.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(" + sig + "):\n"
                 "    offs = tl.program_id(0) * T + tl.arange(0, T)\n" + body)
    return f


def test_dropout_lowers_philox_on_the_typed_path():
    final = pipeline.emit_model(DROPOUT, "final")
    assert "%c0 = bitcast %offs_1 : tile<BLOCKxu32>" in final  # offsets.to(tl.uint32, bitcast=True)
    assert "%k0 = bitcast %seed_tile : tile<u32>" in final  # a runtime scalar becomes a 0-d tile first
    assert "%k1_in = shri %seed, %c_3 : i32" in final  # the seed's sign bits (arithmetic shift of an i32)
    # ten rounds: one loop carrying the four counter words and the two key words
    assert "iter_args(%c0_2 = %c0, %c1_2 = %c1, %c2_2 = %c2, %c3_2 = %c3, %k0_2 = %k0, %k1_2 = %k1) -> " \
           "(tile<BLOCKxu32>, tile<BLOCKxu32>, tile<BLOCKxu32>, tile<BLOCKxu32>, tile<u32>, tile<u32>)" in final
    assert "%c2_c = convert %c2_2 : tile<BLOCKxu64>" in final  # widened for the high 32 bits of the product
    assert "%t_2 = shri %t_1, %c_r_b_4 : tile<BLOCKxu64>" in final
    assert "%r = bitcast %c0_1 : tile<BLOCKxi32>" in final  # tl.rand's uint -> [0, 1) float, as Triton
    mod = translate.translate_module(DROPOUT)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    notes = "\n".join(translate.explain_lines(DROPOUT))
    assert "tl.rand -> Philox-4x32-10 in cuTile ops (rules/triton_philox.py" in notes


def test_philox_spellings_in_rust():
    rs = translate.translate_source(DROPOUT)["kernel.rs"]
    assert "let c0: Tile<u32, { [BLOCK] }> = bitcast(offs_1);" in rs
    assert "let c2_c: Tile<u64, { [BLOCK] }> = exti(c2);" in rs  # convert_tile has no int -> int rule
    assert "= trunci(t_2, overflow::NoUnsignedWrap);" in rs  # (x * M) >> 32 narrowed: it fits
    # 0xCD9E8D57 as a u32: cutile reads the literal as i32, so the same bits as an i32 constant, bitcast
    assert "constant(-845247145i32, const_shape![])" in rs and "bitcast(c_s)" in rs
    assert "constant(3449720151u64, const_shape![])" in rs  # a u64 literal fits its signed width


def test_randint_is_the_first_philox_word(tmp_path):
    f = _kernel(tmp_path, "    r = tl.randint(seed, offs)\n    tl.store(y + offs, r.to(tl.int32, bitcast=True), "
                "mask=offs < n)\n")
    final = pipeline.emit_model(f, "final")
    assert "-> (tile<Txu32>, tile<Txu32>, tile<Txu32>, tile<Txu32>, tile<u32>, tile<u32>)" in final
    assert "%out = bitcast %c0_1 : tile<Txi32>" in final or "bitcast %c0_1 : tile<Txi32>" in final


@pytest.mark.parametrize(("body", "needle"), [
    ("    r = tl.rand(seed, offs, 7)\n", "tl.rand with n_rounds other than 10"),
    ("    r = offs.to(tl.int64, bitcast=True)\n", "bitcast of i32 to i64: the widths differ"),
    ("    r = offs.to(tl.uint32, bitcast=n)\n", "bitcast=...) with a flag that is not a literal True / False"),
])
def test_bit_level_refusals(tmp_path, body, needle):
    f = _kernel(tmp_path, body + "    tl.store(y + offs, r, mask=offs < n)\n")
    with pytest.raises(errors.CtrsError) as ei:
        pipeline.emit_model(f, "final")
    assert ei.value.code == errors.IR_UNSUPPORTED and needle in ei.value.message, ei.value.one_line()
    assert ei.value.loc.line == 8  # at the kernel's own line (the Philox library's lines are the call's)


def test_bitcast_false_is_a_plain_cast(tmp_path):
    f = _kernel(tmp_path, "    r = offs.to(tl.float32, bitcast=False)\n    tl.store(y + offs, r, mask=offs < n)\n")
    assert "%r = convert %offs_1 : tile<Txf32>" in pipeline.emit_model(f, "final")


def test_bitcast_of_an_array_dtype_lowers_per_element_type(tmp_path):
    """x.to(tl.int16, bitcast=True) of a tile of an array's dtype variable: its width is the variable's, so the kernel
    is lowered once per element type; f32 (32 bits) cannot be an i16 and is left out."""
    f = _kernel(tmp_path, "    r = tl.load(x + offs).to(tl.int16, bitcast=True)\n    tl.store(y + offs, r)\n")
    mod = translate.translate_module(f)
    assert [k.name for k in mod.kernels] == ["k_f16", "k_bf16"]
    final = pipeline.emit_model(f, "final")
    assert "%r = bitcast %r_in : tile<Txi16>" in final and "kernel @k_f16<E: dtype, T: const>(%x: array<?xf16>" in final
