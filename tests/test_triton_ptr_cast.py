"""Pointer casts in the typed Triton front end (issue 18, branch ptr18): ``p.to(tl.pointer_type(T))`` reinterprets the
buffer as T elements (frontends/triton/pointer_casts.py). Loads / stores through it are gathers / scatters of the
flat array whose pointer chain casts the tensor's base pointer (cutile ``ptr_to_ptr``); offsets after the cast count
T elements, as in Triton. tests/data/triton_ptr_cast.py: bytes read as int32 words (a cast of a cast), bytes loaded
and stored through uint8 casts of a word / float buffer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ctrs import pipeline, spec as specmod, translate
from ctrs.verify import ir_rs

DATA = Path(__file__).resolve().parent / "data"
KERNEL = DATA / "triton_ptr_cast.py"


@pytest.mark.model
def test_cast_pointer_accesses_are_gathers_and_scatters_of_the_cast_type(monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    text = pipeline.emit_model(KERNEL, "frontend")
    # the cast array keeps a dtype variable of its own: the tensor passed holds bytes of any dtype
    assert "kernel @bytes_as_words<E: dtype, E1: dtype, B: const>(%w_ptr: array<?x!E>, %out_ptr: array<?x!E1>" in text
    # u8 then i32: the last cast is the element type of the load, its offsets are word offsets (no scaling)
    assert re.search(r"%words = gather %w_ptr, %offs\w*, %w_ptr_zero_t, %mask\w* \{check_bounds = false, "
                     r"elem = i32, .*\} : tile<Bxi32>", text)
    assert re.search(r"scatter %dst_ptr, %offs\w*, %out, %mask\w* \{check_bounds = false, elem = u8,", text)
    assert re.search(r"%b_\d+ = gather %src_ptr, .*elem = u8.*: tile<Bxu8>", text)


@pytest.mark.model
def test_port_casts_the_tensor_base_pointer(tmp_path):
    rs = translate.translate(KERNEL, tmp_path / "port")[0].read_text()
    assert "let w_ptr_cast: PointerTile<*mut i32, { [] }> = ptr_to_ptr(w_ptr_base);" in rs
    assert "let dst_ptr_cast: PointerTile<*mut u8, { [] }> = ptr_to_ptr(dst_ptr_base);" in rs
    assert re.search(r"let w_ptr_ptrs: PointerTile<\*mut i32, \{ \[B\] \}> = \w+\.offset_tile\(", rs)


def test_port_compiles_with_the_cast_in_tile_ir(tmp_path):
    """The cutile JIT takes every spec: bytes as words from a u8 and an f16 tensor, bytes from i32 / f32 tensors
    stored as bytes into u8 / f32 ones (a u8 -> u8 cast is the identity ptr_to_ptr)."""
    port = translate.translate(KERNEL, tmp_path / "port")[0]
    specs = specmod.load_specs(str(DATA / "triton_ptr_cast.json"))
    res = ir_rs.compile_ports(port, [(s, s.rust["entry"]) for s in specs])
    by = {s.name: r.text for s, r in zip(specs, res)}
    assert "ptr_to_ptr %assume_0 : tile<ptr<i8>> -> tile<ptr<i32>>" in by["u8_f32_4096"]
    assert re.search(r"load_ptr_tko weak %\d+, %\d+, %\w+ token=%\d+ : tile<256xptr<i32>>, tile<256xi1>, "
                     r"tile<256xi32> -> tile<256xi32>", by["u8_f32_4096"])
    assert "ptr_to_ptr %assume_0 : tile<ptr<f16>> -> tile<ptr<i32>>" in by["f16_bf16_1000"]
    assert "tile<ptr<i32>> -> tile<ptr<i8>>" in by["i32_u8_3000"]
    assert re.search(r"store_ptr_tko weak %\d+, %\d+, %\d+ token=%\d+ : tile<1024xptr<i8>>, tile<1024xi8>",
                     by["f32_f32_4096"])
