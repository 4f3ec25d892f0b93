"""The port crate `ctrs translate` emits: builds with its C symbols, FFI return codes (no GPU needed),
cffi wrapper (cdef, validation, dispatch, lazy build), deterministic analysis.json with mined launch-site
specialisations, `ctrs check`, `ctrs translate --stats` and directory mode."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import cffi
import pytest

from ctrs.emitters import render_host
from ctrs.workflow import check
from ctrs.frontends import launch_sites
from ctrs import translate

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
DATA = Path(__file__).resolve().parent / "data"
LAUNCH_KERNEL = DATA / "launch_code" / "kernel.py"
CTRS = [sys.executable, "-m", "ctrs.workflow.cli"]


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*CTRS, *args], cwd=cwd, capture_output=True, text=True, timeout=1800)


def _import(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """vector_add and matmul translated and built once: name -> (port dir, cdylib)."""
    base = tmp_path_factory.mktemp("ports")
    out = {}
    for name in ("vector_add", "matmul"):
        port = base / name
        translate.translate(FIXTURES / name / "kernel.py", port)
        lib = check.build_crate(port)
        # the shared target dir is reused by later builds of same-named crates: keep a private copy
        keep = base / f"lib{name}.so"
        shutil.copy2(lib, keep)
        out[name] = (port, keep)
    return out


# ---------------------------------------------------------------------------------------------- crate


def test_port_dir_layout(built):
    port, _ = built["vector_add"]
    names = sorted(p.name for p in port.iterdir() if p.is_file())
    for n in ("Cargo.toml", "Cargo.lock", "analysis.json", "ffi.rs", "kernel.rs", "lib.rs", "wrapper.py"):
        assert n in names
    toml = (port / "Cargo.toml").read_text()
    assert 'name = "vector_add"' in toml  # generic stem "kernel" -> the fixture folder
    assert 'crate-type = ["cdylib", "rlib"]' in toml
    # the default target profile (cutile 0.5.0): every crate of the family pinned exactly
    assert all(f'{c} = "=0.5.0"' in toml for c in ("cutile", "cutile-compiler", "cutile-ir", "cutile-macro",
                                                  "cuda-core", "cuda-async"))
    lib_rs = (port / "lib.rs").read_text()
    assert 'include!("kernel.rs");' in lib_rs and 'include!("ffi.rs");' in lib_rs
    # the lock pins the same versions the compile harness resolved (shared compiled deps)
    assert '[[package]]\nname = "cutile"\nversion = "0.5.0"' in (port / "Cargo.lock").read_text()


@pytest.mark.parametrize(("name", "symbols"), [("vector_add", ["ctrs_vector_add", "ctrs_xc_vector_add"]),
                                              ("matmul", ["ctrs_matmul", "ctrs_xc_matmul"])])
def test_crate_builds_and_exports_symbols(built, name, symbols):
    _, lib = built[name]
    nm = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True).stdout
    exported = set(re.findall(r" T (ctrs_\w+)$", nm, re.M))
    # one entry per kernel and its exchange entry, the exchange reader and its check, the launch-hint setter and
    # the fast-path switch
    assert exported == {*symbols, "ctrs_xc_descs", "ctrs_xc_usable", "ctrs_set_launch_hints", "ctrs_set_fast_path"}


def test_ffi_signature_and_generics_order(built):
    ffi_rs = (built["matmul"][0] / "ffi.rs").read_text()
    assert "pub unsafe extern \"C\" fn ctrs_matmul(" in ffi_rs
    sig = ffi_rs[ffi_rs.index("fn ctrs_matmul("):ffi_rs.index(") -> i32 {", ffi_rs.index("fn ctrs_matmul("))]
    params = re.findall(r"(\w+): ([^,]+),", sig)
    assert params == [("p_A", "*const TensorDesc"), ("p_B", "*const TensorDesc"), ("p_C", "*const TensorDesc"),
                      ("TM", "i32"), ("TN", "i32"), ("TK", "i32"), ("grid_x", "i32"), ("grid_y", "i32"),
                      ("grid_z", "i32"), ("device_id", "i32"), ("raw_stream", "u64")]
    # generics in the entry's declaration order: E, TM, TN, TK, then the host-computed CAST_TF32 flag
    assert ("vec![dtype_name(d_A.dtype).to_string(), TM.to_string(), TN.to_string(), TK.to_string(), "
            "((d_A.dtype == 0) as i32).to_string()]") in ffi_rs
    for needle in ("Tensor::<T>::borrow_raw_parts", "Stream::borrow_raw", ".async_on(stream)", "catch_unwind",
                   ".grid(grid)", "#[no_mangle]"):
        assert needle in ffi_rs
    assert "api::zeros" not in ffi_rs and "malloc" not in ffi_rs  # never allocates device memory
    # the caller's stream is wrapped once per thread and raw handle, never per launch: dropping a borrowed
    # cutile 0.5.0 Stream queries the driver and records an event (docs/porting.md §11, "Launch path")
    assert ffi_rs.count("Stream::borrow_raw(") == 1
    cached = ffi_rs[ffi_rs.index("fn borrowed_stream("):]
    assert cached.index("STREAM.with(") < cached.index("Stream::borrow_raw(") < cached.index("*slot = Some(")
    assert "borrowed_stream(device_id, raw_stream, dev)" in ffi_rs[ffi_rs.index("fn device_and_stream("):]


def test_ffi_return_codes_without_gpu(built):
    """Real calls into the built cdylib: argument checks and device init fail cleanly, never crash."""
    _, lib_path = built["vector_add"]
    ffi = cffi.FFI()
    w = _import(built["vector_add"][0] / "wrapper.py", "va_wrapper_rc")  # only its CDEF is used here
    ffi.cdef(w.CDEF)
    lib = ffi.dlopen(str(lib_path))
    d = ffi.new("TensorDesc *")
    d.ptr, d.ndim, d.dtype = 1 << 20, 1, 0
    d.shape[0], d.strides[0] = 4096, 1
    call = lib.ctrs_vector_add
    assert call(ffi.NULL, d, d, 1024, 4, 1, 1, 0, 0) == -5  # null descriptor
    null_ptr = ffi.new("TensorDesc *", d[0])
    null_ptr.ptr = 0
    assert call(null_ptr, d, d, 1024, 4, 1, 1, 0, 0) == -5  # null device pointer
    rank2 = ffi.new("TensorDesc *", d[0])
    rank2.ndim = 2
    assert call(rank2, d, d, 1024, 4, 1, 1, 0, 0) == -6  # wrong rank
    assert call(d, d, d, 1024, 0, 1, 1, 0, 0) == -6  # empty grid
    f16 = ffi.new("TensorDesc *", d[0])
    f16.dtype = 1
    assert call(d, f16, d, 1024, 4, 1, 1, 0, 0) == -6  # arrays of one generic disagree
    fp8 = ffi.new("TensorDesc *", d[0])
    fp8.dtype = 7
    assert call(fp8, fp8, fp8, 1024, 4, 1, 1, 0, 0) == -2  # unsupported dtype
    assert call(d, d, d, 1024, 4, 1, 1, -1, 0) == -4  # bad device id
    if not Path("/dev/nvidia0").exists():
        assert call(d, d, d, 1024, 4, 1, 1, 0, 0) == -4  # no driver here: device init fails, no panic
        # the C fast path (cutile 0.5.0 ports) only takes signatures that launched before: none did here
        assert lib.ctrs_set_fast_path(1) == 1
        assert call(d, d, d, 1024, 4, 1, 1, 0, 0) == -4
        assert lib.ctrs_set_fast_path(0) == 1 and call(d, d, d, 1024, 4, 1, 1, 0, 0) == -4
        lib.ctrs_set_fast_path(1)


# ---------------------------------------------------------------------------------------------- wrapper


def _cdef_protos(cdef: str) -> dict[str, list[str]]:
    return {m.group(1): [p.strip().rsplit(" ", 1)[0].replace(" *", "*") for p in m.group(2).split(",")]
            for m in re.finditer(r"int32_t (ctrs_\w+)\(([^)]*)\);", cdef)}


def _rust_protos(ffi_rs: str) -> dict[str, list[str]]:
    out = {}
    for m in re.finditer(r'extern "C" fn (ctrs_\w+)\(([^)]*)\) -> i32', ffi_rs):
        out[m.group(1)] = [t.strip() for t in re.findall(r":\s*([^,]+),", m.group(2))]
    return out


C_OF_RUST = {"*const TensorDesc": "const TensorDesc*", "i32": "int32_t", "u64": "uint64_t", "f32": "float",
             "i64": "int64_t", "f64": "double", "*mut TensorDesc": "TensorDesc*", "*mut i32": "int32_t*",
             "*mut u64": "uint64_t*"}


@pytest.mark.parametrize("kernel", [FIXTURES / "matmul" / "kernel.py", FIXTURES / "rms_norm" / "kernel.py",
                                    DATA / "cf_variant.py", FIXTURES / "masked_gather" / "kernel.py"])
def test_cdef_mirrors_ffi_rs(kernel):
    files = translate.translate_source(kernel)
    w_text, ffi_rs = files["wrapper.py"], files["ffi.rs"]
    cdef = re.search(r'CDEF = """\n(.*?)"""', w_text, re.S).group(1)
    cffi.FFI().cdef(cdef)  # cffi accepts it
    c, r = _cdef_protos(cdef), _rust_protos(ffi_rs)
    assert c and c.keys() == r.keys()
    for sym in c:
        assert c[sym] == [C_OF_RUST[t] for t in r[sym]], sym
    assert "int32_t ptr" not in cdef and "uint64_t ptr;" in cdef and "int64_t shape[6];" in cdef


def test_wrapper_imports_without_torch(built):
    port = built["vector_add"][0]
    code = (f"import sys; sys.path.insert(0, {str(port)!r}); import wrapper; "
            "assert 'torch' not in sys.modules; print(sorted(wrapper.__all__))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "vector_add" in res.stdout


class FakeDevice:
    def __init__(self, kind: str = "cuda", index: int | None = 0):
        self.type, self.index = kind, index

    def __eq__(self, other):
        return (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __repr__(self):
        return f"{self.type}:{self.index}"


class FakeDtype:
    def __init__(self, name: str):
        self.name = name

    def __str__(self):
        return f"torch.{self.name}"

    def __eq__(self, other):  # torch dtypes are singletons: equal by name here
        return isinstance(other, FakeDtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


class FakeTensor:
    """Just what the wrapper reads from a torch.Tensor: dtype, device, shape, stride(), data_ptr()."""

    def __init__(self, shape, dtype="float32", device=None, strides=None, ptr=1 << 24):
        self.shape = tuple(shape)
        self.dtype = FakeDtype(dtype)
        self.device = device or FakeDevice()
        acc, st = 1, []
        for d in reversed(self.shape):
            st.append(acc)
            acc *= d
        self._strides = tuple(strides) if strides else tuple(reversed(st))
        self._ptr = ptr

    def stride(self):
        return self._strides

    def get_device(self):  # torch: the CUDA index, -1 on the CPU
        return self.device.index if self.device.type == "cuda" else -1

    def data_ptr(self):
        return self._ptr


class FakeLib:
    def __init__(self, rc: int = 0):
        self.calls, self.rc = [], rc

    def __getattr__(self, name):
        def fn(*args):
            self.calls.append((name, args))
            return self.rc
        return fn


@pytest.fixture
def va_wrapper(built, monkeypatch):
    w = _import(built["vector_add"][0] / "wrapper.py", "va_wrapper_fake")
    lib = FakeLib()
    monkeypatch.setattr(w, "load", lambda: lib)
    monkeypatch.setattr(w, "raw_stream_fn", lambda: lambda index: 0xABC)
    return w, lib


def test_wrapper_marshals_descriptors(va_wrapper):
    w, lib = va_wrapper
    x, y, z = (FakeTensor([4096], "float16", ptr=p) for p in (1 << 20, 2 << 20, 3 << 20))
    w.vector_add(x, y, z, TILE=1024, grid=(4,))
    (name, args), = lib.calls
    assert name == "ctrs_vector_add"
    dx, dy, dz, tile, gx, gy, gz, dev, stream = args
    assert (dx.ptr, dx.ndim, dx.shape[0], dx.strides[0], dx.dtype) == (1 << 20, 1, 4096, 1, 1)
    assert (dz.ptr, dz.dtype) == (3 << 20, 1)
    assert (tile, gx, gy, gz, dev, stream) == (1024, 4, 1, 1, 0, 0xABC)
    strided = FakeTensor([2048], "float16", strides=[2])  # every other element of a larger buffer
    w.vector_add(strided, y, z, TILE=1024, grid=2)
    dx = lib.calls[1][1][0]
    assert (dx.shape[0], dx.strides[0]) == (2048, 2) and lib.calls[1][1][4:7] == (2, 1, 1)


def test_wrapper_caches_validated_signature(va_wrapper, monkeypatch):
    """A repeated call signature skips validation and the library lookup: only the data pointers and the stream
    are read again; another signature is validated afresh (and refused before anything is called)."""
    w, lib = va_wrapper
    loads = []
    monkeypatch.setattr(w, "load", lambda: loads.append(1) or lib)
    streams = iter(range(100, 200))
    monkeypatch.setattr(w, "raw_stream_fn", lambda: lambda index: next(streams))
    for p in (1, 2, 3):
        x, y, z = (FakeTensor([512], ptr=(p << 20) + k) for k in (0, 1, 2))
        w.vector_add(x, y, z, TILE=256, grid=[2])
        (dx, dy, dz, *rest, stream) = lib.calls[-1][1]
        assert (dx.ptr, dy.ptr, dz.ptr, stream) == ((p << 20), (p << 20) + 1, (p << 20) + 2, 99 + p)
    assert len(loads) == 1 and len(lib.calls) == 3
    with pytest.raises(TypeError, match="dtype float64"):
        w.vector_add(FakeTensor([512], "float64"), y, z, TILE=256, grid=[2])
    w.vector_add(FakeTensor([1024]), FakeTensor([1024]), FakeTensor([1024]), TILE=256, grid=[4])
    assert len(loads) == 2 and lib.calls[-1][1][4] == 4


@pytest.mark.parametrize(("change", "exc", "msg"), [
    (dict(x=FakeTensor([4096], "float64")), TypeError, "dtype float64"),
    (dict(x=FakeTensor([64, 64])), ValueError, "rank 1"),
    (dict(x=FakeTensor([4096], device=FakeDevice("cpu", None))), ValueError, "CUDA tensor"),
    (dict(y=FakeTensor([4096], device=FakeDevice("cuda", 1))), ValueError, "other arrays"),
    (dict(y=FakeTensor([4096], "float16")), TypeError, "share one dtype"),
    (dict(x=FakeTensor([4096], ptr=0)), ValueError, "null data pointer"),
    (dict(x=FakeTensor([4096], strides=[2**31])), ValueError, "int32"),
    (dict(y=FakeTensor([4096], strides=[0])), ValueError, "zero stride"),
    (dict(TILE=2**40), ValueError, "int32"),
    (dict(TILE=1.5), TypeError, "int"),
    (dict(grid=(0,)), ValueError, ">= 1"),
    (dict(grid=(1, 1, 1, 1)), ValueError, "1 to 3"),
])
def test_wrapper_validates_before_calling(va_wrapper, change, exc, msg):
    w, lib = va_wrapper
    args = dict(x=FakeTensor([4096]), y=FakeTensor([4096]), z=FakeTensor([4096]), TILE=1024, grid=(4,))
    args.update(change)
    with pytest.raises(exc, match=msg):
        w.vector_add(args.pop("x"), args.pop("y"), args.pop("z"), **args)
    assert lib.calls == []  # nothing reached the library


def test_wrapper_passes_an_empty_array_as_ct_launch_does(va_wrapper):
    """An array with an extent 0 is launched, null data pointer and all (a variant may never read it: TileGym's fused
    MoE passes a (0,) scale array); a null pointer of a non-empty array stays an error (the case above)."""
    w, lib = va_wrapper
    w.vector_add(FakeTensor([0], ptr=0), FakeTensor([0], ptr=0), FakeTensor([0], ptr=0), TILE=1024, grid=(1,))
    (dx, dy, dz, *_rest) = lib.calls[-1][1]
    assert (dx.ptr, dx.shape[0], dz.ptr) == (0, 0, 0)


def test_wrapper_passes_an_empty_placeholder_at_the_entrys_rank(va_wrapper):
    """An empty array of another rank (TileGym's (0,) placeholder for an optional array a variant never reads) is
    passed at the entry's rank, every extent 0; a non-empty array of another rank stays an error (above)."""
    w, lib = va_wrapper
    w.vector_add(FakeTensor([0, 3], ptr=0), FakeTensor([8]), FakeTensor([8]), TILE=8, grid=(1,))
    (dx, *_rest) = lib.calls[-1][1]
    assert (dx.ndim, dx.shape[0], dx.strides[0], dx.ptr) == (1, 0, 1, 0)
    # of another dtype too (an int8 placeholder beside float arrays of one generic): passed in the entry's dtype
    w.vector_add(FakeTensor([0], "int8", ptr=0), FakeTensor([8]), FakeTensor([8]), TILE=8, grid=(1,))
    (dx, dy, *_rest) = lib.calls[-1][1]
    assert (dx.ndim, dx.shape[0], dx.dtype) == (1, 0, dy.dtype)


@pytest.mark.parametrize(("rc", "exc"), [(-2, "UnsupportedDtype"), (-3, "LaunchFailed"), (-4, "DeviceInitFailed"),
                                         (-5, "InvalidArgs"), (-6, "InvalidArgs"), (-7, "InvalidArgs"),
                                         (-9, "PortError")])
def test_wrapper_maps_return_codes(va_wrapper, rc, exc):
    w, lib = va_wrapper
    lib.rc = rc
    with pytest.raises(getattr(w, exc)) as info:
        w.vector_add(FakeTensor([8]), FakeTensor([8]), FakeTensor([8]), TILE=8, grid=1)
    assert info.value.code == rc


def test_wrapper_dispatches_structural_variants(tmp_path, monkeypatch):
    port = tmp_path / "cfv"
    translate.translate(DATA / "cf_variant.py", port)
    w = _import(port / "wrapper.py", "cfv_wrapper")
    lib = FakeLib()
    monkeypatch.setattr(w, "load", lambda: lib)
    monkeypatch.setattr(w, "raw_stream_fn", lambda: lambda index: 7)
    x, y = FakeTensor([256, 64], "bfloat16"), FakeTensor([256, 64], "bfloat16")
    w.cf_variant(x, y, TM=32, TN=64, ROWS=True, SQUARE=False, grid=(8,))
    w.cf_variant(x, y, TM=32, TN=64, ROWS=0, SQUARE=1, grid=(8,))
    assert [c[0] for c in lib.calls] == ["ctrs_cf_variant__ROWS_1", "ctrs_cf_variant__ROWS_0"]
    # ROWS is fixed by the entry, so it is not passed; SQUARE stays a const generic argument
    assert lib.calls[0][1][2:5] == (32, 64, 0)
    assert lib.calls[1][1][2:5] == (32, 64, 1)


def test_wrapper_builds_lazily(tmp_path, monkeypatch):
    port = tmp_path / "va"
    translate.translate(FIXTURES / "vector_add" / "kernel.py", port)
    monkeypatch.setenv("CTRS_PORT_PROFILE", "debug")
    monkeypatch.delenv("CTRS_PORT_LIB", raising=False)  # other tests' GPU host may have set these
    monkeypatch.delenv("CTRS_AUTOBUILD", raising=False)
    w = _import(port / "wrapper.py", "va_wrapper_build")
    assert set(w.build_env()) <= set(w.ENV_WHITELIST)
    lib = w.build()
    assert lib == port / ".ctrs-build" / "debug" / "libvector_add.so" and lib.exists()
    assert (port / ".build.lock").exists()
    first = lib.stat().st_mtime_ns
    assert w.build() == lib and lib.stat().st_mtime_ns == first  # fresh: no rebuild
    # a source edited after the build: make the .so older than ffi.rs (older than when the sources were written,
    # not than now: a slow build may take more than a minute)
    past = min((port / f).stat().st_mtime for f in w.SOURCES) - 60
    os.utime(lib, (past, past))
    first = lib.stat().st_mtime_ns
    assert w.is_stale(lib)
    w.build()
    assert lib.stat().st_mtime_ns != first and not w.is_stale(lib)
    monkeypatch.setenv("CTRS_AUTOBUILD", "0")
    lib.unlink()
    with pytest.raises(RuntimeError, match="CTRS_AUTOBUILD"):
        w.build()


# ---------------------------------------------------------------------------------------------- analysis


def test_analysis_deterministic(tmp_path):
    a = translate.translate(LAUNCH_KERNEL, tmp_path / "a")[0].parent
    b = translate.translate(LAUNCH_KERNEL, tmp_path / "b")[0].parent
    for name in ("analysis.json", "ffi.rs", "wrapper.py", "Cargo.toml", "Cargo.lock", "lib.rs", "kernel.rs"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    text = (a / "analysis.json").read_text()
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True) + "\n"


def test_analysis_mines_launch_sites(tmp_path):
    port = translate.translate(LAUNCH_KERNEL, tmp_path / "p")[0].parent
    data = json.loads((port / "analysis.json").read_text())
    specs = {s["name"]: s for s in data["specialisations"]}
    assert {s["constants"]["TILE"] for s in specs.values() if s["complete"]} == {64, 128, 256, 512, 1024}
    assert specs["site_TILE256"]["origin"] == "launch:22" and specs["site_TILE256"]["entry"] == "vector_add"
    assert specs["site_TILE1024"]["origin"] == "config:CONFIGS[2]"  # TILE * 4 folded
    assert not specs["site_launch27"]["complete"] and specs["site_launch27"]["missing"] == ["TILE"]
    (k,) = data["kernels"]
    assert k["launch_grids"] == ['(ct.cdiv(n, 64),)', '(ct.cdiv(n, TILE), 1, 1)',
                                 '(ct.cdiv(x.shape[0], cfg["TILE"]),)']
    assert [g["name"] for g in k["generics"]] == ["E", "TILE"] and k["generics"][0]["origin"] == "array_dtype"
    assert [(p["name"], p["kind"], p["rank"]) for p in k["params"]] == [
        ("x", "array", 1), ("y", "array", 1), ("z", "array", 1), ("TILE", "constant", 0)]
    assert k["dtypes"] == ["bfloat16", "float16", "float32"]
    assert k["tolerances"]["float32"] == {"atol": 1e-5, "rtol": 1e-5, "exact": False}
    assert k["tolerances"]["bfloat16"]["atol"] == 1e-2
    assert data["config_lists"][0]["items"] == [{"TILE": 128}, {"TILE": 512}, {"TILE": 1024}]


def test_analysis_source_map(tmp_path):
    port = translate.translate(FIXTURES / "vector_add" / "kernel.py", tmp_path / "p")[0].parent
    data = json.loads((port / "analysis.json").read_text())
    rs = (port / "kernel.rs").read_text().splitlines()
    py = (FIXTURES / "vector_add" / "kernel.py").read_text().splitlines()
    smap = data["source_map"]
    assert smap and all(1 <= e["rs_line"] <= len(rs) and 1 <= e["py_line"] <= len(py) for e in smap)
    by_rs = {e["rs_line"]: e for e in smap}
    for i, line in enumerate(rs, 1):
        if "lhs + rhs" in line:
            assert "lhs + rhs" in py[by_rs[i]["py_line"] - 1]
        if "store_view_tko_mut" in line:
            assert "ct.store" in py[by_rs[i]["py_line"] - 1] and by_rs[i]["rule"]
        if "pub fn vector_add" in line:
            assert py[by_rs[i]["py_line"] - 1].startswith("def vector_add")


def test_helpers_multi_specialisations():
    kernel = FIXTURES / "helpers_multi" / "kernel.py"
    if not kernel.exists():
        pytest.skip("fixtures/helpers_multi not present")
    data = json.loads(translate.translate_source(kernel)["analysis.json"])
    got = sorted((s["kernel"], s["origin"], tuple(sorted(s["constants"].items())), s["complete"])
                 for s in data["specialisations"])
    assert ("scale_kernel", "launch:45", (("TILE", 256),), True) in got  # DEFAULT_TILE resolved
    assert ("scale_add_kernel", "config:CONFIGS[0]", (("TILE", 128),), True) in got
    # CONFIGS is only read by the scale_add launcher: not attributed to scale_kernel
    assert not any(k == "scale_kernel" and o.startswith("config:") for k, o, _, _ in got)


def test_launch_sites_unit():
    src = '''
import cuda.tile as ct
C = ct.Constant[int]
BLOCK = 32
TABLE = [{"BM": 64, "BN": BLOCK * 2}, dict(BM=128, BN=128, num_ctas=2)]

@ct.kernel
def k(a, b, n: int, BM: C, BN: C):
    pass

def go(s, a, b):
    bn = BLOCK
    g = (ct.cdiv(a.shape[0], BLOCK), 1)
    ct.launch(s, g, k, (a, b, a.shape[0], BLOCK, bn))
    ct.launch(s, (1,), k, (a, b, 3, -BLOCK + 96, a.shape[1]))
'''
    d = launch_sites.mine_source(src)
    got = {(s["origin"], tuple(sorted(s["constants"].items())), s["complete"]) for s in d["specialisations"]}
    assert ("launch:14", (("BM", 32), ("BN", 32)), True) in got
    assert ("launch:15", (("BM", 64),), False) in got
    assert ("config:TABLE[0]", (("BM", 64), ("BN", 64)), True) in got
    assert ("config:TABLE[1]", (("BM", 128), ("BN", 128)), True) in got
    assert d["launches"][0]["grid"] == "(ct.cdiv(a.shape[0], BLOCK), 1)"  # local name resolved
    assert d["kernels"] == {"k": [["a", False], ["b", False], ["n", False], ["BM", True], ["BN", True]]}
    assert launch_sites.mine_source("def (:")["specialisations"] == []


def test_pick_entry_rules():
    es = [{"name": "k__F_0", "python_name": "k", "variant": {"F": 0}, "array_dtypes": {}},
          {"name": "k__F_1", "python_name": "k", "variant": {"F": 1}, "array_dtypes": {}},
          {"name": "g_f32", "python_name": "g", "variant": {}, "array_dtypes": {"x": "float32"}},
          {"name": "g_f16", "python_name": "g", "variant": {}, "array_dtypes": {"x": "float16"}}]
    assert render_host.pick_entry(es, "k", {"F": 0}, {})["name"] == "k__F_0"
    assert render_host.pick_entry(es, "k", {"F": 5}, {})["name"] == "k__F_1"  # largest stands for the rest
    assert render_host.pick_entry(es, "g", {}, {"x": "float16"})["name"] == "g_f16"
    assert render_host.pick_entry(es, "g", {}, {"x": "bfloat16"}) is None


# ---------------------------------------------------------------------------------------------- check / CLI


def test_check_vector_add_passes():
    res = _run("check", "fixtures/vector_add/kernel.py")
    assert res.returncode == 0, res.stdout + res.stderr
    rows = [line for line in res.stdout.splitlines() if line.startswith("vector_add ")]
    n_specs = len(json.loads((FIXTURES / "vector_add" / "specs.json").read_text()))
    assert len(rows) == n_specs and all("EQUIVALENT" in r for r in rows)
    assert f"{n_specs} rows, {n_specs} equivalent, 0 critical" in res.stdout


def test_check_mined_specialisations_json():
    res = _run("check", str(LAUNCH_KERNEL.relative_to(ROOT)), "--json")
    assert res.returncode == 5, res.stdout + res.stderr  # one launch site is INCOMPLETE: nothing hides it
    rows = json.loads(res.stdout)
    verdicts = {r["spec"]: r["verdict"] for r in rows}
    assert verdicts == {"f32_n8192": "EQUIVALENT", "f32_n8192@site_TILE128": "EQUIVALENT",
                        "f32_n8192@site_TILE512": "EQUIVALENT", "f32_n8192@site_TILE1024": "EQUIVALENT",
                        "f32_n8192@site_TILE64": "EQUIVALENT", "site_launch27": "INCOMPLETE"}
    assert all(r["matched"] == r["total"] > 0 for r in rows if r["verdict"] == "EQUIVALENT")
    (inc,) = [r for r in rows if r["verdict"] == "INCOMPLETE"]
    assert inc["findings"] == ["constants not static: TILE; get specs: ctrs specs tests/data/launch_code/kernel.py "
                               "--call 'launch_tuned(torch.empty(...), ...)' -o specs.json"]


def test_check_wrong_port_fails(tmp_path):
    port = tmp_path / "va"
    translate.translate(FIXTURES / "vector_add" / "kernel.py", port)
    rs = (port / "kernel.rs").read_text()
    assert "= lhs + rhs;" in rs
    (port / "kernel.rs").write_text(rs.replace("= lhs + rhs;", "= lhs - rhs;"))
    res = _run("check", "fixtures/vector_add/kernel.py", "--port", str(port))
    assert res.returncode == 1, res.stdout + res.stderr
    n_specs = len(json.loads((FIXTURES / "vector_add" / "specs.json").read_text()))
    assert res.stdout.count("CRITICAL") == n_specs  # one CRITICAL row per spec


def test_check_unmatchable_spec_fails():
    spec = json.dumps({"name": "no_entry", "kernel": "cf_variant",
                       "args": {"x": {"dtype": "float16", "shape": [64, 64]}, "y": {"dtype": "float16", "shape": [64, 64]},
                                "TM": 16, "TN": 64, "ROWS": True, "SQUARE": False},
                       "rust": {"generics": ["f32", "1", "2", "3"]}})
    good = _run("check", "tests/data/cf_variant.py", "--spec", spec)
    assert good.returncode == 0, good.stdout + good.stderr  # its own generics are recomputed
    assert "info: spec generics" in good.stdout
    bad = json.dumps({"name": "missing_const", "kernel": "cf_variant",
                      "args": {"x": {"dtype": "float16", "shape": [64, 64]}, "y": {"dtype": "float16", "shape": [64, 64]},
                               "TM": 16, "ROWS": 0, "SQUARE": 0}})
    res = _run("check", "tests/data/cf_variant.py", "--spec", bad)
    assert res.returncode == 1
    assert "missing_const" in res.stdout and ("REF-ERROR" in res.stdout or "PORT-ERROR" in res.stdout)


def test_translate_stats():
    res = _run("translate", "fixtures/matmul/kernel.py", "-o", "/tmp/ctrs-test-stats-mm", "--stats")
    assert res.returncode == 0, res.stderr
    assert "matmul: " in res.stdout
    assert re.search(r"^\s+2  mma$", res.stdout, re.M)
    shutil.rmtree("/tmp/ctrs-test-stats-mm", ignore_errors=True)


def test_translate_directory(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(DATA, src, ignore=shutil.ignore_patterns("*.json"))
    (src / "not_a_kernel.py").write_text("x = 1\n")
    res = _run("translate", str(src), "-o", str(tmp_path / "out"))
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["file", "kernels", "status", "code"]
    rows = {ln.split()[0]: ln.split()[1:] for ln in lines[1:-1]}
    assert "not_a_kernel.py" not in rows
    assert rows["launch_code/kernel.py"] == ["1", "ok", "-"]
    assert rows["unsupported_atomic.py"][1:] == ["error", "CTRS-E124"]
    assert res.returncode == 1  # one file failed
    assert (tmp_path / "out" / "launch_code" / "kernel_rs" / "ffi.rs").exists()
    assert re.search(r"\[\d+/\d+\] ", res.stderr)  # progress on stderr
    assert lines[-1].startswith("ctrs translate: ") and "files translated" in lines[-1]


def test_check_reports_port_build_errors_at_their_line(tmp_path):
    port = tmp_path / "va"
    translate.translate(FIXTURES / "vector_add" / "kernel.py", port)
    text = (port / "ffi.rs").read_text()
    (port / "ffi.rs").write_text(text.replace("unwrap_or(rc::LAUNCH_FAILED)", "unwrap_or(rc::LAUNCH_FAILE)"))
    line = next(i for i, ln in enumerate((port / "ffi.rs").read_text().splitlines(), 1) if "LAUNCH_FAILE)" in ln)
    res = _run("check", "fixtures/vector_add/kernel.py", "--port", str(port))
    assert res.returncode == 3
    assert f"ffi.rs:{line}:" in res.stderr and "error[CTRS-E020]: the port crate does not compile" in res.stderr


def test_c_dispatcher_per_python_kernel(tmp_path):
    """Per-dtype entries (masked_gather) and structural variants (cf_variant) also get one
    ctrs_<python kernel> C entry that forwards to the entry the wrapper would pick."""
    port = tmp_path / "mg"
    translate.translate(FIXTURES / "masked_gather" / "kernel.py", port)
    lib_path = check.build_crate(port)
    nm = subprocess.run(["nm", "-D", "--defined-only", str(lib_path)], capture_output=True, text=True).stdout
    assert set(re.findall(r" T (ctrs_\w+)$", nm, re.M)) - {"ctrs_set_launch_hints", "ctrs_set_fast_path",
                                                             "ctrs_xc_descs", "ctrs_xc_usable"} == {
        "ctrs_xc_masked_gather",  # the dispatcher's exchange entry (test_exchange_path)
        "ctrs_masked_gather", "ctrs_masked_gather_f32", "ctrs_masked_gather_f16", "ctrs_masked_gather_bf16",
        "ctrs_masked_gather_i32", "ctrs_masked_gather_i64"}  # x, y: integer element entries too (a cast of each)
    w = _import(port / "wrapper.py", "mg_wrapper")
    lib = w.ffi.dlopen(str(lib_path))
    d = w.ffi.new("TensorDesc *")
    d.ptr, d.ndim, d.dtype = 1 << 20, 1, 1
    d.shape[0], d.strides[0] = 1000, 1
    assert lib.ctrs_masked_gather(w.ffi.NULL, d, 256, 4, 1, 1, 0, 0) == -5
    if not Path("/dev/nvidia0").exists():
        assert lib.ctrs_masked_gather(d, d, 256, 4, 1, 1, 0, 0) == -4  # forwarded to the f16 entry
    d.dtype = 3
    if not Path("/dev/nvidia0").exists():
        assert lib.ctrs_masked_gather(d, d, 256, 4, 1, 1, 0, 0) == -4  # forwarded to the i32 entry
    d.dtype = 9
    assert lib.ctrs_masked_gather(d, d, 256, 4, 1, 1, 0, 0) == -2  # no entry of that dtype
    data = json.loads((port / "analysis.json").read_text())
    (pk,) = data["python_kernels"]
    assert pk["dispatcher"]["symbol"] == "ctrs_masked_gather"
    assert pk["entries"] == ["masked_gather_f32", "masked_gather_f16", "masked_gather_bf16", "masked_gather_i32",
                             "masked_gather_i64"]
    ffi_rs = translate.translate_source(DATA / "cf_variant.py")["ffi.rs"]
    assert "pub unsafe extern \"C\" fn ctrs_cf_variant(" in ffi_rs
    assert "if ROWS == 1 || !matches!(ROWS, 0 | 1) {" in ffi_rs  # the largest value stands for any other


def test_dispatcher_takes_a_float_constant_as_f64(tmp_path):
    # a ct.Constant[float] the launch passes as a constant is the launch's double in every entry (its f32 bits are
    # the generic; compile-time float expressions are computed from the double, docs/porting.md): the C
    # dispatcher of the per-dtype entries takes it as f64 (it took it as an i32 constant: ffi.rs did not compile)
    port = translate.translate(DATA / "launch_float_const" / "kernel.py", tmp_path / "p")[0].parent
    ffi = (port / "ffi.rs").read_text()
    head = ffi.split('pub unsafe extern "C" fn ctrs_scaled_exp(')[1].split(") -> i32")[0]
    assert "SCALE: f64," in head and "TILE: i32," in head
    # the cffi declaration agrees
    assert ("int32_t ctrs_scaled_exp(const TensorDesc * p_x, const TensorDesc * p_y, double SCALE, int32_t TILE,"
            in (port / "wrapper.py").read_text())
    check.build_crate(port)  # and the crate compiles (cargo)
