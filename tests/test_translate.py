"""ctrs translate: rules-only port of the fixtures, proven IR-equivalent to the reference."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ctrs.workflow import check
from ctrs import errors, spec as specmod, translate
from ctrs.verify import ir_rs, irdiff
from ctrs.emitters import render_host

from .conftest import ref_ir

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATA = Path(__file__).resolve().parent / "data"
SUPPORTED = ["vector_add", "row_softmax", "rms_norm", "matmul", "masked_gather", "activations", "bmm", "attention",
             "const_branches", "helpers_multi", "layer_norm_persistent", "rope", "splitk_reduce",
             "rope_f16", "fused_rms_norm", "persistent_matmul"]


def _cases():
    for name in SUPPORTED:
        for s in specmod.load_specs(str(FIXTURES / name / "specs.json")):
            yield pytest.param(name, s, id=f"{name}-{s.name}")


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    out = {}
    base = tmp_path_factory.mktemp("translated")
    for name in SUPPORTED:
        out[name] = translate.translate(FIXTURES / name / "kernel.py", base / name)[0]
    return out


@pytest.mark.parametrize(("fixture", "spec"), list(_cases()))
def test_translate_ir_equivalent(translated, fixture, spec):
    kernel_rs = translated[fixture]
    ref = ref_ir(fixture, spec.name)
    entry = spec.rust.get("entry") or spec.kernel
    mod = translate.translate_module(FIXTURES / fixture / "kernel.py")
    if entry not in {k.name for k in mod.kernels}:  # structural variants: dispatch on the constants
        entry = check.entry_for(spec, render_host.ffi_kernels(mod)).name  # the wrapper's pick
    (gen,) = ir_rs.compile_ports(kernel_rs, [(spec, entry)])
    report = irdiff.diff(ref.text, gen.text, "ref", "gen")
    assert report.exit_code() == 0, report.render()


@pytest.mark.parametrize("fixture", SUPPORTED)
def test_translate_deterministic(tmp_path, fixture):
    a = translate.translate(FIXTURES / fixture / "kernel.py", tmp_path / "a")[0].read_bytes()
    b = translate.translate(FIXTURES / fixture / "kernel.py", tmp_path / "b")[0].read_bytes()
    c = translate.translate(FIXTURES / fixture / "kernel.py", tmp_path / "a")[0].read_bytes()  # rerun in place
    assert a == b == c
    assert "kernel.rs" in {p.name for p in (tmp_path / "a").iterdir()}  # kernel.rs first, then the port crate


def test_translate_generated_shape(translated):
    text = translated["matmul"].read_text()
    assert "pub mod kernel_module" in text
    assert "pub fn matmul<E: ElementType, const TM: i32, const TN: i32, const TK: i32, const CAST_TF32: i32>(" in text
    assert "if CAST_TF32 == 1i32 {" in text
    assert "let mut acc: Tile<f32, { [TM, TN] }> = constant(0.0f32, const_shape![TM, TN]);" in text
    rms = translated["rms_norm"].read_text()
    assert "mulf(" in rms and "ftz::Enabled" in rms and "eps: f32," in rms

CUMPROD = ("cutile 0.3.1 has no product scan; its `scan(operand, dim, reverse, identity, f)` takes the combining "
           "function as a Rust closure (cutile/src/_core.rs), not spelled by the typed path")


def test_translate_no_rule_diagnostic_writes_nothing(tmp_path):
    kernel = DATA / "unsupported_atomic.py"
    out = tmp_path / "out"
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate(kernel, out)
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED == "CTRS-E124"
    assert e.one_line() == (
        f"{kernel}:12:37: error[CTRS-E124]: typed-IR front end: ct.cumprod: {CUMPROD} "
        "(hint: not in the typed IR front end's subset yet (docs/ir.md))")
    assert not out.exists()


def test_translate_no_rule_keeps_existing_output(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "kernel.rs").write_text("// previous\n")
    with pytest.raises(errors.CtrsError):
        translate.translate(DATA / "unsupported_atomic.py", out)
    assert (out / "kernel.rs").read_text() == "// previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temp dir left behind


def test_translate_cli(tmp_path):
    ctrs = [sys.executable, "-m", "ctrs.workflow.cli"]
    ok = subprocess.run([*ctrs, "translate", str(FIXTURES / "vector_add" / "kernel.py"), "-o", str(tmp_path / "va")],
                        capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr
    assert (tmp_path / "va" / "kernel.rs").exists()
    bad = subprocess.run([*ctrs, "translate", str(DATA / "unsupported_atomic.py"), "-o", str(tmp_path / "bad")],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 3
    assert bad.stderr.strip().endswith(
        f"unsupported_atomic.py:12:37: error[CTRS-E124]: typed-IR front end: ct.cumprod: {CUMPROD} "
        "(hint: not in the typed IR front end's subset yet (docs/ir.md))")
    assert not (tmp_path / "bad").exists()


def test_translate_import_and_alias_spellings(tmp_path):
    ref = translate.translate(FIXTURES / "vector_add" / "kernel.py", tmp_path / "a")[0].read_text()
    alt = translate.translate(DATA / "spelling_vector_add.py", tmp_path / "b")[0].read_text()
    # (lines 1-2: the @generated checksum header and the "from <file>" comment)
    body = lambda t: t.split("\n", 2)[2].replace("kernel_module", "M").replace("spelling_vector_add_module", "M")  # noqa: E731
    assert body(ref).replace("lhs + rhs", "X") == body(alt).replace("lhs + rhs", "X")


def test_translate_default_output_dir(tmp_path):
    k = tmp_path / "my_kernel.py"
    k.write_text((FIXTURES / "row_softmax" / "kernel.py").read_text())
    written = translate.translate(k)[0]
    assert written == tmp_path / "my_kernel_rs" / "kernel.rs"
    assert "pub mod my_kernel_module" in written.read_text()
