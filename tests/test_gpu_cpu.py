"""The GPU proof's CPU half: specs → grids and fuzz strategies, tolerances, reports, bundle, host env.

The numerics and timings themselves need the H200 (transpiler/gpu/host.py); those tests skip here.
"""

from __future__ import annotations

import glob
import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings

from ctrs.gpu import bundle, proof as gpu, host as gpu_host
from ctrs import spec as specmod
from ctrs.spec import ArrayArg, load_specs

ROOT = Path(__file__).resolve().parent.parent
ALL_SPECS = [(Path(f).parent.name, s) for f in sorted(glob.glob(str(ROOT / "fixtures" / "*" / "specs.json")))
             for s in load_specs(f)]


@pytest.mark.parametrize("fixture,spec", ALL_SPECS, ids=[f"{f}-{s.name}" for f, s in ALL_SPECS])
def test_every_fixture_spec_has_a_grid_and_fuzz_plan(fixture, spec):
    grid = spec.grid_for()
    assert all(g >= 1 for g in grid) and len(grid) == 3
    assert spec.fuzz.get("vary"), "every fixture spec says which dims a fuzzer may resize"
    for group in gpu.tie_groups(spec):  # tied refs really have equal sizes in the base spec
        assert len({gpu._base_value(spec, r) for r in group}) == 1


def test_grid_follows_resized_shapes():
    spec = next(s for f, s in ALL_SPECS if f == "matmul" and s.name == "f16_256x128x192")
    assert spec.grid_for() == (4, 3, 1)  # cdiv(256, 64), cdiv(192, 64)
    small = gpu.resized(spec, {256: 65, 192: 1, 128: 31})
    assert small.args["A"].shape == (65, 31) and small.args["B"].shape == (31, 1) and small.args["C"].shape == (65, 1)
    assert small.args["A"].strides == (31, 1)
    assert small.grid_for() == (2, 1, 1)
    assert small.name == "f16_256x128x192@31x1x65"  # sizes in base-value order (K=128, N=192, M=256)


MATMUL = next(s for f, s in ALL_SPECS if f == "matmul" and s.name == "f16_256x128x192")


@settings(max_examples=60, deadline=None, database=None)
@given(gpu.spec_strategy(MATMUL))
def test_fuzz_strategy_keeps_tied_dims_consistent(s):
    a, b, c = (s.args[n] for n in ("A", "B", "C"))
    assert isinstance(a, ArrayArg)
    assert a.shape[1] == b.shape[0] and a.shape[0] == c.shape[0] and b.shape[1] == c.shape[1]
    assert all(1 <= d <= MATMUL.fuzz["max"] for d in a.shape + b.shape)
    assert s.grid_for()[0] == -(-a.shape[0] // 64)


def test_size_strategy_reaches_tile_boundaries():
    from hypothesis import find  # noqa: PLC0415

    strat = gpu.size_strategy(1000, 4096, [256])
    assert find(strat, lambda v: v == 257) == 257  # a tail just past one tile
    assert find(strat, lambda v: v == 1) == 1


def test_array_values_permutation_roundtrips_and_is_integer_only():
    """``"values": "permutation"`` asks the GPU run for distinct indices (a kernel scattering rows by them must not
    race); it survives to_json, and a float array asking for it is a coded spec error."""
    raw = {"name": "p", "kernel": "k", "args": {"idx": {"dtype": "int32", "shape": [64], "values": "permutation"},
                                                 "x": {"dtype": "float16", "shape": [64]}}}
    s = specmod.parse_spec(raw)
    assert (s.args["idx"].values, s.args["x"].values) == ("permutation", "random")
    assert s.to_json()["args"]["idx"]["values"] == "permutation" and "values" not in s.to_json()["args"]["x"]
    assert specmod.parse_spec(s.to_json()) == s
    raw["args"]["x"]["values"] = "permutation"
    with pytest.raises(specmod.errors.CtrsError, match="values 'permutation' for a float16 array") as e:
        specmod.parse_spec(raw)
    assert e.value.code == specmod.errors.SPEC_INVALID


def test_array_values_data_roundtrips_and_must_cover_the_extent():
    """``"values": [...]``: the array's memory element by element (inputs that must agree with each other, such as
    the prefix counts a scatter kernel reads); it survives to_json and the schema, and a list of the wrong length or
    a float in an integer array is a coded spec error."""
    from hypothesis import find  # noqa: PLC0415

    from ctrs.spec_schema import validate  # noqa: PLC0415

    raw = {"name": "d", "kernel": "k", "args": {"cnt": {"dtype": "int32", "shape": [2, 3], "strides": [4, 1],
                                                        "values": [0, 1, 2, -1, 3, 4, 5]}}}
    s = specmod.parse_spec(raw)
    assert s.args["cnt"].values == (0, 1, 2, -1, 3, 4, 5)
    assert s.to_json()["args"]["cnt"]["values"] == [0, 1, 2, -1, 3, 4, 5] and specmod.parse_spec(s.to_json()) == s
    validate([s.to_json()], "d.json")  # the schema takes it (raises otherwise)
    fuzzed = specmod.parse_spec({**s.to_json(), "fuzz": {"vary": ["cnt.0"]}})
    assert gpu.tie_groups(fuzzed) and find(gpu.spec_strategy(fuzzed), lambda x: True) == fuzzed  # data: not resized
    for bad, msg in (([0, 1, 2], "3 values for 7 elements"), ([0, 1, 2, 3, 4, 5, 6.5], "6.5 is not an integer")):
        raw["args"]["cnt"]["values"] = bad
        with pytest.raises(specmod.errors.CtrsError, match=msg) as e:
            specmod.parse_spec(raw)
        assert e.value.code == specmod.errors.SPEC_INVALID


def test_tolerances():
    assert gpu.tolerance("int32") is None and gpu.tolerance("bool_") is None
    assert gpu.tolerance("float16") == (1e-3, 1e-3, 0.0)
    assert gpu.tolerance("float32", {"tolerances": {"float32": {"rtol": 0.1, "atol": 0.2}}}) == (0.1, 0.2, 0.0)


RECORDED = {
    "device": "NVIDIA H200",
    "checks": [
        {"port": "vector_add", "spec": "f32_n4096", "ok": True, "detail": "", "max_abs_err": 0.0, "bitwise": True},
        {"port": "vector_add", "spec": "f32_n4096@17", "ok": False, "detail": "z: max abs err 1 over rtol=1e-05, atol=1e-05",
         "max_abs_err": 1.0, "bitwise": False},
    ],
    "timings": [{"port": "vector_add", "spec": "f32_n4096", "ref_median_us": 4.0, "port_median_us": 5.0, "ratio": 0.8,
                 "ref_spread": 0.1, "port_spread": 0.1, "reps": 30},
                {"port": "matmul", "spec": "f16", "ref_median_us": 10.0, "port_median_us": 8.0, "ratio": 1.25,
                 "ref_spread": 0.1, "port_spread": 0.1, "reps": 30}],
    "overhead_us": {"ct.launch": 12.5, "port wrapper": 20.25},
    "geomean_ratio": gpu.geomean([0.8, 1.25]),
}


def test_markdown_report_from_recorded_json():
    md = gpu.render_markdown(RECORDED)
    assert "# ctrs GPU proof (NVIDIA H200)" in md
    assert "| vector_add | 2 | 1 | 1 | 1/2 |" in md
    assert "- vector_add / f32_n4096@17: z: max abs err 1 over rtol=1e-05, atol=1e-05" in md
    assert "| matmul | f16 | 10.00 | 8.00 | 1.250 |" in md
    assert md.count("geomean_ratio=") == 1 and "geomean_ratio=1.0000" in md
    assert "- port wrapper: 20.2" in md


def test_markdown_launch_overhead_per_port():
    data = {**RECORDED, "overhead_us": {
        "vector_add": {"ct.launch": 8.0, "port wrapper": 6.0, "calls": 1000, "spec": "f32_n4096"},
        "matmul": {"ct.launch": 10.0, "port wrapper": 12.5, "calls": 1000, "spec": "f16",
                   "port wrapper, CTRS_FFI_FAST=0": 17.25}}}
    md = gpu.render_markdown(data)
    assert "| vector_add | f32_n4096 | 4.00 | 5.00 | 0.800 | 8.0 | 6.0 |" in md  # the launch overhead columns
    assert "| matmul | f16 | 1000 | 10.00 | 12.50 | 17.25 | 1.250 |" in md  # + the C slow path's column
    assert "| vector_add | f32_n4096 | 1000 | 8.00 | 6.00 | - | 0.750 |" in md  # a port without the fast path
    assert "ports with wrapper <= ct.launch: 1/2" in md


def test_plot_from_recorded_json(tmp_path):
    pytest.importorskip("matplotlib", reason="matplotlib renders the ratio plot (dev extra)")
    gpu.render_plot(RECORDED, tmp_path / "r.png")
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_host_env_drops_the_image_cuda(monkeypatch, tmp_path):
    monkeypatch.setenv("CUDA_HOME", "/usr/local/cuda")
    monkeypatch.setenv("CUDA_PATH", "/usr/local/cuda")
    monkeypatch.setenv("PATH", "/usr/local/cuda/bin:/usr/bin")
    gpu_host.host_env(tmp_path)
    assert "CUDA_HOME" not in os.environ and "CUDA_PATH" not in os.environ
    assert os.environ["PATH"].split(os.pathsep)[:2] == [str(tmp_path / "bin"), "/usr/bin"]
    assert os.environ["CUTILE_TILEIRAS_PATH"] == str(tmp_path / "bin" / "tileiras")
    assert os.environ["CUTILE_BYTECODE_VERSION"] == "13.3"


def test_host_commands_are_two_stage_and_offline():
    setup = bundle.host_setup_command(".gpu/kit")
    assert "tar -xJf .gpu/kit/kit.tar.xz -C /tmp/ctrs-kit" in setup and "--no-index" in setup
    assert "env -u CUDA_HOME -u CUDA_PATH PYTHONPATH=/tmp/ctrs-site python3" in setup
    run = bundle.host_command(".gpu/stage2")
    assert "tar -xJf .gpu/stage2/ports.tar.xz" in run and "stage 1 (kit) is missing" in run
    # the runner travels in stage 2 (runner/ctrs): nothing depends on the host's working directory
    assert "PYTHONPATH=/tmp/ctrs-site:/tmp/ctrs-bundle/runner" in run and "$PWD" not in run
    assert "python3 -m ctrs.gpu.host /tmp/ctrs-bundle --kit /tmp/ctrs-kit --out ${OUT:-ctrs-gpu-report}" in run
    assert set(bundle.KIT_FILES) == {"bin/tileiras", "bin/ptxas", "lib/libnvvm.so.4"}


def test_ports_stage_is_deterministic(tmp_path):
    port = tmp_path / "ports" / "p"
    port.mkdir(parents=True)
    (port / "bundle.json").write_text("{}")
    (port / "lib.so").write_bytes(b"\x7fELF" + bytes(1000))
    a = bundle.pack_ports(tmp_path / "ports", tmp_path / "a").read_bytes()
    os.utime(port / "lib.so", (1, 1))
    b = bundle.pack_ports(tmp_path / "ports", tmp_path / "b").read_bytes()
    assert a == b


def test_ports_stage_holds_only_the_named_ports(tmp_path):
    import lzma  # noqa: PLC0415
    import tarfile  # noqa: PLC0415

    for name in ("old", "new"):  # a port left over from an earlier `ctrs bundle` must not travel again
        (tmp_path / "ports" / name).mkdir(parents=True)
        (tmp_path / "ports" / name / "bundle.json").write_text("{}")
    packed = bundle.pack_ports(tmp_path / "ports", tmp_path / "s", ["new"])
    with lzma.open(packed) as xz, tarfile.open(fileobj=xz) as tar:
        names = tar.getnames()
    assert [n for n in names if n.startswith("ports/")] == ["ports/new/bundle.json"]
    assert sorted(n for n in names if n.startswith("runner/")) == sorted(
        f"runner/ctrs/{m}.py" for m in bundle.RUNNER_MODULES)


def test_runner_in_stage2_imports_standalone(tmp_path):
    """The runner modules stage 2 carries import on their own (no checkout, no ctrs install): python -m
    ctrs.gpu.host runs from the unpacked bundle in any working directory."""
    import lzma  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import tarfile  # noqa: PLC0415

    (tmp_path / "ports").mkdir()
    packed = bundle.pack_ports(tmp_path / "ports", tmp_path / "s")
    with lzma.open(packed) as xz, tarfile.open(fileobj=xz) as tar:
        tar.extractall(tmp_path / "host", filter="data")
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(tmp_path / "host" / "runner")}
    code = "import sys, ctrs.gpu.host as g; print(g.__file__); sys.argv = ['gpu_host', '--help']; g.main()"
    res = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)  # -S: no site-packages, so not the ctrs installed here
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(str(tmp_path / "host" / "runner" / "ctrs" / "gpu" / "host.py"))
    assert "--overhead-calls" in res.stdout


def test_kit_archive_built_once_and_reused_across_output_dirs(tmp_path, monkeypatch):
    import lzma  # noqa: PLC0415
    import tarfile  # noqa: PLC0415

    from ctrs import toolchain  # noqa: PLC0415

    kit = tmp_path / "cu13"
    for rel in bundle.KIT_FILES:
        (kit / rel).parent.mkdir(parents=True, exist_ok=True)
        (kit / rel).write_bytes(rel.encode() * 100)
    monkeypatch.setattr(toolchain, "cuda_kit", lambda: kit)
    monkeypatch.setenv("CTRS_CACHE", str(tmp_path / "cache"))
    a = bundle.build_kit(tmp_path / "a" / "kit")
    cached = list((tmp_path / "cache" / "kit").glob("kit-*.tar.xz"))
    assert len(cached) == 1
    built_at = cached[0].stat().st_mtime_ns
    b = bundle.build_kit(tmp_path / "b" / "kit")  # another output dir: the same archive, not built again
    assert cached[0].stat().st_mtime_ns == built_at and a.read_bytes() == b.read_bytes() == cached[0].read_bytes()
    with lzma.open(b) as xz, tarfile.open(fileobj=xz) as tar:
        assert sorted(tar.getnames()) == sorted(bundle.KIT_FILES)
    (kit / "bin" / "ptxas").write_bytes(b"other ptxas")  # another kit: another archive
    bundle.build_kit(tmp_path / "a" / "kit")
    assert len(list((tmp_path / "cache" / "kit").glob("kit-*.tar.xz"))) == 2


def test_median_calls_interleaves_blocks_and_syncs_untimed():
    order, syncs = [], []
    fast, slow = (lambda: order.append("f")), (lambda: (order.append("s"), time.sleep(0.002)))
    f_us, s_us = gpu_host.median_calls_us([fast, slow], 120, lambda: (syncs.append(len(order)), time.sleep(0.01)))
    assert len(order) == 2 * 150 and order[:50] == ["f"] * 50 and order[50:100] == ["s"] * 50  # blocks of 50
    assert syncs[:2] == [50, 100] and len(syncs) == 6  # after every block, outside the timed calls
    assert s_us > 1500 > f_us  # each call timed alone: the 10 ms syncs are in neither median


def test_display_path_is_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert bundle.display_path(tmp_path / ".gpu" / "kit") == ".gpu/kit"
    assert not bundle.display_path(Path("/elsewhere/b")).startswith("/")


def test_gpu_numerics_on_a_bundle():
    """On the GPU host (CTRS_GPU_BUNDLE=<unpacked stage 2>): every base spec of every port verifies."""
    torch = pytest.importorskip("torch", reason="GPU numerics run on the H200 host (torch + CUDA), not in CI")
    if not torch.cuda.is_available() or not os.environ.get("CTRS_GPU_BUNDLE"):
        pytest.skip("needs a CUDA device and CTRS_GPU_BUNDLE (see README 'GPU proof')")
    for port in gpu_host.port_dirs([os.environ["CTRS_GPU_BUNDLE"]]):
        runner = gpu_host.PortRunner(port)
        for spec in runner.specs:
            check = runner.verify(spec)
            assert check.ok, (port.name, spec.name, check.detail)


def test_recorded_report_roundtrip(tmp_path):
    rep = gpu.Report(device="cpu", checks=[gpu.Check("p", "s", True)],
                     timings=[gpu.Timing("p", "s", [2.0, 2.2, 1.8], [1.0, 1.1, 0.9])])
    pytest.importorskip("matplotlib", reason="matplotlib renders the ratio plot (dev extra)")
    data = gpu.write_reports(rep, tmp_path)
    assert data["geomean_ratio"] == pytest.approx(2.0)
    assert json.loads((tmp_path / "gpu_report.json").read_text())["timings"][0]["ratio"] == pytest.approx(2.0)
    assert "geomean_ratio=2.0000" in (tmp_path / "gpu_report.md").read_text()


def test_gpu_commands_say_why_they_cannot_run_here(tmp_path):
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    try:
        import torch  # noqa: PLC0415, F401

        if torch.cuda.is_available():
            pytest.skip("a CUDA device is present: the GPU path runs instead")
    except ImportError:
        pass
    port = tmp_path / "port"
    port.mkdir()
    (port / "wrapper.py").write_text("")
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "verify", str(port), "--gpu"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert res.stderr.strip().startswith("error[CTRS-E071]: no CUDA device visible (hint: ")


def _package_kernel(root: Path) -> Path:
    """pkg/ops/k.py: a kernel file that uses a helper and a constant of its own package, and host code that
    imports a package the GPU host does not have."""
    (root / "pkg" / "ops").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "ops" / "__init__.py").write_text("")
    (root / "pkg" / "consts.py").write_text("TILE = 64\n")
    (root / "pkg" / "ops" / "util.py").write_text(
        "import cuda.tile as ct\n\n\ndef twice(t):\n    return t + t\n\n\ndef unused_host():\n    import not_there\n")
    k = root / "pkg" / "ops" / "k.py"
    k.write_text(
        "import cuda.tile as ct\nimport not_installed_anywhere\nfrom pkg.consts import TILE\nfrom .util import twice\n\n\n"
        "@ct.kernel\ndef double(x, y):\n    b = ct.bid(0)\n"
        "    ct.store(y, index=(b,), tile=twice(ct.load(x, index=(b,), shape=(TILE,))))\n\n\n"
        "def host(x):\n    return not_installed_anywhere.run(x)\n")
    return k


def test_bundle_carries_a_packaged_kernels_reference(tmp_path):
    """A real kernel file imports its own package: the port carries exactly the files its reference module
    reads (plus the package markers on the way), laid out as in the source tree, and the host's reference
    loader builds the kernel from that copy alone."""
    from ctrs.verify import ir_ref  # noqa: PLC0415

    k = _package_kernel(tmp_path / "src")
    rel = bundle.carry_reference(k, tmp_path / "port" / "ref")
    assert rel == "ref/pkg/ops/k.py"
    carried = sorted(p.relative_to(tmp_path / "port").as_posix() for p in (tmp_path / "port").rglob("*.py"))
    assert carried == ["ref/pkg/__init__.py", "ref/pkg/consts.py", "ref/pkg/ops/__init__.py",
                       "ref/pkg/ops/k.py", "ref/pkg/ops/util.py"]
    mod = ir_ref.reference_module(tmp_path / "port" / rel)
    assert sorted(ir_ref.kernels_in(mod)) == ["double"]
    # a self-contained file travels alone; a Triton file is imported whole by the host (its @triton.jit kernels)
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    assert bundle.carry_reference(fixtures / "vector_add" / "kernel.py", tmp_path / "p2" / "ref") == "ref/kernel.py"
    assert [p.name for p in (tmp_path / "p2" / "ref").iterdir()] == ["kernel.py"]
    assert bundle.carry_reference(fixtures / "triton_vector_add" / "kernel.py", tmp_path / "p3" / "ref") is None
    # a Triton file of a package whose host code imports the package absolutely (TileGym's triton/rms_norm.py:
    # ``from tilegym.backend import register_impl``) is carried: the host has no such package to import it whole
    pkg = tmp_path / "tsrc" / "tpkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "k.py").write_text((fixtures / "triton_vector_add" / "kernel.py").read_text()
                              + "\n\nfrom tpkg.backend import register_impl  # noqa: E402\n")
    assert bundle.carry_reference(pkg / "k.py", tmp_path / "p4" / "ref") == "ref/tpkg/k.py"
    assert sorted(p.relative_to(tmp_path / "p4").as_posix() for p in (tmp_path / "p4").rglob("*.py")) == [
        "ref/tpkg/__init__.py", "ref/tpkg/k.py"]


class _PhaseRunner:
    """What gpu_host.run_all calls on a port runner, recording the order of the work."""

    def __init__(self, name, log, specs=("a",), bench=(), numerics=()):
        self.port, self.log = Path(name), log
        self.specs = [specmod.parse_spec({"name": n, "kernel": "k", "args": {}}) for n in specs]
        self._extra = {r: [specmod.parse_spec({"name": n, "kernel": "k", "args": {}}) for n in ns]
                       for r, ns in (("bench", bench), ("numerics", numerics))}

    def regressions(self):
        return []

    def extra(self, role):
        return self._extra[role]

    def verify(self, s):
        self.log.append(("verify", self.port.name, s.name))
        return gpu.Check(self.port.name, s.name, True, bitwise=True)

    def bench(self, s, reps, flush_l2=False):
        self.log.append(("bench" + (" cold" if flush_l2 else ""), self.port.name, s.name))
        return gpu.Timing(self.port.name, s.name, [2.0], [1.0])

    def overhead(self, s, calls):  # ct.launch, wrapper, wrapper with the C fast path off, wrapper with the
        # exchange path off (None: a port without)
        return 10.0, 9.0, (12.0 if self.port.name == "p1" else None), (11.0 if self.port.name == "p1" else None)


def test_gpu_host_runs_specs_then_benchmark_sizes_then_numerics(tmp_path):
    """Every port's proven specs come before any benchmark size, and those before numerics-only shapes; past the
    budget nothing new starts (the reports still cover what ran)."""
    import argparse  # noqa: PLC0415
    import math  # noqa: PLC0415

    args = argparse.Namespace(fuzz=0, reps=3, overhead_calls=10)
    log: list = []
    runners = [_PhaseRunner("p1", log, bench=("b1",), numerics=("n1@test", "n1@5")),
               _PhaseRunner("p2", log, numerics=("n2@3",))]
    report = gpu.Report(device="cpu")
    gpu_host.run_all(runners, report, args, math.inf, tmp_path / "out")
    assert log == [("verify", "p1", "a"), ("bench", "p1", "a"), ("verify", "p2", "a"), ("bench", "p2", "a"),
                   ("verify", "p1", "b1"), ("bench", "p1", "b1"),
                   ("verify", "p1", "n1@test"), ("verify", "p2", "n2@3"), ("verify", "p1", "n1@5")]  # round robin
    assert sorted(report.overhead) == ["p1", "p2"] and (tmp_path / "out" / "gpu_report.json").exists()
    assert report.overhead["p1"]["port wrapper, CTRS_FFI_FAST=0"] == 12.0
    assert "port wrapper, CTRS_FFI_FAST=0" not in report.overhead["p2"]
    assert report.overhead["p1"]["port wrapper, CTRS_FFI_XC=0"] == 11.0
    assert "port wrapper, CTRS_FFI_XC=0" not in report.overhead["p2"]
    log.clear()
    gpu_host.run_all(runners, gpu.Report(device="cpu"), args, 0.0, tmp_path / "out2")  # budget already spent
    assert log == []
    args.flush_l2 = True  # --flush-l2: every timed call with a cold L2
    gpu_host.run_all(runners[1:], gpu.Report(device="cpu"), args, math.inf, tmp_path / "out3")
    assert log == [("verify", "p2", "a"), ("bench cold", "p2", "a"), ("verify", "p2", "n2@3")]


def test_gpu_host_phases_and_shards(tmp_path):
    """--phases leaves out the proven specs of ports measured before; --shard I/N splits the ports by their work,
    every port in exactly one shard, the same split every time."""
    import argparse  # noqa: PLC0415
    import math  # noqa: PLC0415

    args = argparse.Namespace(fuzz=0, reps=3, overhead_calls=10, phases=["bench", "numerics"])
    log: list = []
    runners = [_PhaseRunner("p1", log, bench=("b1",), numerics=("n1@5",)), _PhaseRunner("p2", log)]
    report = gpu.Report(device="cpu")
    gpu_host.run_all(runners, report, args, math.inf, tmp_path / "out")
    assert log == [("verify", "p1", "b1"), ("bench", "p1", "b1"), ("verify", "p1", "n1@5")] and not report.overhead
    # --skip-done: what an earlier call's report holds is not run again (a bench size only when it was timed too)
    (tmp_path / "r.json").write_text(json.dumps({"checks": [{"port": "p1", "spec": "a"}, {"port": "p1", "spec": "b1"},
                                                            {"port": "p1", "spec": "n1@5"}],
                                                 "timings": [{"port": "p1", "spec": "a"}], "overhead_us": {"p1": {}}}))
    log.clear()
    args = argparse.Namespace(fuzz=0, reps=3, overhead_calls=10, done=gpu_host.Done([str(tmp_path / "r.json")]))
    report = gpu.Report(device="cpu")
    gpu_host.run_all(runners, report, args, math.inf, tmp_path / "out3")
    assert log == [("verify", "p2", "a"), ("bench", "p2", "a"), ("verify", "p1", "b1"), ("bench", "p1", "b1")]
    assert sorted(report.overhead) == ["p2"]
    ports = []
    for name, counts in (("big", {"specs": 2, "bench": 3}), ("mid", {"numerics": 9}), ("small", {"numerics": 1}),
                         ("tiny", {})):  # work 3 * 5 = 15, 3 + 9 = 12, 3 + 1 = 4, 3
        port = tmp_path / "ports" / name
        port.mkdir(parents=True)
        for role, k in {"specs": 1, **counts}.items():
            (port / f"{role}.json").write_text(json.dumps([{"name": f"{role}{i}", "kernel": "k", "args": {}}
                                                           for i in range(k)]))
        ports.append(port)
    shards = [[p.name for p in gpu_host.shard(ports, i, 2)] for i in range(2)]
    assert shards == [["big", "tiny"], ["mid", "small"]]  # 15 + 3 against 12 + 4: largest first, to the lighter


def test_gpu_host_refuses_a_shard_out_of_range(tmp_path, capsys):
    assert gpu_host.main([str(tmp_path), "--out", str(tmp_path / "o"), "--shard", "2/2"]) == 2
    assert capsys.readouterr().err == ("error[CTRS-E072]: --shard 2/2: expected I/N with 0 <= I < N "
                                       "(hint: --shard 0/4)\n")


def test_tree_bytes_counts_what_a_device_call_sends(tmp_path, tmp_path_factory):
    """Tracked and untracked files travel with every call, ignored ones do not (they count against 64 MiB)."""
    import subprocess  # noqa: PLC0415

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("/big/\n")  # 6 bytes
    (tmp_path / "kept.txt").write_text("x" * 100)
    (tmp_path / "big").mkdir()
    (tmp_path / "big" / "kit.tar.xz").write_bytes(b"\0" * 5000)
    subprocess.run(["git", "-C", str(tmp_path), "add", ".gitignore"], check=True)
    assert bundle.tree_bytes(tmp_path) == 106
    plain = tmp_path_factory.mktemp("plain")  # no checkout: nothing travels besides what is carried
    (plain / "f").write_text("abc")
    assert bundle.tree_bytes(plain) == 0


def test_max_ulp_orders_bit_patterns_like_values():
    torch = pytest.importorskip("torch")
    one = torch.tensor([1.0, 2.0, -3.0], dtype=torch.float16)
    bumped = one.view(torch.int16).clone()
    bumped[0] += 1  # 1.0 -> next f16 up
    bumped[2] += 3  # -3.0 -> three steps further from zero
    assert gpu.max_ulp(one, bumped.view(torch.float16)) == 3
    zeros = torch.tensor([0.0, -0.0], dtype=torch.float32)
    assert gpu.max_ulp(zeros, zeros.flip(0)) == 0  # -0.0 and +0.0 coincide
    tiny = torch.tensor([1], dtype=torch.int32).view(torch.float32)  # the smallest positive subnormal
    assert gpu.max_ulp(tiny, -tiny) == 2
    bf = torch.tensor([1.0, float("nan")], dtype=torch.bfloat16)
    assert gpu.max_ulp(bf, torch.tensor([1.0078125, 5.0], dtype=torch.bfloat16)) == 1  # NaN elements left out
    assert gpu.max_ulp(torch.tensor([1, 2]), torch.tensor([1, 9])) == 0  # integers: compared bitwise, not in ulp
    # compare() reports it next to the error: one f16 ulp at 2.0 is within the f16 tolerance
    spec = load_specs('{"kernel": "k", "args": {"y": {"dtype": "float16", "shape": [3]}}}')[0]
    ok, detail, err, bitwise, ulp = gpu.compare(spec, {"y": one}, {"y": bumped.view(torch.float16)}, None)
    assert (ok, bitwise, ulp) == (False, False, 3) and "y: max abs err" in detail


def test_compare_reports_a_non_finite_mismatch_with_no_finite_pair():
    """An output where no element is finite on both sides (a NaN row against finite values) is a failed check
    with the counts, not a crash of the report (torch's max() of an empty selection raises)."""
    torch = pytest.importorskip("torch")
    spec = load_specs('{"kernel": "k", "args": {"y": {"dtype": "float16", "shape": [3]}}}')[0]
    nan = float("nan")
    ref = torch.tensor([nan, nan, nan], dtype=torch.float16)
    ok, detail, err, bitwise, _ = gpu.compare(spec, {"y": ref}, {"y": torch.tensor([nan, 1.0, nan], dtype=torch.float16)}, None)
    assert (ok, bitwise, err) == (False, False, 0.0)
    assert detail == ("y: max abs err 0 over rtol=0.001, atol=0.001 "
                      "(non-finite mismatch: 3 in the reference, 2 in the port, of 3)")
