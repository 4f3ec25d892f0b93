"""A ``tl.constexpr`` parameter used as a dtype (issue 18, branch dtype18; unsloth's ``accumulator.to(OUT_DTYPE)``):
one more dtype variable of the solver (frontends/triton/dtype_params.py). Tied to the array a tile of its type is
stored into, the port drops it (the launch map feeds it from that array's dtype); tied to none, the kernel gets an
entry per dtype and the spec names the entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ctrs import spec as specmod, translate
from ctrs.emitters import render_host
from ctrs.frontends import triton as fe_triton
from ctrs.frontends.triton import host
from ctrs.verify import ir_rs
from ctrs.workflow import check

from .conftest import DATA, write_triton as _write

KPY = DATA / "triton_dtype_constexpr.py"


def _compiled(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """spec name -> (Rust entry, Tile IR text) of every spec of triton_dtype_constexpr.json."""
    port = next(p for p in translate.translate(KPY, tmp_path / "port") if p.name == "kernel.rs")
    ffi = render_host.ffi_kernels(translate.translate_module(KPY))
    specs = specmod.load_specs(str(DATA / "triton_dtype_constexpr.json"))
    jobs = [(s, check.entry_for(s, ffi).name) for s in specs]
    return {s.name: (e, r.text) for (s, e), r in zip(jobs, ir_rs.compile_ports(port, jobs))}


def test_dtype_constexprs_tied_and_untied_compile(tmp_path):
    """scale_to: one generic entry, the cast to OUT_T a convert to y's element type (bf16 / f16 per spec);
    rounded_sum: the spec's entry rounds through its ACC_T (bf16 / f16) and back to f32."""
    by = _compiled(tmp_path)
    wrapper = (tmp_path / "port" / "wrapper.py").read_text()  # the launch's OUT_T accepted, ignored (y's dtype)
    assert "def scale_to(x_ptr, y_ptr, scale, *, BLOCK, OUT_T=None, grid):" in wrapper
    assert by["scale_f32_to_bf16_5000"][0] == by["scale_bf16_to_f16_300"][0] == "scale_to"
    assert re.search(r"ftof %\S+\s+: tile<256xf32> -> tile<256xbf16>", by["scale_f32_to_bf16_5000"][1])
    assert re.search(r"ftof %\S+\s+: tile<128xf32> -> tile<128xf16>", by["scale_bf16_to_f16_300"][1])
    assert by["round_bf16_f32_1000"][0] == "rounded_sum_bf16"
    assert re.search(r"ftof %\S+\s+: tile<256xf32> -> tile<256xbf16>", by["round_bf16_f32_1000"][1])
    assert by["round_f16_f16_700"][0] == "rounded_sum_f16"
    assert re.search(r"ftof %\S+\s+: tile<128xf32> -> tile<128xf16>", by["round_f16_f16_700"][1])


@pytest.mark.model
def test_tied_dtype_constexpr_is_the_arrays_dtype_and_no_parameter():
    mod, notes = fe_triton.lower_file(KPY)
    k = next(k for k in mod.kernels if k.name == "scale_to")
    assert "OUT_T" not in [p.name for p in k.params] and "OUT_T" not in [g.name for g in k.generics]
    assert [g.name for g in k.generics if g.kind == "type"] == ["E", "E1"]
    assert any("'OUT_T' (a tl.constexpr dtype) is the element type of array 'y_ptr'" in t for *_x, t in notes)
    tf = fe_triton.source.load(KPY)
    fn = next(f for f in tf.kernels if f.name.value == "scale_to")
    _entry, tmap = host.typed_map(tf, fn)
    assert {"name": "OUT_T", "kind": "dtype", "array": "y_ptr", "const": "OUT_T"} in tmap["params"]


@pytest.mark.model
def test_untied_dtype_constexpr_gets_an_entry_per_dtype():
    mod, _notes = fe_triton.lower_file(KPY)
    names = sorted(k.name for k in mod.kernels if k.python_name == "rounded_sum")
    assert names == ["rounded_sum_bf16", "rounded_sum_f16", "rounded_sum_f32"]
    for k in mod.kernels:
        assert "ACC_T" not in [p.name for p in k.params]


@pytest.mark.model
def test_zeros_of_a_dtype_constexpr_is_a_constant_of_its_variable(tmp_path):
    """``tl.zeros((B,), dtype=OUT_DTYPE) + acc``: zeros of the variable meet f32, so an entry per dtype."""
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr, OUT_DTYPE: tl.constexpr):
            offs = tl.arange(0, B)
            acc = tl.load(x + offs).to(tl.float32)
            tl.store(y + offs, tl.zeros((B,), dtype=OUT_DTYPE) + acc)
        """)
    mod, _notes = fe_triton.lower_file(p)
    assert sorted(k.name for k in mod.kernels) == ["k_bf16", "k_f16", "k_f32"]
