"""A store ordered across loop iterations (passes/tokens.py: its index is not the loop variable) carries its array's
token through the loop on cutile 0.5.0, as cuTile Python does. Without it the port's Tile IR is EQUIVALENT (tokens
are canonicalised away) but tileiras compiles it differently: TileGym's persistent bmm (f16, K = 256) issued
32 HGMMA with a wait after each instead of the reference's 16 in 4 batches, 0.80x on the H200
(benchmarks/results/h200-tilegym-1.5.1-plan.md); with the token the cubins are identical."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ctrs import targets, translate
from ctrs.spec import load_specs
from ctrs.emitters import render_host
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.workflow import check

from .conftest import assert_equivalent_report

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ROOT / "fixtures" / "persistent_matmul" / "kernel.py"


@pytest.mark.model
def test_ordered_store_carries_the_token_on_0_5_0_only():
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    assert "let mut C_token: Token = get_tensor_token(C);" in rs
    view = re.search(r"let mut (\w+): PartitionMut<E, \{ \[TM, TN\] \}> = unsafe \{ make_partition_view_mut\(C, "
                     r"const_shape!\[TM, TN\], padding::None, C_token\) \};", rs)
    assert view, rs
    assert f"store_view_tko_mut(&mut {view.group(1)}, " in rs
    assert f"C_token = get_partition_token_mut(&{view.group(1)});" in rs
    assert "partition_full_mut" not in rs  # the loop-invariant view is never named: each store makes its own
    lines = translate.explain_lines(KERNEL)
    assert any("the store at line 28 is ordered" in ln and "cutile 0.5.0 carries it too" in ln for ln in lines)
    old = translate.translate_source(KERNEL, cutile="0.3.1")["kernel.rs"]
    assert "Token = get_tensor_token" not in old and "C.partition_full_mut(const_shape![TM, TN])" in old
    with targets.using("0.3.1"):
        lines = translate.explain_lines(KERNEL)
    assert any("cutile 0.3.1 cannot carry a store token" in ln for ln in lines)


def _carried_store_token(ir_text: str) -> bool:
    """The outer loop carries a token (`iter_values(.. = %tok) -> (token)`) that its store consumes and yields."""
    loop = re.search(r"for %(\w+) in .*?iter_values\(%(\w+) = %\w+\) -> \(token\)", ir_text)
    if not loop:
        return False
    store = re.search(r"%(\w+) = store_view_tko weak .*? token = %" + loop.group(2) + r"\b", ir_text)
    return bool(store) and re.search(r"continue %" + store.group(1) + r" : token", ir_text) is not None


def test_ported_store_token_is_the_references(tmp_path):
    port = tmp_path / "port"
    translate.translate(KERNEL, port)
    for spec in load_specs(str(KERNEL.parent / "specs.json")):
        ref = ir_ref.compile_reference(KERNEL, spec)
        (gen,) = ir_rs.compile_ports(port / "kernel.rs", [(spec, "persistent_matmul")])
        assert _carried_store_token(ref.text), ref.text
        assert _carried_store_token(gen.text), gen.text  # cutile 0.5.0 compiles the spelling to the same thread
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port / "kernel.rs")


ROWS = ROOT / "tests" / "data" / "tok_row_loops.py"


def test_loop_stores_carry_the_references_token_order(tmp_path):
    """A scatter in a grid-stride loop (and in a loop nested in one) is ordered after the previous iteration's, a
    loop-parallel store_view is not, a store_view at a loop-invariant index is: the port's memory-token order is
    the reference's, pair for pair (softmax on the H200: without the carried token tileiras software-pipelines the
    row loop, 1560 SASS instructions and 0.62x; with it the reference's 152, passes/tokens.py)."""
    port = tmp_path / "port"
    translate.translate(ROWS, port)
    specs = load_specs(str(ROWS.with_suffix(".json")))
    fks = render_host.ffi_kernels(translate.translate_module(ROWS))
    gens = ir_rs.compile_ports(port / "kernel.rs", [(s, check.entry_for(s, fks).name) for s in specs])
    for spec, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(ROWS, spec)
        ((r_order, g_order),) = irdiff.token_orders(ref.text, gen.text)
        assert r_order, spec.name  # each kernel has an order to keep
        assert r_order == g_order, (spec.name, r_order ^ g_order)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port / "kernel.rs")
