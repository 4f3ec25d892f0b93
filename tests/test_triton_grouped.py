"""Constructs of unsloth's grouped-GEMM MoE kernels (issue 18, branch gg18), on small kernels of our own: a tensor
descriptor whose extent is a per-segment value the loop re-binds (a masked gather / scatter, descriptors.py), an
early return in a nested if / in one arm of an if-else (the statements after it move into the arms that do not
return, control.py), a dtype constexpr with a literal default, a constexpr alias of an and / or of flags, and a
number a loop re-binds. Each port is compiled by cutile (cargo) for two specs; there is no Triton on this CPU
machine, so the numbers are the H200 run's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ctrs import pipeline, spec as specmod, translate
from ctrs.emitters import render_host
from ctrs.frontends import triton as fe_triton
from ctrs.verify import ir_rs
from ctrs.workflow import check

from .conftest import DATA, write_triton as _write


def _compiled(tmp_path: Path, name: str) -> dict[str, str]:
    """Translate tests/data/<name>.py, compile every spec of <name>.json: spec name -> Tile IR text."""
    kpy = DATA / f"{name}.py"
    port = next(p for p in translate.translate(kpy, tmp_path / name) if p.name == "kernel.rs")
    ffi = render_host.ffi_kernels(translate.translate_module(kpy))
    specs = specmod.load_specs(str(DATA / f"{name}.json"))
    jobs = [(s, check.entry_for(s, ffi).name) for s in specs]
    return {s.name: r.text for (s, _e), r in zip(jobs, ir_rs.compile_ports(port, jobs))}


def test_descriptor_with_a_per_segment_extent_compiles_masked(tmp_path):
    """Segment s's descriptors end at bounds[s + 1] (a value of the loop): a tile past it neither reads nor
    writes the next segment. The port gathers / scatters the flat arrays with the bounds as masks (no view of
    the whole tensor); cutile compiles both specs."""
    by = _compiled(tmp_path, "triton_segment_desc")
    for spec, dt in (("f32_1000x256_4seg", "f32"), ("f16_3000x512_8seg", "f16")):
        text = by[spec]
        # masked, and padded with the padding tile (passes/padfold.py: the select of the front end folded)
        assert re.search(rf"load_ptr_tko weak %\S+, %\S+, %\S+ token=%\S+ : tile<\d+x\d+xptr<{dt}>>, "
                         rf"tile<\d+x\d+xi1>, tile<\d+x\d+x{dt}>", text), spec
        assert re.search(rf"store_ptr_tko weak %\S+, %\S+, %\S+ token=%\S+ : tile<\d+x\d+xptr<{dt}>>", text), spec
        assert "for " in text


@pytest.mark.model
def test_descriptor_with_a_per_segment_extent_model():
    text = pipeline.emit_model(DATA / "triton_segment_desc.py", "frontend")
    assert "gather %src" in text and "scatter %dst" in text and "load_view" not in text
    assert text.count("predicate = lt") >= 4 and text.count("predicate = ge") >= 4  # 0 <= row, col < extent


def test_early_returns_in_nested_ifs_compile(tmp_path):
    """``if SKIP_EMPTY: if c == 0: return`` (a constexpr arm) and ``if c > n: ..; return else: ..`` (a runtime
    if-else): cutile lowers a return only at a body's top level, the port moves the rest into the other arms."""
    by = _compiled(tmp_path, "triton_early_exit")
    assert set(by) == {"f32_512x300_skip", "bf16_64x1000_all", "loop_f32_256x3000", "loop_bf16_64x4096"}
    for name in ("f32_512x300_skip", "bf16_64x1000_all"):
        assert by[name].count("store_ptr_tko") == 2 and "return" in by[name]
    for name in ("loop_f32_256x3000", "loop_bf16_64x4096"):  # the flag: an i1 the loop carries
        assert re.search(r"= for %\S+ in \(%\S+ to %\S+, step %\S+\) : tile<i32> iter_values\(.*\) -> \(tile<i1>",
                         by[name]) or "tile<i1>" in by[name]
        assert by[name].count("store_ptr_tko") == 3


@pytest.mark.model
def test_return_inside_a_loop_is_a_flag_the_loop_carries():
    """copy_until_negative: ``return`` in the loop's if sets the flag; the rest of each iteration and the store
    after the loop run under ``if not`` it (it was "a return other than `if cond: return` directly in the kernel
    body")."""
    mod, notes = fe_triton.lower_file(DATA / "triton_early_exit.py")
    said = [t for _l, k, _kind, t in notes if k.startswith("copy_until_negative")]
    assert any(t.startswith("a return inside the loop -> a flag") for t in said)
    text = pipeline.emit_model(DATA / "triton_early_exit.py", "frontend")
    body = text[text.index("copy_until_negative"):]
    assert "%_ctrs_returned" in body and body.count("scatter %y") == 3


@pytest.mark.model
def test_early_return_rest_moves_into_the_arms_that_do_not_return(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, F: tl.constexpr, B: tl.constexpr):
            r = tl.program_id(0)
            c = tl.load(x + r)
            if F:
                if c == 0:
                    return
            elif c < 0:
                tl.store(y + r, -c)
                return
            tl.store(y + r, c)
        """)
    mod, notes = fe_triton.lower_file(p)
    said = [t for _l, _k, _kind, t in notes]
    assert any("an if that returns early (in a nested arm) -> the statements after it move into its arms" in t
               for t in said)
    text = pipeline.emit_model(p, "frontend")
    assert text.count("scatter %y") == 3  # the last store in the two arms that do not return, and -c's


@pytest.mark.model
def test_dtype_constexpr_default_flag_alias_and_carried_number(tmp_path):
    """``acc_dtype: tl.constexpr = tl.float32`` no call passes is f32 (dropped); ``BOTH: tl.constexpr = A and B``
    tested as ``A and not BOTH`` nests the flags' ifs; ``total = 0`` re-bound in the loop is an i32 carried
    scalar (the 0-d tile a load makes of it too)."""
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, sizes, A: tl.constexpr, B: tl.constexpr, NE: tl.constexpr, N: tl.constexpr,
              acc_dtype: tl.constexpr = tl.float32):
            BOTH: tl.constexpr = A and B
            total = 0
            for e in range(NE):
                total = total + tl.load(sizes + e).to(tl.int32)
            acc = tl.zeros((N,), dtype=acc_dtype)
            v = tl.load(x + tl.arange(0, N), mask=tl.arange(0, N) < total, other=0.0)
            if A and not BOTH:
                v = v * 2
            acc += v
            tl.store(y + tl.arange(0, N), acc)
        """)
    mod, notes = fe_triton.lower_file(p)
    said = [t for _l, _k, _kind, t in notes]
    assert "'acc_dtype' (a tl.constexpr dtype no call of the file passes) is its default tl.float32: parameter " \
           "dropped" in said
    assert "'total' = 0 re-bound in the loop body: carried as a i32 scalar (Triton's to_tensor)" in said
    assert [q.name for q in mod.kernels[0].params] == ["x", "y", "sizes", "A", "B", "NE", "N"]


@pytest.mark.model
def test_dtype_constexpr_a_call_passes_stays_refused(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, N: tl.constexpr, acc_dtype: tl.constexpr = tl.float32):
            acc = tl.zeros((N,), dtype=acc_dtype)
            tl.store(y + tl.arange(0, N), acc + tl.load(x + tl.arange(0, N)))

        def launch(x, y):
            k[(1,)](x, y, N=64, acc_dtype=tl.float16)
        """)
    with pytest.raises(Exception) as e:  # a variable (branch dtype18) that meets x's tiles: not implied by y
        fe_triton.lower_file(p)
    assert getattr(e.value, "code", "") == "CTRS-E748"
