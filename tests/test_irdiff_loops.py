"""The diff's loop rules on the matmul reference's k-loop, edited the way ports differ: a token threaded
through the loop (canonicalised away), an extra loop-carried value (IRD-LOOP-CARRIED, a warning; one the body
passes on unchanged is its initial value), a changed step or bound (IRD-LOOP-BOUNDS, critical)."""

from __future__ import annotations

import pytest

from ctrs.verify import irdiff

from .conftest import ref_ir

FOR = ("%for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_34) : tile<i32> "
       "iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>) {")
CONT = "continue %4 : tile<64x64xf32>"
USE = "%2 = ftof %for  :"


@pytest.fixture(scope="module")
def ref() -> str:
    text = ref_ir("matmul", "f16_256x128x192").text
    assert FOR in text and CONT in text and USE in text  # the shape this test edits
    return text


def _edit(text: str, *pairs: tuple[str, str]) -> str:
    for a, b in pairs:
        assert a in text, a
        text = text.replace(a, b)
    return text


def _codes(rep) -> set[tuple[str, str]]:
    return {(f.code, f.severity) for f in rep.findings if f.severity != "info"}


def test_token_threaded_through_the_loop_is_equivalent(ref):
    port = _edit(ref,
                 (FOR, FOR.replace("%for = for", "%for:2 = for").replace(
                     "iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>)",
                     "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %0) -> (tile<64x64xf32>, token)")),
                 ("token = %0 : partition_view<tile=(64x32)", "token = %iterArg1 : partition_view<tile=(64x32)"),
                 (CONT, "continue %4, %result_token : tile<64x64xf32>, token"),
                 (USE, "%2 = ftof %for#0  :"))
    rep = irdiff.diff(ref, port)
    assert rep.verdict() == "EQUIVALENT", rep.render()
    assert rep.stats["matched"] == rep.stats["ref_ops"] == rep.stats["gen_ops"]
    back = irdiff.diff(port, ref)  # either side may thread it
    assert back.verdict() == "EQUIVALENT", back.render()


def test_extra_loop_carried_value_is_plumbing(ref):
    """An extra iter value the body changes (here: it carries the accumulator along) is IRD-LOOP-CARRIED."""
    port = _edit(ref,
                 (FOR, FOR.replace("%for = for", "%for:2 = for").replace(
                     "iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>)",
                     "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_0_f32) -> (tile<64x64xf32>, "
                     "tile<64x64xf32>)")),
                 (CONT, "continue %4, %4 : tile<64x64xf32>, tile<64x64xf32>"),
                 (USE, "%2 = ftof %for#0  :"))
    rep = irdiff.diff(ref, port)
    assert ("IRD-LOOP-CARRIED", "warning") in _codes(rep), rep.render()
    assert rep.verdict() == "WARNINGS", rep.render()


def test_iter_value_passed_on_unchanged_is_its_initial_value(ref):
    """An extra iter value the body passes on unchanged (a port carrying a name assigned only in a folded-away
    arm) is the value it starts with, in the body and as the loop's result: EQUIVALENT; a use of that result
    as the loop's real result is not."""
    carried = (FOR, FOR.replace("%for = for", "%for:2 = for").replace(
        "iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>)",
        "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_0_f32) -> (tile<64x64xf32>, tile<64x64xf32>)"))
    port = _edit(ref, carried, (CONT, "continue %4, %iterArg1 : tile<64x64xf32>, tile<64x64xf32>"),
                 (USE, "%2 = ftof %for#0  :"))
    rep = irdiff.diff(ref, port)
    assert rep.verdict() == "EQUIVALENT", rep.render()
    wrong = _edit(ref, carried, (CONT, "continue %4, %iterArg1 : tile<64x64xf32>, tile<64x64xf32>"),
                  (USE, "%2 = ftof %for#1  :"))  # the zeros the loop started with, not the accumulator
    bad = irdiff.diff(ref, wrong)
    assert not bad.equivalent and bad.verdict() != "EQUIVALENT", bad.render()


@pytest.mark.parametrize("what,new", [
    ("step", FOR.replace("step %cst_1_i32_34", "step %1#0")),
    ("upper bound", FOR.replace("to %1#1", "to %1#0")),
])
def test_changed_loop_bounds_are_critical(ref, what, new):
    rep = irdiff.diff(ref, _edit(ref, (FOR, new)))
    crit = [f for f in rep.findings if f.code == "IRD-LOOP-BOUNDS"]
    assert rep.verdict() == "CRITICAL" and crit and crit[0].severity == "critical", rep.render()
    assert what in crit[0].message and "performance/semantics" in crit[0].message
    assert crit[0].ref_loc and crit[0].gen_loc
    # a token threaded through the same loop does not hide it
    threaded = _edit(ref, (FOR, new.replace("%for = for", "%for:2 = for").replace(
        "iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>)",
        "iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %0) -> (tile<64x64xf32>, token)")),
                     (CONT, "continue %4, %iterArg1 : tile<64x64xf32>, token"), (USE, "%2 = ftof %for#0  :"))
    assert any(f.code == "IRD-LOOP-BOUNDS" for f in irdiff.diff(ref, threaded).findings)
