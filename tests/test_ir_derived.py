"""Derived const generics (transpiler/frontends/derived.py): a tile shape dimension computed from const generics
(``N * N``, ``TILE // 2``, ``BH * BS // 8``, ``2 * T``; Triton: of tl.constexprs) becomes a const generic of its
own that the host computes per launch. Model-only tests (no cargo) first; the IR-equivalence tests of
tests/data/derived_dims.py (cuTile) and fixtures/triton_derived_dims (Triton, against the same cuTile kernels)
build the ports."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.workflow import check
from ctrs.frontends.cutile import module as frontend_cutile
from ctrs.emitters import render_host
from ctrs.frontends import cutile as fe
from ctrs.frontends import derived
from ctrs.ir.constexpr import ConstExpr
from ctrs.ir.ops import Generic
from ctrs.ir.verify import verify
from ctrs.passes import run_pipeline
from ctrs.passes.specialise import _fixed_generic
from ctrs.spec import load_specs

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CUTILE = DATA / "derived_dims.py"
TRITON = ROOT / "fixtures" / "triton_derived_dims" / "kernel.py"

S, L = ConstExpr.sym, ConstExpr.literal


def _lower(path: Path):
    return {k.name: k for k in fe.lower_file(frontend_cutile.ModuleInfo(path, path.read_text())).kernels}


def _src(tmp_path: Path, body: str, params: str) -> Path:
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(" + params + "):\n"
                 + "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


# -- the front ends ------------------------------------------------------------------------------------------


@pytest.mark.model
def test_cutile_shape_expressions_become_derived_generics():
    ks = _lower(CUTILE)
    got = {n: [(g.name, g.origin, g.expr.python() if g.expr else None) for g in k.generics if g.kind == "const"]
           for n, k in ks.items()}
    assert got == {
        "square_rows": [("N", "constant", None), ("N_X_N", "derived", "N * N")],
        "half_sum": [("TILE", "constant", None), ("TILE_DIV_2", "derived", "TILE // 2")],
        "regroup": [("BH", "constant", None), ("BS", "constant", None), ("BH_X_BS_DIV_8", "derived", "(BH * BS) // 8")],
        "widened": [("T", "constant", None), ("C2_X_T", "derived", "2 * T")],
        "pair_sum": [("BLOCK", "constant", None), ("C2_X_BLOCK", "derived", "2 * BLOCK")],
    }


@pytest.mark.model
def test_emit_model_prints_the_derived_expression_and_shapes_name_it():
    text = pipeline.emit_model(CUTILE, "final")
    assert "kernel @square_rows<E: dtype, N: const, N_X_N: const = N * N>(" in text
    assert "tile = [1, N_X_N]} : view<1xN_X_Nx!E>" in text
    assert "reshape %t {shape = [N, N]} : tile<NxNxf32>" in text
    assert "kernel @regroup<E: dtype, BH: const, BS: const, BH_X_BS_DIV_8: const = (BH * BS) // 8>(" in text
    # the ops that computed N * N as a scalar are dead once the shape names the generic: dce drops them
    sq = text.split("kernel @square_rows")[1].split("kernel @")[0]
    assert "muli" not in sq and "const_sym" not in sq


@pytest.mark.model
def test_one_generic_per_expression_and_a_derived_one_inlined(tmp_path):
    """``N * N`` twice is one generic; a shape of ``NN // 2`` where NN = N * N names N only (the host computes it
    from the launch's constants); a name already taken gets a suffix."""
    body = ("r = ct.bid(0)\nNN = N * N\nN_X_N = 3\na = ct.load(x, index=(r, 0), shape=(1, NN))\n"
            "b = ct.load(x, index=(r, 0), shape=(1, N * N))\nh = ct.load(x, index=(r, 0), shape=(1, NN // 2))\n"
            "ct.store(y, index=(r, 0), tile=a + b)\nct.store(y, index=(r, 1), tile=h)")
    (k,) = _lower(_src(tmp_path, body, "x, y, N: ct.Constant[int]")).values()
    got = [(g.name, g.expr.python()) for g in k.generics if g.origin == "derived"]
    assert got == [("N_X_N_2", "N * N"), ("N_X_N_DIV_2", "(N * N) // 2")]


@pytest.mark.model
def test_runtime_shape_is_still_refused(tmp_path):
    body = "r = ct.bid(0)\nt = ct.load(x, index=(r, 0), shape=(1, n * 2))\nct.store(y, index=(r, 0), tile=t)"
    with pytest.raises(errors.CtrsError) as e:
        _lower(_src(tmp_path, body, "x, y, n: int"))
    assert "a shape dimension must be an integer or a ct.Constant" in str(e.value)


@pytest.mark.model
def test_triton_constexpr_arithmetic_in_shapes():
    text = pipeline.emit_model(TRITON, "final")  # y's dtype apart from x's: its value is cast to y's type
    assert "kernel @square_rows<E: dtype, E1: dtype, N: const, N_X_N: const = N * N>(" in text
    assert "kernel @pair_sum<E: dtype, E1: dtype, BLOCK: const, C2_X_BLOCK: const = 2 * BLOCK>(" in text
    assert "tile = [1, C2_X_BLOCK]} : view<1xC2_X_BLOCKx!E>" in text
    assert "reshape %t {shape = [2, BLOCK]} : tile<2xBLOCKxf32>" in text


@pytest.mark.model
def test_triton_arange_of_half_a_constexpr(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                 "def half(x, y, stride_x, stride_y, HEAD_DIM: tl.constexpr):\n"
                 "    row = tl.program_id(0)\n    cols = tl.arange(0, HEAD_DIM // 2)\n"
                 "    t = tl.load(x + row * stride_x + cols)\n    tl.store(y + row * stride_y + cols, t * 2)\n")
    text = pipeline.emit_model(p, "final")
    assert "kernel @half<E: dtype, HEAD_DIM: const, HEAD_DIM_DIV_2: const = HEAD_DIM // 2>(" in text
    assert "tile = [1, HEAD_DIM_DIV_2]" in text


# -- the host ------------------------------------------------------------------------------------------------


def _fk(path: Path, name: str):
    mod = translate.translate_module(path)
    return next(f for f in render_host.ffi_kernels(mod) if f.python_name == name)


@pytest.mark.model
def test_ffi_computes_the_derived_generic_from_the_constants():
    fk = _fk(CUTILE, "regroup")
    assert [a.name for a in fk.consts] == ["BH", "BS"]  # no C argument for BH_X_BS_DIV_8
    exprs = [g["expr"] for g in fk.generics]
    assert exprs[-1] == "((((BH * BS) - ((((BH * BS) % 8i32) + 8i32) % 8i32)) / 8i32)).to_string()"
    specs = {s.name: s for s in load_specs(str(DATA / "derived_dims.json"))}
    assert check.generics_for(specs["regroup_16x64_f32"], fk) == ["f32", "16", "64", "128"]
    sq = _fk(CUTILE, "square_rows")
    assert check.generics_for(specs["square_n8_bf16"], sq) == ["bf16", "8", "64"]
    missing = dataclasses.replace(specs["square_n8_bf16"], args={a: v for a, v in specs["square_n8_bf16"].args.items()
                                                                 if a != "N"})
    with pytest.raises(errors.CtrsError, match="no value for"):
        check.generics_for(missing, sq)


@pytest.mark.model
def test_port_files_record_the_derived_generic(tmp_path):
    files = {p.name: p for p in translate.translate(CUTILE, tmp_path / "port")}
    kernel_rs = files["kernel.rs"].read_text()
    assert "pub fn square_rows<E: ElementType, const N: i32, const N_X_N: i32>(" in kernel_rs
    assert "Partition<E, { [1, N_X_N] }>" in kernel_rs
    ffi = files["ffi.rs"].read_text()
    assert "N.to_string(), ((N * N)).to_string()];" in ffi
    wrapper = files["wrapper.py"].read_text()
    assert "N_X_N" not in wrapper  # the Python caller passes N only
    analysis = json.loads(files["analysis.json"].read_text())
    (sq,) = [k for k in analysis["kernels"] if k["name"] == "square_rows"]
    assert {"name": "N_X_N", "kind": "const", "origin": "derived", "note": "N * N (host-computed)",
            "expr": "N * N"} in sq["generics"]
    lines = translate.explain_lines(CUTILE)
    assert any("const N_X_N: i32 <- N * N (a shape dimension computed from the constants" in ln for ln in lines)


# -- the verifier and the passes -----------------------------------------------------------------------------


def _kernel_with(generics):
    (k,) = [k for k in _lower(CUTILE).values() if k.name == "widened"]
    return dataclasses.replace(k, generics=generics)


@pytest.mark.parametrize(("gens", "why"), [
    ([Generic("T", "const", "constant"), Generic("D", "const", "derived", expr=ConstExpr("*", (S("M"), L(2))))],
     "names M, which is no constant generic"),
    ([Generic("D", "const", "derived", expr=ConstExpr("*", (S("T"), L(2)))), Generic("T", "const", "constant")],
     "names T, which is no constant generic declared before it"),
    ([Generic("T", "const", "constant"), Generic("D", "const", "derived", expr=ConstExpr("*", (S("T"), L(2)))),
      Generic("D2", "const", "derived", expr=ConstExpr("+", (S("D"), L(1))))], "names D"),
    ([Generic("T", "const", "constant"), Generic("D", "const", "derived", expr=ConstExpr("<", (S("T"), L(2))))],
     "is a comparison"),
    ([Generic("T", "const", "constant"), Generic("D", "const", "derived")], "has no expression"),
    ([Generic("T", "const", "constant"), Generic("T", "const", "constant")], "declared twice"),
])
@pytest.mark.model
def test_verifier_checks_derived_generics(gens, why):
    with pytest.raises(errors.CtrsError) as e:
        verify(_kernel_with(gens))
    assert e.value.code == errors.IR_DERIVED_GENERIC and why in str(e.value)


@pytest.mark.model
def test_verifier_accepts_the_front_ends_kernels():
    for k in _lower(CUTILE).values():
        for entry in run_pipeline(k, ["f32"]):
            verify(entry)


@pytest.mark.model
def test_a_variant_entry_fixes_the_flag_in_the_expression():
    g = Generic("D", "const", "derived", "x", expr=ConstExpr("*", (S("T"), S("F"))))
    fixed = _fixed_generic(g, "F", 1)
    assert fixed.expr == ConstExpr("*", (S("T"), L(1))) and fixed.note == "T * 1 (host-computed)"
    assert _fixed_generic(g, "G", 1) is g


@pytest.mark.model
def test_derived_names():
    assert derived.derived_name(ConstExpr("//", (ConstExpr("*", (S("BH"), S("BS"))), L(8)))) == "BH_X_BS_DIV_8"
    assert derived.derived_name(ConstExpr("cdiv", (S("N"), L(4)))) == "CDIV_N_4"
    assert derived.derived_name(ConstExpr("-", (S("N"), L(-1)))) == "N_MINUS_NEG1"
    assert derived.is_dim_expr(ConstExpr("+", (S("N"), L(1))))
    assert not derived.is_dim_expr(ConstExpr("==", (S("N"), L(1)))) and not derived.is_dim_expr(L(3))


# -- IR equivalence (builds the port) ------------------------------------------------------------------------


@pytest.mark.parametrize("spec", load_specs(str(DATA / "derived_dims.json")), ids=lambda s: s.name)
def test_derived_dims_are_ir_equivalent(tmp_path_factory, spec):
    """Each port launch (the derived generic computed as ffi.rs computes it) compiles to the reference's Tile IR,
    whose shapes cuTile Python folded to numbers: N * N, TILE // 2, BH * BS // 8, 2 * T."""
    from .conftest import assert_port_equivalent, translate_data  # noqa: PLC0415

    kernel_rs = _PORT.get("rs") or _PORT.setdefault(
        "rs", translate_data(tmp_path_factory.mktemp("derived"), ["derived_dims"])["derived_dims"])
    assert_port_equivalent(CUTILE, kernel_rs, spec)


_PORT: dict = {}
