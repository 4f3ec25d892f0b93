"""The launches a port must serve keep a cuTile kernel's free array dtype variables apart where they mix dtypes
(frontends/cutile/dtypes.launch_groups; translate.translate(.., specs=..), ``ctrs translate --spec``, ``ctrs check``).

tests/data/apart_launches.py decayed_carry: seven arrays no use forces together. Without specs they are one generic
E (policy "fewest generics", unchanged); a spec passing bf16 activations beside f32 decay / carry arrays keeps the
two groups apart (E, E1) and the port is IR-equivalent to cuTile Python's reference at that spec (cargo); a spec
passing every array in one dtype keeps one E. met_by_use: variables one by a use stay one (no crash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import translate
from ctrs.frontends import cutile as fe
from ctrs.frontends.cutile import dtypes
from ctrs.frontends.cutile.module import ModuleInfo
from ctrs.spec import load_specs
from ctrs.workflow import check

from .conftest import DATA

KERNEL = DATA / "apart_launches.py"
MIXED = DATA / "apart_launches.json"  # dc_bf16_f32_carry (bf16 x / w / scale / y, f32 decay / carry / carry_out), dc_f32
SAME = DATA / "apart_launches_same.json"  # dc_f16: every array float16
DC = ["x", "w", "decay", "carry", "scale", "y", "carry_out"]


def _arrays(specs=None) -> dict[str, dict[str, str]]:
    mod = fe.lower_file(ModuleInfo(KERNEL, KERNEL.read_text()),
                        launches=translate.launch_dtypes(load_specs(str(specs)) if specs else None))
    return {k.name: {p.name: str(p.value.type.dtype) for p in k.params if p.kind == "array"} for k in mod.kernels}


def _type_generics(path: Path | None) -> dict[str, list[str]]:
    mod = translate.translate_module(KERNEL, specs=load_specs(str(path)) if path else None)
    return {k.name: [g.name for g in k.generics if g.kind == "type"] for k in mod.kernels}


@pytest.mark.model
def test_without_specs_one_generic():
    assert _arrays()["decayed_carry"] == {a: "!E" for a in DC}
    assert _type_generics(None)["decayed_carry"] == ["E"]


@pytest.mark.model
def test_mixed_dtype_spec_keeps_groups_apart():
    assert _arrays(MIXED)["decayed_carry"] == {"x": "!E", "w": "!E", "decay": "!E1", "carry": "!E1", "scale": "!E",
                                               "y": "!E", "carry_out": "!E1"}
    assert _type_generics(MIXED)["decayed_carry"] == ["E", "E1"]


@pytest.mark.model
def test_same_dtype_spec_keeps_one_generic():
    assert _arrays(SAME)["decayed_carry"] == {a: "!E" for a in DC}
    assert translate.port_files(KERNEL, specs=load_specs(str(SAME)))[0] == translate.port_files(KERNEL)[0]


@pytest.mark.model
def test_variables_one_by_a_use_stay_one():
    spec = ('{"name": "mu", "kernel": "met_by_use", "args": {"a": {"dtype": "bfloat16", "shape": [4, 32]}, '
            '"b": {"dtype": "float32", "shape": [4, 32]}, "c": {"dtype": "float32", "shape": [4, 32]}, '
            '"out": {"dtype": "bfloat16", "shape": [4, 32]}, "N": 32}, "grid": [4]}')
    mine = _arrays(spec)["met_by_use"]
    assert mine["a"] == mine["b"]  # the use's unification stands (a launch mixing them does not compile anyway)
    assert mine["c"] != mine["out"]  # the free ones the spec passes in different dtypes are apart


@pytest.mark.model
def test_launch_groups_order_and_unknown():
    classes = dtypes.Classes(["p", "q", "r", "s"])
    free = classes.reps()
    assert dtypes.launch_groups(classes, free, []) == [free]
    launches = [{"p": "bf16", "q": "f32", "r": "bf16"}, {"p": "f32", "q": "f32", "r": "f32", "s": "f16"}]
    # s is unknown in the first launch: it joins the first group it agrees with elsewhere (none: its own)
    assert dtypes.launch_groups(classes, free, launches) == [["p", "r"], ["q"], ["s"]]
    assert dtypes.launch_groups(classes, free, launches[:1]) == [["p", "r", "s"], ["q"]]


@pytest.mark.model
def test_translate_with_specs_is_deterministic():
    specs = load_specs(str(MIXED))
    assert translate.port_files(KERNEL, specs=specs)[0] == translate.port_files(KERNEL, specs=list(specs))[0]


def test_mixed_dtype_spec_is_ir_equivalent(tmp_path):
    rows = check.check(KERNEL, [str(MIXED)], keep=tmp_path / "port")
    assert [(r.spec, r.verdict) for r in rows] == [("dc_bf16_f32_carry", "EQUIVALENT"), ("dc_f32", "EQUIVALENT")], \
        [(r.spec, r.verdict, r.findings[:2]) for r in rows]
    assert "pub fn decayed_carry<E: ElementType, E1: ElementType, const N: i32>(" in \
        (tmp_path / "port" / "kernel.rs").read_text()


FOUR = DATA / "apart_launches_four.json"  # two launches whose arrays differ four ways: four generics


@pytest.mark.model
def test_many_generics_dispatch_every_one_dtype_and_the_launches():
    from ctrs.emitters import render_host  # noqa: PLC0415

    assert _arrays(FOUR)["decayed_carry"] == {"x": "!E", "w": "!E1", "decay": "!E2", "carry": "!E2", "scale": "!E3",
                                              "y": "!E", "carry_out": "!E2"}
    specs = load_specs(str(FOUR))
    fks = {fk.name: fk for fk in render_host.ffi_kernels(translate.translate_module(KERNEL, specs=specs))}
    dc = fks["decayed_carry"]
    assert [o for _, o in dc.type_generics] == ["x", "w", "decay", "scale"]
    assert [a["names"] for a in dc.arms] == [["f32"] * 4, ["f16"] * 4, ["bf16"] * 4, ["bf16", "bf16", "f32", "f32"],
                                             ["bf16", "f32", "f32", "bf16"]]
    assert render_host.wrapper_dispatch(fks["met_by_use"]) is None  # no launch split it: every combination
    files = translate.port_files(KERNEL, specs=specs)[0]
    assert "(2, 0, 0, 2,) => unsafe" in files["ffi.rs"] and "(2, 1," not in files["ffi.rs"]
    ns: dict = {}
    start = files["wrapper.py"].index("_DISPATCH_decayed_carry = frozenset(")
    exec(files["wrapper.py"][start:files["wrapper.py"].index("})", start) + 2], ns)  # noqa: S102 - our own output
    assert ("bfloat16", "float32", "float32", "bfloat16") in ns["_DISPATCH_decayed_carry"]
    assert len(ns["_DISPATCH_decayed_carry"]) == 5
    assert "must share one dtype (generic E2)" in files["wrapper.py"]
    # two generics (the mixed spec): every combination, no wrapper check
    assert "_DISPATCH_" not in translate.port_files(KERNEL, specs=load_specs(str(MIXED)))[0]["wrapper.py"]


def test_four_generics_are_ir_equivalent(tmp_path):
    rows = check.check(KERNEL, [str(FOUR)], keep=tmp_path / "port")
    assert [(r.spec, r.verdict) for r in rows] == [("dc4_bf16_w_bf16", "EQUIVALENT"), ("dc4_bf16_w_f32", "EQUIVALENT")], \
        [(r.spec, r.verdict, r.findings[:2]) for r in rows]


MIXED_USE = DATA / "mixed_launch.py"  # gated_rows: x, gate, acc one variable by a use
MIXED_USE_SPECS = DATA / "mixed_launch.json"  # gr_bf16_f32 (bf16 x / out, f32 gate / acc), gr_f16


@pytest.mark.model
def test_a_launch_mixing_one_variable_gets_its_concrete_entry_first():
    """A launch passing arrays that a use made one dtype variable in different dtypes (bf16 x beside f32 gate: the
    reference promotes their product to f32) gets an entry of its concrete dtypes, first, so the dispatch picks it;
    the entries the port had without specs follow unchanged (dtypes.mixed_launches)."""
    plain = [k.name for k in translate.translate_module(MIXED_USE).kernels]
    mod = translate.translate_module(MIXED_USE, specs=load_specs(str(MIXED_USE_SPECS)))
    rows, picks = ([n for n in names if n.startswith(p)] for names in (plain,) for p in ("gated_rows", "gated_pick"))
    # gated_pick: found in the entries that fix its index array (the generic lowering stops at that array)
    assert [k.name for k in mod.kernels] == ["gated_rows_bf16_f32_bf16", *rows, "gated_pick_i32_bf16_f32_bf16", *picks]
    first = mod.kernels[0]
    assert {p.name: str(p.dtype) for p in first.params if p.kind == "array"} == \
        {"x": "bf16", "gate": "f32", "acc": "f32", "out": "bf16"}
    classes = dtypes.Classes(["x", "gate", "acc", "out"])
    classes.union("x", "gate")
    launches = [{"x": "bf16", "gate": "f32", "out": "bf16"}, {"x": "f16", "gate": "f16"},
                {"x": "bf16", "gate": "f32", "out": "bf16"}]
    assert [{a: d.name for a, d in f.items()} for f in dtypes.mixed_launches(classes, launches)] == \
        [{"x": "bf16", "gate": "f32", "out": "bf16"}]  # once, the same-dtype launch not at all
    # a free variable passed in a dtype no type generic dispatches (an int8 mask: TileGym's attention variants;
    # the JIT cannot spell E::ZERO of i8) gets its entry too; an index dtype the solver specialises does not
    generic = ("f32", "f16", "bf16", "i32", "i64")
    masks = [{"x": "bf16", "gate": "bf16", "acc": "i8"}, {"x": "bf16", "gate": "bf16", "acc": "i32"}]
    assert [{a: d.name for a, d in f.items()} for f in dtypes.mixed_launches(classes, masks, generic)] == [masks[0]]
    assert dtypes.mixed_launches(classes, masks) == []  # without the generic dtypes: only mixed classes count


def test_a_launch_mixing_one_variable_is_ir_equivalent(tmp_path):
    rows = check.check(MIXED_USE, [str(MIXED_USE_SPECS)], keep=tmp_path / "port")
    assert [(r.spec, r.verdict) for r in rows] == [("gr_bf16_f32", "EQUIVALENT"), ("gr_f16", "EQUIVALENT"),
                                                   ("gp_bf16_f32", "EQUIVALENT"), ("gp_f16", "EQUIVALENT")], \
        [(r.spec, r.verdict, r.findings[:2]) for r in rows]
