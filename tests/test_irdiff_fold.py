"""Diff false alarms found on TileGym 1.5.1, proven on kernels and IR of our own. Two on its persistent bmm
(tests/data/diff_persistent_mod.py: a grid-stride loop that splits its index with `//` and `%` by a constant):

* the reference threads a token through the loop, the port does not: the loop header is the same once tokens
  are dropped, so it is not a finding of its own (it was IRD-DATAFLOW "operand count differs");
* cuTile Python folds the sign test of the floor modulo by a constant divisor into ``constant false``; cutile
  keeps ``cmpi less_than 6, 0``: a comparison of two integer constants is the constant it evaluates to;
* cuTile Python folds ``(N + TN - 1) // TN`` of constants to one constant (TileGym's chunked softmax); cutile
  keeps ``divi 447, 64``: integer arithmetic on two constants is the constant it evaluates to.

* an ``if`` result every arm yields unchanged from outside is that value (TileGym's flash decode).

Each has a wrong port that must stay critical: a comparison or a division of constants that evaluates
differently, a loop whose step changed."""

from __future__ import annotations

import re

import pytest

from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs import translate

from .conftest import DATA, assert_equivalent_report, data_cases

KERNEL = "diff_persistent_mod"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    out = tmp_path_factory.mktemp("pm") / "port"
    translate.translate(DATA / f"{KERNEL}.py", out)
    return out / "kernel.rs"


def _pair(port, spec) -> tuple[str, str]:
    ref = ir_ref.compile_reference(DATA / f"{KERNEL}.py", spec)
    (gen,) = ir_rs.compile_ports(port, [(spec, spec.rust.get("entry") or spec.kernel)])
    return ref.text, gen.text


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_persistent_loop_with_constant_floor_mod_is_equivalent(port, name, spec):
    ref, gen = _pair(port, spec)
    # the shapes this test is about; the port carries the store's token through the loop as the reference does
    # (cutile 0.5.0 ordered_store_view, branch perf14)
    assert "iter_values(%iterArg0 = %0) -> (token)" in ref and "-> (token)" in gen
    assert re.search(r"xori %\w+, %false", ref) and "divi %cst_" in gen and "divi %cst_" not in ref
    assert not re.search(r"xori %\w+, %false", gen)  # the port tests the sign of the folded divisor at run time
    assert_equivalent_report(irdiff.diff(ref, gen, "ref", "gen"), port)


def _spec0():
    return next(iter(data_cases([KERNEL]))).values[1]


def test_a_constant_comparison_that_evaluates_differently_is_critical(port):
    ref, gen = _pair(port, _spec0())
    line = next(x for x in gen.splitlines() if "cmpi less_than" in x)  # the divisor's sign: both constants
    wrong = gen.replace(line, line.replace("less_than", "greater_than_or_equal"))  # folds to true, not false
    rep = irdiff.diff(ref, wrong, "ref", "gen")
    assert rep.verdict() == "CRITICAL", rep.render()
    assert any(f.severity == irdiff.CRITICAL and f.op in ("xori", "andi", "select", "constant") for f in rep.findings), \
        rep.render()


def test_a_division_of_constants_that_evaluates_differently_is_critical(port):
    ref, gen = _pair(port, _spec0())
    line = next(x for x in gen.splitlines() if "= divi %cst_" in x)
    wrong = gen.replace(line, line.replace("rounding<negative_inf>", "rounding<positive_inf>"))  # 447/64: 6 -> 7
    rep = irdiff.diff(ref, wrong, "ref", "gen")
    assert rep.verdict() == "CRITICAL", rep.render()
    assert any(f.severity == irdiff.CRITICAL and f.code == "IRD-CONST" for f in rep.findings), rep.render()


def test_a_changed_persistent_loop_step_is_still_critical(port):
    ref, gen = _pair(port, _spec0())
    head = next(x for x in gen.splitlines() if x.lstrip().startswith("for %loopIdx in (%assume_blockId_x")
                or re.match(r"\s*%\w+ = for %loopIdx in \(%assume_blockId_x", x))
    wrong = gen.replace(head, head.replace("step %assume_gridSize_x", "step %cst_0_i32"))
    rep = irdiff.diff(ref, wrong, "ref", "gen")
    crit = [f for f in rep.findings if f.code == "IRD-LOOP-BOUNDS"]
    assert rep.verdict() == "CRITICAL" and crit and "step" in crit[0].message, rep.render()


def test_folding_reads_the_literals_as_the_predicate_says():
    from ctrs.verify import ircanon  # noqa: PLC0415

    assert ircanon._int_literal("i32", "-1", True) == -1
    assert ircanon._int_literal("i32", "-1", False) == 2**32 - 1  # unsigned: -1 is the largest value
    assert ircanon._int_literal("i1", "true", True) == 1
    assert ircanon._int_literal("f32", "1.0", True) is None  # floats are not folded
    assert [ircanon._div(a, 2, r) for a in (7, -7) for r in ("negative_inf", "positive_inf", "zero")] == \
        [3, 4, 3, -4, -3, -3]


SIBLINGS = """entry @k(%arg0: tile<ptr<f32>>) {
  %c0 = constant <i32: 0> : tile<i32>
  %c4 = constant <i32: 4> : tile<i32>
  %c1 = constant <i32: 1> : tile<i32>
  %a = constant <f32: 1.0> : tile<4x1xf32>
  %b = constant <f32: 2.0> : tile<4x8xf32>
  %m = constant <i1: true> : tile<4x8xi1>
  %for = for %loopIdx in (%c0 to %c4, step %c1) : tile<i32> iter_values(%iterArg0 = %a) -> (tile<4x1xf32>) {
    %5 = exp2 %iterArg0 : tile<4x1xf32>
    continue %5 : tile<4x1xf32>
  }
  %for_1 = for %loopIdx_2 in (%c0 to %c4, step %c1) : tile<i32> iter_values(%iterArg0_3 = %b) -> (tile<4x8xf32>) {
    %5 = select %m, %iterArg0_3, %b : tile<4x8xi1>, tile<4x8xf32>
    %6 = addf %iterArg0_3, %5 : tile<4x8xf32>
    continue %6 : tile<4x8xf32>
  }
  return
}
"""


def test_a_name_reused_in_a_sibling_region_is_a_new_value():
    """The Tile IR printer numbers values per region: TileGym's causal attention has two sibling loops that both
    define %38 (a 256x1 exp2, then a 256x128 select). The well-formedness check used to type the second by the
    first and refuse the reference IR (CTRS-E030); a real mismatch is still one."""
    from ctrs import errors  # noqa: PLC0415
    from ctrs.verify import irparse  # noqa: PLC0415

    irparse.parse(SIBLINGS, "siblings.mlir")
    assert irdiff.diff(SIBLINGS, SIBLINGS).verdict() == "EQUIVALENT"
    bad = SIBLINGS.replace("%6 = addf %iterArg0_3, %5", "%6 = addf %a, %5")
    with pytest.raises(errors.CtrsError) as e:
        irparse.parse(bad, "bad.mlir")
    assert e.value.code == errors.IR_PARSE
    assert e.value.message == "type mismatch in 'addf': operand %a is tile<4x1xf32>, the op is tile<4x8xf32>"


IF_REF = """entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %c0 = constant <i32: 0> : tile<i32>
  %c4 = constant <i32: 4> : tile<i32>
  %c1 = constant <i32: 1> : tile<i32>
  %a = constant <f32: 1.0> : tile<4x8xf32>
  %b = constant <f32: 2.0> : tile<4x8xf32>
  %for:2 = for %loopIdx in (%c0 to %c4, step %c1) : tile<i32> iter_values(%iterArg0 = %a, %iterArg1 = %b) -> (tile<4x8xf32>, tile<4x8xf32>) {
    %m = cmpi greater_than %loopIdx, %arg1, signed : tile<i32> -> tile<i1>
    %5 = if %m -> (tile<4x8xf32>) {
      %6 = exp2 %iterArg1 : tile<4x8xf32>
      yield %6 : tile<4x8xf32>
    } else {
      yield %iterArg1 : tile<4x8xf32>
    }
    %7 = addf %iterArg0, %5 : tile<4x8xf32>
    continue %7, %5 : tile<4x8xf32>, tile<4x8xf32>
  }
  %t0 = make_token : token
  %v = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %pv = make_partition_view %v : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %for#0, %pv[%c0, %c0] token = %t0 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
"""
IF_PORT = """entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) {
  %c0 = constant <i32: 0> : tile<i32>
  %c4 = constant <i32: 4> : tile<i32>
  %c1 = constant <i32: 1> : tile<i32>
  %a = constant <f32: 1.0> : tile<4x8xf32>
  %b = constant <f32: 2.0> : tile<4x8xf32>
  %for:2 = for %loopIdx in (%c0 to %c4, step %c1) : tile<i32> iter_values(%iterArg0 = %a, %iterArg1 = %b) -> (tile<4x8xf32>, tile<4x8xf32>) {
    %m = cmpi greater_than %loopIdx, %arg1, signed : tile<i32> -> tile<i1>
    %5:2 = if %m -> (tile<4x8xf32>, tile<4x8xf32>) {
      %6 = exp2 %iterArg1 : tile<4x8xf32>
      yield %iterArg0, %6 : tile<4x8xf32>, tile<4x8xf32>
    } else {
      yield %iterArg0, %iterArg1 : tile<4x8xf32>, tile<4x8xf32>
    }
    %7 = addf %5#0, %5#1 : tile<4x8xf32>
    continue %7, %5#1 : tile<4x8xf32>, tile<4x8xf32>
  }
  %t0 = make_token : token
  %v = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %pv = make_partition_view %v : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>
  %s = store_view_tko weak %for#0, %pv[%c0, %c0] token = %t0 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
"""


def test_a_value_every_if_arm_passes_through_unchanged_is_that_value():
    """TileGym's flash decode: the port's inner ``if`` yields the loop-carried values in both arms untouched, the
    reference yields only what the ``if`` computes (hand-written IR of the same shape)."""
    assert irdiff.diff(IF_REF, IF_PORT).verdict() == "EQUIVALENT"
    assert irdiff.diff(IF_PORT, IF_REF).verdict() == "EQUIVALENT"  # either side may thread them


@pytest.mark.parametrize("old,new", [
    ("yield %iterArg0, %iterArg1 : tile", "yield %iterArg1, %iterArg1 : tile"),  # the arms disagree
    ("yield %iterArg0, %6 :", "yield %iterArg1, %6 :"),  # both arms pass the other value through
], ids=["one-arm-differs", "other-value"])
def test_an_if_that_passes_a_different_value_is_critical(old, new):
    wrong = IF_PORT.replace(old, new)
    if "%6 :" in old:
        wrong = wrong.replace("yield %iterArg0, %iterArg1 :", "yield %iterArg1, %iterArg1 :")
    assert wrong != IF_PORT
    assert irdiff.diff(IF_REF, wrong).verdict() == "CRITICAL"


BITCAST_REF = """entry @k(%arg0: tile<ptr<i32>>, %arg1: tile<i32>) {
  %c0 = constant <i32: 0> : tile<i32>
  %x = constant <i32: 7> : tile<8xi32>
  %m = constant <i32: -845247145> : tile<8xi32>
  %y = muli %x, %m : tile<8xi32>
  %t0 = make_token : token
  %v = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %pv = make_partition_view %v : partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>
  %s = store_view_tko weak %y, %pv[%c0] token = %t0 : tile<8xi32>, partition_view<tile=(8), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  return
}
"""
BITCAST_PORT = BITCAST_REF.replace("""  %m = constant <i32: -845247145> : tile<8xi32>
""", """  %s0 = constant <i32: -845247145> : tile<i32>
  %b0 = bitcast %s0 : tile<i32> -> tile<i32>
  %r0 = reshape %b0 : tile<i32> -> tile<1xi32>
  %m = broadcast %r0 : tile<1xi32> -> tile<8xi32>
""")


def test_a_bitcast_splat_constant_folds_like_the_constant():
    """A u32 constant >= 2**31 (Philox's multipliers, frontends/triton/philox.py) is spelled as the i32 constant of
    its bits and a bitcast (cutile reads a u32 literal as i32): in Tile IR that bitcast is i32 -> i32, so the
    0-d constant, reshaped and broadcast, is the reference's splat constant; another value stays critical."""
    assert BITCAST_PORT != BITCAST_REF
    rep = irdiff.diff(BITCAST_REF, BITCAST_PORT)
    assert rep.verdict() == "EQUIVALENT", rep.render()
    wrong = BITCAST_PORT.replace("%s0 = constant <i32: -845247145>", "%s0 = constant <i32: -766435501>")
    assert irdiff.diff(BITCAST_REF, wrong).verdict() == "CRITICAL"
