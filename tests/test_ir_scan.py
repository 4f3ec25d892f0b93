"""ct.cumsum on the typed path (frontends/cutile/scan.py, emitters/ir_rust.py _scan_identity): a cumsum of a
dtype-generic tile is one generic entry (scan_sum's identity E::ZERO: cutile's compile_scan_op writes the 0 of the
element type it compiles for), IR-equivalent to cuTile Python for int and float launches; other axes are refused
with the crate defect (CTRS-E323, cutile 0.3.1 and 0.5.0)."""

from __future__ import annotations

import pytest

from ctrs import errors, pipeline, translate
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.spec import load_specs

from .conftest import DATA, assert_equivalent_report


def test_generic_cumsum_is_ir_equivalent_for_int_and_float_launches(tmp_path):
    kernel = DATA / "ir_scan_generic.py"
    mod = translate.translate_module(kernel)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    files = translate.translate(kernel, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "ir_scan_generic.json"))
    assert [s.name for s in specs] == ["i32", "f16", "f32"]
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust.get("entry") or s.kernel) for s in specs])
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(kernel, s)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)


@pytest.mark.model
def test_generic_cumsum_rust_is_one_entry():
    rs = translate.translate_source(DATA / "ir_scan_generic.py")["kernel.rs"]
    assert "pub fn running_sums<E: ElementType, const T: i32>(" in rs and "running_sums_f32" not in rs
    assert "scan_sum(t, 0i32, reverse::Forward, E::ZERO)" in rs
    assert "scan_sum(t, 0i32, reverse::Reverse, E::ZERO)" in rs


@pytest.mark.model
def test_half_cumsum_identity_type_checks(tmp_path):
    """An f16 tile's scan identity is f16::ZERO (a float literal would be an f32: rustc E0308)."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, y, T: ct.Constant[int]):\n"
                 "    t = ct.astype(ct.load(x, (0,), (T,)), ct.float16)\n"
                 "    ct.store(y, (0,), ct.astype(ct.cumsum(t, axis=0), y.dtype))\n")
    rs = translate.translate_source(p)["kernel.rs"]
    assert "reverse::Forward, f16::ZERO)" in rs


@pytest.mark.model
def test_cumsum_along_axis_1_names_both_crates(tmp_path, monkeypatch):
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, y, T: ct.Constant[int]):\n"
                 "    t = ct.load(x, (0, 0), (4, T))\n"
                 "    ct.store(y, (0, 0), ct.cumsum(t, axis=1))\n")
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    mod = translate.translate_module(p)
    (blockers,) = mod.refused.kernels.values()
    (e,) = [b for b in blockers if b.code == errors.IR_SCAN_AXIS]
    assert "0.3.1 and 0.5.0" in e.message and "compile_scan_op" in e.message and (e.loc.line, e.loc.col) == (7, 25)
