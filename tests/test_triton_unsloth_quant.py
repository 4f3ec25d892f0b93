"""Triton constructs of unsloth's quantized GEMM / GEMV and MoE kernels (issue 18, branch unslothB), model-only
(no cargo): ``tl.cdiv`` that counts no view's tiles (a scalar ceil-division), ``x.to`` of a dtype expression."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline
from ctrs.frontends import triton as fe_triton

from .conftest import write_triton as _write


def _ir(monkeypatch, tmp_path: Path, body: str) -> str:
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    return pipeline.emit_model(_write(tmp_path, body), "frontend").split("// stage")[1]


def test_cdiv_of_runtime_loaded_and_nested_scalars_is_a_ceil_division(monkeypatch, tmp_path):
    """A split-K range (``tl.cdiv(tl.cdiv(K, SPLIT_K), BLOCK_K)``, K a runtime argument the loads mask against) and
    a loaded group size: Triton's (n + d - 1) // d, ``divi`` rounding to +inf (cuTile Python's ``ct.cdiv``)."""
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x_ptr, y_ptr, sizes_ptr, K, SPLIT_K: tl.constexpr, BLOCK_K: tl.constexpr):
            pid = tl.program_id(0)
            k_per = tl.cdiv(tl.cdiv(K, SPLIT_K), BLOCK_K) * BLOCK_K
            m = tl.load(sizes_ptr + pid).to(tl.int32)
            n_tiles = tl.cdiv(m, BLOCK_K)
            offs = tl.arange(0, BLOCK_K)
            acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
            for t in range(0, n_tiles):
                k = pid * k_per + t * BLOCK_K + offs
                acc += tl.load(x_ptr + k, mask=k < K, other=0.0).to(tl.float32)
            tl.store(y_ptr + pid * BLOCK_K + offs, acc.to(y_ptr.dtype.element_ty))
        """)
    # sizes_ptr's values are cast .to(tl.int32): an index / size array of its own (entry k_i32); x and y keep apart
    assert "kernel @k_i32<E: dtype, E1: dtype, SPLIT_K: const, BLOCK_K: const>(%x_ptr: array<?x!E>, " \
        "%y_ptr: array<?x!E1>, %sizes_ptr: array<?xi32>, %K: i32)" in text
    assert "%tiles = divi %K, %split_k {rounding = positive_inf} : i32" in text
    assert "%cdiv = divi %tiles, %block_k {rounding = positive_inf} : i32" in text
    assert "%n_tiles = divi %m_in_s, %block_k_2 {rounding = positive_inf} : i32" in text
    assert "num_tiles" not in text


def test_cdiv_of_an_extent_tiled_by_another_block_divides_the_extent(monkeypatch, tmp_path):
    """``tl.cdiv(N, C)`` before the mask that names N the extent of x, whose views have block B: not a tile count,
    the ceil-division of the extent read from the tensor."""
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, N, B: tl.constexpr, C: tl.constexpr):
            chunks = tl.cdiv(N, C)
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < N, other=0.0)
            acc = tl.zeros((B,), dtype=tl.float32)
            for c in range(0, chunks):
                acc += v
            tl.store(y + offs, acc, mask=offs < N)
        """)
    assert "kernel @k<E: dtype, E1: dtype, B: const, C: const>(%x: array<?x!E>, %y: array<?x!E1>) {" in text  # f32 acc
    assert "%N = array_dim %x {axis = 0} : i32" in text
    assert "%chunks = divi %N, %c {rounding = positive_inf} : i32" in text
    assert "num_tiles" not in text


def test_cdiv_of_an_extent_by_its_views_block_stays_a_tile_count(monkeypatch, tmp_path):
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, N, B: tl.constexpr):
            n = tl.cdiv(N, B)
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < N, other=0.0)
            acc = tl.zeros((B,), dtype=tl.float32)
            for c in range(0, n):
                acc += v
            tl.store(y + offs, acc, mask=offs < N)
        """)
    assert "num_tiles %px {axis = 0} : i32" in text and "divi" not in text


def test_cdiv_of_a_tile_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs).to(tl.int32)
            tl.store(y + offs, tl.cdiv(v, 4).to(tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "tl.cdiv other than of i32 scalars" in e.value.message and e.value.loc.line == 8


def test_a_constexpr_used_as_a_dtype_is_a_dtype_variable(monkeypatch, tmp_path):
    """``acc.to(OUT_DTYPE)`` stored into y (it was refused with CTRS-E720): OUT_DTYPE is y's element type
    (tests/test_triton_dtype_constexpr.py has the rule's cases)."""
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr, OUT_DTYPE: tl.constexpr):
            offs = tl.arange(0, B)
            acc = tl.load(x + offs).to(tl.float32)
            tl.store(y + offs, acc.to(OUT_DTYPE))
        """)
    mod, _notes = fe_triton.lower_file(p)
    assert [k.name for k in mod.kernels] == ["k"] and "OUT_DTYPE" not in [q.name for q in mod.kernels[0].params]


def test_expand_dims_is_a_reshape_adding_unit_axes(monkeypatch, tmp_path):
    """``tl.expand_dims(y, 0)`` (a 3-D descriptor store of a 2-D tile) and a negative / tuple axis."""
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr, C: tl.constexpr):
            r = tl.arange(0, B)
            c = tl.arange(0, C)
            t = tl.load(x + r[:, None] * C + c[None, :]).to(tl.float32)
            a = tl.expand_dims(t, 0)
            b = tl.expand_dims(t, -1)
            d = t.expand_dims((0, 2))
            s = tl.sum(tl.sum(tl.reshape(a, (B, C)) + tl.reshape(b, (B, C)) + tl.reshape(d, (B, C)), axis=1), axis=0)
            tl.store(y + tl.program_id(0), s)
        """)
    assert "%a = reshape %t_1 {shape = [1, B, C]} : tile<1xBxCxf32>" in text
    assert "%b = reshape %t_1 {shape = [B, C, 1]} : tile<BxCx1xf32>" in text
    assert "%d = reshape %t_1 {shape = [1, B, 1, C]} : tile<1xBx1xCxf32>" in text


def test_expand_dims_of_an_axis_out_of_range_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            t = tl.load(x + tl.arange(0, B))
            tl.store(y + tl.arange(0, B), tl.reshape(tl.expand_dims(t, 2), (B,)))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "tl.expand_dims axes [2] of a rank-1 tile" in e.value.message


def test_sum_of_an_int32_tile_reduces_in_int32(monkeypatch, tmp_path):
    """A group's row range from per-expert counts (unsloth's dW_per_expert: prefix sums in registers)."""
    text = _ir(monkeypatch, tmp_path, """
        @triton.jit
        def k(sizes, y, NE: tl.constexpr, NUM: tl.constexpr):
            e = tl.arange(0, NE)
            n = tl.load(sizes + e, mask=e < NUM, other=0).to(tl.int32)
            pid = tl.program_id(0)
            start = tl.sum(tl.where(e < pid, n, 0), axis=0)
            size = tl.max(tl.where(e == pid, n, 0))
            tl.store(y + pid, (start + size).to(tl.float32))
        """)
    assert "%start_red = reduce_sum %v {axis = 0} : tile<i32>" in text
    assert "%size_red = reduce_max %v_1 {axis = 0} : tile<i32>" in text


def test_sum_of_an_int8_tile_is_refused(monkeypatch, tmp_path):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            t = tl.load(x + tl.arange(0, B)).to(tl.int8)
            tl.store(y + tl.program_id(0), tl.sum(t, axis=0).to(tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "tl.sum of a non-float tile" in e.value.message


def test_a_tile_of_rank_7_is_refused_naming_cutiles_rank_limit(monkeypatch, tmp_path):
    """A rank-7 tile used other than by a permute / a reshape back to rank <= 6 (those are spelled at rank <= 6:
    tests/test_triton_high_rank.py): cutile 0.5.0's tile ops stop at rank 6, so refused with its code."""
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, R: tl.constexpr):
            w = tl.load(x + tl.arange(0, R * 128)).to(tl.int32)
            q = tl.reshape(w, (R, 2, 2, 2, 2, 2, 4))
            tl.store(y + tl.arange(0, R * 128), tl.reshape(q + 1, (R * 128,)).to(tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.TRITON_TILE_RANK
    assert "a tile of rank 7" in e.value.message and "variadic_struct(N = 6)" in e.value.message
    assert "src/_core.rs:668" in e.value.message and e.value.loc.line == 8
