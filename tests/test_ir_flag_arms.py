"""Constant-flag ``if`` s whose arms type differently, resolved per flag value (frontends/cutile/control.py
two_arms, variant_ranks.py split_on_access_conflict): tests/data/cf_flag_arm_types.py has an int flag tested by
truth only whose arms give ``acc`` two shapes (TileGym fp8_quantization_matmul.py's SWAP_AB) and an array read
through an unpadded view in one arm and gathered in the other (its USE_TMA). cuTile Python compiles one launch
per flag value; the port has one entry per value, IR-equivalent for tests/data/cf_flag_arm_types.json."""

from __future__ import annotations

import pytest

from ctrs import pipeline, translate
from ctrs.spec import load_specs

from .conftest import DATA, assert_port_equivalent

KERNEL = DATA / "cf_flag_arm_types.py"


@pytest.mark.model
def test_truth_tested_flags_split_into_zero_and_other_entries():
    mod = translate.translate_module(KERNEL)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    entries = sorted({ln.split("fn ")[1].split("<")[0] for ln in rs.splitlines() if " fn flip_mul" in ln})
    # VIEW=0 gathers `a` (a raw pointer: one entry per dtype of `a`); VIEW=1 (any non-zero value) views it
    assert entries == sorted([f"flip_mul__FLIP_{f}__VIEW_0_{d}" for f in (0, 1) for d in ("bf16", "f16", "f32")]
                             + ["flip_mul__FLIP_0__VIEW_1", "flip_mul__FLIP_1__VIEW_1"])
    view_1 = rs[rs.index("fn flip_mul__FLIP_1__VIEW_1"):]
    assert "gather" not in view_1 and "*mut" not in view_1.split("{", 1)[0]


def test_flag_arm_entries_are_ir_equivalent(tmp_path):
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "cf_flag_arm_types.json"))
    assert [s.name for s in specs] == ["flip_gather_f16", "plain_view_bf16", "flip_view_f16"]
    for s in specs:  # each against the entry the wrapper dispatches its launch to
        assert_port_equivalent(KERNEL, kernel_rs, s)


@pytest.mark.model
def test_flag_arms_of_two_element_types_get_dtypes_per_value(tmp_path):
    """``c = ct.astype(acc, ct.float16)`` under ``OUT == 1``, ``c = acc`` (f32) otherwise, then scattered into ``y``
    (TileGym fp8_quantization_matmul.py's OUTPUT_DTYPE): cuTile Python types ``y`` per launch; each entry gets the
    array dtypes of its own value (before: one dtype solution, ``y`` f32 in the OUT == 1 entry too)."""
    src = tmp_path / "out_dtype.py"
    src.write_text(
        "import cuda.tile as ct\n\n\n@ct.kernel\n"
        "def k(x, y, T: ct.Constant[int], OUT: ct.Constant[int]):\n"
        "    i = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)\n"
        "    acc = ct.astype(ct.gather(x, i), ct.float32) * 2.0\n"
        "    if OUT == 1:\n        c = ct.astype(acc, ct.float16)\n    else:\n        c = acc\n"
        "    ct.scatter(y, i, c)\n")
    rs = translate.translate_source(src)["kernel.rs"]
    heads = {ln.split("fn ")[1].split("<")[0]: rs[rs.index(ln):rs.index(")", rs.index(ln))]
             for ln in rs.splitlines() if " fn k_" in ln or " fn k__" in ln}
    out1 = [h for n, h in heads.items() if n.startswith("k__OUT_1")]
    out2 = [h for n, h in heads.items() if n.startswith("k__OUT_2")]
    assert out1 and out2, sorted(heads)
    assert all("y: &Tensor<f16," in h for h in out1) and all("y: &Tensor<f32," in h for h in out2)
