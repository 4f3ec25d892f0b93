"""Pointer = base + offset analysis for unsloth's kernels (issue 18, branch unslothA), model-only (no cargo):
a stride parameter a partition view dropped but a gather (or arithmetic) needs as a value makes that view's array
flat (qk_norm_rope's ``r + row * n_heads + heads`` beside ``(row * n_heads + heads64) * HEAD_DIM``, nvfp4's
``half_cols``); a pointer parameter no access reaches (an arm folded away) is a 1-D array; ranges and masks placed
in rank-3 tiles (int4_packed's ``rn[:, None, None]``); a tl.dot operand cast to an array's element type (fp8 /
nvfp4 dequantised operands) takes that dtype's tf32 flag; a runtime fill of a float ``tl.full`` is an f32
argument; ``tl.debug_barrier`` is dropped. No cuTile Python counterpart: the ports' numerics are the H200 run's."""

from __future__ import annotations

from pathlib import Path

from ctrs import pipeline
from ctrs.frontends import triton as fe_triton

from .conftest import write_triton as _write


def _typed(monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")


def _params(path: Path) -> dict:
    mod = fe_triton.lower_file(path)[0]
    return {p.name: (p.kind, getattr(getattr(p.value, "type", None), "rank", None)) for p in mod.kernels[0].params}


def test_view_stride_needed_by_a_gather_makes_the_view_a_gather(monkeypatch, tmp_path):
    """``n`` is r's row stride (a view would drop it) and a factor of y's per-lane offsets: Triton passes it as
    a scalar, so r is read flat by a gather and n stays a runtime parameter (it was "'n' is a view's dropped
    stride and a gather offset's stride")."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(r, y, n, B: tl.constexpr):
            row = tl.program_id(0)
            h = tl.arange(0, B)
            v = tl.load(r + row * n + h, mask=h < n, other=0.0)
            tl.store(y + (row * n + h.to(tl.int64)) * 2, v, mask=h < n)
        """)
    params = _params(p)
    assert params["r"] == ("array", 1) and params["y"] == ("array", 1)
    assert params["n"][0] == "scalar"
    text = pipeline.emit_model(p, "frontend")
    assert "gather %r" in text and "scatter %y" in text and "make_partition_view" not in text


def test_view_stride_used_as_a_value_after_the_view(monkeypatch, tmp_path):
    """nvfp4's ``half_cols``: the stride of one view and, after it, a value (``offs < 2 * half_cols``)."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, rows, s, B: tl.constexpr):
            r = tl.program_id(0)
            c = tl.arange(0, B)
            v = tl.load(x + r * s + c)
            tl.store(y + r * B + c, v, mask=c < 2 * s)
        """)
    params = _params(p)
    assert params["x"] == ("array", 1) and params["s"][0] == "scalar"
    assert "gather %x" in pipeline.emit_model(p, "frontend")


def test_pointer_parameter_never_accessed_is_a_flat_array(monkeypatch, tmp_path):
    """rope_embedding's ``rope_embedding_indices`` in the HAS_ROPE_INDICES=0 entry: no access (it was "pointer
    parameter ... is not accessed through a partition view"); read by a 0-d gather in the other entry."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, idx, y, seqlen, HAS: tl.constexpr, B: tl.constexpr):
            row = tl.program_id(0)
            if HAS:
                pos = tl.load(idx + row).to(tl.int32)
            else:
                pos = row % seqlen
            c = tl.arange(0, B)
            tl.store(y + row * B + c, tl.load(x + pos * B + c))
        """)
    mod, notes = fe_triton.lower_file(p)
    ranks = {k.name: {q.name: q.value.type.rank for q in k.params if q.kind == "array"} for k in mod.kernels}
    assert ranks and all(r["idx"] == 1 for r in ranks.values()), ranks
    if len(ranks) == 2:  # one entry per HAS value: the entry that never reads idx says so
        assert any("pointer parameter 'idx' is not accessed (in this entry): a 1-D array" in n[3] for n in notes)


def test_ranges_and_masks_placed_in_three_dimensions(monkeypatch, tmp_path):
    """int4_packed's act-order decode: ``n_ok[:, None, None] & k_ok[None, :, :]`` (it was "a range placed in
    more than 2 dimensions"): the range is an iota reshaped to (B, 1, 1)."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, BN: tl.constexpr, BK: tl.constexpr, PF: tl.constexpr):
            rn = tl.arange(0, BN)
            k3 = tl.arange(0, BK)[:, None] * PF + tl.arange(0, PF)[None, :]
            m3 = (rn < n)[:, None, None] & (k3 < 64)[None, :, :]
            g = tl.load(x + rn[:, None, None] * 64 + k3[None, :, :], mask=m3, other=0.0).to(tl.float32)
            tl.store(y + rn, tl.sum(tl.sum(g, axis=2), axis=1), mask=rn < n)
        """)
    text = pipeline.emit_model(p, "frontend")
    assert "%offs_6 = reshape %offs_5 {shape = [BN, 1, 1]} : tile<BNx1x1xi32>" in text  # rn[:, None, None] < n
    assert "%offs_8 = reshape %offs_7 {shape = [BN, 1, 1]} : tile<BNx1x1xi32>" in text  # the gather's offsets
    assert "gather %x" in text and ": tile<BNxBKxPFx!E>" in text


def test_dot_operand_cast_to_an_array_dtype_takes_its_tf32_flag(monkeypatch, tmp_path):
    """fp8's small-M kernel: ``a = (x / s).to(B.dtype.element_ty)`` is not loaded from B but has B's element type;
    Triton rounds an f32 dot operand to tf32 by its dtype alone (it was "tl.dot operand of the array dtype not
    loaded from an array")."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(X, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
            rm = tl.arange(0, M)
            rn = tl.arange(0, N)
            rk = tl.arange(0, K)
            x = tl.load(X + rm[:, None] * K + rk[None, :]).to(tl.float32)
            a = (x * 0.5).to(B.dtype.element_ty)
            b = tl.load(B + rk[:, None] * N + rn[None, :])
            acc = tl.dot(a, b)
            tl.debug_barrier()
            tl.store(C + rm[:, None] * N + rn[None, :], acc)
        """)
    mod, notes = fe_triton.lower_file(p)
    text = pipeline.emit_model(p, "frontend")
    assert text.count("= mma %") >= 1
    assert any(g.origin == "dtype_flag" for k in mod.kernels for g in k.generics)
    assert any("tl.debug_barrier dropped" in n[3] for n in notes)


def test_runtime_fill_of_a_float_full_is_an_f32_argument(monkeypatch, tmp_path):
    """qk_norm_rope's ``tl.full((), eps, tl.float32)``: eps is a Python float at every launch (it was an i32
    parameter converted to f32, so a spec's eps = 1e-6 could not be passed)."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, eps, B: tl.constexpr):
            c = tl.arange(0, B)
            v = tl.load(x + c).to(tl.float32)
            tl.store(x + c, v * tl.math.rsqrt(tl.sum(v * v) + tl.full((), eps, tl.float32)))
        """)
    (kern,) = fe_triton.lower_file(p)[0].kernels
    eps = next(q for q in kern.params if q.name == "eps")
    assert str(eps.value.type) in ("f32", "tile<f32>", "scalar<f32>") or "f32" in str(eps.value.type)
