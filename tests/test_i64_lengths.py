"""Integer widths as cuTile Python keeps them (docs/ir.md "Integer widths"): a length read from an index array
drives a ``range`` loop and a tile index (tests/data/i64_lengths.py). Launched with an int32 array the kernel is
i32 throughout; with an int64 one cuTile Python's arithmetic keeps i64 (``ct.cdiv`` of the length, the index
``j * TILE``), its ``range`` is an i64 loop (bounds, step, induction variable) and the tile index is narrowed to
i32 at the load (``trunci``). The port has one entry per dtype of the index array (``segment_sum_i32`` /
``_i64``), each IR-equivalent at its specs."""

from __future__ import annotations

import pytest

from ctrs import pipeline
from ctrs import errors
from ctrs.ir.verify import verify as verify_ir
from ctrs.verify import irdiff
from ctrs.ir.ops import OpKind
from ctrs.ir.types import I32, I64, ScalarType

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = "i64_lengths"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("i64len"), [KERNEL])[KERNEL]


def _loops(block):
    for op in block.ops:
        if op.kind == OpKind.FOR:
            yield op
        for r in op.regions:
            yield from _loops(r)


def test_an_int64_index_array_has_an_entry_of_its_own():
    ks = pipeline.lower(DATA / f"{KERNEL}.py")
    assert [k.name for k in ks] == ["segment_sum_i32", "segment_sum_i64"]
    (wide,) = [k for k in ks if k.name.endswith("_i64")]
    (loop,) = _loops(wide.body)
    assert [v.type for v in loop.operands[:3]] == [ScalarType(I64)] * 3
    assert loop.regions[0].args[0].type == ScalarType(I64)
    (narrow,) = [k for k in ks if k.name.endswith("_i32")]
    (loop,) = _loops(narrow.body)
    assert [v.type for v in loop.operands[:3]] == [ScalarType(I32)] * 3


def test_the_verifier_refuses_mixed_loop_widths():
    (wide,) = [k for k in pipeline.lower(DATA / f"{KERNEL}.py") if k.name.endswith("_i64")]
    (loop,) = _loops(wide.body)
    narrow = next(op.results[0] for op in wide.body.ops if op.kind == OpKind.BLOCK_ID)
    loop.operands[2] = narrow  # an i32 step in a loop of i64 bounds
    with pytest.raises(errors.CtrsError, match="start/stop/step must be i32, or all i64"):
        verify_ir(wide)


def test_the_tile_index_is_narrowed_in_the_port(port):
    text = port.read_text()
    assert "for j in (0i64.." in text
    assert "trunci(j_t, overflow::NoSignedWrap)" in text


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_port_is_ir_equivalent(port, name, spec):
    assert_port_equivalent(DATA / f"{name}.py", port, spec)


_NARROWED = """entry @k(%arg0: tile<i64>, %arg1: tile<ptr<f32>>, %arg2: tile<i32>) optimization_hints=<default = {{}}> {{
  %0 = make_token : token
  %tv = make_tensor_view %arg1, shape = [%arg2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
  %i = trunci %arg0{flag} : tile<i64> -> tile<i32>
  %t, %tok = load_view_tko weak %pv[%i] token = %0 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
  %s = store_view_tko weak %t, %pv[{store}] token = %tok : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}}"""


@pytest.mark.parametrize("store", ["%i", "%arg2"])
def test_a_narrowed_tile_index_reads_as_the_flagless_trunci(store):
    """The port's ``trunci {no_signed_wrap}`` of a tile index (cutile writes trunci only with a flag) is the
    reference's flagless one; the same trunci with a use that is not a tile index is still a difference."""
    ref = _NARROWED.format(flag="", store=store)
    port = _NARROWED.format(flag=" overflow<no_signed_wrap>", store=store)
    assert irdiff.diff(ref, port).verdict() == "EQUIVALENT"


def test_a_narrowing_used_as_a_value_keeps_its_flag():
    live = _NARROWED.replace("  %s = store_view_tko", "  %x = addi %i, %arg2 : tile<i32>\n  %s = store_view_tko")
    ref = live.format(flag="", store="%x")
    port = live.format(flag=" overflow<no_signed_wrap>", store="%x")
    rep = irdiff.diff(ref, port)
    assert rep.verdict() != "EQUIVALENT" and any(f.op == "trunci" for f in rep.findings), rep.render()


_SIBLINGS = """entry @k(%arg0: tile<i64>, %arg1: tile<ptr<f32>>, %arg2: tile<i32>, %arg3: tile<i1>) optimization_hints=<default = {{}}> {{
  %0 = make_token : token
  %tv = make_tensor_view %arg1, shape = [%arg2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
  if %arg3 {{
    %i = trunci %arg0{flag} : tile<i64> -> tile<i32>
    %t, %tok = load_view_tko weak %pv[%i] token = %0 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %s = store_view_tko weak %t, %pv[%arg2] token = %tok : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    yield
  }} else {{
    %i = addi %arg2, %arg2 : tile<i32>
    %t, %tok = load_view_tko weak %pv[%arg2] token = %0 : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %s = store_view_tko weak %t, %pv[%i] token = %tok : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %x = addi %i, %arg2 : tile<i32>
    %s2 = store_view_tko weak %t, %pv[%x] token = %s : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    yield
  }}
  return
}}"""


def test_uses_are_looked_up_in_the_defining_block():
    """The printer reuses value names across sibling regions (two loops' bodies): a name used as a value in the other
    arm is another value, so the narrowing in this arm is still read as the flagless trunci."""
    assert irdiff.diff(_SIBLINGS.format(flag=""), _SIBLINGS.format(flag=" overflow<no_signed_wrap>")).verdict() \
        == "EQUIVALENT"
