"""A cuTile kernel with several free array dtype variables keeps each its own type generic
(frontends/cutile/dtypes.py APART_FEWEST_CUTILE .. APART_CUTILE; docs/ir.md "Array dtype variables"), and its C
entry dispatches only the dtype combinations a launch makes (emitters/render_host.dispatch_combos).

tests/data/apart_dtypes.py: gated_update (seven independent arrays: seven generics) is IR-equivalent to cuTile
Python's reference at a mixed bf16 / f32 spec and an all-f32 one (cargo); three_arrays (three variables) stays one
E. The rest is model-only."""

from __future__ import annotations

import pytest

from ctrs import translate
from ctrs.emitters import render_host
from ctrs.frontends import cutile as fe
from ctrs.frontends.cutile import dtypes
from ctrs.frontends.cutile.module import ModuleInfo
from ctrs.spec import load_specs
from ctrs.verify import ir_ref, ir_rs, irdiff

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "apart_dtypes.py"
SEVEN = ["E", "E1", "E2", "E3", "E4", "E5", "E6"]


def _kernels():
    return {k.name: k for k in fe.lower_file(ModuleInfo(KERNEL, KERNEL.read_text())).kernels}


def _arrays(k) -> dict[str, str]:
    return {p.name: str(p.value.type.dtype) for p in k.params if p.kind == "array"}


@pytest.mark.model
def test_free_variables_stay_apart_from_four_on():
    ks = _kernels()
    gu = ks["gated_update"]
    assert _arrays(gu) == dict(zip(["q", "kk", "gate", "beta", "state", "out", "new_state"], (f"!{g}" for g in SEVEN)))
    assert [g.name for g in gu.generics if g.kind == "type"] == SEVEN
    assert dtypes.APART_FEWEST_CUTILE <= len(SEVEN) <= dtypes.APART_CUTILE


@pytest.mark.model
def test_three_free_variables_are_one_e():
    k = _kernels()["three_arrays"]
    assert _arrays(k) == {"x": "!E", "w": "!E", "y": "!E"}
    assert [g.name for g in k.generics if g.kind == "type"] == ["E"]


@pytest.mark.model
def test_dispatch_combos():
    assert render_host.dispatch_combos(3) == [list(c) for c in __import__("itertools").product(
        ("f32", "f16", "bf16"), repeat=3)]  # up to three generics: every combination, as before
    c7 = render_host.dispatch_combos(7)
    assert len(c7) == 3 + 2 * (7 + 21)
    assert c7[:3] == [["f32"] * 7, ["f16"] * 7, ["bf16"] * 7]
    assert ["bf16", "bf16", "f32", "bf16", "f32", "bf16", "bf16"] in c7  # bf16 data, f32 gate and state
    assert ["bf16", "f32", "f32", "f32", "bf16", "bf16", "bf16"] not in c7  # three f32 beside bf16
    assert not any("f16" in c and "bf16" in c for c in c7)  # never two 16-bit dtypes
    # an element entry (two generics made concrete) dispatches the rest of the combinations its fixed part allows
    assert render_host.dispatch_combos(5, ("f32", "f32")) == [["f32"] * 5, ["f16"] * 5, ["bf16"] * 5]
    assert len(render_host.dispatch_combos(5, ("f32", "bf16"))) == 1 + 5
    assert render_host.dispatch_combos(5, ("f16", "bf16")) == []


@pytest.mark.model
def test_c_entry_and_wrapper_dispatch_only_plausible_combos(tmp_path):
    mod = translate.translate_module(KERNEL)
    fks = {fk.name: fk for fk in render_host.ffi_kernels(mod)}
    gu, three = fks["gated_update"], fks["three_arrays"]
    assert [g for g, _ in gu.type_generics] == SEVEN
    assert [a["names"] for a in gu.arms] == render_host.dispatch_combos(7) and len(gu.arms) == 59
    assert render_host.restricted_dispatch(gu) and not render_host.restricted_dispatch(three)
    assert [a["names"] for a in three.arms] == [["f32"], ["f16"], ["bf16"]]
    files = {p.name: p.read_text() for p in translate.translate(KERNEL, tmp_path / "port")}
    ffi = files["ffi.rs"]
    assert ffi.count("(2, 2, 0, 2, 0, 2, 2,) => unsafe") == 1  # bf16 q / kk / beta / out / new_state, f32 gate, state
    assert "(1, 2," not in ffi and "(2, 1," not in ffi  # no arm mixes f16 and bf16
    assert ffi.count("_ => rc::UNSUPPORTED_DTYPE,") == 2
    # the wrapper refuses the combinations the C entry does not dispatch, before the call
    ns: dict = {}
    start = files["wrapper.py"].index("_DISPATCH_gated_update = frozenset(")
    exec(files["wrapper.py"][start:files["wrapper.py"].index("})", start) + 2], ns)  # noqa: S102 - our own output
    allowed = ns["_DISPATCH_gated_update"]
    assert len(allowed) == 59
    assert ("bfloat16", "bfloat16", "float32", "bfloat16", "float32", "bfloat16", "bfloat16") in allowed
    assert ("float16", "bfloat16", "float32", "float32", "float32", "float32", "float32") not in allowed
    assert "_DISPATCH_three_arrays" not in files["wrapper.py"]


def test_apart_kernels_are_ir_equivalent(tmp_path):
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(KERNEL.with_suffix(".json")))
    assert {a.dtype for a in specs[0].args.values() if hasattr(a, "dtype")} == {"bfloat16", "float32"}
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.kernel) for s in specs])
    failed = []
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(KERNEL, s)
        if s is specs[0]:  # the reference's entry takes bf16 and f32 pointers side by side
            assert "ptr<f32>" in ref.text and "ptr<bf16>" in ref.text
        try:
            assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)
        except AssertionError as e:
            failed.append(f"{s.name}: {e}")
    assert not failed, "\n".join(failed)
