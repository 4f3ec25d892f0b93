"""Arrays of different dtypes in one kernel (frontends/cutile/dtypes.py, ir/typing.py; docs/ir.md "Array dtype
variables"): every array has a dtype variable, stores bind / cast as cuTile Python's implicit_cast, meetings
unify, dtype-dependent lowerings specialise per dtype.

tests/data/ir_dtypes.py translates on the typed path and is IR-equivalent to cuTile Python's reference at every
spec next to it, several dtype combinations per kernel (cargo); the rest is model-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.frontends.cutile.module import ModuleInfo
from ctrs.emitters import render_host
from ctrs.frontends import cutile as fe
from ctrs.ir import typing as irtyping
from ctrs.ir.ops import OpKind, walk
from ctrs.ir.types import BF16, F16, F32, I32, DTypeParam
from ctrs.spec import load_specs

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "ir_dtypes.py"


def _lower(path: Path):
    return fe.lower_file(ModuleInfo(path, path.read_text())).kernels


def _src(tmp_path: Path, body: str, params: str) -> Path:
    p = tmp_path / "k.py"
    p.write_text(f"import cuda.tile as ct\n\n\n@ct.kernel\ndef k({params}):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def _arrays(k) -> dict[str, str]:
    return {p.name: str(p.value.type.dtype) for p in k.params if p.kind == "array"}


def test_ir_dtypes_kernels_are_ir_equivalent(tmp_path):
    mod = translate.translate_module(KERNEL)
    assert mod.pipeline == pipeline.PIPELINE_NAME and mod.refused is None
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(KERNEL.with_suffix(".json")))
    fks = render_host.ffi_kernels(mod)
    sel = [fk.selector() for fk in fks]

    def entry(s) -> str:  # the entry the C dispatcher / wrapper / ctrs check pick for the spec's array dtypes
        dts = {n: a.dtype for n, a in s.args.items() if hasattr(a, "dtype") and a.dtype}
        return render_host.pick_entry(sel, s.kernel, {}, dts)["name"]

    picked = [entry(s) for s in specs]
    assert picked == [s.rust.get("entry") or s.kernel for s in specs]
    combos = {}
    for s in specs:
        combos.setdefault(s.kernel, set()).add(tuple(a.dtype for a in s.args.values() if hasattr(a, "dtype")))
    assert all(len(c) >= 2 for c in combos.values())  # every kernel at two dtype combinations or more
    gens = ir_rs.compile_ports(kernel_rs, list(zip(specs, picked)))
    failed = []
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(KERNEL, s)
        try:
            assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)
        except AssertionError as e:
            failed.append(f"{s.name}: {e}")
    assert not failed, "\n".join(failed)


# -- model-only ---------------------------------------------------------------------------------------------

@pytest.mark.model
def test_f32_store_binds_its_array_next_to_a_generic_input():
    ks = {k.name: k for k in _lower(KERNEL)}
    rs = ks["row_stats"]
    assert _arrays(rs) == {"x": "!E", "y": "!E", "mean": "f32"}
    assert [g.name for g in rs.generics if g.kind == "type"] == ["E"]
    sl = ks["scatter_lse"]
    assert _arrays(sl) == {"q": "!E", "out": "!E", "lse": "f32"}
    (sc,) = [o for o in walk(sl.body) if o.kind == OpKind.SCATTER]
    assert str(sc.operands[-1].type) == "tile<Txf32>"  # the f32 values, no cast


@pytest.mark.model
def test_i32_meeting_an_array_specialises_it_ints_first():
    ks = [k for k in _lower(KERNEL) if (k.python_name or k.name) == "offset_gather"]
    assert [k.name for k in ks] == ["offset_gather_i32"]  # ids: i32 (f32/f16/bf16 ids cannot index a gather)
    assert _arrays(ks[0]) == {"ids": "i32", "x": "!E", "y": "!E"}
    entries = [k.name for k in pipeline.lower(KERNEL) if (k.python_name or k.name) == "offset_gather"]
    # gather of E; only integer-capable ops use x and y: integer element entries too (tests/test_int_elements.py)
    assert entries == ["offset_gather_i32_f32", "offset_gather_i32_f16", "offset_gather_i32_bf16",
                       "offset_gather_i32_i32", "offset_gather_i32_i64"]


@pytest.mark.model
def test_full_of_an_array_dtype(tmp_path):
    ks = [k for k in _lower(KERNEL) if (k.python_name or k.name) == "fill_like"]
    assert [k.name for k in ks] == ["fill_like_f32", "fill_like_f16", "fill_like_bf16"]  # the 1 is spelled per dtype
    (k,) = _lower(_src(tmp_path, "t = ct.load(x, index=(0,), shape=(T,))\n"
                                 "ct.store(y, index=(0,), tile=ct.maximum(t, ct.zeros((T,), dtype=x.dtype)))",
                       "x, y, T: ct.Constant[int]"))
    (c,) = [o for o in walk(k.body) if o.kind == OpKind.CONSTANT and str(o.result.type) == "tile<Tx!E>"]
    assert c.attrs["value"] == 0.0  # a zero of the variable: generic (E::ZERO)
    rs = translate.translate_source(_src(tmp_path, "t = ct.load(x, index=(0,), shape=(T,))\n"
                                         "ct.store(y, index=(0,), tile=ct.maximum(t, ct.zeros((T,), dtype=x.dtype)))",
                                         "x, y, T: ct.Constant[int]"))["kernel.rs"]
    assert "constant(E::ZERO, const_shape![T])" in rs


@pytest.mark.model
def test_math_is_generic_a_reduction_specialises(tmp_path):
    # ct.exp applies in the array's (float) dtype: generic; ct.max's identity is a literal of one dtype: the
    # reduced array is concrete per entry, the stored-into one stays generic beside it
    (k,) = _lower(_src(tmp_path, "t = ct.load(x, index=(0,), shape=(T,))\n"
                                 "ct.store(y, index=(0,), tile=ct.exp(t))", "x, y, T: ct.Constant[int]"))
    assert k.name == "k" and _arrays(k) == {"x": "!E", "y": "!E"}
    ks = _lower(_src(tmp_path, "t = ct.load(x, index=(0,), shape=(T,))\n"
                               "ct.store(y, index=(0,), tile=ct.astype(ct.max(t, axis=0, keepdims=True), y.dtype))",
                     "x, y, T: ct.Constant[int]"))
    assert [k.name for k in ks] == ["k_f32", "k_f16", "k_bf16"]
    assert _arrays(ks[1]) == {"x": "f16", "y": "!E"}


@pytest.mark.model
def test_a_variable_meeting_f32_keeps_its_own_generic(tmp_path):
    # lse's tiles meet f32 tiles (f32 wins whatever lse is): it is a variable of its own, not merged into E
    (k,) = _lower(_src(tmp_path, "lv = ct.load(lse, index=(0,), shape=(T,))\n"
                                 "t = ct.astype(ct.load(x, index=(0,), shape=(T,)), ct.float32)\n"
                                 "ct.store(y, index=(0,), tile=ct.astype(t - lv, y.dtype))",
                       "lse, x, y, T: ct.Constant[int]"))
    assert _arrays(k) == {"lse": "!E", "x": "!E1", "y": "!E1"}
    assert [g.name for g in k.generics if g.kind == "type"] == ["E", "E1"]


@pytest.mark.model
def test_implicit_cast_rules():
    assert irtyping.implicit_cast(F16, F32, "s") == F32  # widened, as the reference's implicit_cast
    with pytest.raises(irtyping.PromotionError):
        irtyping.implicit_cast(F32, F16, "s")  # narrowed: refused
    with pytest.raises(irtyping.PromotionError):
        irtyping.implicit_cast(F16, BF16, "s")
    e, e1 = DTypeParam("E"), DTypeParam("E1")
    assert irtyping.implicit_cast(e, F32, "s") == F32  # every array float promotes to f32
    with pytest.raises(irtyping.Bind) as b:
        irtyping.implicit_cast(F32, e, "s")
    assert (b.value.param, b.value.dtype) == (e, F32)
    with pytest.raises(irtyping.Bind) as b:
        irtyping.implicit_cast(e, F16, "s")  # E into an f16 array: E is f16
    assert (b.value.param, b.value.dtype) == (e, F16)
    with pytest.raises(irtyping.Unify):
        irtyping.implicit_cast(e, e1, "s")
    with pytest.raises(irtyping.GenericMeetsConcrete) as g:
        irtyping.promote(I32, e)
    assert g.value.params == (e,) and g.value.met == I32

