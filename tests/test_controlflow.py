"""ctrs translate: control flow and specialisation (constant ifs, variants, helpers, --explain)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ctrs.workflow import check
from ctrs import errors, spec as specmod, translate
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.emitters import render_host

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def _equivalent(kernel: Path, specs: Path, out: Path, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """translate -> ir-rs (entry from the spec, else dispatched on its constants) -> diff-ir vs ir-ref."""
    mod = translate.translate_module(kernel)
    (rs, *_) = translate.translate(kernel, out)
    names = {k.name for k in mod.kernels}
    entries = {}
    for s in specmod.load_specs(str(specs)):
        if s.name in skip:
            continue
        entry = s.rust.get("entry") or s.kernel
        if entry not in names:
            entry = check.entry_for(s, render_host.ffi_kernels(mod)).name  # the wrapper's pick
        ref = ir_ref.compile_reference(kernel, s)
        (gen,) = ir_rs.compile_ports(rs, [(s, entry)])
        report = irdiff.diff(ref.text, gen.text, "ref", "gen")
        assert report.exit_code() == 0, f"{s.name} ({entry}):\n{report.render()}"
        entries[s.name] = entry
    return entries


def test_one_armed_if_and_not_const(tmp_path):
    kernel = DATA / "cf_const_if.py"
    _equivalent(kernel, DATA / "cf_const_if.json", tmp_path / "o")
    text = (tmp_path / "o" / "kernel.rs").read_text()
    # (typed IR) HAS_BIAS and RELU: an fma contraction crosses their ifs, so one entry per value (the reference
    # folds the flags first); USE_EXP2 stays a const-generic if; module constants fold at translate time
    assert [ln.split("<")[0].strip() for ln in text.splitlines() if ln.strip().startswith("pub fn")] == [
        "pub fn cf_const_if__HAS_BIAS_0__RELU_0", "pub fn cf_const_if__HAS_BIAS_1__RELU_0",
        "pub fn cf_const_if__HAS_BIAS_0__RELU_1", "pub fn cf_const_if__HAS_BIAS_1__RELU_1"]
    assert "        if USE_EXP2 == 1i32 {\n" in text and "USE_SCALE" not in text
    assert "!" not in text.split("pub fn", 1)[1].replace("!(", "").replace("const_shape!", "")
    # `CONST and runtime` -> the constant folded per entry, the runtime part a Tile IR `if`
    assert "        let cond: bool = row < n;\n" in text and "        if cond {\n" in text


def test_const_ifs_in_loops(tmp_path):
    # the reference folds `if SQUARE: t = t * t` and then contracts `acc + t` into an fma across the two
    # branches: those flags are lowered once per value and merged (still `if FLAG == 1i32`, JIT-folded)
    _equivalent(DATA / "cf_loop_if.py", DATA / "cf_loop_if.json", tmp_path / "a")
    text = (tmp_path / "a" / "kernel.rs").read_text()
    assert "            acc = fma(t, t, acc, rounding::NearestEven, ftz::Disabled);\n" in text
    assert "pub fn cf_loop_if__SQUARE_1__ABS_MAX_0<" in text  # entries per flag value, as the reference folds
    # invariant work inside a constant arm in a loop is hoisted above the loop, as the reference does
    _equivalent(DATA / "cf_loop_arm.py", DATA / "cf_loop_arm.json", tmp_path / "b")
    text = (tmp_path / "b" / "kernel.rs").read_text()
    scaled = text.split("pub fn cf_loop_arm__SCALED_1<")[1]  # (typed IR: one entry per value of the flag)
    assert scaled.index("let scale_tile_r_b: Tile<f32, { [1, TILE] }> = scale_tile_r.broadcast(") \
        < scaled.index("for j in 0i32..n {")


def test_python_number_counter_is_loop_carried(tmp_path):
    # `k = 0` .. `for ..: k += 1` (and a float `scale *= 0.5`): cuTile Python carries them through the loop as
    # i32 / f32 iter_args; folding them to their value before the loop read tile 0 on every iteration
    _equivalent(DATA / "cf_loop_counter.py", DATA / "cf_loop_counter.json", tmp_path / "o")
    text = (tmp_path / "o" / "kernel.rs").read_text()
    assert "        let mut k: i32 = 0i32;\n        let mut scale: f32 = 1.0f32;\n" in text
    assert "load_view_tko(&px, [row, k]," in text and "            k = k_1;\n" in text


def test_conditional_expression_and_aliasing(tmp_path):
    _equivalent(DATA / "cf_ifexp.py", DATA / "cf_ifexp.json", tmp_path / "o")
    text = (tmp_path / "o" / "kernel.rs").read_text()
    # typed IR: `w = t` keeps the pre-if value, the `if` result (re-bound `t`) gets its own `let mut`
    assert "        let mut t_1: Tile<f32, { [1, TILE] }> = t;\n        if SQ == 1i32 {\n            t_1 = exp(t);\n" in text
    assert "        let t_2: Tile<f32, { [1, TILE] }> = v_1 + t;\n" in text
    # `a if FLAG else b` -> an if yielding the value: a `let mut` assigned in both arms (no tile-valued if
    # expression, rule 25)
    assert ("        let mut sel: Tile<f32, { [1, TILE] }> = t;\n        if SQ == 1i32 {\n"
            "            sel = t_1 * t_1;\n        } else {\n            sel = exp(t_1);\n        }\n") in text
    assert "EPS" not in text  # `u if EPS > 1 else ..` folds at translate time


def test_name_bound_in_one_arm_splits_the_flag(tmp_path):
    # typed IR: `bias` bound in one arm only and read after the if -> one entry per HAS_BIAS value
    entries = _equivalent(DATA / "cf_split.py", DATA / "cf_split.json", tmp_path / "o")
    assert set(entries.values()) == {"cf_split__HAS_BIAS_0", "cf_split__HAS_BIAS_1"}
    text = (tmp_path / "o" / "kernel.rs").read_text()
    assert "if HAS_BIAS" not in text and "let t_2: Tile<f32, { [1, TILE] }> = t_1 + bias_r;" in text
    assert ("tests/data/cf_split.py:11: cf_split__HAS_BIAS_1: variant: entry cf_split__HAS_BIAS_1 <- HAS_BIAS=1 "
            "(structural: 'bias' is bound in one arm only and used after the if)"
            ) in translate.explain_lines(Path("tests/data/cf_split.py"))


def test_structural_variant_entries(tmp_path):
    entries = _equivalent(DATA / "cf_variant.py", DATA / "cf_variant.json", tmp_path / "o")
    assert entries == {"rows_square_f16": "cf_variant__ROWS_1", "tiles_f32": "cf_variant__ROWS_0"}
    mod = translate.translate_module(DATA / "cf_variant.py")
    assert [(k.name, k.python_name, k.variant) for k in mod.kernels] == [
        ("cf_variant__ROWS_0", "cf_variant", (("ROWS", 0),)),
        ("cf_variant__ROWS_1", "cf_variant", (("ROWS", 1),)),
    ]
    assert all("ROWS" not in [g.name for g in k.generics] for k in mod.kernels)
    picked = render_host.pick_entry([fk.selector() for fk in render_host.ffi_kernels(mod)], "cf_variant",
                                    {"ROWS": 1, "SQUARE": 0}, {})
    assert picked["name"] == "cf_variant__ROWS_1"
    text = (tmp_path / "o" / "kernel.rs").read_text()
    assert "pub fn cf_variant__ROWS_1<E: ElementType, const TM: i32, const TN: i32, const SQUARE: i32>(" in text


def test_int_flag_variants_keep_other_values_generic(tmp_path):
    entries = _equivalent(DATA / "cf_int_variant.py", DATA / "cf_int_variant.json", tmp_path / "o")
    assert entries == {"r1": "cf_int_variant__R_1", "r4": "cf_int_variant__R_2"}  # R_2: any R other than 1
    text = (tmp_path / "o" / "kernel.rs").read_text()
    assert "pub fn cf_int_variant__R_1<E: ElementType, const TN: i32>(" in text
    assert "pub fn cf_int_variant__R_2<E: ElementType, const R: i32, const TN: i32>(" in text


def test_helpers_inlined_across_kernels(tmp_path):
    # scale_rows takes a ct.Constant[float]: an i32 const generic of its f32 bits, bitcast at entry; the
    # canonicaliser reads the bitcast of that constant as the f32 constant the reference folds in (ircanon)
    _equivalent(DATA / "cf_helpers_float.py", DATA / "cf_helpers_float.json", tmp_path / "o")
    text = (tmp_path / "o" / "kernel.rs").read_text()
    assert "pub fn scale_rows<E: ElementType, const TILE: i32, const alpha: i32>(" in text
    assert "alpha: f32" not in text and "bitcast(alpha_bits)" in text
    assert "_square" not in text and "_sumsq" not in text


def test_int_flag_dispatch():
    # entries of an int flag compared with 0, 1, 2: the largest value's entry stands for any other value
    k = [{"name": f"k__M_{v}", "python_name": "k", "variant": {"M": v}, "array_dtypes": {}} for v in (0, 1, 2)]
    assert [render_host.pick_entry(k, "k", {"M": m}, {})["name"] for m in (0, 1, 2, 7)] == [
        "k__M_0", "k__M_1", "k__M_2", "k__M_2"]


EXPLAIN_VARIANT = """\
tests/data/cf_variant.py:9: cf_variant: generic: E: ElementType <- dtype of every array parameter
tests/data/cf_variant.py:9: cf_variant: generic: const TM: i32 <- ct.Constant[int] TM (value)
tests/data/cf_variant.py:9: cf_variant: generic: const TN: i32 <- ct.Constant[int] TN (value)
tests/data/cf_variant.py:9: cf_variant: generic: const SQUARE: i32 <- ct.Constant[bool] SQUARE (0/1, tested `== 1i32`)
tests/data/cf_variant.py:11: cf_variant: branch: if ROWS -> False, fixed by the variant (ROWS): folded, else arm kept
tests/data/cf_variant.py:15: cf_variant: branch: if SQUARE -> const-generic if SQUARE == 1 (folded by the cuTile JIT); re-binds t in both arms
tests/data/cf_variant.py:11: cf_variant__ROWS_0: variant: entry cf_variant__ROWS_0 <- ROWS=0 (structural: 't' is tile<1xTNx!E> in one arm and tile<TMxTNx!E> in the other)
tests/data/cf_variant.py:11: cf_variant: branch: if ROWS -> True, fixed by the variant (ROWS): folded, then arm kept
tests/data/cf_variant.py:11: cf_variant__ROWS_1: variant: entry cf_variant__ROWS_1 <- ROWS=1 (structural: 't' is tile<1xTNx!E> in one arm and tile<TMxTNx!E> in the other)
"""  # noqa: E501

EXPLAIN_CONST_IF_BRANCHES = """\
tests/data/cf_const_if.py:15: cf_const_if: branch: if HAS_BIAS -> const-generic if HAS_BIAS == 1 (folded by the cuTile JIT); re-binds t in both arms
tests/data/cf_const_if.py:19: cf_const_if: branch: if RELU -> const-generic if RELU == 1 (folded by the cuTile JIT); re-binds t in both arms
tests/data/cf_const_if.py:23: cf_const_if: branch: if USE_EXP2 -> const-generic if USE_EXP2 == 1 (folded by the cuTile JIT); re-binds u in both arms
tests/data/cf_const_if.py:27: cf_const_if: branch: if USE_SCALE -> True, known at translate time: folded, then arm kept
tests/data/cf_const_if.py:29: cf_const_if: branch: if HAS_BIAS -> const-generic if HAS_BIAS == 1 (folded by the cuTile JIT); re-binds u in both arms
tests/data/cf_const_if.py:29: cf_const_if: branch: if row < n -> runtime if; re-binds u in both arms
"""  # noqa: E501

EXPLAIN_HELPERS = """\
tests/data/cf_helpers_float.py:17: sumsq_rows: generic: E: ElementType <- dtype of every array parameter
tests/data/cf_helpers_float.py:17: sumsq_rows: generic: const TILE: i32 <- ct.Constant[int] TILE (value)
tests/data/cf_helpers_float.py:20: sumsq_rows: inline: helper _square() (line 8) inlined
tests/data/cf_helpers_float.py:20: sumsq_rows: inline: helper _sumsq() (line 12) inlined
tests/data/cf_helpers_float.py:25: scale_rows: generic: E: ElementType <- dtype of every array parameter
tests/data/cf_helpers_float.py:25: scale_rows: generic: const TILE: i32 <- ct.Constant[int] TILE (value)
tests/data/cf_helpers_float.py:25: scale_rows: generic: const alpha: i32 <- ct.Constant[float] alpha (its f32 bits, host-computed)
tests/data/cf_helpers_float.py:25: scale_rows: float-bits: ct.Constant[float] alpha -> i32 const generic of its f32 bits (no float const generics on stable Rust), bitcast to f32 at entry
tests/data/cf_helpers_float.py:28: scale_rows: inline: helper _square() (line 8) inlined
"""  # noqa: E501


def _explain_cli(kernel: str, out: Path) -> list[str]:
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "translate", kernel, "-o", str(out), "--explain"],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    return [ln for ln in res.stdout.splitlines() if not ln.startswith(str(out))]


def test_explain_variant_exact(tmp_path):
    assert _explain_cli("tests/data/cf_variant.py", tmp_path / "v") == EXPLAIN_VARIANT.splitlines()


def test_explain_branches_exact(tmp_path):
    lines = _explain_cli("tests/data/cf_const_if.py", tmp_path / "c")
    assert [ln for ln in lines if ": branch: " in ln] == EXPLAIN_CONST_IF_BRANCHES.splitlines()
    assert lines[:2] == [
        "tests/data/cf_const_if.py:11: cf_const_if: generic: E: ElementType <- dtype of every array parameter",
        "tests/data/cf_const_if.py:11: cf_const_if: generic: const TILE: i32 <- ct.Constant[int] TILE (value)"]


def test_explain_helpers_and_demotion_exact():
    assert translate.explain_lines(Path("tests/data/cf_helpers_float.py")) == EXPLAIN_HELPERS.splitlines()


def test_explain_is_deterministic():
    a = translate.explain_lines(Path("fixtures/const_branches/kernel.py"))
    b = translate.explain_lines(Path("fixtures/const_branches/kernel.py"))
    assert a == b and any(": variant: entry const_branches__TRANSPOSE_1 <- TRANSPOSE=1" in ln for ln in a)


def test_grid_stride_loop_renders_step_by(tmp_path):
    (rs, *_) = translate.translate(ROOT / "fixtures" / "layer_norm_persistent" / "kernel.py", tmp_path / "o")
    text = rs.read_text()
    assert "get_num_tile_blocks()" in text
    assert "        for row in (bid..n_rows).step_by(nblocks as usize) {\n" in text


def test_unsupported_condition_diagnostic(tmp_path):
    k = tmp_path / "k.py"
    k.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, y, T: ct.Constant[int]):\n"
                 "    t = ct.load(x, index=(0,), shape=(T,))\n"
                 "    if t:\n        t = t * t\n    ct.store(y, index=(0,), tile=t)\n")
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate(k, tmp_path / "o")
    assert ei.value.code == errors.IR_UNSUPPORTED
    assert ei.value.one_line().startswith(f"{k}:7:8: error[CTRS-E124]: typed-IR front end: a condition other than a "
                                          "compile-time value, a ct.Constant flag or a scalar comparison")


def test_loop_split_on_the_loop_index(tmp_path):
    """A runtime if on the loop index against a loop-invariant bound: two loops, as cuTile Python's loop_split
    (passes/loopsplit.py); ge / le (split at the bound + 1) / a flipped comparison, every spec EQUIVALENT."""
    _equivalent(DATA / "cf_loop_split.py", DATA / "cf_loop_split.json", tmp_path / "o")
    rs = (tmp_path / "o" / "kernel.rs").read_text()
    assert rs.count("mini(") == 3 and rs.count("maxi(") == 3
    assert "acc2_1 = acc2_1;" in rs  # the second loop's arm leaves it unchanged: still carried, as the reference
