"""``tl.where`` on a runtime scalar condition (TileGym's triton/rope.py picks a row offset with
``tl.where(cos_bs == 1, a, b)``): the bool scalar is a 0-d bool tile and the select is a 0-d select, model-only."""

from __future__ import annotations

import textwrap

from ctrs import pipeline


def test_scalar_condition_selects_a_0d_value(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("import triton\nimport triton.language as tl\n" + textwrap.dedent("""
        @triton.jit
        def k(x, y, n, rows, B: tl.constexpr):
            pid = tl.program_id(0)
            row = tl.where(rows == 1, pid, pid * 2 + 1)
            offs = tl.arange(0, B)
            tl.store(y + offs, tl.load(x + row * B + offs, mask=offs < n, other=0.0))
        """))
    text = pipeline.emit_model(p, "frontend")
    sel = [ln for ln in text.splitlines() if " = select " in ln]
    assert len(sel) == 1 and sel[0].split(" loc(")[0].rstrip().endswith(": tile<i32>"), sel
