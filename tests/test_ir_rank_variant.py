"""An array whose rank depends on a ct.Constant flag (frontends/cutile/variant_ranks.py): one entry per value
of the flag, each reading the array at its own rank (an array no live arm reads keeps the rank of its first use),
(IR equivalence for tests/data/cf_rank_variant.json: a strict xfail, IRD-ARGS, not diagnosed yet); a runtime scalar and a 0-d tile bound in
the two arms of an if are one value (control.py _scalar_as_tile)."""

from __future__ import annotations

import re

import pytest

from ctrs import pipeline, translate
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs, irdiff

from .conftest import DATA, assert_equivalent_report

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


@pytest.mark.xfail(strict=True, reason="IRD-ARGS: the rank split (raised inside a dtype-entries lowering) and the "
                   "USE_LENS dtype split make entries (__MODE_1_i32 and __MODE_1__USE_LENS_1_f32) whose dispatch "
                   "picks one with other entry arguments than the reference; same rows as attention_variant.py "
                   "(triage.json): not diagnosed yet (branch refusals12)")
def test_rank_variants_are_ir_equivalent(tmp_path):
    mod = translate.translate_module(KERNEL)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "cf_rank_variant.json"))
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust.get("entry") or s.kernel) for s in specs])
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(KERNEL, s)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)
