"""Hints and cutile 0.3.1 defects: @ct.kernel hints reach the port's entry, the bf16 constants the crate
mis-encodes are respelled (docs/cutile-defects.md); each proven by the Tile IR diff on real compiles."""

from __future__ import annotations

import pytest

from ctrs import cutile_defects, errors, ircanon, irdiff, irparse, ir_rs, translate
from ctrs.emitters import render
from ctrs.spec import load_specs

from .conftest import FIXTURES, ref_ir

# ---------------------------------------------------------------------------------------------- bf16 constants


@pytest.mark.parametrize(("text", "want"), [
    ("constant(bf16::NEG_INFINITY, const_shape![])", "constant_f32(f32::NEG_INFINITY, const_shape![])"),
    ("constant(bf16::INFINITY, const_shape![T])", "constant_f32(f32::INFINITY, const_shape![T])"),
    ("constant(bf16::ONE, const_shape![T])", "constant_f32(1.0f32, const_shape![T])"),
    ("constant(E::NEG_INFINITY, const_shape![])", "constant_f32(f32::NEG_INFINITY, const_shape![])"),
    ("constant(DtX::INFINITY, const_shape![])", "constant_f32(f32::INFINITY, const_shape![])"),
    # encoded correctly by the crate: kept
    ("constant(f16::NEG_INFINITY, const_shape![])", None), ("constant(f32::INFINITY, const_shape![])", None),
    ("constant(f16::ONE, const_shape![])", None), ("constant(bf16::ZERO, const_shape![])", None),
    ("constant(E::ONE, const_shape![])", None), ("constant(i32::NEG_INFINITY, const_shape![])", None),
])
def test_respell_constants(text, want):
    assert cutile_defects.respell_constants(text) == (want or text)


@pytest.fixture(scope="module")
def bf16_port(tmp_path_factory):
    out = tmp_path_factory.mktemp("bf16")
    kernel_rs = translate.translate(FIXTURES / "bf16_consts" / "kernel.py", out / "port")[0]
    return kernel_rs, load_specs(str(FIXTURES / "bf16_consts" / "specs.json"))


def test_bf16_constants_port_ir_equivalent(bf16_port):
    """The translated port writes bf16 -inf as 0xFF80 and 1.0 exactly, like cuTile Python: IR-equivalent."""
    kernel_rs, specs = bf16_port
    text = kernel_rs.read_text()
    assert "constant_f32(f32::NEG_INFINITY," in text and "pub fn constant_f32<" in text
    assert "bf16::NEG_INFINITY" not in text and "bf16::ONE" not in text
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust["entry"]) for s in specs])
    for s, gen in zip(specs, gens):
        ref = ref_ir("bf16_consts", s.name)
        assert "constant <bf16: 0xFF80>" in ref.text and "constant <bf16: 0xFF80>" in gen.text
        assert "0xFFF0" not in gen.text
        report = irdiff.diff(ref.text, gen.text, "ref", "gen")
        assert report.exit_code() == 0, report.render()


def test_bf16_crate_spelling_still_misencoded(bf16_port, tmp_path):
    """cutile 0.3.1's own spelling writes a NaN for bf16 -inf and the diff flags it: the work-around is needed
    (this fails once a cutile release fixes the encoding; then drop cutile_defects.respell_constants)."""
    kernel_rs, specs = bf16_port
    raw = tmp_path / "kernel.rs"
    raw.write_text(kernel_rs.read_text().replace("constant_f32(f32::NEG_INFINITY,", "constant(bf16::NEG_INFINITY,")
                   .replace("constant_f32(1.0f32,", "constant(bf16::ONE,"))
    s = specs[0]
    (gen,) = ir_rs.compile_ports(raw, [(s, s.rust["entry"])])
    assert "constant <bf16: 0xFFF0>" in gen.text
    report = irdiff.diff(ref_ir("bf16_consts", s.name).text, gen.text, "ref", "gen")
    assert report.exit_code() == 1
    assert any(f.code == "IRD-CONST" and "0xFFF0" in f.message for f in report.findings), report.render()


# ---------------------------------------------------------------------------------------------- kernel hints


def test_kernel_hints_read_from_decorator():
    mod = translate.translate_module(FIXTURES / "kernel_hints" / "kernel.py")
    hints = {k.name: k.hints for k in mod.kernels}
    assert hints == {"scale_rows": (("occupancy", 2),),  # a module constant
                     "scale_rows_by_target": (("num_cta_in_cga", 1), ("occupancy", 4))}  # ByTarget: sm_90's
    assert render.entry_args(hints["scale_rows"]) == "optimization_hints = (sm_90 = (occupancy = 2,),)"
    assert render.entry_args(()) == ""


def test_kernel_hints_port_ir_equivalent(tmp_path):
    """Reference (default = {..}, per-arch dictionaries) and port (sm_90 = {..}) carry the same entry hints."""
    kernel_rs = translate.translate(FIXTURES / "kernel_hints" / "kernel.py", tmp_path / "port")[0]
    assert "#[cutile::entry(optimization_hints = (sm_90 = (occupancy = 2,),))]" in kernel_rs.read_text()
    specs = load_specs(str(FIXTURES / "kernel_hints" / "specs.json"))
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.kernel) for s in specs])
    want = {"scale_rows": "occupancy=2", "scale_rows_by_target": "num_cta_in_cga=1,occupancy=4"}
    for s, gen in zip(specs, gens):
        ref = ref_ir("kernel_hints", s.name)
        assert "optimization_hints=<default = {" in ref.text
        assert "optimization_hints=<sm_90 = {" in gen.text
        for side in (ref, gen):
            assert ircanon.canonicalise(irparse.parse(side.text).entries[0]).hints == want[s.kernel]
        report = irdiff.diff(ref.text, gen.text, "ref", "gen")
        assert report.exit_code() == 0, report.render()
        # the same port without its hint: the diff names the dropped hint
        dropped = gen.text.replace("optimization_hints=<sm_90 = {occupancy = 2}>", "")
        if dropped != gen.text:
            report = irdiff.diff(ref.text, dropped, "ref", "gen")
            assert report.exit_code() == 1  # a dropped kernel hint is critical (performance)
            assert any(f.code == "IRD-HINT-ENTRY" and "occupancy=2 dropped" in f.message for f in report.findings)


@pytest.mark.parametrize(("deco", "msg"), [
    ("@ct.kernel(occupancy=n_occ())", "must be an int known at translate time"),
    ("@ct.kernel(opt_level=2)", "opt_level=2 cannot be carried"),
    ("@ct.kernel(warps=4)", "no rule for @ct.kernel(warps=..)"),
])
def test_kernel_hint_errors(tmp_path, deco, msg):
    src = tmp_path / "k.py"
    src.write_text(f"import cuda.tile as ct\n\n\n{deco}\ndef k(x, y, T: ct.Constant[int]):\n"
                   "    t = ct.load(x, index=(ct.bid(0),), shape=(T,))\n    ct.store(y, index=(ct.bid(0),), tile=t)\n")
    with pytest.raises(errors.CtrsError) as info:
        translate.translate(src, tmp_path / "out")
    assert info.value.code == errors.KERNEL_HINT and msg in info.value.message
    assert info.value.loc.line == 4
    assert not (tmp_path / "out").exists()
