"""Integer element entries (passes/specialise.element_entries, rules/cutile.toml [element_entries] int_dtypes): an
array dtype variable that no annotation fixes and that only integer-capable ops use (gathers / scatters, + - *,
compares, ct.maximum, ct.where, ct.cumsum) gets ``<kernel>_i32`` / ``<kernel>_i64`` entries beside the float ones,
its float ops renamed to their integer counterparts; the wrapper picks them for int32 / int64 arrays and the port is
IR-equivalent to the reference there (tests/data/int_elements.py). A kernel with a float-only op (ct.exp) on the
variable gets none."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import pipeline, translate
from ctrs.emitters import render_host
from ctrs.ir.ops import OpKind
from ctrs.ir_rules import cutile_rules
from ctrs.passes import specialise
from ctrs.spec import load_specs
from ctrs.workflow import check

from .conftest import DATA, assert_port_equivalent, translate_data

KERNEL = "int_elements"
SPECS = {s.name: s for s in load_specs(str(DATA / f"{KERNEL}.json"))}


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("ie"), [KERNEL])[KERNEL]


def _entries() -> dict:
    return {k.name: k for k in pipeline.lower(DATA / f"{KERNEL}.py")}


def test_integer_entries_beside_the_float_ones(port):
    names = list(_entries())
    assert [n for n in names if n.startswith("running_count")] == [
        "running_count_f32", "running_count_f16", "running_count_bf16", "running_count_i32", "running_count_i64"]
    text = port.read_text()
    assert "pub fn running_count_i32<const TILE: i32>(" in text
    assert "Counts: &Tensor<i32, { [-1] }>" in text and "Counts: &Tensor<i64, { [-1] }>" in text


def test_integer_entry_has_integer_ops():
    k = _entries()["running_count_i32"]
    kinds = {op.kind for b in specialise.walk_blocks(k.body) for op in b.ops}
    assert {OpKind.ADDI, OpKind.SUBI, OpKind.MULI, OpKind.MAXI, OpKind.CMPI} <= kinds
    assert not kinds & {OpKind.ADDF, OpKind.SUBF, OpKind.MULF, OpKind.MAXF, OpKind.CMPF, OpKind.FMA}
    cmp = next(op for b in specialise.walk_blocks(k.body) for op in b.ops if op.kind == OpKind.CMPI)
    assert cmp.attrs == {"predicate": "gt"}  # cmpf's ordering is not an attribute of cmpi


def test_integer_entries_are_optional():
    # an integer entry the emitter cannot spell is left out (pipeline.translate_module), the kernel kept
    ks = _entries()
    assert ks["running_count_i32"].optional and ks["running_count_i64"].optional
    assert not ks["running_count_f32"].optional


def test_float_only_op_gets_no_integer_entry():
    names = [n for n in _entries() if n.startswith("exp_gather")]
    assert names == ["exp_gather_f32", "exp_gather_f16", "exp_gather_bf16"]


def test_padding_no_integer_holds_gets_no_integer_entry():
    # -1e30 is integral as a float but fits neither i32 nor i64: an integer entry would not compile (rustc's
    # overflowing_literals; TileGym's _ce_online_kernel logits padding)
    names = [n for n in _entries() if n.startswith("big_pad_max")]
    assert names == ["big_pad_max_f32", "big_pad_max_f16", "big_pad_max_bf16"]


def test_cap_keeps_float_entries_only():
    (k,) = [k for k in pipeline.fe_cutile.lower_file(pipeline._info(DATA / f"{KERNEL}.py")).kernels
            if k.name == "running_count"]
    rules = dict(cutile_rules()["element_entries"], max_entries=3)  # 5 entries would pass the cap
    got = [e.name for e in specialise.element_entries(k, rules["dtypes"], rules)]
    assert got == ["running_count_f32", "running_count_f16", "running_count_bf16"]


@pytest.mark.parametrize("name,entry", [("count_i32", "running_count_i32"), ("count_i64", "running_count_i64"),
                                        ("count_f32", "running_count_f32")])
def test_wrapper_picks_the_entry_of_the_arrays_dtype(name, entry):
    fks = render_host.ffi_kernels(translate.translate_module(Path(DATA / f"{KERNEL}.py")))
    assert check.entry_for(SPECS[name], fks).name == entry


@pytest.mark.parametrize("name", ["count_i32", "count_i64"])
def test_integer_entry_is_ir_equivalent(port, name):
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, SPECS[name])
