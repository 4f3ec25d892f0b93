"""A ct.Constant padding value of a gather from an int64 array (TileGym's MoE align: topk ids are int64 when they
come from torch.topk): the const generic's i32 value widened with exti, which the reference folds into an i64
constant (the IR diff folds exti of a constant alike). Before, the int64 entry was refused (CTRS-E124) and the
port served int32 ids only. Kernel: tests/data/i64_pad.py (written for this repo)."""

from __future__ import annotations

from ctrs import translate
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs, irdiff

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "i64_pad.py"
SPECS = DATA / "i64_pad.json"


def test_int64_ids_with_a_constant_padding_are_equivalent(tmp_path):
    port = tmp_path / "port"
    specs = load_specs(str(SPECS))
    translate.translate(KERNEL, port, specs=specs)
    rs = (port / "kernel.rs").read_text()
    assert "fn count_ids_i64<" in rs and "fn count_ids_i32<" in rs
    for spec, entry in zip(specs, ("count_ids_i64", "count_ids_i32")):
        ref = ir_ref.compile_reference(KERNEL, spec)
        (gen,) = ir_rs.compile_ports(port / "kernel.rs", [(spec, entry)])
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port / "kernel.rs")
