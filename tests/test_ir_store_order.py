"""ct.store(order=..) on the typed path (frontends/cutile/memory.py store, emitters/ir_rust.py
permuted_store_view): the reference stores through a partition view with a dim_map; cutile 0.5.0 spells it as
make_partition_view with that dim map and store_view_raw (the same store_view_tko op), IR-equivalent for the specs
of tests/data/ir_store_order.json; cutile 0.3.1 has no such store (CTRS-E402, from its target profile)."""

from __future__ import annotations

import pytest

from ctrs.workflow import cli
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs import pipeline, translate
from ctrs.spec import load_specs

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "ir_store_order.py"


def test_permuted_stores_are_ir_equivalent(tmp_path):
    mod = translate.translate_module(KERNEL)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "ir_store_order.json"))
    assert [s.name for s in specs] == ["t_f32", "t_bf16", "p3_f32"]
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust.get("entry") or s.kernel) for s in specs])
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(KERNEL, s)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)


@pytest.mark.model
def test_permuted_store_rust_for_0_5_0():
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    assert ("let py: Partition<E, { [TM, TN] }> = unsafe { make_partition_view(y, const_shape![TM, TN], "
            "padding::None, const_array![1, 0], get_tensor_token(y)) };") in rs
    assert ("unsafe { store_view_raw(&py, t, [bid_1, bid], Some(get_tensor_token(y)), ordering::Weak, "
            "scope::TileBlock, tma::Enabled, None, [false, false]) }") in rs
    assert "tma::Enabled, Some(2i32), [false, false, false]) }" in rs  # latency=2 of the 3-d store


@pytest.mark.model
def test_permuted_store_is_refused_for_0_3_1(tmp_path, capsys):
    rc = cli.main(["translate", str(KERNEL), "--cutile", "0.3.1", "-o", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert rc != 0 and err.count("error[CTRS-E402]") == 2 and "ir_store_order.py:14:5:" in err
    assert "make_partition_view_mut takes no dim_map" in err and "(translate with --cutile 0.5.0)" in err


@pytest.mark.model
def test_store_order_diagnostic_file_per_target(tmp_path, capsys):
    """tests/data/mem_bad_store_order.py: translated for cutile 0.5.0 (the default), refused at its store for 0.3.1."""
    kernel = DATA / "mem_bad_store_order.py"
    assert "store_view_raw(&py, t, [0i32, 0i32]," in translate.translate_source(kernel)["kernel.rs"]
    rc = cli.main(["translate", str(kernel), "--cutile", "0.3.1", "-o", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert rc != 0 and "mem_bad_store_order.py:12:5: error[CTRS-E402]" in err
