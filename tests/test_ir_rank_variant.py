"""An array whose rank depends on a ct.Constant flag (frontends/cutile/variant_ranks.py): one entry per value
of the flag, each reading the array at its own rank (an array no live arm reads keeps the rank of its first use),
IR-equivalent for tests/data/cf_rank_variant.json; a runtime scalar and a 0-d tile bound in
the two arms of an if are one value (control.py _scalar_as_tile)."""

from __future__ import annotations

import re

from ctrs import pipeline, translate
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
