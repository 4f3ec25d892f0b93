"""Where cuTile Python decides something per launch that the port computes (docs/ir.md "Specialised extents and
constant conditions", "Typing rules"): each rule with a kernel of this repo proven IR-equivalent at its specs.

* a size-1 extent (tests/data/gather_unit_axis.py): the reference's gather compares with ``constant 1``, the port
  with the extent argument; the verifier reads the argument as 1 where the reference's mangled entry symbol says
  the axis was specialised;
* a unit stride (tests/data/scatter_unit_inner.py, a scatter into ``[B, M, 1]``): the reference multiplies the
  row index by ``constant 1``, the port by its stride argument, read as 1 by the same rule;
* a compile-time ``check_bounds`` (tests/data/const_check_bounds.py): the port's Rust ``if`` on its const
  generics is emitted with both arms; an ``if`` on a constant condition is its taken arm;
* a product promoted into an f32 add (tests/data/promoted_fma.py): at f32 no promotion is left and the reference
  contracts it into an fma, so the port gets an entry per dtype (the specialise pass) and its f32 entry does too;
* a loop over constant bounds (tests/data/loop_extract.py): cutile bounds such a loop's index (``assume
  bounded<0, N-1>``), which the reference's never carries and which keeps tileiras from folding the unrolled index
  (the extract at it goes through local memory: 256 stores in the bf16 spec's SASS, none in the reference's); the
  port starts the bounds from a zero the JIT does not know (``[api.unbounded_loop_zero]``);
* a ``ct.Constant[float]`` meeting an f16 / bf16 tile (tests/data/loose_float_const.py) is loosely typed like
  the Python float it is: the add stays in the tile's dtype;
* a runtime ``if`` result nothing reads (tests/data/dead_if_result.py: ``pos``, re-bound in the ragged-block arm,
  later bound afresh in a constant-flag arm) is dropped by the dce pass, as cuTile Python's dead code elimination
  drops it: the reference's ``if`` yields ``t`` alone (CRITICAL IRD-DATAFLOW before the rule).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from ctrs import spec as specmod
from ctrs import translate
from ctrs.verify import ir_ref, ir_rs, ircanon, irdiff, irparse

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNELS = ["gather_unit_axis", "scatter_unit_inner", "const_check_bounds", "loose_float_const", "promoted_fma",
           "loop_extract", "dead_if_result"]


@pytest.fixture(scope="module")
def ports(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("specialised"), KERNELS)


@pytest.mark.parametrize("name,spec", list(data_cases(KERNELS)))
def test_port_is_ir_equivalent(ports, name, spec):
    assert_port_equivalent(DATA / f"{name}.py", ports[name], spec)


def _spec(kernel: str, name: str):
    return next(s for s in specmod.load_specs(str(DATA / f"{kernel}.json")) if s.name == name)


def test_unit_extents_come_from_the_reference_symbol():
    ref = ir_ref.compile_reference(DATA / "gather_unit_axis.py", _spec("gather_unit_axis", "f16_b1"))
    (entry,) = irparse.parse(ref.text, "ref").entries
    # table [1, 1, 4096]: args 0 (pointer), 1-3 (extents), 4-6 (strides [4096, 4096, 1]); idx [1, 512]: 7, 8-9,
    # 10-11; out [1, 512]: 12, 13-14, 15-16. Size-1 extents and unit strides.
    assert irdiff.unit_extent_args(entry.sig, len(entry.defs)) == {1, 2, 6, 8, 11, 13, 16}
    assert irdiff.unit_extent_args("entry @pick_rows_f16 ( %def : tile < i32 > )", 1) == frozenset()


def test_without_the_specialisation_the_extent_compare_is_a_difference(ports):
    """The port specialises a raw array's size-1 extents itself (a TABLE_UNIT<i> flag per extent, 1 at this launch:
    emitters/ir_rust.py _unit_extents), so it compares with the constant 1 as the reference does, whatever the
    reference's symbol says. With the flags 0 (a port that reads its extent argument), the verifier's reading of
    the argument as 1 rests on the reference's symbol: under a name that specialises nothing it is a difference,
    so the rule does not hide a port that compares with something else."""
    spec = _spec("gather_unit_axis", "f32_b4")
    ref = ir_ref.compile_reference(DATA / "gather_unit_axis.py", spec)
    plain = re.sub(r"entry @\w+", "entry @pick_rows", ref.text, count=1)
    (gen,) = ir_rs.compile_ports(ports["gather_unit_axis"], [(spec, "pick_rows_i32_f32")])
    assert irdiff.diff(plain, gen.text).equivalent
    flags_off = replace(spec, rust={"generics": ["64", "0", "0", "0"]})
    (gen0,) = ir_rs.compile_ports(ports["gather_unit_axis"], [(flags_off, "pick_rows_i32_f32")])
    assert gen0.text != gen.text
    assert irdiff.diff(ref.text, gen0.text).verdict() != "CRITICAL"
    rep = irdiff.diff(plain, gen0.text)
    assert not rep.equivalent and rep.verdict() != "EQUIVALENT", rep.render()
    assert rep.stats["matched"] < rep.stats["ref_ops"], rep.render()


def test_without_the_specialisation_the_unit_stride_is_a_difference(ports):
    """The scatter's unit stride: equivalent under the reference's symbol, missing its ``muli`` by ``constant 1``
    when the same reference is named so that it specialises nothing."""
    spec = _spec("scatter_unit_inner", "f16_b2")
    ref = ir_ref.compile_reference(DATA / "scatter_unit_inner.py", spec)
    (gen,) = ir_rs.compile_ports(ports["scatter_unit_inner"], [(spec, "row_max_f16")])
    assert irdiff.diff(ref.text, gen.text).equivalent
    plain = re.sub(r"entry @\w+", "entry @row_max", ref.text, count=1)
    rep = irdiff.diff(plain, gen.text)
    assert [f.code for f in rep.findings if f.severity == "critical"][:1] == ["IRD-MISSING"], rep.render()


_IF = """entry @k(%arg0: tile<i32>, %arg1: tile<ptr<i32>>) optimization_hints=<default = {{}}> {{
  %a = constant <i32: 3> : tile<i32>
  %b = constant <i32: 4> : tile<i32>
  %c = cmpi {pred} %a, %b, signed : tile<i32> -> tile<i1>
  %r = if %c -> (tile<i32>) {{
    %x = addi %arg0, %arg0 : tile<i32>
    yield %x : tile<i32>
  }} else {{
    %y = muli %arg0, %arg0 : tile<i32>
    yield %y : tile<i32>
  }}
  %t = store_ptr_tko weak %arg1, %r : tile<ptr<i32>>, tile<i32> -> token
  return
}}"""
_STRAIGHT = """entry @k(%arg0: tile<i32>, %arg1: tile<ptr<i32>>) optimization_hints=<default = {{}}> {{
  %x = {op} %arg0, %arg0 : tile<i32>
  %t = store_ptr_tko weak %arg1, %x : tile<ptr<i32>>, tile<i32> -> token
  return
}}"""


@pytest.mark.model
@pytest.mark.parametrize("pred,taken,other", [("less_than", "addi", "muli"), ("equal", "muli", "addi")])
def test_if_on_a_constant_condition_is_its_taken_arm(pred, taken, other):
    branchy = _IF.format(pred=pred)
    assert irdiff.diff(_STRAIGHT.format(op=taken), branchy).verdict() == "EQUIVALENT"
    assert irdiff.diff(_STRAIGHT.format(op=other), branchy).verdict() == "CRITICAL"


@pytest.mark.model
def test_integer_casts_of_constants_fold():
    splat = {"%one": ("i32", "1"), "%neg": ("i32", "-1"), "%big": ("i64", "4294967297")}

    def fold(sig, use):
        return ircanon._fold_ext(irparse.Op(sig.split()[0], ["%r"], [use], [], sig), splat)

    assert fold("exti % signed : tile < i32 > -> tile < i64 >", "%one") == ("i64", "1", "tile < i64 >")
    assert fold("exti % signed : tile < i32 > -> tile < i64 >", "%neg") == ("i64", "-1", "tile < i64 >")
    assert fold("exti % unsigned : tile < i32 > -> tile < i64 >", "%neg") == ("i64", "4294967295", "tile < i64 >")
    assert fold("trunci % : tile < i64 > -> tile < i32 >", "%big") == ("i32", "1", "tile < i32 >")
    assert fold("exti % signed : tile < i32 > -> tile < i64 >", "%missing") is None


@pytest.mark.model
def test_constant_float_meeting_a_narrow_tile_keeps_its_dtype(ports):
    text = ports["loose_float_const"].read_text()
    f16 = text[text.index("fn shift_narrow_f16"):text.index("fn shift_narrow_bf16")]
    # SHIFT and FLOOR are f16 constants where they meet the f16 tile: the launch's doubles rounded once to f16
    # (host-computed generics, docs/porting.md "Compile-time float expressions"); FLOOR meets the i32 iota as f32
    assert "shift_f16_f_c: Tile<f16, { [] }> = convert_tile(shift_f16_f)" in f16
    assert "floor_f16_f_c: Tile<f16, { [] }> = convert_tile(floor_f16_f)" in f16
    assert "const SHIFT_F16: i32, const FLOOR_F16: i32>" in f16
    assert "i_c: Tile<f32, { [TILE] }> = convert_tile(i)" in f16
    assert "Tile<f32, { [TILE] }> = convert_tile(t)" not in f16  # x's tile is never widened


_MUL = """entry @k(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>) optimization_hints=<default = {{}}> {{
  %n = assume bounded<0, ?>, %arg1 : tile<i32>
{one}  %x = muli %arg2, {by} : tile<i32>
  %t = store_ptr_tko weak %arg0, %x : tile<ptr<i32>>, tile<i32> -> token
  return
}}"""


@pytest.mark.model
def test_a_unit_extent_argument_is_the_constant_one_in_the_port():
    """mamba2's tile count ``chunks * heads * batch``: the reference multiplies by ``constant 1`` (batch 1
    specialised), the port by its extent argument; read as 1 only where ``unit_args`` names that argument."""
    ref = irparse.parse(_MUL.format(one="  %c1 = constant <i32: 1> : tile<i32>\n", by="%c1"), "r").entries[0]
    port = irparse.parse(_MUL.format(one="", by="%n"), "p").entries[0]
    r = ircanon.canonicalise(ref)
    assert ircanon.canonicalise(port, unit_args=frozenset({1})).root == r.root
    assert ircanon.canonicalise(port).root != r.root
    assert ircanon.canonicalise(port, unit_args=frozenset({2})).root != r.root  # another argument: no


@pytest.mark.model
def test_arithmetic_of_loose_constants_stays_loose(tmp_path):
    """``t + S * 2.0`` on an f16 tile: ``S * 2.0`` is a Python float in the reference too (two loosely typed
    operands), so it meets the tile as f16."""

    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef twice(x, y, S: ct.Constant[float], T: ct.Constant[int]):\n"
                   "    p = ct.bid(0)\n    t = ct.load(x, index=(p,), shape=(T,))\n"
                   "    ct.store(y, index=(p,), tile=t + S * 2.0)\n")
    files = translate.translate(src, tmp_path / "port")
    text = next(p for p in files if p.name == "kernel.rs").read_text()
    f16 = text[text.index("fn twice_f16"):text.index("fn twice_bf16")]
    assert "Tile<f16, { [] }> = convert_tile(" in f16 and "Tile<f32, { [T] }>" not in f16


@pytest.mark.model
def test_the_host_computes_the_unit_extent_flags():
    """The C entry passes each unit-extent flag from the launch's array (as ct.launch reads its shapes), after the
    ct.Constant generics, in the kernel's declaration order; ctrs check computes the same values from a spec."""
    from ctrs.emitters import render_host  # noqa: PLC0415
    from ctrs.workflow import check  # noqa: PLC0415

    files = translate.translate_source(DATA / "gather_unit_axis.py")
    assert "((d_table.shape[1] == 1) as i32).to_string()" in files["ffi.rs"]
    fk = next(f for f in render_host.ffi_kernels(translate.translate_module(DATA / "gather_unit_axis.py"))
              if f.name == "pick_rows_i32_f32")
    assert [g["name"] for g in fk.generics] == ["TILE", "TABLE_UNIT0", "TABLE_UNIT1", "TABLE_UNIT2"]
    assert check.generics_for(_spec("gather_unit_axis", "f32_b4"), fk) == ["64", "0", "1", "0"]
    assert check.generics_for(_spec("gather_unit_axis", "f16_b1"), fk) == ["128", "1", "1", "0"]


@pytest.mark.model
def test_a_promoted_product_gets_entries_per_dtype():

    rs = translate.translate_source(DATA / "promoted_fma.py")["kernel.rs"]
    f32 = rs[rs.index("fn skip_add_f32"):rs.index("fn skip_add_f16")]
    assert "= fma(s_r_b, xt, acc_1," in f32  # the f32 product, unpromoted, contracted into the add
    assert "fma(" not in rs[rs.index("fn skip_add_f16"):]  # a promoted f16 / bf16 product stays mulf + convert


_ITERAND_ASSUME = re.compile(r"assume bounded<[-0-9]+, [-0-9?]+>, %loopIdx\b")


@pytest.mark.parametrize("name,spec", list(data_cases(["loop_extract"])))
def test_the_loop_index_carries_no_assume(ports, name, spec):
    (gen,) = ir_rs.compile_ports(ports[name], [(spec, "mix_rows")])
    assert "for %loopIdx" in gen.text
    assert not _ITERAND_ASSUME.search(gen.text), gen.text


def test_the_plain_range_would_carry_it(ports, tmp_path):
    """The same port with the plain `0i32..N` range: cutile puts the assume on the index (the defect the
    spelling avoids; when a cutile release stops doing so, this test tells)."""
    rs = ports["loop_extract"].read_text()
    plain = re.sub(r"let (j_zero_t|j_zero): [^\n]*\n\s*", "", rs).replace("j_zero..(j_zero + N)", "0i32..N")
    assert plain != rs and "j_zero" not in plain
    path = tmp_path / "kernel.rs"
    path.write_text(plain)
    spec = next(s for s in specmod.load_specs(str(DATA / "loop_extract.json")) if s.name == "f32_n4")
    (gen,) = ir_rs.compile_ports(path, [(spec, "mix_rows")])
    assert _ITERAND_ASSUME.search(gen.text)


@pytest.mark.model
def test_the_zero_is_spelled_once_per_loop():
    rs = translate.translate_source(DATA / "loop_extract.py")["kernel.rs"]
    assert rs.count("tile_to_scalar(") == 1 and "for j in j_zero..(j_zero + N) {" in rs


@pytest.mark.model
def test_a_dead_if_result_is_not_yielded():
    rs = translate.translate_source(DATA / "dead_if_result.py")["kernel.rs"]
    body = rs[rs.index("for j in"):rs.index("acc = acc + ")]
    runtime_if = body[body.index("if cond {"):body.index("if SHIFT > 0i32 {")]
    # the arm computes `pos` for its mask, but only `t` leaves the if: one `let mut` before it, one assignment per arm
    assert body.count("let mut ") == 2 and "let mut t_3:" in body
    assert runtime_if.count(" = select(") == 1 and "pos =" not in runtime_if.replace("let pos", "")
