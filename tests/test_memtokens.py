"""Straight-line memory tokens (passes/memtokens.py), as cuTile Python's token pass orders an array's accesses: a
store after a join of the array's loads since its last store, stores chained, a load after the last store. Without
them the port's Tile IR is EQUIVALENT (the value graphs drop tokens) but tileiras schedules it differently: TileGym's
in-place rope kept k's loads behind q's stores (`LDG x6, STG x4, LDG x4, STG x4` vs the reference's `LDG x10,
BAR.SYNC, STG x8`; benchmarks/results/h200-tilegym-1.5.1-plan.md). The IR diff compares the token graphs
(IRD-TOKEN-ORDER). Kernel: tests/data/inplace_tokens.py (written for this repo)."""

from __future__ import annotations

import re

import pytest

from ctrs import targets, translate
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs, ircanon, irdiff, irparse

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "inplace_tokens.py"
SPECS = DATA / "inplace_tokens.json"
ROWS_KERNEL = DATA / "inplace_rows.py"  # loops (passes/tokens.py): see the comment above its tests
ROWS_SPECS = DATA / "inplace_rows.json"


@pytest.mark.model
def test_inplace_accesses_are_threaded_on_0_5_0_only():
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    body = rs[rs.index("pub fn swap_halves"):]
    want = [
        "let a: Tile<E, { [1, TILE] }> = load_view_tko(&px, ",
        "let x_read: Token = get_partition_token(&px);",
        "let x_token: Token = join_tokens(&[get_tensor_token(x), x_read]);",
        "let x_read_1: Token = get_partition_token(&px_1);",
        "let x_token_1: Token = join_tokens(&[x_token, x_read_1]);",
        "make_partition_view_mut(x, const_shape![1, TILE], padding::None, x_token_1)",
        "make_partition_view_mut(x, const_shape![1, TILE], padding::None, get_partition_token_mut(&px_ordered))",
        "let px_after: Partition<E, { [1, TILE] }> = unsafe { make_partition_view(x, const_shape![1, TILE], "
        "padding::None, dim_map::Identity, get_partition_token_mut(&px_ordered_1)) };",
        "load_view_tko(&px_after, [bid, 0i32], ",
    ]
    pos = [body.find(w) for w in want]
    assert all(p >= 0 for p in pos) and pos == sorted(pos), list(zip(want, pos))
    # w is only read and y only stored once: both keep their entry token, spelled as before
    assert "get_partition_token(&pw)" not in body and "let mut py: PartitionMut<E, { [1, TILE] }> = unsafe { " \
        "y.partition_full_mut(const_shape![1, TILE]) };" in body
    assert "x.partition_full_mut" not in body and "let px_2" not in body  # no view left unnamed / unused
    lines = translate.explain_lines(KERNEL)
    assert any("the store at line 18 waits for the array's earlier loads and stores" in ln for ln in lines), lines
    old = translate.translate_source(KERNEL, cutile="0.3.1")["kernel.rs"]
    assert "join_tokens" not in old and "get_partition_token" not in old
    assert old.count("x.partition_full_mut(const_shape![1, TILE])") == 2
    with targets.using("0.3.1"):
        lines = translate.explain_lines(KERNEL)
    assert any("cutile 0.3.1 cannot spell it: the port stores unordered" in ln for ln in lines), lines


def _unthreaded(text: str) -> str:
    """The reference with every load and store taking the entry token (a port that does not thread them)."""
    entry = re.search(r"(%\w+) = make_token", text).group(1)
    return re.sub(r"(_tko weak [^\n]*?token = )%\w+", lambda m: m.group(1) + entry, text)


def _token_findings(ref: str, gen: str) -> list[irdiff.Finding]:
    mods = [irparse.parse(t, n) for t, n in ((ref, "ref"), (gen, "gen"))]
    canons = [ircanon.canonicalise(m.entries[0]) for m in mods]
    return irdiff._token_findings(*canons, *mods)


def test_weaker_token_graph_is_a_warning():
    spec = load_specs(str(SPECS))[0]
    ref = ir_ref.compile_reference(KERNEL, spec).text
    assert _token_findings(ref, ref) == []
    order = irdiff._token_order(ircanon.canonicalise(irparse.parse(ref, "ref").entries[0]))
    # x: 2 loads -> store, (2 loads, store) -> store, (2 loads, 2 stores) -> load; w and y: nothing
    assert len(order) == 9
    (f,) = _token_findings(ref, _unthreaded(ref))
    assert f.code == "IRD-TOKEN-ORDER" and f.severity == irdiff.INFO and "(9 such pairs)" in f.message, f
    assert f.ref_loc.startswith("inplace_tokens.py:")
    assert _token_findings(_unthreaded(ref), ref) == []  # a port that orders more than the reference: not flagged


def test_ported_token_graph_is_the_references(tmp_path):
    """Views (swap_halves) and rank-1 gathers / scatters (bump_pairs: the scatter's own token orders the next
    gather, as the reference's store_ptr_tko result does): cutile 0.5.0 compiles the spelling to the reference's
    token graph."""
    port = tmp_path / "port"
    translate.translate(KERNEL, port)
    entries = {"swap_f32": ("swap_halves", 9, 2), "bump_f32": ("bump_pairs_f32", 5, 2)}  # its two gathers are one key
    for spec in load_specs(str(SPECS)):
        entry, pairs, joins = entries[spec.name]
        ref = ir_ref.compile_reference(KERNEL, spec)
        (gen,) = ir_rs.compile_ports(port / "kernel.rs", [(spec, entry)])
        ((rorder, gorder),) = irdiff.token_orders(ref.text, gen.text)
        assert len(rorder) == pairs and rorder == gorder, spec.name
        assert gen.text.count("join_tokens") == ref.text.count("join_tokens") == joins
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port / "kernel.rs")

# -- loops (passes/tokens.py) --------------------------------------------------------------------------------
# Memory tokens through loops (passes/tokens.py) for an array a loop both reads and writes, as cuTile Python's
# token pass threads them: two tokens per array (its last store's, its last access's), a load taking the last
# store's token and joining its completion into the last access's, a store taking the last access's; a loop that
# only reads the array carries the last access's token. Without the carried joins tileiras batched the reads of
# TileGym's in-place cross-entropy four at a time where the reference interleaves them with its reductions (f16
# 512x32768: 3120 SASS instructions and 162 registers against 2680 and 142, 0.92x on the H200; with them: the same
# 2680 / 142, benchmarks/sass_diff.py). Kernel: tests/data/inplace_rows.py (written for this repo).


@pytest.mark.model
def test_a_read_only_inner_loop_carries_the_joined_token():
    rs = translate.translate_source(ROWS_KERNEL)["kernel.rs"]
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
    translate.translate(ROWS_KERNEL, port)
    (spec,) = load_specs(str(ROWS_SPECS))
    ref = ir_ref.compile_reference(ROWS_KERNEL, spec)
    (gen,) = ir_rs.compile_ports(port / "kernel.rs", [(spec, "center_rows_f32")])
    ((rorder, gorder),) = irdiff.token_orders(ref.text, gen.text)
    assert rorder and rorder == gorder
    assert gen.text.count("join_tokens") == ref.text.count("join_tokens") == 2
    carried = [re.findall(r"iter_values\(.*\) -> \(([^)]*)\)", t) for t in (ref.text, gen.text)]
    assert carried[0] == carried[1] and len(carried[0]) == 3, carried  # each loop carries what the reference's does
    assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port / "kernel.rs")
