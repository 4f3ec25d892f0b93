"""Triton constructs unsloth's kernels use (issue 18, branch unsloth-ops), model-only (no cargo, no cuda-tile):
Triton scalars (0-d tiles) as ``if`` conditions, Python numbers assigned in a runtime ``if`` arm, int constexprs
tested for truth splitting a kernel into entries. The fixtures' ports build (``ctrs ir-rs`` on their specs.json);
their numerics against the Triton originals are the H200 run's (no cuTile Python counterpart)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends import triton as fe_triton

ROOT = Path(__file__).resolve().parent.parent
from .conftest import write_triton as _write


def _typed(monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")  # no fallback to the text model: a typed-path failure fails


def test_scalar_conditions_are_runtime_ifs(monkeypatch, tmp_path):
    _typed(monkeypatch)
    path = ROOT / "fixtures" / "triton_scalar_if" / "kernel.py"
    mod = translate.translate_module(path)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    text = pipeline.emit_model(path, "frontend")
    first = text.split("// stage")[1]
    # tl.load of one element / a full reduction: 0-d tiles; their comparisons are the if conditions
    assert "%m = cmpf %t_red_1, %c_1 {ordering = ordered, predicate = eq} : tile<bool>" in first
    assert "%sel = if %m -> (tile<f32>)" in first  # `1.0 if t == 0 else t`: 1.0 is an f32 0-d tile like t
    assert "%sel_1 = constant {value = 1.0} : tile<f32>" in first
    assert "%stat = if %m_1 -> (tile<f32>)" in first  # `stat = 0.0` in the else arm: Triton's f32 scalar tensor
    assert "%stat_2 = constant {value = 0.0} : tile<f32>" in first
    assert "%inside = andi %m_2, %m_3 : tile<bool>" in first
    assert "%ncond = xori %inside, %c_5 : tile<bool>" in first  # `not inside` stays a 0-d bool tile
    port = translate.translate(path, tmp_path / "port")[0].read_text()
    # lab's values are cast .to(tl.int32): an index array of its own dtype (one entry scalar_if_i32, x generic E)
    assert port.count("if tile_to_scalar(") == 4
    assert "pub fn scalar_if_i32<E: ElementType" in port
    assert "if tile_to_scalar(inside) {" in port


def test_tile_condition_with_lanes_is_refused(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n)
            if v > 0:
                v = v * 2.0
            tl.store(x + offs, v, mask=offs < n)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.IR_UNSUPPORTED
    assert "an if-condition that is not a scalar" in e.value.message and e.value.loc.line == 8


def test_number_of_another_dtype_than_the_other_arm_is_refused(monkeypatch, tmp_path):
    """Triton's to_tensor(0) is i32: it does not meet an f32 scalar in the other arm (mismatched type)."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, s, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
            t = tl.sum(v)
            if t > 1.0:
                r = t
            else:
                r = 0
            tl.store(s + tl.program_id(0), r)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "'r' is 0 (i32) in one arm and a tile<f32> in the other" in e.value.message


def test_two_numbers_in_the_arms_are_scalars_of_their_dtype(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, s, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
            t = tl.max(v)
            r = 2.0 if t > 0 else 0.5
            tl.store(s + tl.program_id(0), t * r)
        """)
    text = pipeline.emit_model(p, "frontend").split("// stage")[1]
    assert "= if %m -> (f32)" in text
    assert "constant {value = 2.0} : f32" in text and "constant {value = 0.5} : f32" in text


def test_int_constexpr_tested_for_truth_splits_into_zero_and_other(monkeypatch):
    """unsloth's LONG_INDEXING / INT64_OFFSETS: passed to a helper (so not a bool flag) and tested for truth there;
    arms that bind different compile-time values split the kernel into entries for 0 and for any other value (it
    was CTRS-E124, "cannot split ct.Constant into entries here"). ``offs.to(tl.int64)`` of index lanes stays the
    lanes (a view, no i64 convert: cutile's JIT has no i32 -> i64 tile conversion)."""
    _typed(monkeypatch)
    path = ROOT / "fixtures" / "triton_flag_split" / "kernel.py"
    mod, notes = fe_triton.lower_file(path)
    assert [k.name for k in mod.kernels] == ["flag_split__WIDE_0", "flag_split__WIDE_1"]
    zero, wide = mod.kernels
    assert [g.name for g in wide.generics if g.kind == "const"] == ["B", "WIDE"]  # any other value: still generic
    assert [g.name for g in zero.generics if g.kind == "const"] == ["B"]
    assert dict(zero.variant) == {"WIDE": 0} and dict(wide.variant) == {"WIDE": 1}
    text = pipeline.emit_model(path, "frontend")
    at = text.index("kernel @flag_split__WIDE_1<")
    assert "constant {value = 0.5}" in text[:at] and "constant {value = 2.0}" in text[at:]
    assert "i64" not in text and text.count("load_view %px, %pid") == 2
    assert any(kind == "index" and "64-bit index lanes kept i32" in t for _l, _k, kind, t in notes)


def test_erf_polynomials_are_within_three_ulp_of_erf():
    """frontends/triton/erf.py's coefficients, evaluated in f32 as the port does (Horner, no fma), against erf in
    float64 on a dense grid: within 3 ulp (libdevice erff: 2), relative error below 2e-7 (f32 tolerance: 1e-5)."""
    import math  # noqa: PLC0415

    np = pytest.importorskip("numpy")
    from ctrs.frontends.triton import erf  # noqa: PLC0415

    f32 = np.float32
    xs = np.concatenate([np.linspace(-6, 6, 200001), np.linspace(-1e-3, 1e-3, 2001),
                         np.linspace(0.95, 1.05, 20001), np.array([0.0, -0.0, np.inf, -np.inf])]).astype(f32)

    def horner(cs, v):
        r = np.full_like(v, f32(cs[-1]))
        for c in cs[-2::-1]:
            r = (r * v).astype(f32) + f32(c)
        return r

    with np.errstate(over="ignore", invalid="ignore"):
        a = np.abs(xs)
        inner = xs * horner(erf.INNER, (xs * xs).astype(f32))
        mag = f32(1.0) - np.exp(horner(erf.OUTER, np.minimum(a, f32(erf.CLAMP)))).astype(f32)
        got = np.where(a > f32(erf.SPLIT), np.where(xs < 0, -mag, mag), inner).astype(f32)
    ref = np.array([math.erf(float(x)) for x in xs])
    ulp = np.abs(got.astype(np.float64) - ref) / np.spacing(np.abs(ref.astype(f32))).astype(np.float64)
    assert ulp.max() <= 3.0
    assert (np.abs(got - ref) / np.maximum(np.abs(ref), 1e-30)).max() < 2e-7
    assert got[-4] == 0.0 and np.signbit(got[-3]) and got[-2] == 1.0 and got[-1] == -1.0


def test_erf_is_spelled_with_cutile_math(monkeypatch):
    _typed(monkeypatch)
    path = ROOT / "fixtures" / "triton_erf" / "kernel.py"
    text = pipeline.emit_model(path, "frontend")
    assert "%rsqrt_t = math %c_1 {fn = rsqrt} : tile<f32>" in text  # tl.math.rsqrt(2.0): an f32 scalar tensor
    assert "%erf_abs = absf %t_2 : tile<BLOCKxf32>" in text
    assert "%erf_t = minf %erf_abs, %c_9 : tile<BLOCKxf32>" in text
    assert "math %" in text and "{fn = exp} : tile<BLOCKxf32>" in text
    assert "%erf = select %erf_far, %erf_outer, %t_16 : tile<BLOCKxf32>" in text
    mod = translate.translate_module(path)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    assert [k.name for k in mod.kernels] == ["gelu_exact"]  # one entry, generic in the arrays' element type


def test_erf_of_a_half_tile_is_refused(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n).to(tl.float16)
            tl.store(x + offs, tl.math.erf(v), mask=offs < n)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.TRITON_ERF_DTYPE == "CTRS-E430"
    assert "Triton's erf takes fp32" in e.value.message and e.value.loc.line == 8


def test_math_of_the_arrays_element_type_is_generic(monkeypatch, tmp_path):
    """tl.exp of a tile loaded without .to(): the function in the arrays' element type E (a float in every spec),
    as Triton applies it to the loaded dtype and the cuTile front end spells ct.exp of a dtype variable (it was
    CTRS-E124 "tl.exp of a non-float tile", unsloth's _expm1_neg(loss))."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n, other=0.0)
            tl.store(y + offs, tl.exp(-v), mask=offs < n)
        """)
    text = pipeline.emit_model(p, "frontend")
    assert "math %" in text and "{fn = exp} : tile<Bx!E>" in text
    port = translate.translate(p, tmp_path / "port")[0].read_text()
    assert "exp(" in port


def test_join_interleave_permute_broadcast_to(monkeypatch):
    _typed(monkeypatch)
    path = ROOT / "fixtures" / "triton_joins" / "kernel.py"
    text = pipeline.emit_model(path, "frontend")
    assert "%a_j = reshape %a {shape = [128, 1]} : tile<128x1xf32>" in text
    assert "%j = cat %a_j, %t_j {axis = 1} : tile<128x2xf32>" in text  # tl.join: a at 0, b at 1 of a new minor axis
    assert "%j_x_b = broadcast %j_x {shape = [4, 128, 2]} : tile<4x128x2xf32>" in text
    assert "%t_2 = permute %j_x_b {perm = [2, 1, 0]} : tile<2x128x4xf32>" in text
    assert "%out_2 = reshape %out_1 {shape = [256]} : tile<256xf32>" in text  # interleave: join, last axes merged
    assert translate.translate_module(path).pipeline == pipeline.PIPELINE_NAME


def test_interleave_along_a_constexpr_extent_is_refused(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, B: tl.constexpr):
            offs = tl.arange(0, B)
            a = tl.load(x + offs)
            tl.store(y + offs, tl.sum(tl.interleave(a, a)))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "tl.interleave along a tl.constexpr extent (B): the result's 2 * B is not a shape cutile can spell" \
        in e.value.message


def test_dot_out_dtype_f32_is_the_accumulator(monkeypatch, tmp_path):
    _typed(monkeypatch)
    body = """
        M = 16
        N = 16
        K = 16

        @triton.jit
        def k(a, b, c):
            x = tl.load(a + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
            y = tl.load(b + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
            acc = tl.dot(x, y, out_dtype=DT, input_precision="ieee")
            tl.store(c + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], acc)
        """
    text = pipeline.emit_model(_write(tmp_path, body.replace("DT", "tl.float32")), "frontend")
    assert "= mma %" in text and ": tile<16x16xf32>" in text
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(_write(tmp_path, body.replace("DT", "tl.float16"), "k2.py"))
    assert "tl.dot out_dtype other than tl.float32" in e.value.message


def test_helper_returning_from_every_arm(monkeypatch, tmp_path):
    """unsloth's `_mul(a, b, USE_MUL_RN)`: `if FLAG: return x else: return y` (it was CTRS-E124 "return inside a
    block of helper"); a runtime elif chain yields one value; a return that leaves a path without one stays refused."""
    _typed(monkeypatch)
    path = ROOT / "fixtures" / "triton_helper_returns" / "kernel.py"
    text = pipeline.emit_model(path, "frontend")
    assert "%sel = if const RN ne 0 -> (tile<Bxf32>)" in text
    assert "%sel_1 = if %m -> (tile<Bxf32>)" in text and "%sel_2 = if %m_1 -> (tile<Bxf32>)" in text
    assert "yield %sel_2 : tile<Bxf32>" in text
    assert translate.translate_module(path).pipeline == pipeline.PIPELINE_NAME
    p = _write(tmp_path, """
        @triton.jit
        def _h(a, t):
            if t > 0:
                return a * 2.0
            a = a + 1.0
            return a

        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
            tl.store(x + offs, _h(v, tl.sum(v)), mask=offs < n)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "return inside a block of helper '_h' (control flow)" in e.value.message


def test_shape_from_constexpr_arithmetic_is_a_derived_generic(monkeypatch, tmp_path):
    """unsloth's tl.arange(0, HEAD_DIM // 2): a shape computed from tl.constexprs is a derived const generic
    (frontends/derived.py), no longer a refusal; a module constant's arithmetic folds to a number."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        HALF = 256 // 2

        @triton.jit
        def k(x, HEAD_DIM: tl.constexpr):
            a = tl.load(x + tl.arange(0, HALF))
            b = tl.load(x + tl.arange(0, HEAD_DIM // 2))
            tl.store(x + tl.arange(0, HALF), a)
        """)
    (kern,) = fe_triton.lower_file(p)[0].kernels
    assert [g.name for g in kern.generics if g.origin == "derived"] == ["HEAD_DIM_DIV_2"]


def test_offsets_that_differ_per_runtime_arm_are_tiles(monkeypatch, tmp_path):
    """unsloth's qk_norm_rope: `heads = h * B + tl.arange(0, B)` in one arm, `(h - nq) * B + ...` in the other (it
    was "runtime if: 'heads' is a different compile-time value in each arm"): Triton yields the i32 tensors."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, nq, B: tl.constexpr):
            h = tl.program_id(0)
            if h < nq:
                heads = h * B + tl.arange(0, B)
            else:
                heads = (h - nq) * B + tl.arange(0, B)
            tl.store(y + heads, tl.load(x + heads))
        """)
    text = pipeline.emit_model(p, "frontend")
    assert "%heads = if %m -> (tile<Bxi32>)" in text
    assert "yield %offs_1 : tile<Bxi32>" in text and "yield %offs_3 : tile<Bxi32>" in text
    assert "gather %x, %heads" in text and "scatter %y, %heads" in text


def test_int_constexpr_compared_with_literals_only_has_no_zero_entry(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr, MODE: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            if MODE == 2:
                f = 2.0
            else:
                f = 1.0
            v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
            tl.store(x + offs, v * f, mask=offs < n)
        """)
    mod, _notes = fe_triton.lower_file(p)
    assert [k.name for k in mod.kernels] == ["k__MODE_2", "k__MODE_3"]


def test_number_against_a_tile_with_lanes_or_a_pointer_is_refused(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)
            if tl.sum(v) > 0:
                q = y
                w = v
            else:
                q = 1
                w = 0.0
            tl.store(x + offs, w, mask=offs < n)
        """)
    mod, _notes = fe_triton.lower_file(p, refused := {})
    assert not mod.kernels and [b.code for b in refused["k"]] == [errors.IR_UNSUPPORTED]
    assert "runtime if: 'q' is a different compile-time value in each arm" in refused["k"][0].message
