"""The CPU verification backbone: reference IR, port IR, structural diff, cubins, diagnostics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctrs.verify import irdiff, tileir_tools
from ctrs.spec import load_specs

from .conftest import CORRECT_FIXTURES, FIXTURES, WRONG_PORTS, ir_pair, port_ir, ref_ir

CTRS = [sys.executable, "-m", "ctrs.workflow.cli"]
ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CTRS, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=900)


def test_fixture_set_is_complete():
    assert {"vector_add", "row_softmax", "rms_norm", "matmul"} <= set(CORRECT_FIXTURES)
    assert len({(f, w) for f, w, _, _ in WRONG_PORTS}) >= 6


@pytest.mark.parametrize("fixture,spec", [(f, s.name) for f in CORRECT_FIXTURES
                                          for s in load_specs(str(FIXTURES / f / "specs.json"))])
def test_correct_port_is_equivalent(fixture, spec):
    ref, gen = ir_pair(fixture, spec)
    report = irdiff.diff(ref.text, gen.text, "ref", "port")
    assert report.exit_code() == 0, report.render()
    assert report.equivalent
    assert report.stats["matched"] == report.stats["ref_ops"] == report.stats["gen_ops"] > 3


@pytest.mark.parametrize("fixture,wrong,spec,op", WRONG_PORTS)
def test_wrong_port_is_critical_naming_the_op(fixture, wrong, spec, op):
    ref = ref_ir(fixture, spec)
    gen = port_ir(fixture, spec, FIXTURES / fixture / "wrong" / wrong)
    report = irdiff.diff(ref.text, gen.text, "ref", "port")
    assert report.exit_code() == 1, report.render()
    crit = [f for f in report.findings if f.severity == "critical"]
    assert op in {f.op for f in crit}, report.render()
    # every critical finding names a source line on at least one side
    named = [f for f in crit if f.op == op]
    assert any(f.ref_loc or f.gen_loc for f in named), report.render()


@pytest.mark.parametrize("fixture", CORRECT_FIXTURES)
def test_both_sides_assemble_to_sm90_cubins(fixture):
    spec = load_specs(str(FIXTURES / fixture / "specs.json"))[0].name
    ref, gen = ir_pair(fixture, spec)
    for ir in (ref, gen):
        cubin = tileir_tools.cubin(ir.bytecode, "sm_90")
        assert cubin[:4] == b"\x7fELF"
        e_flags = int.from_bytes(cubin[48:52], "little")
        assert (e_flags >> 8) & 0xFF == 0x5A, hex(e_flags)  # 0x5a = sm_90


def test_disassembler_failure_names_its_cause():
    """A bytecode tileirdisasm cannot read fails with the disassembler's first error (the cause: a version, an op
    the verifier rejects, as the mamba2 port's bf16 mma accumulator was), not only its closing "failed to read"."""
    with pytest.raises(tileir_tools.errors.CtrsError) as e:
        tileir_tools.disasm(tileir_tools.BYTECODE_MAGIC + b"garbage!")
    assert e.value.code == tileir_tools.errors.IR_INPUT
    assert "tileirdisasm failed: error at offset" in e.value.message and "unsupported Tile version" in e.value.message


def test_reference_bytecode_is_deterministic_and_pinned():
    a = ref_ir("vector_add", "f32_n4096").bytecode
    from ctrs.verify import ir_ref  # noqa: PLC0415

    spec = load_specs(str(FIXTURES / "vector_add" / "specs.json"))[0]
    b = ir_ref.compile_reference(FIXTURES / "vector_add" / "kernel.py", spec).bytecode
    assert a == b
    assert a[8:10] == bytes([13, 3])  # bytecode version 13.3 on both sides
    assert port_ir("vector_add", "f32_n4096").bytecode[8:10] == bytes([13, 3])


# --- canonicaliser: normalisations are noise, semantic changes are not --------------------------

BASE = """entry @k(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %a = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %s = assume bounded<0, ?>, %arg1 : tile<i32>
  %tv = make_tensor_view %a, shape = [%s], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pv = make_partition_view %tv : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>
  %t, %tok = load_view_tko weak %pv[%bx] token = %0 : partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>
  %c = constant <f32: 2.000000e+00> : tile<128xf32>
  %m = mulf %t, %c : tile<128xf32>
  %d = subf %m, %t : tile<128xf32>
  %9 = store_view_tko weak %d, %pv[%bx] token = %0 : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
"""


def _variant(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


@pytest.mark.parametrize("name,mutate", [
    ("ssa names", lambda t: t.replace("%m", "%renamed").replace("%t,", "%x,").replace("%t ", "%x ")
     .replace("%t\n", "%x\n").replace(" %t :", " %x :")),
    ("commutative operands", lambda t: _variant(t, "mulf %t, %c", "mulf %c, %t")),
    ("dead constant", lambda t: _variant(t, "  return", "  %dead = constant <i32: 7> : tile<i32>\n  return")),
    ("duplicate constant", lambda t: _variant(_variant(t, "%m = mulf %t, %c", "%c2 = constant <f32: 2.000000e+00> : tile<128xf32>\n  %m = mulf %t, %c2"), "", "")),
    ("extra assume and token", lambda t: _variant(t, "%bx, %by, %bz = get_tile_block_id : tile<i32>",
                                                   "%bx0, %by, %bz = get_tile_block_id : tile<i32>\n  %bx = assume bounded<0, ?>, %bx0 : tile<i32>\n  %1 = make_token : token")),
    ("symbol and empty hints", lambda t: _variant(t, "entry @k(", "entry @other_name(").replace(" optimization_hints=<default = {}>", "")),
])
def test_canonicaliser_ignores_noise(name, mutate):
    report = irdiff.diff(BASE, mutate(BASE))
    assert report.equivalent and report.exit_code() == 0, report.render()


@pytest.mark.parametrize("name,mutate,code,op", [
    ("non-commutative swap", lambda t: _variant(t, "subf %m, %t", "subf %t, %m"), "IRD-DATAFLOW", "subf"),
    ("ftz added to nothing/removed", lambda t: _variant(BASE.replace("mulf %t, %c :", "mulf %t, %c flush_to_zero :"),
                                                         "flush_to_zero ", ""), None, None),
    ("tile shape", lambda t: t.replace("tile=(128)", "tile=(64)").replace("128xf32", "64xf32"), "IRD-LAYOUT-TILE",
     "make_partition_view"),
    ("padding", lambda t: _variant(t, "%pv = make_partition_view %tv : partition_view<tile=(128), tensor",
                                   "%pv = make_partition_view %tv : partition_view<tile=(128), padding_value = neg_inf, tensor"),
     "IRD-LAYOUT-PAD", "make_partition_view"),
    ("missing op", lambda t: _variant(t, "%d = subf %m, %t", "%d = addf %m, %m"), None, "subf"),
])
def test_canonicaliser_keeps_semantics(name, mutate, code, op):
    mutated = mutate(BASE)
    report = irdiff.diff(BASE, mutated)
    if code is None and op is None:  # identity round trip
        assert report.exit_code() == 0
        return
    assert report.exit_code() == 1, report.render()
    crit = [f for f in report.findings if f.severity == "critical"]
    assert op in {f.op for f in crit}, report.render()
    if code:
        assert code in {f.code for f in crit}, report.render()


def test_ftz_dropped_is_critical_and_extra_is_warning():
    ftz = BASE.replace("mulf %t, %c :", "mulf %t, %c flush_to_zero :")
    dropped = irdiff.diff(ftz, BASE)
    assert dropped.exit_code() == 1
    assert any(f.code == "IRD-MATH-FTZ" and f.op == "mulf" and f.severity == "critical" for f in dropped.findings)
    extra = irdiff.diff(BASE, ftz)
    assert extra.exit_code() == 2, extra.render()


def test_json_report_and_exit_codes_via_cli(tmp_path):
    ref, gen = ir_pair("vector_add", "f16_n1000")
    (tmp_path / "r.tileirbc").write_bytes(ref.bytecode)
    (tmp_path / "g.mlir").write_text(gen.text)
    res = run_cli("diff-ir", str(tmp_path / "r.tileirbc"), str(tmp_path / "g.mlir"), "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["verdict"] == "EQUIVALENT" and data["exit_code"] == 0
    wrong = port_ir("vector_add", "f16_n1000", FIXTURES / "vector_add" / "wrong" / "different_tile_shape.rs")
    (tmp_path / "w.mlir").write_text(wrong.text)
    res = run_cli("diff-ir", str(tmp_path / "r.tileirbc"), str(tmp_path / "w.mlir"))
    assert res.returncode == 1
    assert "[CRITICAL] IRD-LAYOUT-TILE make_partition_view" in res.stdout
    assert "kernel.py:11:" in res.stdout  # the reference source line of the load
    assert "different_tile_shape.rs:" in res.stdout  # and the port's own file, not the harness copy


# --- bad inputs: one line, a code, a hint, non-zero exit, no traceback -------------------------


def _one_line_error(res: subprocess.CompletedProcess, code: str) -> str:
    assert res.returncode != 0
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.stderr
    assert f"error[{code}]" in lines[0] and "(hint: " in lines[0], lines[0]
    return lines[0]


def test_unparsable_and_truncated_mlir(tmp_path):
    ref = ref_ir("vector_add", "f32_n4096")
    trunc = tmp_path / "trunc.mlir"
    trunc.write_text(ref.text[: len(ref.text) // 3])
    line = _one_line_error(run_cli("diff-ir", str(trunc), str(trunc)), "CTRS-E030")
    assert "trunc.mlir:" in line
    junk = tmp_path / "junk.mlir"
    junk.write_text("entry @k( this is ] not tile ir {\n")
    _one_line_error(run_cli("diff-ir", str(junk), str(trunc)), "CTRS-E030")
    bc = tmp_path / "cut.tileirbc"
    bc.write_bytes(ref.bytecode[:40])
    _one_line_error(run_cli("diff-ir", str(bc), str(bc)), "CTRS-E031")
    dbg = run_cli("--debug", "diff-ir", str(junk), str(trunc))
    assert dbg.returncode != 0 and "Traceback" in dbg.stderr


def test_unknown_kernel_and_entry_names():
    spec = json.dumps({"kernel": "nope", "args": {}})
    line = _one_line_error(run_cli("ir-ref", "fixtures/vector_add/kernel.py", "--spec", spec), "CTRS-E011")
    assert "vector_add" in line  # lists the known kernels
    spec = load_specs(str(FIXTURES / "vector_add" / "specs.json"))[0].to_json()
    line = _one_line_error(run_cli("ir-rs", "fixtures/vector_add/port.rs", "--spec", json.dumps(spec),
                                   "--entry", "nope"), "CTRS-E022")
    assert "known entries: vector_add" in line


def test_kernel_rs_that_does_not_compile(tmp_path):
    src = (FIXTURES / "vector_add" / "port.rs").read_text()
    bad = tmp_path / "bad.rs"
    bad.write_text(src.replace("let sum: Tile<E, { [TILE] }> = lhs + rhs;", "let sum: Tile<E, { [TILE] }> = lhs + 1;"))
    line = _one_line_error(run_cli("ir-rs", str(bad), "--spec", "fixtures/vector_add/specs.json"), "CTRS-E020")
    lineno = next(i for i, ln in enumerate(bad.read_text().splitlines(), 1) if "lhs + 1" in ln)
    assert f"bad.rs:{lineno}:" in line


def test_missing_toolchain_piece(tmp_path):
    kit = tmp_path / "kit"
    (kit / "bin").mkdir(parents=True)
    env = dict(os.environ, CTRS_CUDA_KIT=str(kit))
    doctor = run_cli("doctor", env=env)
    assert doctor.returncode == 1
    assert "MISSING tileirdisasm" in doctor.stdout and "(fix: " in doctor.stdout
    line = _one_line_error(run_cli("ir-ref", "fixtures/vector_add/kernel.py", "--spec",
                                   "fixtures/vector_add/specs.json", env=env), "CTRS-E001")
    assert "tileirdisasm" in line


def test_doctor_reports_every_component():
    res = run_cli("doctor")
    assert res.returncode == 0, res.stdout + res.stderr
    for name in ("cuda-tile", "tileiras", "tileirdisasm", "ptxas", "libnvvm", "cuda-headers", "libclang", "cargo",
                 "cutile"):
        assert any(ln.startswith("found") and f" {name} " in ln for ln in res.stdout.splitlines()), name
