"""The C entries' steady-state fast path (ffi.rs, cutile 0.5.0): the kernel parameters it packs for
cuLaunchKernel must be exactly the parameters of the kernel cutile compiles (its entry's signature in the Tile
IR cutile's own compiler emits for a spec: pointer, shape and strides per array, then each runtime scalar),
and its signature key must cover what cutile specialises on. No GPU: the packer is read from the generated
ffi.rs, the signature from cutile's compile of the port (ir_rs, the harness the IR checks use)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ctrs import translate
from ctrs.emitters import render_host
from ctrs.spec import load_specs
from ctrs.verify import ir_rs
from ctrs.workflow import check

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# Tile IR parameter type -> the Rust type the packer stores (a pointer is the u64 CUdeviceptr)
IR_TO_RUST = {"i32": "i32", "i64": "i64", "f32": "f32", "f64": "f64", "i1": "bool"}


def _entry_params(ir_text: str) -> list[str]:
    m = re.search(r"entry @\w+\((.*?)\)\s", ir_text)  # the one kernel entry of the compiled module
    assert m, ir_text[:400]
    types = re.findall(r"%\w+: tile<(ptr<[^>]*>|\w+)>", m.group(1))
    return ["u64" if t.startswith("ptr<") else IR_TO_RUST[t] for t in types]


def _packer(ffi_rs: str, symbol: str) -> list[tuple[int, str, str]]:
    """(slot, Rust type, value) of every parameter `pack_<symbol>` stores, in the generated code's order."""
    body = ffi_rs.split(f"pub fn pack_{symbol}(", 1)[1].split("\n    }\n", 1)[0]
    return [(int(i), t, e) for t, i, e in re.findall(r"put::<(\w+)>\(&mut v\[(\d+)\], (.+?)\);", body)]


@pytest.mark.parametrize(("fixture", "spec_name"), [
    ("vector_add", "f32_n1000_strided"),  # three rank-1 tensors, strided views
    ("layer_norm_persistent", None),  # rank-2 tensors, an i32 and an f32 runtime scalar
    ("triton_layer_norm", None),  # a Triton port: raw-pointer arrays, an f32 scalar
])
def test_packed_params_match_the_kernel_cutile_compiles(tmp_path, fixture, spec_name):
    port = tmp_path / fixture
    translate.translate(FIXTURES / fixture / "kernel.py", port)
    specs = load_specs(str(FIXTURES / fixture / "specs.json"))
    spec = next(s for s in specs if s.name == spec_name) if spec_name else specs[0]
    fk = check.entry_for(spec, render_host.ffi_kernels(translate.translate_module(FIXTURES / fixture / "kernel.py")))
    (gen,) = ir_rs.compile_ports(port / "kernel.rs", [(spec, fk.name)])
    compiled = _entry_params(gen.text)
    packed = _packer((port / "ffi.rs").read_text(), fk.symbol)
    assert [i for i, _, _ in packed] == list(range(len(packed)))  # every slot once, in order
    assert [t for _, t, _ in packed] == compiled, (packed, compiled)
    # and the values: per array its pointer, then its extents, then its strides; each runtime scalar by name
    expect = []
    for a in fk.args:
        if a.kind == "array":
            # the strides a tensor view is borrowed with on the slow path (TensorDesc::view_strides), raw ones as is
            stride = "d_{0}.strides[{1}] as i32" if a.raw else "d_{0}.view_stride({1}, d_{0}.elem_bytes())"
            expect += [f"d_{a.ident}.ptr"] + [f"d_{a.ident}.shape[{i}] as i32" for i in range(a.rank)] + \
                      [stride.format(a.ident, i) for i in range(a.rank)]
        elif a in fk.scalars:
            expect.append(a.ident)
    assert [e for _, _, e in packed] == expect
    # analysis.json records the same layout (what benchmarks and the lead read)
    kinfo = next(k for k in json.loads((port / "analysis.json").read_text())["kernels"] if k["name"] == fk.name)
    assert [t for _, t in kinfo["launch_params"]] == compiled


def test_fast_path_key_and_switch(tmp_path):
    """The key of a C entry covers the specialisation inputs cutile derives from the arguments (pointer
    alignment class, shapes, strides, dtype codes, integer scalars' divisibility, constants, grid, device,
    launch hints); CTRS_FFI_FAST switches the path; the 0.3.1 target has none (its launcher was not reviewed)."""
    new = translate.translate(FIXTURES / "layer_norm_persistent" / "kernel.py", tmp_path / "new")
    ffi = next(p for p in new if p.name == "ffi.rs").read_text()
    fk, = [k for k in render_host.ffi_kernels(translate.translate_module(FIXTURES / "layer_norm_persistent"
                                                                          / "kernel.py"))]
    key = render_host.fast_key(fk)
    for a in fk.arrays:
        assert f"ptr_div(d_{a.ident}.ptr)" in key and f"d_{a.ident}.dtype as i64" in key
        assert all(f"d_{a.ident}.strides[{i}]" in key and f"d_{a.ident}.shape[{i}]" in key for i in range(a.rank))
    assert "int_div(n_rows as i32)" in key and not any("eps" in k for k in key)  # f32 scalars: no hint
    assert all(f"{c.ident} as i64" in key for c in fk.consts)
    assert key[:7] == ["device_id as i64", "hints.0 as i64", "hints.1 as i64", "hints.2 as i64", "grid.0 as i64",
                       "grid.1 as i64", "grid.2 as i64"]
    assert f"let key: [i64; KEY_{fk.symbol.upper()}] = [{', '.join(key)}];" in ffi
    assert 'std::env::var("CTRS_FFI_FAST")' in ffi and "cutile::tile_kernel::kernel_cache_slot(&key)" in ffi
    old = translate.translate(FIXTURES / "layer_norm_persistent" / "kernel.py", tmp_path / "old", cutile="0.3.1")
    old_ffi = next(p for p in old if p.name == "ffi.rs").read_text()
    assert "FastCache" not in old_ffi and "fast_launch" not in old_ffi and "fn launch_ctrs_" in old_ffi
    switch = old_ffi[old_ffi.index("fn ctrs_set_fast_path("):]
    assert switch[:switch.index("\n    }")].rstrip().endswith("0")  # the switch exists and says: no fast path
