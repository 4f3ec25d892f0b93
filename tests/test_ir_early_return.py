"""Early returns of a kernel body and arms binding a number against a runtime scalar (typed cuTile front end,
transpiler/frontends/cutile/early_return.py, control.py; the diff's reading of the reference, ircanon.py).

cuTile Python keeps ``if c { ..; return } else { yield }`` followed by the rest of the body; cutile lowers a
``return`` only at a function body's top level, so the port moves the rest into the arms that do not return and
ircanon reads the reference the same way. The model-only tests need neither cargo nor cuda-tile; the
equivalence tests prove tests/data/cf_early_return.py and cf_arm_number.py for every spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends.cutile import module as frontend_cutile
from ctrs.verify import ir_ref
from ctrs.verify import irdiff
from ctrs.frontends import cutile as fe
from ctrs.ir.ops import OpKind, walk
from ctrs.spec import load_specs

from .conftest import DATA, assert_port_equivalent, translate_data


def _lower(path: Path):
    info = frontend_cutile.ModuleInfo(path, path.read_text())
    return fe.lower_file(info).kernels


def _src(tmp_path: Path, body: str, params: str) -> Path:
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(" + params + "):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def _top_ops(k):
    return [op.kind for op in k.body.ops]


# -- model only ----------------------------------------------------------------------------------------------

@pytest.mark.model
def test_the_rest_of_the_body_moves_into_the_arm_that_does_not_return(tmp_path):
    body = ("r = ct.bid(0)\nif r >= n:\n    ct.store(y, index=(r, 0), tile=ct.full((1, T), 0.0, dtype=y.dtype))\n"
            "    return\nt = ct.load(x, index=(r, 0), shape=(1, T))\nct.store(y, index=(r, 0), tile=t)")
    (k,) = _lower(_src(tmp_path, body, "x, y, n: int, T: ct.Constant[int]"))
    assert _top_ops(k)[-2:] == [OpKind.IF, OpKind.YIELD]  # the if ends the kernel
    iff = k.body.ops[-2]
    assert iff.results == []  # nothing after it reads what its arms bind
    then, other = iff.regions
    assert [op.kind for op in then.ops if op.kind in (OpKind.STORE_VIEW, OpKind.LOAD_VIEW)] == [OpKind.STORE_VIEW]
    assert [op.kind for op in other.ops if op.kind in (OpKind.STORE_VIEW, OpKind.LOAD_VIEW)] == [OpKind.LOAD_VIEW, OpKind.STORE_VIEW]
    assert any("returns early" in t for _, kind, t in k.notes if kind == "branch")


@pytest.mark.model
def test_arms_of_an_early_return_bind_names_of_other_types(tmp_path):
    """`t` is a 1xT tile of y's dtype in the arm that returns and an f32 tile in the rest: no result, no error."""
    body = ("r = ct.bid(0)\nt = ct.full((1, T), 0.0, dtype=y.dtype)\nif r >= n:\n"
            "    t = ct.full((1, T), 1.0, dtype=y.dtype)\n    ct.store(y, index=(r, 0), tile=t)\n    return\n"
            "t = ct.astype(ct.load(x, index=(r, 0), shape=(1, T)), ct.float32)\n"
            "ct.store(y, index=(r, 0), tile=ct.astype(t, y.dtype))")
    ks = _lower(_src(tmp_path, body, "x, y, n: int, T: ct.Constant[int]"))  # one entry per dtype of y's constant
    assert ks and all([op for op in walk(k.body) if op.kind == OpKind.IF][0].results == [] for k in ks)


@pytest.mark.model
def test_a_return_inside_a_loop_is_still_refused(tmp_path):
    body = ("r = ct.bid(0)\nfor j in range(4):\n    if j >= n:\n        return\n"
            "    ct.store(y, index=(r, j), tile=ct.load(x, index=(r, j), shape=(1, T)))")
    with pytest.raises(errors.CtrsError) as e:
        _lower(_src(tmp_path, body, "x, y, n: int, T: ct.Constant[int]"))
    assert e.value.code == errors.IR_NESTED_RETURN and (e.value.loc.line, e.value.loc.col) == (9, 13)


@pytest.mark.model
def test_a_number_in_one_arm_is_yielded_as_a_constant(tmp_path):
    (k,) = pipeline.lower(DATA / "cf_arm_number.py")
    ifs = [op for op in walk(k.body) if op.kind == OpKind.IF and op.results]
    lo = next(op for op in ifs if "flag" in op.attrs and op.attrs["flag"] == "W")
    const_arm = next(r for r in lo.regions if any(o.kind == OpKind.CONSTANT and o.attrs.get("value") == 0
                                                   for o in r.ops))
    assert const_arm.ops[-1].kind == OpKind.YIELD and const_arm.ops[-1].operands[0].type == lo.results[0].type
    # `inner == 2 and not EVEN`, inner = 3 - STAGE: a compile-time test (an if on the expression), not runtime
    assert any(op.attrs.get("flag") == "(3 - STAGE) == 2" for op in ifs + [o for o in walk(k.body)
                                                                          if o.kind == OpKind.IF])


@pytest.mark.model
def test_a_number_against_a_constant_derived_value_keeps_the_split(tmp_path):
    """`n = 0` / `n = T * 2` (computed from ct.Constant values only): still a compile-time value per arm."""
    body = ("r = ct.bid(0)\nif F:\n    m = T * 2\nelse:\n    m = 0\n"
            "ct.store(y, index=(r, 0), tile=ct.full((1, T), m, dtype=y.dtype))")
    entries = pipeline.lower(_src(tmp_path, body, "y, T: ct.Constant[int], F: ct.Constant[bool]"))
    assert [e.name for e in entries] == ["k__F_0", "k__F_1"]


# -- the diff's reading of the reference ---------------------------------------------------------------------

def test_the_reference_without_its_return_is_a_different_kernel():
    """ircanon reads `if c { A; return } else { yield }; R` as `if c { A } else { R }`; the same IR with the
    return dropped (R runs on every path) must stay critical."""
    (spec, *_) = load_specs(str(DATA / "cf_early_return.json"))
    ref = ir_ref.compile_reference(DATA / "cf_early_return.py", spec).text
    assert irdiff.diff(ref, ref, "ref", "gen").verdict() == "EQUIVALENT"
    lines = ref.splitlines()
    i = next(i for i, x in enumerate(lines) if x.strip().startswith("return") and not lines[i + 1].startswith("}"))
    wrong = "\n".join(lines[:i] + lines[i + 1:])
    assert irdiff.diff(ref, wrong, "ref", "gen").verdict() == "CRITICAL"


# -- IR equivalence (cargo + cuda-tile) ----------------------------------------------------------------------

@pytest.mark.parametrize("kernel", ["cf_early_return", "cf_arm_number"])
def test_early_returns_and_number_arms_are_ir_equivalent(tmp_path, kernel):
    py = DATA / f"{kernel}.py"
    assert translate.translate_module(py).pipeline == pipeline.PIPELINE_NAME
    kernel_rs = translate_data(tmp_path, [kernel])[kernel]
    if kernel == "cf_early_return":
        rs = kernel_rs.read_text()
        assert "return" not in rs.split("pub fn early_rows", 1)[1]  # cutile cannot lower a nested return
    for s in load_specs(str(DATA / f"{kernel}.json")):
        assert_port_equivalent(py, kernel_rs, s)
