"""ctrs specs (CPU launch capture), the pytest recording plugin, reference modules of real kernel files,
duplicate spec names and the exit codes of ctrs check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctrs.workflow import capture, check
from ctrs import errors, spec as specmod
from ctrs.verify import ir_ref, irparse

ROOT = Path(__file__).resolve().parent.parent
CAP = ROOT / "tests" / "data" / "capture"
CTRS = [sys.executable, "-m", "ctrs.workflow.cli"]
try:
    import torch
except ImportError:  # the reference / diff / exit-code tests below need no torch
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="ctrs specs runs host code on CPU torch tensors: "
                                 "pip install -e '.[specs]'")

HOST_CALLS = ["scale(torch.empty(200, 300, dtype=torch.float16))",
              "double_rows(torch.empty(8, 100))",
              "triple_rows(torch.empty(1000, 48))",
              "scale_tuned(torch.empty(128, 128))",
              "scale_tuned_experimental(torch.empty(128, 128))"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CTRS, *args], cwd=ROOT, capture_output=True, text=True, timeout=1800)


def _specs(*calls: str, extra: tuple[str, ...] = (), kernel: Path = CAP / "host_patterns.py") -> list[dict]:
    args = [a for c in calls for a in ("--call", c)]
    res = _run("specs", str(kernel.relative_to(ROOT)), *args, *extra)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def _summary(specs: list[dict]) -> list[tuple]:
    return [(s["name"], tuple(s["grid"]), {k: v for k, v in s["args"].items() if not isinstance(v, dict)},
             s.get("hints", {}), tuple(s["sites"])) for s in specs]


# ----------------------------------------------------------------------------------- ctrs specs on a CPU


@needs_torch
def test_specs_host_code_patterns():
    """Tuple unpacking, next power of two through a module-level helper, min/max/cdiv, the SM count from
    the device properties, and both autotuners (one spec per config, hints kept)."""
    got = _summary(_specs(*HOST_CALLS))
    assert got == [
        # bm, bn = 64, 128; grid cdiv(200, 64) x cdiv(300, 128)
        ("scale2d__f16_200x300_BM64_BN128", ("4", "3", "1"), {"BM": 64, "BN": 128}, {}, ("host_patterns.py:52",)),
        # row_tile(100) = min(1024, max(16, next_power_of_2(100)))
        ("row_double__f32_8x100_TILE128", ("8",), {"TILE": 128}, {}, ("host_patterns.py:60",)),
        # min(num SMs = 132, 1000 rows); row_tile(48) = 64
        ("rows_persistent__f32_1000x48_TILE64", ("132", "1", "1"), {"TILE": 64}, {}, ("host_patterns.py:69",)),
        # exhaustive_search over CONFIGS: one spec per config; the final launch of the "best" one is a repeat
        ("scale2d__f32_128x128_BM32_BN64", ("4", "2", "1"), {"BM": 32, "BN": 64}, {},
         ("host_patterns.py:77", "host_patterns.py:81")),
        ("scale2d__f32_128x128_BM64_BN64", ("2", "2", "1"), {"BM": 64, "BN": 64}, {}, ("host_patterns.py:77",)),
        # cuda.tile_experimental.autotune_launch with hints_fn: the hint is part of the JIT key and the spec
        ("scale2d__f32_128x128_BM32_BN64_occupancy2", ("4", "2", "1"), {"BM": 32, "BN": 64}, {"occupancy": 2},
         ("host_patterns.py:91",)),
        ("scale2d__f32_128x128_BM64_BN64_occupancy2", ("2", "2", "1"), {"BM": 64, "BN": 64}, {"occupancy": 2},
         ("host_patterns.py:91",)),
    ]


@needs_torch
def test_specs_arrays_scalars_and_num_sms():
    (s,) = _specs("triple_rows(torch.empty(1000, 48)[:, :40])", extra=("--num-sms", "100"))
    assert s["grid"] == ["100", "1", "1"]  # --num-sms is what get_device_properties reports
    assert s["args"]["x"] == {"dtype": "float32", "shape": [1000, 40], "strides": [48, 1], "align": 256}
    assert s["args"]["n_rows"] == {"scalar": "int32", "value": 1000}
    (v,) = _specs("double_rows(torch.empty(8, 100, dtype=torch.bfloat16)[:, 3:])")
    assert v["args"]["x"]["align"] == 2 and v["args"]["x"]["strides"] == [100, 1]  # 3 bf16 elements in: 6 bytes


@needs_torch
def test_specs_output_is_deterministic_and_loads(tmp_path):
    out = tmp_path / "specs.json"
    calls = [a for c in HOST_CALLS for a in ("--call", c)]
    first = _run("specs", "tests/data/capture/host_patterns.py", *calls, "-o", str(out))
    assert first.returncode == 0, first.stderr
    data = out.read_bytes()
    again = _run("specs", "tests/data/capture/host_patterns.py", *calls, "-o", str(out))
    assert again.returncode == 0 and out.read_bytes() == data
    loaded = specmod.load_specs(str(out))
    assert len(loaded) == 7 and len({s.name for s in loaded}) == 7
    out.write_text("[]\n")  # a different file there: never overwritten without --force
    clash = _run("specs", "tests/data/capture/host_patterns.py", *calls, "-o", str(out))
    assert clash.returncode == 3 and "error[CTRS-E050]" in clash.stderr and out.read_text() == "[]\n"


@needs_torch
def test_captured_specs_compile_as_reference(tmp_path):
    """Every captured spec is a launch cuTile Python compiles; a launch's hints reach the reference."""
    specs = [specmod.parse_spec(d) for d in _specs(*HOST_CALLS)]
    texts = {s.name: ir_ref.compile_reference(CAP / "host_patterns.py", s).text for s in specs}
    hinted = [n for n, t in texts.items() if "occupancy = 2" in t]
    assert sorted(hinted) == sorted(s.name for s in specs if s.hints)


@needs_torch
@pytest.mark.parametrize("call,code,where,msg", [
    ("scale(torch.empty(7))", "CTRS-E015", "host_patterns.py:51:46:", "raised IndexError"),
    ("row_tile(100)", "CTRS-E016", "host_patterns.py", "launched no kernel"),
    ("scale(", "CTRS-E015", "", "is not a Python expression"),
])
def test_specs_errors(call, code, where, msg):
    res = _run("specs", "tests/data/capture/host_patterns.py", "--call", call)
    assert res.returncode == 3 and res.stdout == ""
    (line,) = res.stderr.strip().splitlines()
    assert f"error[{code}]" in line and msg in line and where in line, line


def test_specs_host_import_missing():
    res = _run("specs", "tests/data/capture/not_installed.py", "--call", "run(torch.empty(8))")
    assert res.returncode == 3
    assert "not_installed.py:7:1: error[CTRS-E015]: importing not_installed.py failed: ModuleNotFoundError" in res.stderr


@needs_torch
def test_specs_package_relative_imports():
    (s,) = _specs("add_one_host(torch.empty(3000))", kernel=CAP / "hostpkg" / "kernels.py")
    assert (s["name"], s["args"]["TILE"], s["grid"], s["sites"]) == ("add_one__f32_3000_TILE1024", 1024, ["3"],
                                                                     ["kernels.py:21"])


@needs_torch
def test_recorder_dedupes_by_jit_key():
    """Launches the JIT compiles once are recorded once: shapes and scalar values are not in the key,
    16-divisibility, dtypes, constants and hints are."""
    sys.path.insert(0, str(CAP))
    try:
        import host_patterns as hp  # noqa: PLC0415
    finally:
        sys.path.remove(str(CAP))
    rec = capture.Recorder()
    with capture.recording(rec):
        for shape in [(200, 300), (216, 300), (256, 512), (256, 1024)]:
            hp.scale(torch.empty(shape, dtype=torch.float16))
        hp.double_rows(torch.empty(8, 100))
        hp.double_rows(torch.empty(9, 100))
    assert rec.seen == 6
    assert [s.name for s in rec.specs()] == ["scale2d__f16_200x300_BM64_BN128", "scale2d__f16_256x512_BM64_BN128",
                                             "row_double__f32_8x100_TILE128"]
    import cuda.tile as ct  # noqa: PLC0415
    from cuda.tile import _cext  # noqa: PLC0415

    assert ct.launch is _cext.launch and hp.exhaustive_search.__module__ == "cuda.tile.tune._tune"  # restored
    assert not torch.cuda.is_available()  # torch.cuda is the CPU build's again


# ------------------------------------------------------------------------------------- pytest plugin


@needs_torch
def test_pytest_plugin_records_a_suite_like_ctrs_specs(tmp_path):
    out = tmp_path / "rec"
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "ctrs.workflow.record", "--ctrs-specs", str(out),
                          "--ctrs-record-mode", "intercept", "-o", "python_files=suite_*.py", "-p", "no:cacheprovider",
                          str(CAP / "suite")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ctrs.workflow.record: 7 launch(es), 5 distinct specialisation(s) in 1 specs file(s)" in res.stdout
    assert json.loads((out / "index.json").read_text()) == {
        "host_patterns.specs.json": os.path.relpath(CAP / "host_patterns.py", out)}
    recorded = json.loads((out / "host_patterns.specs.json").read_text())
    names = [s["name"] for s in recorded]
    assert names == ["scale2d__f16_200x300_BM64_BN128", "scale2d__f16_256x512_BM64_BN128",
                     "row_double__f32_8x100_TILE128", "scale2d__f32_128x128_BM32_BN64",
                     "scale2d__f32_128x128_BM64_BN64"]
    # the same recording path as ctrs specs: identical specs for the same calls (site lines included)
    cli = _specs("scale(torch.ones(200, 300, dtype=torch.float16))", "double_rows(torch.ones(8, 100))",
                 "scale_tuned(torch.ones(128, 128))")
    by_name = {s["name"]: s for s in recorded}
    assert all(by_name[s["name"]] == s for s in cli)


# --------------------------------------------------------------------- reference IR of real kernel files


def _locs(text: str, fname: str) -> set[int]:
    mod = irparse.parse(text, "ref")
    return {line for f, line, _ in mod.locs.values() if Path(f).name == fname}


def test_reference_without_host_imports_keeps_line_numbers():
    """The host code imports a package that is not installed: the reference is built from the kernel and
    what it uses (a helper, a constant computed with math), with the file's own line numbers."""
    s = specmod.parse_spec({"kernel": "absent_scale", "args": {"x": {"dtype": "float32", "shape": [1024]},
                                                               "y": {"dtype": "float32", "shape": [1024]},
                                                               "TILE": 256}})
    text = ir_ref.compile_reference(CAP / "not_installed.py", s).text
    assert {14, 20, 21} <= _locs(text, "not_installed.py")  # `t * SCALE` in _twice, ct.load, ct.store
    assert "constant <f32: 2.000000e+00>" in text  # SCALE = math.sqrt(4.0)


def test_reference_relative_and_own_package_imports():
    s = specmod.parse_spec({"kernel": "add_one", "args": {"x": {"dtype": "float32", "shape": [3000]},
                                                          "y": {"dtype": "float32", "shape": [3000]}, "TILE": 1024}})
    text = ir_ref.compile_reference(CAP / "hostpkg" / "kernels.py", s).text
    assert 14 in _locs(text, "kernels.py") and 10 in _locs(text, "utils.py")  # helper from `from .utils import`
    assert "constant <f32: 1.000000e+00>" in text  # OFFSET from `from hostpkg.utils import` (resolved on disk)


def test_reference_missing_kernel_dependency(tmp_path):
    k = tmp_path / "k.py"
    k.write_text("import cuda.tile as ct\nfrom ctrs_absent_pkg import SCALE\n\n\n@ct.kernel\n"
                 "def k(x, T: ct.Constant[int]):\n    t = ct.load(x, index=(0,), shape=(T,))\n"
                 "    ct.store(x, index=(0,), tile=t * SCALE)\n")
    s = specmod.parse_spec({"kernel": "k", "args": {"x": {"dtype": "float32", "shape": [64]}, "T": 64}})
    with pytest.raises(errors.CtrsError) as ei:
        ir_ref.compile_reference(k, s)
    assert ei.value.code == errors.REF_EXTRACT and ei.value.loc.line == 2
    assert "from ctrs_absent_pkg import SCALE" in ei.value.message


# ------------------------------------------------------------------ duplicate names, check's exit codes


def test_duplicate_spec_names_are_an_error_naming_them(tmp_path):
    a = {"name": "small", "kernel": "k1", "args": {"x": {"dtype": "float32", "shape": [64]}, "T": 64}}
    b = {"name": "small", "kernel": "k2", "args": {"x": {"dtype": "float32", "shape": [64]}, "T": 64}}
    f = tmp_path / "captured.json"
    f.write_text(json.dumps([a, dict(a), b]))
    with pytest.raises(errors.CtrsError) as ei:
        check.gather_specs(tmp_path / "kernel.py", [str(f)], {})
    assert ei.value.code == errors.SPEC_DUPLICATE and f"'small' (k1@{f}, k2@{f})" in ei.value.message
    f.write_text(json.dumps([a, dict(a)]))  # an exact repeat is one spec
    got, _ = check.gather_specs(tmp_path / "kernel.py", [str(f)], {})
    assert [s.name for s, _ in got] == ["small"]


def _row(verdict: str) -> check.Row:
    return check.Row("k", verdict.lower(), "specs.json", verdict)


@pytest.mark.parametrize("verdicts,code,allow", [
    (["EQUIVALENT", "EQUIVALENT"], 0, 0),
    ([], 5, 0),
    (["INCOMPLETE"], 5, 0),
    (["EQUIVALENT", "INCOMPLETE"], 5, 0),
    (["EQUIVALENT", "NO-SHAPES"], 5, 0),
    (["EQUIVALENT", "WARNINGS"], 2, 0),
    (["WARNINGS", "INCOMPLETE"], 5, 0),
    (["EQUIVALENT", "CRITICAL", "INCOMPLETE"], 1, 1),
    (["REF-ERROR"], 1, 1),
])
def test_check_exit_codes(verdicts, code, allow):
    rows = [_row(v) for v in verdicts]
    assert check.exit_code(rows) == code
    assert check.exit_code(rows, allow_incomplete=True) == allow


def test_check_table_shows_first_critical_finding():
    r = check.Row("k", "s", "specs.json", "CRITICAL",
                  findings=["warning: IRD-HINT-LATENCY load_view_tko: latency", "critical: IRD-LOOP-BOUNDS for: step"])
    table = check.render_table([r])
    assert "critical: IRD-LOOP-BOUNDS for: step (+1 more)" in table
    assert "0 equivalent, 1 critical, 0 warnings, 0 unproven -- nothing was proven" in table


def test_check_zero_rows_exits_nonzero(tmp_path):
    k = tmp_path / "lonely.py"
    k.write_text((ROOT / "fixtures" / "vector_add" / "kernel.py").read_text())
    res = _run("check", str(k))
    assert res.returncode == 5, res.stdout + res.stderr
    assert "ctrs check: 0 rows, 0 equivalent, 0 critical, 0 warnings, 0 unproven -- nothing was proven" in res.stdout
    assert _run("check", str(k), "--allow-incomplete").returncode == 0


@needs_torch
def test_describe_names_an_undescribable_parameter():
    sys.path.insert(0, str(CAP))
    try:
        import host_patterns as hp  # noqa: PLC0415
    finally:
        sys.path.remove(str(CAP))
    x = torch.empty(64, 64)
    assert capture.describe(hp.scale2d, (1,), (x, x, "64", 64), True) == "BM"  # a str where a Constant goes
    assert capture.describe(hp.rows_persistent, (1,), (x, x, [64], 64), True) == "n_rows"  # a list scalar


def test_hint_difference_is_critical():
    """A launch's occupancy hint the port does not carry is critical for performance (IRD-HINT-ENTRY)."""
    from ctrs.verify import irdiff  # noqa: PLC0415

    raw = {"kernel": "scale2d", "args": {"x": {"dtype": "float32", "shape": [128, 128]},
                                         "y": {"dtype": "float32", "shape": [128, 128]}, "BM": 32, "BN": 64}}
    plain = ir_ref.compile_reference(CAP / "host_patterns.py", specmod.parse_spec(raw)).text
    hinted = ir_ref.compile_reference(CAP / "host_patterns.py", specmod.parse_spec({**raw, "hints": {"occupancy": 2}})).text
    rep = irdiff.diff(hinted, plain)
    assert rep.verdict() == "CRITICAL"
    assert [(f.code, f.severity) for f in rep.findings] == [("IRD-HINT-ENTRY", "critical")]
    assert "kernel hints differ (performance: occupancy=2 dropped): ref 'occupancy=2' vs port 'none'" in rep.findings[0].message


@needs_torch
def test_check_proves_captured_specs_end_to_end(tmp_path):
    """Host code whose launch sites the static miner cannot complete: captured specs make every row
    EQUIVALENT and cover those sites, so ctrs check exits 0; without them it exits 5 (INCOMPLETE)."""
    out = tmp_path / "hp.json"
    calls = [a for c in HOST_CALLS[:4] for a in ("--call", c)]
    assert _run("specs", "tests/data/capture/host_patterns.py", *calls, "-o", str(out)).returncode == 0
    res = _run("check", "tests/data/capture/host_patterns.py", "--spec", str(out), "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    rows = json.loads(res.stdout)
    assert sorted(r["spec"] for r in rows) == sorted(s.name for s in specmod.load_specs(str(out)))
    assert all(r["verdict"] == "EQUIVALENT" and r["matched"] == r["total"] > 0 for r in rows)
    bare = _run("check", "tests/data/capture/host_patterns.py", "--port", str(tmp_path / "nope"))
    assert bare.returncode == 3  # not a port dir: an error, not a pass
    mined = _run("check", "tests/data/capture/host_patterns.py")
    assert mined.returncode == 5, mined.stdout + mined.stderr
    assert "INCOMPLETE" in mined.stdout and "get specs: ctrs specs tests/data/capture/host_patterns.py --call 'scale(" \
        in mined.stdout


def test_long_spec_names_are_cut_to_the_schema_limit_and_stay_unique():
    """A launch with many constants (attention decode kernels have a dozen) gets a name the spec schema accepts:
    at most 200 characters, the cut kept unique by a hash of the whole name."""
    consts = {f"CONSTANT_NUMBER_{i}": 1000 + i for i in range(12)}
    base = {"kernel": "k", "args": {"x": {"dtype": "float16", "shape": [64, 64]}, **consts}}
    (a,) = specmod.load_specs(json.dumps({**base, "name": "a"}))
    (b,) = specmod.load_specs(json.dumps({**base, "name": "b", "args": {**base["args"], "CONSTANT_NUMBER_11": 7}}))
    na, nb = capture._spec_name(a), capture._spec_name(b)
    assert len(na) == len(nb) == capture.NAME_MAX and na != nb
    assert na.startswith("k__f16_64x64_CONSTANT_NUMBER_01000_CONSTANT_NUMBER_11001_")
    specmod.load_specs(json.dumps([{**base, "name": na}]))  # the schema accepts it
    short = specmod.load_specs(json.dumps({"kernel": "k", "name": "s", "args": {"x": {"dtype": "float32", "shape": [8]},
                                                                                 "N": 8}}))[0]
    assert capture._spec_name(short) == "k__f32_8_N8"  # short names are unchanged
