"""The verifier's padded-load rule (verify/ircanon.py _padded_loads, docs/ir.md "Padded gathers") on the reference
of fixtures/gather_rank2 (a rank-2 ct.gather with a mask and padding -1.0), edited into the port's spelling: an
unpadded masked load_ptr_tko + ``select`` of the padding on the same mask is the padded load (EQUIVALENT); a
select on another mask, or a raw result read elsewhere too, is not folded (critical). The fixture's port itself
is proven in tests/test_ir_memory.py."""

from __future__ import annotations

import pytest

from ctrs.verify import irdiff

from .conftest import ref_ir

LOAD = ("%result, %result_token = load_ptr_tko weak %12, %bcast_20, %bcast_22 token=%0 : tile<64x64xptr<f32>>, "
        "tile<64x64xi1>, tile<64x64xf32> -> tile<64x64xf32>, token")
UNPADDED = ("%raw, %result_token = load_ptr_tko weak %12, %bcast_20 token=%0 : tile<64x64xptr<f32>>, "
            "tile<64x64xi1> -> tile<64x64xf32>, token")
SELECT = "%result = select {mask}, %raw, %bcast_22 : tile<64x64xi1>, tile<64x64xf32>"


@pytest.fixture(scope="module")
def ref() -> str:
    text = ref_ir("gather_rank2", "block_f32_300x50").text
    assert LOAD in text  # the padded load this test edits
    return text


def _port(ref: str, select: str, extra: str = "") -> str:
    line = next(ln for ln in ref.splitlines() if LOAD in ln)
    loc = line[line.index(" loc("):]
    indent = line[:len(line) - len(line.lstrip())]
    return ref.replace(line, f"{indent}{UNPADDED}{loc}\n{indent}{select}{loc}{extra}")


def _verdict(a: str, b: str) -> str:
    return irdiff.diff(a, b, "ref", "gen").verdict()


def test_unpadded_load_and_select_on_its_mask_is_the_padded_load(ref):
    port = _port(ref, SELECT.format(mask="%bcast_20"))
    rep = irdiff.diff(ref, port, "ref", "gen")
    assert rep.verdict() == "EQUIVALENT", rep.render()
    assert _verdict(port, ref) == "EQUIVALENT"  # either side may spell it


def test_select_on_another_mask_is_not_the_padded_load(ref):
    # the select pads the lanes of the negated mask: not what the load masked
    port = _port(ref, "%other = xori %bcast_20, %ones : tile<64x64xi1>\n  " + SELECT.format(mask="%other"))
    port = port.replace("  %other = xori", "  %ones = constant <i1: true> : tile<64x64xi1>\n  %other = xori", 1)
    assert "%other = xori" in port and "%ones = constant" in port
    assert _verdict(ref, port) != "EQUIVALENT"


def test_raw_result_read_elsewhere_is_not_folded(ref):
    port = _port(ref, SELECT.format(mask="%bcast_20"))
    # the unpadded lanes become observable: the fma reads the raw load instead of the selected value
    assert "%24 = fma %result, " in port
    port = port.replace("%24 = fma %result, ", "%24 = fma %raw, ")
    assert _verdict(ref, port) != "EQUIVALENT"
