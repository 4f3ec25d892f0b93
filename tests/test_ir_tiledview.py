"""``A.tiled_view(shape).atomic_store_<op>(index, update)`` on the typed path (frontends/cutile/tiledview.py,
emitters/ir_rust.py atomic_red_view): cuTile Python reduces into an unpadded partition view with
atomic_red_view_tko (relaxed, device); cutile 0.5.0 spells it atomic_red_view_raw, IR-equivalent for the specs of
tests/data/ir_view_atomic.json; cutile 0.3.1 has no such op (CTRS-E326, from its target profile)."""

from __future__ import annotations

import textwrap

import pytest

from ctrs import errors, pipeline, translate
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.workflow import cli

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "ir_view_atomic.py"


def test_view_atomics_are_ir_equivalent(tmp_path):
    mod = translate.translate_module(KERNEL)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "ir_view_atomic.json"))
    assert [s.name for s in specs] == ["add_f32", "add_bf16"]
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust.get("entry") or s.kernel) for s in specs])
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(KERNEL, s)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)


def test_view_atomic_ir_and_rust():
    text = pipeline.emit_model(KERNEL, "frontend")
    reds = [ln for ln in text.splitlines() if "atomic_red_view" in ln]  # 2 per entry: f32, f16, bf16
    assert len(reds) == 6 and all("mode = add" in ln and "memory_order = relaxed" in ln for ln in reds)
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    assert ("unsafe { atomic_red_view_raw(&pacc, v, [0i32, 0i32, 0i32], atomic::AddF, ordering::Relaxed, "
            "scope::Device, Some(get_tensor_token(acc))) }") in rs
    # the 1x1xCOLS update is broadcast to the view's tile shape first, as tiled_view_atomic_store_rmw_impl does
    assert "v_2.broadcast(const_shape![1, ROWS, COLS])" in rs
    assert rs.count("acc.partition_full_mut(const_shape![1, ROWS, COLS])") == 6  # a view per call, per entry (f32, f16, bf16)


def test_view_atomic_is_refused_for_0_3_1(tmp_path, capsys):
    rc = cli.main(["translate", str(KERNEL), "--cutile", "0.3.1", "-o", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert rc != 0 and "ir_view_atomic.py:14:5: error[CTRS-E326]" in err
    assert "no atomic_red_view_tko" in err and "(translate with --cutile 0.5.0)" in err


@pytest.mark.parametrize("body, message", [
    ("acc.tiled_view((4, 8)).load((0, 0))", "method 'load' of a tiled view"),
    ("ct.store(acc, (0, 0), t); acc.tiled_view((4, 8, 2)).atomic_store_add((0, 0), t)",
     "tile shape of rank 3 for a rank-2 array"),
    ("acc.tiled_view((4, 8)).atomic_store_add((0, 0), ct.full((4, 16), 1.0, dtype=ct.float32))",
     "shapes (4, 8) and (4, 16) do not broadcast"),
])
def test_view_misuse_is_refused(tmp_path, body, message):
    src = tmp_path / "k.py"
    src.write_text(textwrap.dedent(f"""\
        import cuda.tile as ct


        @ct.kernel
        def k(x, acc):
            t = ct.load(x, index=(0, 0), shape=(4, 8))
            {body}
        """))
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate_source(src)
    assert message in str(ei.value) and ei.value.loc.line == 7
