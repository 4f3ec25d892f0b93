"""A Triton kernel's pointers whose values never meet without a cast keep a type generic each (issue 18: unsloth's
_rms_sum_dw_partials reads f32 partials into an f32 accumulator and stores ``.to(dW.dtype.element_ty)`` into a bf16
dW; one generic E made the wrapper refuse that launch). frontends/cutile/dtypes.keep_apart, up to
frontends/triton/element_types.APART_GENERICS type generics; a tile stored into another pointer without an explicit
cast, or two pointers' tiles meeting, still make one variable."""

from __future__ import annotations

import pytest

from ctrs import pipeline

from .conftest import write_triton

pytestmark = pytest.mark.model


def _signature(tmp_path, body: str) -> str:
    text = pipeline.emit_model(write_triton(tmp_path, body), "frontend")
    return next(line for line in text.splitlines() if line.startswith("kernel @"))


def test_partials_and_the_dw_they_sum_into_are_apart(tmp_path):
    sig = _signature(tmp_path, """
        @triton.jit
        def sum_dw(partials, dW, n_programs, n_cols, BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
            cols = tl.program_id(0) * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
            acc = tl.zeros((BLOCK_ROWS, BLOCK_COLS), dtype=tl.float32)
            for start in range(0, n_programs, BLOCK_ROWS):
                rows = start + tl.arange(0, BLOCK_ROWS)
                mask = (rows < n_programs)[:, None] & (cols < n_cols)[None, :]
                acc += tl.load(partials + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0)
            tl.store(dW + cols, tl.sum(acc, axis=0).to(dW.dtype.element_ty), mask=cols < n_cols)
        """)
    assert sig.startswith("kernel @sum_dw<E: dtype, E1: dtype, BLOCK_ROWS: const, BLOCK_COLS: const>(")
    assert "%partials: array<?x?x!E>, %dW: array<?x!E1>" in sig


def test_a_tile_stored_without_a_cast_is_one_variable(tmp_path):
    sig = _signature(tmp_path, """
        @triton.jit
        def add(x, y, z, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            a = tl.load(x + offs, mask=offs < n)
            tl.store(z + offs, a * 2.0 + tl.load(y + offs, mask=offs < n), mask=offs < n)
        """)
    assert "<E: dtype, B: const>(%x: array<?x!E>, %y: array<?x!E>, %z: array<?x!E>" in sig


def test_more_independent_pointers_than_the_limit_share_e(tmp_path):
    sig = _signature(tmp_path, """
        @triton.jit
        def three(x, w, y, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n).to(tl.float32) * tl.load(w + offs, mask=offs < n).to(tl.float32)
            tl.store(y + offs, v.to(y.dtype.element_ty), mask=offs < n)
        """)
    assert "<E: dtype, B: const>(%x: array<?x!E>, %w: array<?x!E>, %y: array<?x!E>" in sig
