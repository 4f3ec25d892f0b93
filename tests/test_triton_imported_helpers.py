"""@triton.jit helpers imported from another module of the package (issue 18, branch nf4x18;
frontends/triton/imports.py): tests/data/triton_pkg/kernels.py calls ``_scaled_low`` (``from .ops import``), which
calls ``_low_bits`` of ops.py reading ops.py's constexpr ``SHIFT``, and ``_bias`` (``from triton_pkg.ops import ..
as shifted``, an absolute import) defined under ops.py's module-level ``if hasattr(tl, "join"):`` (decided for
Triton 3.6: the first arm; frontends/triton/module_conditions.py). Inlined helpers keep their own file's positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, spec as specmod, translate
from ctrs.verify import ir_rs

PKG = Path(__file__).resolve().parent / "data" / "triton_pkg"
KERNEL = PKG / "kernels.py"


@pytest.mark.model
def test_imported_helpers_are_inlined_with_their_module_constants():
    text = pipeline.emit_model(KERNEL, "frontend")
    # _low_bits: x & ((1 << SHIFT) - 1) with ops.py's SHIFT = 3, located in ops.py
    assert "%c = constant {value = 7} : tile<i32>  loc(ops.py:11:12)" in text
    assert "andi %q_in, %c_r_b : tile<Bxi32>  loc(ops.py:11:12)" in text
    # _scaled_low's constexpr branch on the caller's USE_MUL
    assert "if const USE_MUL ne 0" in text
    # _bias: the hasattr(tl, "join") arm (+ 7.0), not the else arm (- 5.0)
    assert "constant {value = 7.0} : tile<f32>  loc(ops.py:27:16)" in text
    assert "5.0" not in text


@pytest.mark.model
def test_undecided_module_condition_refuses_the_helper(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "h.py").write_text("import os\nimport triton\nimport triton.language as tl\n\n"
                              "if os.environ.get('FAST'):\n\n    @triton.jit\n    def _h(x):\n        return x * 2\n")
    k = pkg / "k.py"
    k.write_text("import triton\nimport triton.language as tl\n\nfrom .h import _h\n\n\n@triton.jit\n"
                 "def k(x_ptr, B: tl.constexpr):\n    o = tl.arange(0, B)\n    tl.store(x_ptr + o, _h(tl.load(x_ptr + o)))\n")
    with pytest.raises(errors.CtrsError) as e:
        pipeline.emit_model(k, "frontend")
    assert e.value.code == errors.TRITON_UNDECIDED_HELPER


@pytest.mark.model
def test_triton_version_condition_is_decided_for_the_reference_triton(tmp_path):
    """``if Version(triton.__version__) >= Version("3.0.0"): .. else: @triton.jit def _h`` (unsloth's utils.py): the
    reference Triton (3.6) takes the first arm, so the helper is its alias there (``_h = tl.cast`` style), and a
    version test the other way round takes the else arm's jit helper."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "h.py").write_text(
        "import triton\nimport triton.language as tl\nfrom packaging.version import Version\n\n"
        "if Version(triton.__version__) < Version('3.0.0'):\n\n    @triton.jit\n    def _h(x):\n        return x * 5\n"
        "else:\n\n    @triton.jit\n    def _h(x):\n        return x * 3\n")
    k = pkg / "k.py"
    k.write_text("import triton\nimport triton.language as tl\n\nfrom .h import _h\n\n\n@triton.jit\n"
                 "def k(x_ptr, B: tl.constexpr):\n    o = tl.arange(0, B)\n    tl.store(x_ptr + o, _h(tl.load(x_ptr + o)))\n")
    text = pipeline.emit_model(k, "frontend")
    assert "constant {value = 3} : tile<!E>  loc(h.py:14:16)" in text and "{value = 5}" not in text


@pytest.mark.model
def test_tile_gather_is_refused_citing_cutile(tmp_path):
    (tmp_path / "g.py").write_text(
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef _lut(lut_ptr, n):\n"
        "    table = tl.load(lut_ptr + tl.arange(0, 16))\n    return tl.gather(table, n, 0)\n")
    k = tmp_path / "k.py"
    k.write_text("import triton\nimport triton.language as tl\n\nfrom g import _lut\n\n\n@triton.jit\n"
                 "def k(lut_ptr, q_ptr, out_ptr, B: tl.constexpr):\n    o = tl.arange(0, B)\n"
                 "    tl.store(out_ptr + o, _lut(lut_ptr, tl.load(q_ptr + o).to(tl.int32)))\n")
    with pytest.raises(errors.CtrsError) as e:
        pipeline.emit_model(k, "frontend")
    assert e.value.code == errors.TRITON_TILE_GATHER
    assert e.value.loc.file.endswith("g.py") and e.value.loc.line == 8
    assert "_core.rs:517" in e.value.hint


def test_port_of_the_package_kernel_compiles(tmp_path):
    port = translate.translate(KERNEL, tmp_path / "port")[0]
    specs = specmod.load_specs(str(PKG / "specs.json"))
    res = ir_rs.compile_ports(port, [(s, s.rust["entry"]) for s in specs])
    by = {s.name: r.text for s, r in zip(specs, res)}
    assert set(by) == {"f32_mul_4096", "f16_add_1000"}
    assert "andi" in by["f32_mul_4096"] and "mulf" in by["f32_mul_4096"]
    assert "addf" in by["f16_add_1000"] and "mulf" not in by["f16_add_1000"]
