"""TileGym op-level gaps on the typed path (branch tg-ops): a ct.Constant[bool] whose arms store different dtypes
into one array (control.FlagDType: one entry per flag value, each with dtype variables of its own).

tests/data/ops_flag_store_dtype.py is IR-equivalent to cuTile Python's reference at both specs next to it (cargo);
the rest is model-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.workflow import check
from ctrs.frontends.cutile import module as frontend_cutile
from ctrs.frontends import cutile as fe

from .conftest import DATA

FLAG_STORE = DATA / "ops_flag_store_dtype.py"


def _lower(path: Path):
    return fe.lower_file(frontend_cutile.ModuleInfo(path, path.read_text())).kernels


def _arrays(k) -> dict[str, str]:
    return {p.name: str(p.value.type.dtype) for p in k.params if p.kind == "array"}


def _src(tmp_path: Path, body: str, params: str) -> Path:
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(" + params + "):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def test_flag_store_dtype_is_ir_equivalent(tmp_path):
    mod = translate.translate_module(FLAG_STORE)
    assert mod.pipeline == pipeline.PIPELINE_NAME and mod.refused is None
    rows = check.check(FLAG_STORE, [str(FLAG_STORE.with_suffix(".json"))], keep=tmp_path / "port")
    assert sorted((r.spec, r.verdict) for r in rows) == [("full_f32", "EQUIVALENT"), ("half_bf16", "EQUIVALENT")]


def test_flag_store_dtype_entries_per_value():
    ks = _lower(FLAG_STORE)
    assert [(k.name, k.variant) for k in ks] == [("ops_flag_store_dtype__HALF_0", (("HALF", 0),)),
                                                  ("ops_flag_store_dtype__HALF_1", (("HALF", 1),))]
    assert [_arrays(k) for k in ks] == [{"x": "!E", "y": "f32", "s": "f32"}, {"x": "!E", "y": "bf16", "s": "f32"}]
    assert any(kind == "variant" and "the arrays' dtypes depend on it" in text for _, kind, text in ks[0].notes)


def test_flag_store_dtype_nested_flags(tmp_path):
    # the innermost flag whose arm fails is split first (B: f16 and f32 stores); the outer one only where its own
    # arms still do not cast (B=1: f16 and bf16); with B=0 a bf16 tile casts into the f32 array (implicit_cast)
    p = _src(tmp_path, """
t = ct.load(x, index=(0,), shape=(16,))
if A:
    if B:
        ct.store(y, index=(0,), tile=ct.astype(t, ct.float16))
    else:
        ct.store(y, index=(0,), tile=ct.astype(t, ct.float32))
else:
    ct.store(y, index=(0,), tile=ct.astype(t, ct.bfloat16))
""", "x, y, A: ct.Constant[bool], B: ct.Constant[bool]")
    ks = _lower(p)
    got = {k.name: _arrays(k)["y"] for k in ks}
    assert got == {"k__B_0": "f32", "k__A_0__B_1": "bf16", "k__A_1__B_1": "f16"}


def test_flag_store_dtype_outside_arm_still_refused(tmp_path):
    # an f32 tile into an array a bf16 store of the same arm binds: no launch compiles, whatever the flag
    p = _src(tmp_path, """
t = ct.load(x, index=(0,), shape=(16,))
if A:
    ct.store(y, index=(0,), tile=ct.astype(t, ct.bfloat16))
    ct.store(y, index=(1,), tile=ct.astype(t, ct.float32))
""", "x, y, A: ct.Constant[bool]")
    with pytest.raises(errors.CtrsError) as e:
        _lower(p)
    assert "f32 into an array of bf16" in str(e.value)


DEAD_CALL = DATA / "ops_flag_dead_call.py"


def test_flag_dead_call_is_ir_equivalent(tmp_path):
    rows = check.check(DEAD_CALL, [str(DEAD_CALL.with_suffix(".json"))], keep=tmp_path / "port")
    assert sorted((r.spec, r.verdict) for r in rows) == [("plain_f16", "EQUIVALENT"), ("plain_f32", "EQUIVALENT")]


def test_flag_dead_call_keeps_the_entries_the_reference_compiles():
    (k,) = _lower(DEAD_CALL)
    assert (k.name, k.variant) == ("ops_flag_dead_call__SWISH_0", (("SWISH", 0),))
    notes = [text for _, kind, text in k.notes if kind == "variant"]
    assert any(t.startswith("no entry for SWISH not in [0]: ct.sigmoid is not a function of cuTile Python 1.7.0")
               for t in notes), notes


def test_dead_call_outside_a_flag_arm_is_refused(tmp_path):
    p = _src(tmp_path, """
t = ct.load(x, index=(0,), shape=(16,))
ct.store(y, index=(0,), tile=ct.sigmoid(t))
""", "x, y")
    with pytest.raises(errors.CtrsError) as e:
        _lower(p)
    assert e.value.code == errors.IR_NOT_IN_REFERENCE


def test_dead_call_in_both_arms_is_refused(tmp_path):
    # every value of the flag reaches ct.sigmoid: no launch compiles, the kernel is refused with the reason
    p = _src(tmp_path, """
t = ct.load(x, index=(0,), shape=(16,))
if A:
    t = ct.sigmoid(t)
else:
    t = ct.sigmoid(t) * 2.0
ct.store(y, index=(0,), tile=t)
""", "x, y, A: ct.Constant[bool]")
    with pytest.raises(errors.CtrsError) as e:
        _lower(p)
    assert e.value.code == errors.IR_NOT_IN_REFERENCE


PACK = DATA / "ops_pack_bytes.py"


def test_pack_to_bytes_is_ir_equivalent(tmp_path):
    rows = check.check(PACK, [str(PACK.with_suffix(".json"))], keep=tmp_path / "port")
    assert sorted((r.spec, r.verdict) for r in rows) == [("f16", "EQUIVALENT"), ("f32", "EQUIVALENT")]


def test_pack_to_bytes_ops():
    from ctrs.ir.ops import OpKind, walk  # noqa: PLC0415

    ks = {k.name: k for k in _lower(PACK)}
    # x's tile cast to int8 gives x an int8 entry too (an astype of a dtype-variable tile to an integer is per
    # launch: frontends/cutile/tiles.py astype, the index-array rule)
    assert sorted(ks) == ["ops_pack_bytes_bf16", "ops_pack_bytes_f16", "ops_pack_bytes_f32", "ops_pack_bytes_i8"]
    packs = [(op.kind, str(op.operands[0].type), str(op.results[0].type)) for op in walk(ks["ops_pack_bytes_f16"].body)
             if op.kind in (OpKind.PACK, OpKind.BITCAST)]
    assert packs == [(OpKind.PACK, "tile<128xf16>", "tile<256xu8>"), (OpKind.BITCAST, "tile<128xi8>", "tile<128xu8>")]


def test_pack_to_bytes_needs_cutile_050(tmp_path, monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")  # the typed path's own reason (not the text model's)
    with pytest.raises(errors.CtrsError) as e:
        translate.translate(PACK, tmp_path / "o", cutile="0.3.1")
    assert "cutile 0.3.1 has no pack op" in str(e.value)


def test_pack_to_bytes_whole_bytes(tmp_path):
    p = _src(tmp_path, """
t = ct.astype(ct.load(x, index=(0,), shape=(3,)), ct.int8)
ct.store(y, index=(0,), tile=ct.pack_to_bytes(ct.astype(t, ct.bool_)))
""", "x, y")
    with pytest.raises(errors.CtrsError) as e:
        _lower(p)
    assert "pack_to_bytes of a bool tile" in str(e.value)
