"""Memory tokens through loops (passes/tokens.py) for an array a loop both reads and writes, as cuTile Python's
token pass threads them: two tokens per array (its last store's, its last access's), a load taking the last
store's token and joining its completion into the last access's, a store taking the last access's; a loop that
only reads the array carries the last access's token. Without the carried joins tileiras batched the reads of
TileGym's in-place cross-entropy four at a time where the reference interleaves them with its reductions (f16
512x32768: 3120 SASS instructions and 162 registers against 2680 and 142, 0.92x on the H200; with them: the same
2680 / 142, benchmarks/sass_diff.py). Kernel: tests/data/inplace_rows.py (written for this repo)."""

from __future__ import annotations

import re

import pytest

from ctrs import translate
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs, irdiff

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "inplace_rows.py"
SPECS = DATA / "inplace_rows.json"


@pytest.mark.model
def test_a_read_only_inner_loop_carries_the_joined_token():
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    body = rs[rs.index("fn center_rows"):]
    loops = body.split("for c")  # [outer, first inner (reads), second inner (reads + writes)]
    assert len(loops) == 3
    # the first pass: its gathers take the last store's token (the outer loop's), the join goes to the loop's slot
    first = loops[1]
    assert re.search(r"load_ptr_tko\([^;]*Some\(x_token\)", first), first
    assert re.search(r"^\s*x_token_2 = join_tokens\(&\[x_token_2, _v_tok\]\);", first, re.M), first
    # the second: gather after the last store, scatter after the join of the last access and the gather
    second = loops[2]
    assert re.search(r"load_ptr_tko\([^;]*Some\(x_token_3\)", second), second
    assert "let x_token_5: Token = join_tokens(&[x_token_4, _v_2_tok]);" in second
    assert re.search(r"store_ptr_tko\([^;]*Some\(x_token_5\)", second), second


def test_inplace_loops_compile_to_the_references_token_graph(tmp_path):
    """cutile 0.5.0 compiles the port to the reference's token order (every ordered pair) and joins."""
    port = tmp_path / "port"
    translate.translate(KERNEL, port)
    (spec,) = load_specs(str(SPECS))
    ref = ir_ref.compile_reference(KERNEL, spec)
    (gen,) = ir_rs.compile_ports(port / "kernel.rs", [(spec, "center_rows_f32")])
    ((rorder, gorder),) = irdiff.token_orders(ref.text, gen.text)
    assert rorder and rorder == gorder
    assert gen.text.count("join_tokens") == ref.text.count("join_tokens") == 2
    carried = [re.findall(r"iter_values\(.*\) -> \(([^)]*)\)", t) for t in (ref.text, gen.text)]
    assert carried[0] == carried[1] and len(carried[0]) == 3, carried  # each loop carries what the reference's does
    assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port / "kernel.rs")
