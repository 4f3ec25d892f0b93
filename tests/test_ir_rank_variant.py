"""An array whose rank depends on a ct.Constant flag (frontends/cutile/variant_ranks.py): one entry per value
of the flag, each reading the array at its own rank (an array no live arm reads keeps the rank of its first use),
IR-equivalent for tests/data/cf_rank_variant.json; a runtime scalar and a 0-d tile bound in
the two arms of an if are one value (control.py _scalar_as_tile)."""

from __future__ import annotations

import json
import re

import pytest

from ctrs import errors, pipeline, translate
from ctrs.emitters import render_host
from ctrs.spec import load_specs
from ctrs.workflow import check

from .conftest import DATA

KERNEL = DATA / "cf_rank_variant.py"


def _scale_ranks(rs: str) -> dict[str, int]:
    out = {}
    for name, body in re.findall(r"pub fn (\w+)<[^>]*>\((.*?)\)\s*\{", rs, re.S):
        m = re.search(r"scale: &Tensor<\w+, \{ \[([^\]]*)\] \}>", body)
        out[name] = len(m.group(1).split(",")) if m else 0
    return out


def test_rank_follows_the_flag():
    ranks = _scale_ranks(translate.translate_source(KERNEL)["kernel.rs"])
    assert ranks and all(r == (2 if "__MODE_2" in name else 1) for name, r in ranks.items())
    assert any("__MODE_3" in name for name in ranks)  # the entry for any other MODE (0 included): scale unread


def test_rank_variants_are_ir_equivalent(tmp_path):
    # each launch runs the entry its flag values and dtypes pick (check.entry_for, as the wrapper): the MODE
    # entries read scale at their own rank; `n` is a runtime scalar (`n: int`), so the specs pass it as one
    # (a bare number would make it a compile-time constant of the reference: one entry argument fewer)
    mod = translate.translate_module(KERNEL)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    rows = check.check(KERNEL, [str(DATA / "cf_rank_variant.json")], keep=tmp_path / "port")
    assert sorted((r.spec, r.entry, r.verdict) for r in rows) == [
        ("matrix_bf16", "scaled_rows__MODE_2_i32", "EQUIVALENT"),
        ("none_f16", "scaled_rows__MODE_3_i32", "EQUIVALENT"),
        ("vector_f32", "scaled_rows__MODE_1_i32", "EQUIVALENT")]


@pytest.mark.model
def test_bare_number_for_a_runtime_scalar_is_refused(tmp_path):
    # `lim: int` is passed at run time: a spec giving it as a bare number would prove the port against a reference
    # that folded it as a ct.Constant (one entry argument fewer): CTRS-E442 at its JSON path, with the fix
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef clip_rows(x, y, lim: int, T: ct.Constant[int]):\n"
                   "    b = ct.bid(0)\n    t = ct.load(x, index=(b,), shape=(T,))\n"
                   "    r = b * T + ct.arange(T, dtype=ct.int32)\n"
                   "    ct.store(y, index=(b,), tile=ct.where(r < lim, t, 0.0))\n")
    arr = {"dtype": "float32", "shape": [64]}
    good = {"name": "ok", "kernel": "clip_rows", "grid": ["4"],
            "args": {"x": arr, "y": arr, "lim": {"scalar": "int32", "value": 40}, "T": 16}}
    bad = {**good, "name": "bare", "args": {**good["args"], "lim": 40}}
    (tmp_path / "specs.json").write_text(json.dumps([good, bad]))
    fks = render_host.ffi_kernels(translate.translate_module(src))
    specs = [(s, "specs.json") for s in load_specs(str(tmp_path / "specs.json"))]
    check.check_known(specs[:1], fks, src)  # the scalar spelled as one: accepted
    with pytest.raises(errors.CtrsError) as e:
        check.check_known(specs, fks, src)
    assert e.value.code == errors.SPEC_RUNTIME_SCALAR_AS_CONSTANT
    assert ".args.lim" in e.value.message and '{"scalar": "int32", "value": 40}' in e.value.hint


def test_rank6_views_are_ir_equivalent(tmp_path):
    # the port's static unit stride of a rank-6 view (cutile's launcher) against the reference's dynamic one
    # (cuTile Python specialises strides up to rank 5): the same value for the launch proven (ircanon.py); the
    # host's TensorDesc holds 6 extents (render_host.MAX_DIMS), so the port crate compiles
    kernel = DATA / "rank6_view.py"
    rows = check.check(kernel, [str(DATA / "rank6_view.json")], keep=tmp_path / "port")
    assert sorted((r.spec, r.verdict) for r in rows) == [("f16_padded", "EQUIVALENT"),
                                                         ("f32_contiguous", "EQUIVALENT")]
