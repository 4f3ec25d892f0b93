"""An array whose loaded values are cast to an integer type is an index / size array (issue 18: unsloth's grouped-GEMM
dW kernels read ``m_sizes`` / ``gather_indices``, int32 in every launch, ``.to(tl.int32)`` / ``.to(tl.int64)``; the
port gave them the rows' generic E and no entry matched the launches). element_types.integer_cast_of_variable: the
kernel is lowered per integer dtype of such an array, i32 first, the rows' arrays staying generic."""

from __future__ import annotations

import pytest

from ctrs import pipeline

from .conftest import write_triton

pytestmark = pytest.mark.model

KERNEL = """
    @triton.jit
    def scale_rows(x, y, counts, rows_of, n_groups, N: tl.constexpr, BLOCK: tl.constexpr):
        g = tl.program_id(0)
        cnt = tl.load(counts + g).to(tl.int32)
        cols = tl.arange(0, BLOCK)
        for i in range(0, cnt):
            r = tl.load(rows_of + g * N + i).to(tl.int64)
            v = tl.load(x + r * BLOCK + cols)
            tl.store(y + r * BLOCK + cols, v * 2.0)
    """


def _kernels(tmp_path) -> list[str]:
    text = pipeline.emit_model(write_triton(tmp_path, KERNEL), "frontend")
    return [line for line in text.splitlines() if line.startswith("kernel @")]


def test_index_arrays_cast_to_int_get_an_integer_dtype(tmp_path):
    sigs = _kernels(tmp_path)
    i32 = [s for s in sigs if s.startswith("kernel @scale_rows_i32_i32<")]
    assert len(i32) == 1, sigs
    assert "%x: array<?x!E>, %y: array<?x!E>, %counts: array<?xi32>, %rows_of: array<?xi32>" in i32[0]


def test_an_int32_launch_matches_an_entry(tmp_path):
    import json  # noqa: PLC0415

    from ctrs import spec as specmod, translate  # noqa: PLC0415
    from ctrs.emitters import render_host  # noqa: PLC0415
    from ctrs.workflow import check  # noqa: PLC0415

    path = write_triton(tmp_path, KERNEL)
    specs = tmp_path / "specs.json"
    specs.write_text(json.dumps([{"name": "bf16_rows", "kernel": "scale_rows", "args": {
        "x": {"dtype": "bfloat16", "shape": [4096]}, "y": {"dtype": "bfloat16", "shape": [4096]},
        "counts": {"dtype": "int32", "shape": [4]}, "rows_of": {"dtype": "int32", "shape": [64]},
        "n_groups": {"scalar": "int32", "value": 4}, "N": 16, "BLOCK": 64}, "grid": ["4"]}]))
    fks = render_host.ffi_kernels(translate.translate_module(path))
    (s,) = specmod.load_specs(str(specs))
    assert check.entry_for(s, fks).name == "scale_rows_i32_i32_bf16"  # the generic entry's C entry at E = bf16
