"""Triton kernels as people write them (issue 18), model-only (no cargo, no cuda-tile): @triton.jit helpers inlined,
module constants, libdevice / tl.math calls, pointers as base + offset tensor (flat arrays read by gather/scatter),
masks with any predicate, the host map of typed-only kernels, and the unsloth corpus's row rules. IR equivalence of
fixtures/triton_math_helpers and fixtures/triton_flat_gather is tests/test_triton.py::test_triton_ir_equivalent
(TYPED_TRITON in tests/test_triton_ir.py)."""

from __future__ import annotations

import ast
import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

from ctrs import errors, pipeline
from ctrs.frontends.triton import source as triton_source
from ctrs.frontends import triton as fe_triton

ROOT = Path(__file__).resolve().parent.parent
from .conftest import TRITON_HEAD as HEAD, write_triton as _write


def _model(path: Path, stage: str = "frontend") -> str:
    return pipeline.emit_model(path, stage)


def test_helper_is_inlined_not_a_kernel_and_module_constants_fold():
    path = ROOT / "fixtures" / "triton_math_helpers" / "kernel.py"
    mod, notes = fe_triton.lower_file(path)
    assert [k.name for k in mod.kernels] == ["act"]  # _softplus is a helper: inlined, no entry of its own
    text = _model(path)
    assert text.count("math ") >= 4  # sigmoid's exp, softplus' exp and log, rsqrt: all in act's body
    assert "absf" in text and "maxf" in text
    kinds = {(kind, t) for _line, _k, kind, t in notes}
    assert ("param", "module constant 'BLOCK' = 256 folded (Triton reads it at compile time)") in kinds
    assert ("param", "module constant 'SHIFT' = 1.0 folded (Triton reads it at compile time)") in kinds
    from ctrs.frontends.triton import host  # noqa: PLC0415

    sites = host.mine_sites(path, host.typed_map)  # the typed port's host side (translate.port_files)
    assert sites["kernels"] == {"act": [["x", False], ["y", False]]}  # n: x's extent, not an argument
    assert {"name": "n", "kind": "shape", "array": "x", "dim": 0} in sites["triton"]["act"]["params"]


def test_module_global_that_is_not_a_constant_is_refused(tmp_path):
    p = _write(tmp_path, """
        import torch
        HIP = tl.constexpr(torch.cuda.is_available())

        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n)
            if HIP:
                v = v * 2.0
            tl.store(x + offs, v, mask=offs < n)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.TRITON_GLOBAL == "CTRS-E340"
    assert "module global 'HIP' is not a translate-time constant" in e.value.message
    assert e.value.loc.line == 11


@pytest.mark.parametrize("call", ["tl.math.erfinv", "libdevice.erfc", "tl.extra.cuda.libdevice.lgamma"])  # erf: erf.py
def test_math_without_a_cutile_function_names_the_missing_api(tmp_path, call):
    p = _write(tmp_path, f"""
        from triton.language.extra import libdevice

        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n).to(tl.float32)
            tl.store(x + offs, {call}(v), mask=offs < n)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    name = call.rsplit(".", 1)[1]
    assert e.value.code == errors.TRITON_NO_CUTILE_MATH
    assert e.value.message == f"{call}: cutile 0.3.1 has no '{name}' function"
    assert (e.value.loc.line, e.value.loc.col) == (10, 24)


def test_libdevice_and_tl_math_spellings_are_one_function(tmp_path):
    p = _write(tmp_path, """
        from triton.language.extra import libdevice

        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n).to(tl.float32)
            w = libdevice.exp(v) + tl.math.exp2(v) + tl.extra.cuda.libdevice.rsqrt(v) + libdevice.div_rn(v, 3.0)
            tl.store(x + offs, tl.fma(w, v, v), mask=offs < n)
        """)
    text = _model(p)
    for fn in ("exp", "exp2", "rsqrt"):
        assert f"math %" in text and f"fn = {fn}" in text
    assert "divf" in text and "mulf" in text and "addf" in text


def test_flat_gather_fixture_is_a_gather_and_a_scatter():
    text = _model(ROOT / "fixtures" / "triton_flat_gather" / "kernel.py")
    # y takes an f32 product: its values never meet x's without a cast, a type generic of its own (dtypes.keep_apart)
    assert "kernel @reverse_scaled<E: dtype, E1: dtype, BLOCK: const>(%x: array<?x!E>, %y: array<?x!E1>, %n: i32, " \
        "%lo: i32)" in text
    assert "= gather %x, " in text and "scatter %y, " in text
    assert text.count("check_bounds = false") == 2 and "has_mask = true" in text
    assert "predicate = ge" in text and "remi" in text and "ori" in text and "andi" in text


def test_views_of_two_ranks_make_the_array_flat(tmp_path):
    """``x`` read as rows (a 2-D view) and as one element: every access of it is a gather of the flat array."""
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, stride, n, B: tl.constexpr):
            row = tl.program_id(0)
            cols = tl.arange(0, B)
            v = tl.load(x + row * stride + cols, mask=cols < n, other=0.0)
            first = tl.load(x + row * stride)
            tl.store(y + row * stride + cols, v - first, mask=cols < n)
        """)
    text = _model(p)
    assert "(%x: array<?x!E>, %y: array<?x!E>" in text and "%stride: i32" in text  # the stride is an argument now
    assert text.count("= gather %x") == 2 and "load_view %py" not in text


def test_pointer_passed_to_a_helper_is_an_array(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def _row(P, cols, mask):
            return tl.load(P + cols, mask=mask, other=0.0).to(tl.float32)

        @triton.jit
        def k(X, Y, stride, n, B: tl.constexpr):
            row = tl.program_id(0)
            cols = tl.arange(0, B)
            v = _row(X + row * stride, cols, cols < n)
            tl.store(Y + row * stride + cols, v, mask=cols < n)
        """)
    mod, _ = fe_triton.lower_file(p)
    (k,) = mod.kernels
    assert [(q.name, q.kind) for q in k.params] == [("X", "array"), ("Y", "array"), ("B", "constant")]


def test_int64_index_idiom_stays_i32_with_a_note(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(X, Y, stride, n, B: tl.constexpr):
            row = tl.program_id(0).to(tl.int64)
            cols = tl.arange(0, B)
            v = tl.load(X + row * stride + cols, mask=cols < n, other=0.0)
            tl.store(Y + row * stride + cols, v, mask=cols < n)
        """)
    _mod, notes = fe_triton.lower_file(p)
    assert any(kind == "index" and "64-bit index kept i32" in t for _l, _k, kind, t in notes)


def test_float_constexpr_is_a_runtime_f32_and_int_constexpr_promotes(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(X, Y, N: tl.constexpr, SCALE: tl.constexpr, B: tl.constexpr):
            cols = tl.arange(0, B)
            v = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
            tl.store(Y + cols, v * SCALE / N, mask=cols < N)
        """)
    (k,), _ = fe_triton.lower_file(p)[0].kernels, None
    assert [(q.name, q.kind) for q in k.params] == [("X", "array"), ("Y", "array"), ("N", "constant"),
                                                     ("SCALE", "scalar"), ("B", "constant")]
    from ctrs.frontends.triton import host  # noqa: PLC0415

    tf = triton_source.load(p)
    _entry, lm = host.typed_map(tf, tf.kernels[0])
    assert {"name": "SCALE", "kind": "constexpr", "const": "SCALE", "port": "scalar"} in lm["params"]


def _corpus():
    spec = importlib.util.spec_from_file_location("ctrs_corpus_bench_unsloth", ROOT / "benchmarks" / "corpus.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def test_corpus_rows_helpers_and_assigned_jit(tmp_path):
    """unsloth's rules: a jit function another calls is a helper (not a row); ``f = triton.jit(f)`` makes a kernel;
    its isolated copy decorates it on the blank line above the def (line numbers kept)."""
    corpus = _corpus()
    p = tmp_path / "m.py"
    p.write_text(HEAD + textwrap.dedent("""
        @triton.jit
        def _h(x):
            return x * 2.0


        def kern(X, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            tl.store(X + offs, _h(tl.load(X + offs, mask=offs < n)), mask=offs < n)


        kern = triton.jit(kern)
        """))
    _tree, fns = corpus.kernels_of(p, "triton")
    assert [f.name for f in fns] == ["_h", "kern"]
    assert corpus.helpers(fns) == {"_h"}
    text = corpus.isolate(p, "triton", "kern")
    lines = text.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("def kern("))
    assert lines[at - 1] == "@triton.jit" and p.read_text().splitlines()[at - 1] == ""
    assert lines[-1] == "# ctrs corpus: kern = triton.jit(kern) as a decorator"
    assert len(lines) == len(p.read_text().splitlines())
    ast.parse(text)
    assert [k.name.value for k in triton_source.TritonFile(p, text).kernels] == ["_h", "kern"]


def test_other_without_a_view_padding_is_a_gather_padded_with_it(tmp_path):
    """``other=1.0`` has no view padding mode (tests/test_triton.py::test_diagnostics refused it before): the
    array is read by a gather padded with 1.0."""
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, T: tl.constexpr):
            offs = tl.program_id(0) * T + tl.arange(0, T)
            mask = offs < n
            v = tl.load(x + offs, mask=mask, other=1.0)
            tl.store(y + offs, v, mask=mask)
        """)
    text = _model(p)
    assert "%x_pad_t = constant {value = 1.0} : tile<!E>" in text and "= gather %x, " in text
    assert "load_view %py" not in text and "store_view %py" in text  # y keeps its view
