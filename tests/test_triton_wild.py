"""Real-world Triton constructs (issue 18, branch triton-wild), model-only (no cargo): tl.split, x.T, a dtype test
of an array's element type (lowered per element type), tl.uint16, float("nan"), a [None, :] of a row kept as a
(1, N) tile, an int constexpr a helper compares with a literal, index lanes widened to int64, and a pointer cast
after offsets (refused)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends import triton as fe_triton

from .conftest import write_triton as _write


def _ir(monkeypatch, tmp_path: Path, body: str) -> str:
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    return pipeline.emit_model(_write(tmp_path, body), "frontend")


def test_split_extracts_the_two_halves_of_the_minor_axis(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            a = tl.load(x + offs[:, None] * 2 + tl.arange(0, 2)[None, :])
            lo, hi = tl.split(a)
            tl.store(y + offs, lo * 2.0 + hi)
        """)
    assert "%a_lo = extract %a, %c_1, %c_2 {shape = [B, 1]} : tile<Bx1x!E>" in text
    assert "%a_lo_1 = reshape %a_lo {shape = [B]} : tile<Bx!E>" in text
    assert "%c_4 = constant {value = 1} : i32" in text  # the hi half: block index 1 of the minor axis
    assert "%a_hi = extract %a, %c_3, %c_4 {shape = [B, 1]} : tile<Bx1x!E>" in text


def test_split_of_a_minor_axis_other_than_2_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            a = tl.load(x + offs[:, None] * 4 + tl.arange(0, 4)[None, :])
            lo, hi = tl.split(a)
            tl.store(y + offs, lo + hi)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "tl.split of tile<Bx4x!E>: Triton splits a minor axis of 2" in e.value.message


def test_dot_T_is_a_permute(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            t = tl.load(x + offs[:, None] * B + offs[None, :])
            tl.store(y + offs[:, None] * B + offs[None, :], t.T + t)
        """)
    assert "%perm = permute %t_1 {perm = [1, 0]} : tile<BxBx!E>" in text
    assert "%out = addf %perm, %t_1 : tile<BxBx!E>" in text


def test_dtype_test_of_an_array_is_lowered_per_element_type(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs).to(tl.float32)
            if y.dtype.element_ty == tl.float16:
                v = v + 1.0
            tl.store(y + offs, v.to(y.dtype.element_ty))
        """)
    entries = text.split("kernel @")[1:]
    assert [e.split("<")[0] for e in entries] == ["k_f32", "k_f16", "k_bf16"]
    assert ["addf" in e for e in entries] == [False, True, False]  # each entry folds the test


def test_uint16_and_nan(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs).to(tl.float32)
            u = (v.to(tl.int32, bitcast=True) & 0xFFFF).to(tl.uint16).to(tl.float16, bitcast=True).to(tl.float32)
            tl.store(y + offs, tl.where(u > 1.0, float("nan"), u))
        """)
    assert "%u_in_in = convert %u_in_in_in : tile<Bxu16>" in text
    assert "%u_in = bitcast %u_in_in : tile<Bxf16>" in text
    assert "%c_3 = constant {value = 2143289344} : tile<i32>" in text  # f32's quiet NaN bits, bitcast
    assert "%c_4 = bitcast %c_3 : tile<f32>" in text


def test_none_subscript_of_a_row_kept_as_a_1xN_tile(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, c, y, stride, H: tl.constexpr, B: tl.constexpr):
            row = tl.program_id(0)
            cols = tl.arange(0, B)
            heads = tl.arange(0, H)
            c1 = tl.load(c + row * stride + cols)
            t = tl.load(x + heads[:, None] * B + cols[None, :])
            tl.store(y + heads[:, None] * B + cols[None, :], t * c1[None, :])
        """)
    assert "reshape %c1 {shape = [1, B]} : tile<1xBx!E>" in text


def test_a_literal_a_helper_compares_a_passed_constexpr_with_splits_the_kernel(monkeypatch, tmp_path):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def _fold(x, WARPS: tl.constexpr):
            if WARPS == 4:
                x = tl.sum(x, axis=0)
            return x


        @triton.jit
        def k(x, y, B: tl.constexpr, W: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs).to(tl.float32)
            tl.store(y + offs, v + _fold(v, W))
        """)
    mod, _ = fe_triton.lower_file(p)
    assert sorted(k.name for k in mod.kernels) == ["k__W_0", "k__W_4", "k__W_5"]  # + 4: the helper's literal


def test_widened_index_lanes_of_a_loop_offset_are_not_a_pointer_cast(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, n, B: tl.constexpr):
            for n0 in range(0, n, B):
                rn = n0 + tl.arange(0, B)
                rn = rn.to(tl.int64)
                tl.store(y + rn, tl.load(x + rn, mask=rn < n), mask=rn < n)
        """)
    assert "for " in text


def test_pointer_cast_after_offsets_is_refused(monkeypatch, tmp_path):
    """A cast of the parameter is lowered (tests/test_triton_ptr_cast.py); one after offsets were added (byte offsets
    of the old element type) is not."""
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            w = (x + 4).to(tl.pointer_type(tl.uint8))
            tl.store(y + offs, tl.load(w + offs).to(tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        translate.translate(p, tmp_path / "port")
    blockers = list(getattr(e.value, "blockers", None) or [e.value])
    b = next(b for b in blockers if "after offsets were added" in b.message)
    assert b.loc.line == 7