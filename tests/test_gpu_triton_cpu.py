"""The GPU proof of Triton ports, CPU half: the Triton parameter map in analysis.json, the reference's
argument list, the port wrapper's inputs, the tf32 tolerance rule, autotune launch options and bundling.

On the H200 host the reference is the fixture's own @triton.jit kernel run by standard Triton
(transpiler/gpu/host.py PortRunner._triton_launchers); none of that needs a GPU to be checked here.
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from ctrs.gpu import bundle, proof as gpu, host as gpu_host
from ctrs import targets, translate
from ctrs.spec import load_specs

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ["triton_vector_add", "triton_row_softmax", "triton_rms_norm", "triton_layer_norm", "triton_matmul",
            "triton_autotune_add", "triton_matmul_advance", "triton_matmul_ptr2d", "triton_desc_scale",
            "triton_strided_gather", "triton_layer_norm_loop", "triton_dropout", "triton_attention"]


def A(name, array=None):
    return {"name": name, "kind": "array", "array": array or name}


def SH(name, array, dim):
    return {"name": name, "kind": "shape", "array": array, "dim": dim}


def ST(name, array, dim):
    return {"name": name, "kind": "stride", "array": array, "dim": dim}


def C(name):
    return {"name": name, "kind": "constexpr", "const": name}


def S(name):
    return {"name": name, "kind": "scalar", "arg": name}


def D(name, block):
    return {"name": name, "kind": "descriptor", "array": name, "block": block}


VADD = [A("x"), A("y"), A("z"), SH("n", "x", 0), C("TILE")]
EXPECTED = {
    "triton_vector_add": ("vector_add", VADD, False, False),
    "triton_autotune_add": ("vector_add", VADD, False, True),
    "triton_row_softmax": ("row_softmax", [A("x"), A("y"), SH("n_cols", "x", 1), ST("stride_x", "x", 0),
                                           ST("stride_y", "y", 0), C("TILE_N")], False, False),
    "triton_rms_norm": ("rms_norm", [A("x"), A("w"), A("y"), S("eps"), SH("n_rows", "x", 0), SH("n_cols", "x", 1),
                                     ST("stride_x", "x", 0), ST("stride_y", "y", 0), C("TILE")], False, False),
    "triton_layer_norm": ("layer_norm", [A("x"), A("w"), A("b"), A("y"), SH("n_cols", "x", 1),
                                         ST("stride_x", "x", 0), ST("stride_y", "y", 0), S("eps"), C("TILE")],
                          False, False),
    "triton_matmul": ("matmul", [A("A"), A("B"), A("C"), SH("M", "A", 0), SH("N", "B", 1), SH("K", "A", 1),
                                 ST("stride_am", "A", 0), ST("stride_ak", "A", 1), ST("stride_bk", "B", 0),
                                 ST("stride_bn", "B", 1), ST("stride_cm", "C", 0), ST("stride_cn", "C", 1),
                                 C("TM"), C("TN"), C("TK")], True, False),
    "triton_desc_scale": ("scale_rows", [D("x_desc", ["BM", "BN"]), D("w_desc", ["BN"]), A("Y"), SH("M", "Y", 0),
                                         SH("N", "Y", 1), ST("stride_ym", "Y", 0), C("BM"), C("BN")], False, False),
    "triton_strided_gather": ("gather_scale", [A("X"), A("IDX"), A("Y"), SH("n", "IDX", 0), S("scale"), C("BLOCK")],
                              False, False),
    "triton_layer_norm_loop": ("layer_norm_loop", [A("X"), A("Y"), A("W"), A("B"), A("Mean"), A("Rstd"),
                                                   ST("stride_x", "X", 0), ST("stride_y", "Y", 0), SH("N", "X", 1),
                                                   S("eps"), C("BLOCK")], False, False),
}
EXPECTED["triton_attention"] = ("attention_fwd", [
    A("q"), A("k"), A("v"), A("o"), S("qk_scale"), SH("L", "q", 0), SH("Lk", "k", 0), ST("stride_q", "q", 0),
    ST("stride_k", "k", 0), ST("stride_v", "v", 0), ST("stride_o", "o", 0), C("D"), C("TM"), C("TN")], True, False)
EXPECTED["triton_dropout"] = ("dropout", [A("x_ptr"), A("y_ptr"), SH("n", "x_ptr", 0), S("p"), S("seed"), C("BLOCK")],
                              False, False)
EXPECTED["triton_matmul_advance"] = ("matmul", EXPECTED["triton_matmul"][1], True, False)
EXPECTED["triton_matmul_ptr2d"] = ("matmul", EXPECTED["triton_matmul"][1], True, False)


# mask bounds shared by several array axes (the wrapper checks that their extents agree)
_MM_TIES = [["K", "param", [["A", 1], ["B", 0]]], ["M", "param", [["A", 0], ["C", 0]]],
            ["N", "param", [["B", 1], ["C", 1]]]]
TIES = {
    "triton_matmul": _MM_TIES,
    "triton_matmul_advance": _MM_TIES,
    "triton_vector_add": [["n", "param", [["x", 0], ["y", 0], ["z", 0]]]],
    "triton_autotune_add": [["n", "param", [["x", 0], ["y", 0], ["z", 0]]]],
    "triton_row_softmax": [["n_cols", "param", [["x", 1], ["y", 1]]]],
    "triton_layer_norm": [["n_cols", "param", [["x", 1], ["w", 0], ["b", 0], ["y", 1]]]],
    "triton_matmul_ptr2d": [["K", "param", [["A", 1], ["B", 0]]], ["M", "param", [["A", 0], ["C", 0]]],
                            ["N", "param", [["B", 1], ["C", 1]]]],
    "triton_rms_norm": [["n_cols", "param", [["x", 1], ["w", 0], ["y", 1]]],
                        ["n_rows", "param", [["x", 0], ["y", 0]]]],
    "triton_desc_scale": [["M", "param", [["Y", 0]]], ["N", "param", [["Y", 1]]]],
    "triton_attention": [["D", "const", [["q", 1], ["k", 1], ["v", 1], ["o", 1]]],
                         ["L", "param", [["q", 0], ["o", 0]]], ["Lk", "param", [["k", 0], ["v", 0]]]],
    "triton_strided_gather": [["n", "param", [["IDX", 0], ["Y", 0]]]],
    "triton_layer_norm_loop": [["N", "param", [["X", 1], ["W", 0], ["B", 0], ["Y", 1]]]],
    "triton_dropout": [["n", "param", [["x_ptr", 0], ["y_ptr", 0]]]],
}


def cdiv(a, b):
    return -(-a // b)


# The Triton launch grid each kernel needs (read off its tl.program_id uses), from its own arguments:
# the spec grid (from the cuTile counterpart) must be the same, so "grid": "spec" in the map is right.
TRITON_GRID = {
    "triton_vector_add": lambda a: (cdiv(a["n"], a["TILE"]), 1, 1),
    "triton_autotune_add": lambda a: (cdiv(a["n"], a["TILE"]), 1, 1),
    "triton_row_softmax": lambda a: (a["x"].shape[0], 1, 1),
    "triton_rms_norm": lambda a: (a["n_rows"], 1, 1),
    "triton_layer_norm": lambda a: (a["x"].shape[0], 1, 1),
    "triton_matmul": lambda a: (cdiv(a["M"], a["TM"]), cdiv(a["N"], a["TN"]), 1),
    "triton_matmul_advance": lambda a: (cdiv(a["M"], a["TM"]), cdiv(a["N"], a["TN"]), 1),
    "triton_matmul_ptr2d": lambda a: (cdiv(a["M"], a["TM"]), cdiv(a["N"], a["TN"]), 1),
    "triton_desc_scale": lambda a: (cdiv(a["M"], a["BM"]), cdiv(a["N"], a["BN"]), 1),
    "triton_strided_gather": lambda a: (cdiv(a["n"], a["BLOCK"]), 1, 1),
    "triton_layer_norm_loop": lambda a: (a["X"].shape[0], 1, 1),
    "triton_dropout": lambda a: (cdiv(a["n"], a["BLOCK"]), 1, 1),
    "triton_attention": lambda a: (cdiv(a["L"], a["TM"]), 1, 1),
}


def fake_desc(t, shape, strides, block):
    return ("desc", t.name, tuple(shape), tuple(strides), tuple(block))


class FakeTensor:
    """Shape + strides, like a torch tensor as far as the argument builders look."""

    def __init__(self, name, shape, strides):
        self.name, self.shape, self._strides = name, tuple(shape), tuple(strides)

    def stride(self, k=None):
        return self._strides if k is None else self._strides[k]

    def __repr__(self):
        return f"T({self.name})"


def fake_tensors(spec):
    return {n: FakeTensor(n, a.shape, a.strides) for n, a in spec.args.items() if hasattr(a, "shape")}


@pytest.fixture(scope="module")
def analyses():
    return {f: json.loads(translate.translate_source(ROOT / "fixtures" / f / "kernel.py")["analysis.json"])
            for f in FIXTURES}


@pytest.mark.parametrize("fixture", FIXTURES)
def test_analysis_has_the_triton_param_map(fixture, analyses):
    kernel, params, tf32, autotuned = EXPECTED[fixture]
    tri = analyses[fixture]["triton"]
    assert list(tri) == [kernel]
    assert {k: v for k, v in tri[kernel].items() if k != "ties"} == {
        "kernel": kernel, "params": params, "grid": "spec", "tf32": tf32, "autotuned": autotuned}
    assert tri[kernel]["ties"] == TIES.get(fixture, [])


@pytest.mark.parametrize("fixture", FIXTURES)
def test_reference_args_and_port_inputs_for_every_spec(fixture, analyses):
    kernel, params, _, _ = EXPECTED[fixture]
    tmap = gpu.triton_map(analyses[fixture], kernel)
    wrapper = translate.translate_source(ROOT / "fixtures" / fixture / "kernel.py")["wrapper.py"]
    for spec in load_specs(str(ROOT / "fixtures" / fixture / "specs.json")):
        assert spec.kernel == kernel
        t = fake_tensors(spec)
        args = gpu.triton_args(tmap, spec, t, make_desc=fake_desc)
        assert len(args) == len(params)
        named = dict(zip([p["name"] for p in params], args))
        for p in params:
            v = named[p["name"]]
            if p["kind"] == "array":
                assert v is t[p["array"]]
            elif p["kind"] == "descriptor":
                a = spec.args[p["array"]]
                assert v == ("desc", p["array"], tuple(a.shape), tuple(a.strides),
                             tuple(spec.args[b].value for b in p["block"]))
            elif p["kind"] == "shape":
                assert v == spec.args[p["array"]].shape[p["dim"]]
            elif p["kind"] == "stride":
                assert v == spec.args[p["array"]].strides[p["dim"]]
            else:
                assert v == spec.args[p.get("const") or p["arg"]].value
        assert TRITON_GRID[fixture](named) == spec.grid_for()
        inputs, consts = gpu.triton_port_inputs(tmap, spec, t)
        kept = [p["name"] for p in params if p["kind"] in ("array", "descriptor", "scalar")]
        assert [getattr(v, "name", None) or k for k, v in zip(kept, inputs)] == kept
        # the generated wrapper takes exactly these positional inputs and keyword constants
        sig = f"def {kernel}({', '.join(kept)}, *, {', '.join(consts)}, grid):"
        assert sig in wrapper


def test_reference_args_positional_list_exact():
    spec = load_specs(str(ROOT / "fixtures" / "triton_row_softmax" / "specs.json"))[1]  # f32_512x200
    t = {"x": FakeTensor("x", (512, 200), (256, 1)), "y": FakeTensor("y", (512, 200), (200, 1))}
    _, params, _, _ = EXPECTED["triton_row_softmax"]
    args = gpu.triton_args({"params": params}, spec, t)
    assert args == [t["x"], t["y"], 200, 256, 200, 256]  # x, y, n_cols, stride_x, stride_y, TILE_N
    spec = load_specs(str(ROOT / "fixtures" / "triton_rms_norm" / "specs.json"))[0]
    _, params, _, _ = EXPECTED["triton_rms_norm"]
    t = fake_tensors(spec)
    assert gpu.triton_args({"params": params}, spec, t) == [t["x"], t["w"], t["y"], 1e-06, 512, 768, 768, 768, 1024]
    assert gpu.triton_port_inputs({"params": params}, spec, t) == ([t["x"], t["w"], t["y"], 1e-06], {"TILE": 1024})


def test_left_out_constexpr_takes_the_kernel_default():
    """A spec may leave out a constexpr the @triton.jit signature defaults (unsloth's grouped GEMM leaves out
    ``acc_dtype=tl.float32``, ``FLATTEN=True``): both the reference launch and the port wrapper get the default,
    read from the reference function's signature; without a default it is a clear error, not a KeyError."""
    from ctrs.gpu.host import triton_defaults

    def rms_norm_ref(x, w, y, eps, n_rows, n_cols, stride_x, stride_y, TILE=1024, FLATTEN=True):  # noqa: N803
        pass

    spec = load_specs(str(ROOT / "fixtures" / "triton_rms_norm" / "specs.json"))[0]
    del spec.args["TILE"]
    _, params, _, _ = EXPECTED["triton_rms_norm"]
    t = fake_tensors(spec)
    defaults = triton_defaults(rms_norm_ref)
    assert defaults == {"TILE": 1024, "FLATTEN": True}
    assert gpu.triton_args({"params": params}, spec, t, defaults=defaults)[-1] == 1024
    assert gpu.triton_port_inputs({"params": params}, spec, t, defaults=defaults)[1] == {"TILE": 1024}
    with pytest.raises(ValueError, match="gives no value for constexpr 'TILE' and the kernel has no default"):
        gpu.triton_args({"params": params}, spec, t)


def test_unmapped_param_is_an_error():
    spec = load_specs(str(ROOT / "fixtures" / "triton_vector_add" / "specs.json"))[0]
    with pytest.raises(ValueError, match="no spec source"):
        gpu.triton_args({"params": [{"name": "q", "kind": "unmapped", "why": "?"}]}, spec, fake_tensors(spec))


def test_tf32_tolerance_rule(analyses):
    mm, va = analyses["triton_matmul"], analyses["triton_vector_add"]
    assert gpu.tolerance("float32", mm, "matmul") == (0.0, 0.0, gpu.TF32_SCALE) == (0.0, 0.0, 8 / 1024)
    assert gpu.tolerance("float32", mm) == (0.0, 0.0, 8 / 1024)
    assert gpu.tolerance("float16", mm, "matmul") == (1e-3, 1e-3, 2.0 ** -10)  # one f16 ulp at max|ref|
    assert gpu.tolerance("bfloat16", va, "vector_add") == (1e-2, 1e-2, 2.0 ** -7)
    assert gpu.tolerance("float16", {}, "matmul") == (1e-3, 1e-3, 0.0)  # a cuTile reference: same compiler
    assert gpu.tolerance("float32", va, "vector_add") == (*gpu.DEFAULT_TOLERANCES["float32"], 0.0)
    assert gpu.tolerance("float32", {**mm, "tolerances": {"float32": [0.5, 0.5]}}, "matmul") == (0.5, 0.5, 0.0)


def test_f32_reduction_tolerance_rule(analyses):
    """f32 outputs of a Triton kernel whose port sums (op_stats reduce / mma / scan, ieee precision): the reorder
    bound F32_SUM_ULP * sqrt(L) * max|ref| with L the spec's largest array; elementwise kernels keep 1e-5."""
    gemv = {"triton": {"gemv": {"tf32": False}},
            "kernels": [{"name": "gemv_f32", "python_name": "gemv", "op_stats": {"reduce": 2, "binary": 5}}]}
    assert gpu.reduces(gemv, "gemv") and not gpu.reduces(gemv, "other")
    assert gpu.tolerance("float32", gemv, "gemv", 2048 * 8192) == (1e-5, 1e-5, 2.0 ** -23 * 4096)
    assert gpu.tolerance("float32", gemv, "gemv") == (*gpu.DEFAULT_TOLERANCES["float32"], 0.0)  # no length known
    assert gpu.tolerance("bfloat16", gemv, "gemv", 1 << 20) == (1e-2, 1e-2, 2.0 ** -7)  # half precision: as before
    va = analyses["triton_vector_add"]
    assert not gpu.reduces(va, "vector_add")
    assert gpu.tolerance("float32", va, "vector_add", 1 << 20) == (*gpu.DEFAULT_TOLERANCES["float32"], 0.0)
    assert gpu.tolerance("float32", analyses["triton_matmul"], "matmul", 1 << 20) == (0.0, 0.0, gpu.TF32_SCALE)
    assert gpu.tolerance("float32", {"kernels": gemv["kernels"]}, "gemv", 1 << 20) == (1e-5, 1e-5, 0.0)  # cuTile ref


def test_autotune_launch_options_follow_the_spec_constants(analyses):
    ana = analyses["triton_autotune_add"]
    specs = load_specs(str(ROOT / "fixtures" / "triton_autotune_add" / "specs.json"))
    assert gpu.triton_launch_options(ana, "vector_add", specs[0]) == {"num_warps": 8, "num_stages": 2}  # TILE 1024
    assert gpu.triton_launch_options(ana, "vector_add", specs[1]) == {"num_warps": 4, "num_stages": 1}  # TILE 256
    assert gpu.triton_launch_options(analyses["triton_vector_add"], "vector_add", specs[0]) == {}


def test_triton_launchers_unwrap_autotune_and_launch(monkeypatch, analyses):
    """PortRunner with a fake triton module: the reference is JITFunction[grid](*args, **options)."""
    calls = []

    class JITFunction:
        def __getitem__(self, grid):
            return lambda *a, **kw: calls.append(("ref", grid, a, kw))

    class Autotuner:
        def __init__(self, fn):
            self.fn = fn

        def __getitem__(self, grid):
            raise AssertionError("the autotuner itself must not be launched")

    jit = types.ModuleType("triton.runtime.jit")
    jit.JITFunction = JITFunction
    for name, mod in (("triton", types.ModuleType("triton")), ("triton.runtime", types.ModuleType("triton.runtime")),
                      ("triton.runtime.jit", jit)):
        monkeypatch.setitem(sys.modules, name, mod)
    runner = object.__new__(gpu_host.PortRunner)
    runner.analysis = analyses["triton_autotune_add"]
    runner.refmod = types.SimpleNamespace(vector_add=Autotuner(JITFunction()))
    runner.wrapper = types.SimpleNamespace(vector_add=lambda *a, **kw: calls.append(("port", a, kw)))
    spec = load_specs(str(ROOT / "fixtures" / "triton_autotune_add" / "specs.json"))[0]
    t = fake_tensors(spec)
    ref, port = runner.launchers(spec, t)
    ref()
    port()
    assert calls == [("ref", (4, 1, 1), (t["x"], t["y"], t["z"], 4096, 1024), {"num_warps": 8, "num_stages": 2}),
                     ("port", (t["x"], t["y"], t["z"]), {"TILE": 1024, "grid": (4, 1, 1)})]


def test_build_port_for_a_triton_fixture(tmp_path):
    """`ctrs bundle fixtures/triton_vector_add`: the port carries the Triton kernel.py and the specs."""
    src = ROOT / "fixtures" / "triton_vector_add"
    port = bundle.build_port(src / "kernel.py", src / "specs.json", tmp_path / "ports", profile="debug")
    assert (port / "kernel.py").read_text() == (src / "kernel.py").read_text()
    assert len(load_specs(str(port / "specs.json"))) == 2
    ana = json.loads((port / "analysis.json").read_text())
    assert ana["triton"]["vector_add"]["params"] == VADD
    meta = json.loads((port / "bundle.json").read_text())
    assert (port / meta["lib"]).exists() and meta["profile"] == "debug"
    assert meta["cutile"] == ana["cutile"] == "0.5.0"  # the default target profile, recorded for the host
    assert gpu_host.port_dirs([str(tmp_path)]) == [port]


def test_ctrs_bundle_takes_triton_fixtures_and_skips_dirs_without_specs(monkeypatch, tmp_path, capsys):
    """`ctrs bundle fixtures/triton_*`: Triton fixture dirs are bundled; triton_unsupported (no specs) skipped."""
    from ctrs.workflow import cli  # noqa: PLC0415

    built = []
    kit = tmp_path / "kit.tar.xz"
    kit.write_bytes(b"k")
    monkeypatch.setattr(bundle, "build_kit", lambda out: kit)
    monkeypatch.setattr(bundle, "fetch_wheels", lambda out: [])
    packed = []
    monkeypatch.setattr(bundle, "pack_ports", lambda ports, out, names: packed.append(names) or kit)

    def fake_build(kernel, specs, out, profile):
        built.append((kernel.parent.name, len(load_specs(str(specs))), profile, targets.current().version))
        p = out / kernel.parent.name
        p.mkdir(parents=True, exist_ok=True)
        return p

    monkeypatch.setattr(bundle, "build_port", fake_build)
    dirs = [str(ROOT / "fixtures" / f) for f in ("triton_vector_add", "triton_unsupported", "triton_matmul")]
    assert cli.main(["bundle", *dirs, "-o", str(tmp_path / "b"), "--profile", "debug", "--cutile", "0.3.1"]) == 0
    # every port is translated and built for the --cutile profile
    assert built == [("triton_vector_add", 2, "debug", "0.3.1"), ("triton_matmul", 2, "debug", "0.3.1")]
    assert packed == [["triton_vector_add", "triton_matmul"]]  # exactly the ports of this run
    assert "skip:" in capsys.readouterr().out


def test_float_constexpr_is_a_runtime_input_of_the_port(tmp_path):
    """A float tl.constexpr (eps) is a Triton constexpr but a runtime f32 of the port (Constant[float] is not a
    const generic): the reference gets it positionally, the port wrapper as an input, not a keyword constant."""
    k = tmp_path / "kernel.py"
    k.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                 "def norm(x, y, n, eps: tl.constexpr, T: tl.constexpr):\n"
                 "    offs = tl.program_id(0) * T + tl.arange(0, T)\n"
                 "    v = tl.load(x + offs, mask=offs < n, other=0.0).to(tl.float32)\n"
                 "    tl.store(y + offs, v / (tl.sum(v * v, axis=0) + eps), mask=offs < n)\n")
    out = translate.translate_source(k)
    tmap = gpu.triton_map(json.loads(out["analysis.json"]), "norm")
    assert tmap["params"][3] == {"name": "eps", "kind": "constexpr", "const": "eps", "port": "scalar"}
    assert "def norm(x, y, eps, *, T, grid):" in out["wrapper.py"]
    spec = load_specs(json.dumps({"name": "s", "kernel": "norm", "args": {
        "x": {"dtype": "float32", "shape": [100]}, "y": {"dtype": "float32", "shape": [100]},
        "eps": {"scalar": "float32", "value": 0.5}, "T": 128}}))[0]
    t = fake_tensors(spec)
    assert gpu.triton_args(tmap, spec, t) == [t["x"], t["y"], 100, 0.5, 128]
    assert gpu.triton_port_inputs(tmap, spec, t) == ([t["x"], t["y"], 0.5], {"T": 128})
