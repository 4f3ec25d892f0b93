"""The tile operators and cuTile Python's typing on the typed IR, model only (no cargo, no cuda-tile): the
promotion table, loosely typed Python numbers, scalars meeting tiles, the ops each operator lowers to, and the
diagnostics for what cuTile Python or cutile 0.3.1 cannot do. IR equivalence of the same constructs against
the reference: tests/test_ir_ops_equiv.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors
from ctrs.frontends.cutile.module import ModuleInfo
from ctrs.frontends import cutile as fe
from ctrs.ir import typing as irtyping
from ctrs.ir.ops import Kernel, OpKind, walk
from ctrs.ir.types import BF16, BOOL, DTYPES, F16, F32, F64, I32, I64, TF32, DTypeParam, ScalarType, Sym, TileType
from ctrs.passes import dce

pytestmark = pytest.mark.model  # model-only: no cargo, no cuda-tile (tests/conftest.py guard)

E = DTypeParam("E")
U32, I8 = DTYPES["u32"], DTYPES["i8"]


def _lower(tmp_path: Path, body: str, params: str = "x, y, T: ct.Constant[int]") -> Kernel:
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(" + params + "):\n"
                 + "".join(f"    {line}\n" for line in body.strip().splitlines()))
    # a tile of x cast to an integer makes x's dtype per launch (entries per dtype, the integer's first: the
    # reference converts or not by x's dtype); the ops under test are in every entry
    ks = fe.lower_file(ModuleInfo(p, p.read_text())).kernels
    assert len(ks) == 1 or "ct.int" in body, [k.name for k in ks]
    return ks[0]


def _ops(k: Kernel) -> list:
    return list(walk(k.body))


def _refused(tmp_path: Path, body: str, codes=(errors.IR_UNSUPPORTED, errors.IR_SCAN_AXIS,
                                                  errors.IR_NOT_IN_REFERENCE, errors.CALL_SIGNATURE)) -> errors.CtrsError:
    with pytest.raises(errors.CtrsError) as ei:
        _lower(tmp_path, body)
    assert ei.value.code in codes and ei.value.loc is not None
    return ei.value


LOAD = "t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(T,)), ct.float32)\n"
ILOAD = "i = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(T,)), ct.int32)\n"
STORE = "ct.store(y, index=(0,), tile=ct.astype(r, y.dtype))"


# -- the promotion table (cuda.tile._datatype, cuTile Python 1.7.0) ---------------------------------------

def test_promotion_table():
    assert irtyping.promote(F16, F32) == F32 and irtyping.promote(BF16, F32) == F32
    assert irtyping.promote(I32, F16) == F16 and irtyping.promote(I64, BF16) == BF16  # float beats any int
    assert irtyping.promote(I8, I32) == I32 and irtyping.promote(BOOL, U32) == U32
    for a, b in ((F16, BF16), (I32, U32), (TF32, F32), (TF32, I32)):
        with pytest.raises(irtyping.PromotionError, match="cast explicitly"):
            irtyping.promote(a, b)


def test_element_type_meets_a_concrete_dtype():
    assert irtyping.promote(F32, E) == F32 and irtyping.promote(E, F64) == F64  # ct.add mixes f32 and E
    assert irtyping.promote(BOOL, E) == E
    for other in (F16, I32, DTypeParam("F")):
        with pytest.raises(irtyping.PromotionError):
            irtyping.promote(other, E)


def test_loosely_typed_python_numbers():
    assert irtyping.literal_dtype(F16, 2) == F16 and irtyping.literal_dtype(F16, 0.5) == F16  # same category
    assert irtyping.literal_dtype(I32, 0.5) == F32 and irtyping.literal_dtype(I8, 2.0) == F32  # float wins
    assert irtyping.literal_dtype(BOOL, 3) == I32 and irtyping.literal_dtype(I8, True) == I8
    assert irtyping.literal_dtype(E, 2) == E
    with pytest.raises(irtyping.PromotionError, match="out of range of i8"):
        irtyping.literal_dtype(I8, 300)
    assert irtyping.true_div_dtype(I32) == F32 and irtyping.true_div_dtype(F16) == F16
    assert irtyping.fold("<<", 1, 4) == 16 and irtyping.fold("&", 1.0, 3) is None and irtyping.fold("<", 1, 2) is True
    assert irtyping.fold("**", 2, 10) == 1024


# -- operators ---------------------------------------------------------------------------------------

def test_int_operators_lower_to_the_reference_ops(tmp_path):
    k = _lower(tmp_path, ILOAD + "r = (i // 3) + (i % 3) + (-i) + (~i) + (i & 7) + (i | 1) + (i ^ 2) + (i << 1) + (i >> 1)\n"
               + STORE)
    kinds = [o.kind for o in _ops(k)]
    for want in (OpKind.DIVI, OpKind.REMI, OpKind.NEGI, OpKind.XORI, OpKind.ANDI, OpKind.ORI, OpKind.SHLI,
                 OpKind.SHRI, OpKind.SELECT):
        assert want in kinds, want
    div = next(o for o in _ops(k) if o.kind == OpKind.DIVI)
    assert div.attrs["rounding"] == "negative_inf"
    inv = next(o for o in _ops(k) if o.kind == OpKind.CONSTANT and o.attrs["value"] == -1)
    assert inv.result.type == TileType(I32, (Sym("T"),))  # ~i is xori with a full all-ones tile


def test_float_floordiv_mod_pow(tmp_path):
    k = _lower(tmp_path, LOAD + "r = t // 2.0 + t % t + t ** 2\n" + STORE)
    ops = _ops(k)
    floor = next(o for o in ops if o.kind == OpKind.MATH)
    assert floor.attrs["fn"] == "floor" and floor.operands[0] in next(o for o in ops if o.kind == OpKind.DIVF).results
    nz = [o for o in ops if o.kind == OpKind.CMPF and o.attrs["predicate"] == "ne"]
    assert [o.attrs["ordering"] for o in nz] == ["unordered"]  # the remainder's != 0 test, as the reference
    assert OpKind.REMF in [o.kind for o in ops] and OpKind.POWF in [o.kind for o in ops]


def test_comparisons_give_bool_tiles_and_i1_scalars(tmp_path):
    k = _lower(tmp_path, LOAD + "p = ct.bid(0)\nm = (t < 1.0) | (t != t)\nr = ct.where(not (p > 2), t, 0)\n"
               "r = ct.where(m, r, -r)\n" + STORE)
    ops = _ops(k)
    cmps = [o for o in ops if o.kind in (OpKind.CMPF, OpKind.CMPI)]
    assert [(o.kind, o.attrs["predicate"], o.attrs.get("ordering")) for o in cmps] == [
        (OpKind.CMPF, "lt", "ordered"), (OpKind.CMPF, "ne", "unordered"), (OpKind.CMPI, "gt", None)]
    assert cmps[0].result.type == TileType(BOOL, (Sym("T"),)) and cmps[2].result.type == ScalarType(BOOL)
    sel = [o for o in ops if o.kind == OpKind.SELECT]
    assert sel[0].operands[0].type == TileType(BOOL, (Sym("T"),))  # the i1 scalar broadcast to the arms' shape


def test_runtime_scalar_meets_tile_and_promotes(tmp_path):
    k = _lower(tmp_path, LOAD + "p = ct.bid(0)\nr = t + p + ct.astype(t, ct.int32) * 0.5\n" + STORE)
    ops = _ops(k)
    lift = next(o for o in ops if o.kind == OpKind.TO_TILE)
    conv = next(o for o in ops if o.kind == OpKind.CONVERT and o.operands[0] is lift.result)
    assert conv.result.type == TileType(F32, ())  # i32 block id -> 0-d tile -> f32 -> reshape, broadcast
    half = next(o for o in ops if o.kind == OpKind.CONSTANT and o.attrs["value"] == 0.5)
    assert half.result.type == TileType(F32, ())  # an i32 tile times 0.5 computes in f32


def test_scalar_mod_by_a_constant_folds_the_sign_test(tmp_path):
    k = _lower(tmp_path, LOAD + "r = t + ct.bid(0) % 4 + ct.cdiv(ct.bid(0), 3) + ct.cdiv(10, 3)\n" + STORE)
    ops = _ops(k)
    bneg = next(o for o in ops if o.results and o.result.hint.endswith("_bneg"))
    assert bneg.kind == OpKind.CONSTANT and bneg.attrs["value"] is False and bneg.result.type == ScalarType(BOOL)
    cdiv = next(o for o in ops if o.kind == OpKind.DIVI and o.attrs["rounding"] == "positive_inf")
    assert cdiv.result.type == ScalarType(I32)
    assert any(o.kind == OpKind.CONSTANT and o.attrs["value"] == 4 for o in ops)  # cdiv(10, 3) folded


def test_minmax_abs_pick_int_or_float_ops(tmp_path):
    k = _lower(tmp_path, LOAD + ILOAD + "r = ct.maximum(t, 1) + ct.minimum(i, 2) + ct.abs(i) + ct.abs(t)\n" + STORE)
    kinds = [o.kind for o in _ops(k)]
    assert {OpKind.MAXF, OpKind.MINI, OpKind.ABSI, OpKind.ABSF} <= set(kinds)


def test_array_extent_is_an_i32_scalar(tmp_path):
    k = _lower(tmp_path, LOAD + "r = t * x.shape[0]\n" + STORE)
    dim = next(o for o in _ops(k) if o.kind == OpKind.ARRAY_DIM)
    assert dim.attrs["axis"] == 0 and dim.result.type == ScalarType(I32)


def test_full_of_a_runtime_scalar_broadcasts_it(tmp_path):
    k = _lower(tmp_path, LOAD + "s = ct.sum(t, axis=0)\nr = ct.full((4, T), s, dtype=ct.float16)\n"
               "ct.store(y, index=(0,), tile=ct.astype(ct.sum(r, 0), y.dtype))")
    ops = _ops(k)
    conv = next(o for o in ops if o.kind == OpKind.CONVERT and o.result.type == TileType(F16, ()))
    bcast = next(o for o in ops if o.kind == OpKind.BROADCAST)
    assert bcast.result.type == TileType(F16, (4, Sym("T"))) and conv.operands[0].type == TileType(F32, ())


# -- shapes, reductions, scans -----------------------------------------------------------------------

def test_shape_ops_and_methods(tmp_path):
    k = _lower(tmp_path, "t = ct.load(x, index=(0, 0), shape=(T, 8))\n"
               "u = ct.permute(ct.transpose(t), (1, 0)).reshape((8, T)).astype(ct.float32)\n"
               "v = ct.expand_dims(ct.cumsum(u, axis=0, reverse=True), axis=0)\n"
               "w = ct.cat((ct.extract(u, index=(1, 0), shape=(4, T)), ct.extract(u, index=(0, 0), shape=(4, T))), 0)\n"
               "o = ct.extract(w, index=(0, 0), shape=(1, 1)).item() + ct.arange(T, dtype=ct.int32)\n"
               "ct.store(y, index=(0, 0), tile=ct.astype(ct.broadcast_to(o, (8, T)) + v.reshape((8, T)) + w, y.dtype))")
    ops = _ops(k)
    perms = [o.attrs["perm"] for o in ops if o.kind == OpKind.PERMUTE]
    assert perms == [(1, 0), (1, 0)]
    scan = next(o for o in ops if o.kind == OpKind.SCAN_SUM)
    assert scan.attrs == {"axis": 0, "reverse": True} and scan.result.type == TileType(F32, (8, Sym("T")))
    cat = next(o for o in ops if o.kind == OpKind.CAT)
    assert cat.result.type == TileType(F32, (8, Sym("T"))) and cat.attrs["axis"] == 0
    item = next(o for o in ops if o.kind == OpKind.RESHAPE and o.result.type == ScalarType(F32))
    assert item.operands[0].type == TileType(F32, (1, 1))
    assert any(o.kind == OpKind.IOTA and o.result.type == TileType(I32, (Sym("T"),)) for o in ops)


def test_int_reductions_and_positional_axis(tmp_path):
    k = _lower(tmp_path, ILOAD + "r = ct.sum(i, 0) + ct.max(i, axis=0) * ct.prod(i, axis=-1)\n"
               "ct.store(y, index=(0,), tile=ct.astype(ct.full((T,), r, dtype=ct.int32), y.dtype))")
    reds = [(o.kind, o.result.type) for o in _ops(k) if o.kind.family.value == "reduce"]
    assert reds == [(OpKind.REDUCE_SUM, TileType(I32, ())), (OpKind.REDUCE_MAX, TileType(I32, ())),
                    (OpKind.REDUCE_PROD, TileType(I32, ()))]


# -- what cuTile Python refuses, and what cutile 0.3.1 cannot spell -------------------------------------

def test_refusals_follow_cutile_python(tmp_path):
    assert "missing a required argument: 'dtype'" in _refused(tmp_path, LOAD + "r = ct.arange(T)\n" + STORE).message
    assert "missing a required argument: 'dtype'" in _refused(tmp_path, LOAD + "r = ct.full((T,), 1.0)\n" + STORE).message
    assert "f16 meets bf16" in _refused(tmp_path, LOAD + "r = ct.astype(t, ct.float16) + ct.astype(t, ct.bfloat16)\n"
                                        + STORE).message
    assert "out of range of i8" in _refused(tmp_path, LOAD + "r = ct.astype(t, ct.int8) + 300\n" + STORE).message


def test_missing_cutile_apis_are_named(tmp_path):
    e = _refused(tmp_path, LOAD + "r = ct.cumprod(t, axis=0)\n" + STORE)
    assert "cumprod" in e.message and "cutile/src/_core.rs" in e.message
    e = _refused(tmp_path, LOAD + "r = ct.cat((t, t, t), 0)\n" + STORE)
    assert "cutile/src/_core.rs" in e.message
    e = _refused(tmp_path, "t = ct.astype(ct.load(x, index=(0, 0), shape=(4, T)), ct.float32)\nr = ct.cumsum(t, axis=1)\n"
                 "ct.store(y, index=(0, 0), tile=ct.astype(r, y.dtype))")
    assert "always scans axis 0" in e.message and "compile_scan_op" in e.message and e.code == errors.IR_SCAN_AXIS
    e = _refused(tmp_path, LOAD + "r = ct.sigmoid(t)\n" + STORE)
    assert e.code == errors.IR_NOT_IN_REFERENCE and "not a function of cuTile Python 1.7.0" in e.message


def test_function_forms_carry_math_modes(tmp_path):
    k = _lower(tmp_path, LOAD + "p = min(ct.bid(0), 3) + max(2, 5)\n"
               "r = ct.truediv(t, ct.add(t, 1.0, flush_to_zero=True), rounding_mode=ct.RoundingMode.APPROX, "
               "flush_to_zero=True) + max(t, p)\n" + STORE)
    ops = _ops(k)
    assert next(o for o in ops if o.kind == OpKind.ADDF).attrs == {"ftz": True}
    assert next(o for o in ops if o.kind == OpKind.DIVF).attrs == {"approx": True}
    assert [o.kind for o in ops if o.kind in (OpKind.MINI, OpKind.MAXF)] == [OpKind.MINI, OpKind.MAXF]
    assert any(o.kind == OpKind.CONSTANT and o.attrs["value"] == 5 for o in ops)  # max(2, 5) folded
    e = _refused(tmp_path, LOAD + "r = ct.mul(t, t, rounding_mode=ct.RoundingMode.RZ)\n" + STORE)
    assert "true_div, cutile/src/_core.rs" in e.message


def test_enum_members_bound_to_names(tmp_path):
    k = _lower(tmp_path, "pad = ct.PaddingMode.ZERO\nr = ct.load(x, index=(0,), shape=(T,), padding_mode=pad)\n"
               "ct.store(y, index=(0,), tile=r)")
    assert next(o for o in _ops(k) if o.kind == OpKind.MAKE_VIEW).attrs["padding"] == "zero"


def test_float_scalar_arithmetic_and_argmax_refused(tmp_path):
    k = _lower(tmp_path, LOAD + "s = ct.extract(t, index=(0,), shape=(1,)).item()\nr = t * (s * 2.0 + 1.0) / s\n"
               + STORE)
    ops = _ops(k)
    mul = next(o for o in ops if o.kind == OpKind.MULF)
    assert mul.result.type == ScalarType(F32)  # f32 scalar arithmetic stays scalar until it meets the tile
    e = _refused(tmp_path, LOAD + "r = ct.argmax(t, axis=0)\n" + STORE)
    assert "reduce(operand, dim, identity, f)" in e.message and e.loc.line == 7


def test_static_assert_of_constants(tmp_path):
    k = _lower(tmp_path, LOAD + "ct.static_assert(64 % 16 == 0)\nr = t\n" + STORE)
    assert OpKind.STORE_VIEW in [o.kind for o in _ops(k)]
    assert "TileStaticAssertionError" in _refused(tmp_path, LOAD + "ct.static_assert(1 > 2, 'no')\nr = t\n" + STORE).message


def test_new_axes_and_host_dtypes(tmp_path):
    k = _lower(tmp_path, LOAD + "o = ct.arange(T, dtype=ct.int32)\n"
               "m = o[:, None] + o[None, :]\nr = ct.sum(ct.astype(m, ct.float32), 0) + t\n" + STORE)
    reshapes = [o.result.type for o in _ops(k) if o.kind == OpKind.RESHAPE]
    assert reshapes[:2] == [TileType(I32, (Sym("T"), 1)), TileType(I32, (1, Sym("T")))]
    e = _refused(tmp_path, LOAD + "r = t[0]\n" + STORE)
    assert "None and ':'" in e.message


def test_torch_dtype_inside_a_kernel(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\nimport torch\n\n\n@ct.kernel\ndef k(x, y, T: ct.Constant[int]):\n"
                 "    o = ct.arange(T, dtype=torch.int32)\n"
                 "    ct.store(y, index=(0,), tile=ct.astype(o, y.dtype) + ct.load(x, index=(0,), shape=(T,)))\n")
    (k,) = fe.lower_file(ModuleInfo(p, p.read_text())).kernels
    assert next(o for o in _ops(k) if o.kind == OpKind.IOTA).result.type == TileType(I32, (Sym("T"),))


def test_module_level_enum_and_math_constants(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("import math\nimport cuda.tile as ct\n\nPAD = ct.PaddingMode.ZERO\n\n\n@ct.kernel\n"
                 "def k(x, y, T: ct.Constant[int]):\n"
                 "    t = ct.astype(ct.load(x, index=(0,), shape=(T,), padding_mode=PAD), ct.float32)\n"
                 "    r = ct.maximum(t, -math.inf)\n"
                 "    ct.store(y, index=(0,), tile=ct.astype(r, y.dtype))\n")
    (k,) = fe.lower_file(ModuleInfo(p, p.read_text())).kernels
    assert next(o for o in _ops(k) if o.kind == OpKind.MAKE_VIEW).attrs["padding"] == "zero"
    assert any(o.kind == OpKind.CONSTANT and o.attrs["value"] == float("-inf") for o in _ops(k))


def test_matmul_follows_the_reference_accumulator(tmp_path):
    """ct.matmul: mma into a zero accumulator of cuTile Python's first supported type for the operand dtype (f16
    keeps f16, bf16 / tf32 accumulate in f32 and cast back); generic and mixed dtypes are refused."""
    two = "y = ct.astype(ct.load(x, index=(0, 0), shape=(T, T)), ct.{dt})\nr = ct.matmul(y, y)\n"
    for dt, acc, back in (("float16", F16, False), ("bfloat16", F32, True), ("int8", DTYPES["i32"], True)):
        k = _lower(tmp_path, two.format(dt=dt) + "ct.store(y2, index=(0, 0), tile=ct.astype(r, y2.dtype))",
                   params="x, y2, T: ct.Constant[int]")
        mma = next(op for op in _ops(k) if op.kind == OpKind.MMA)
        assert mma.result.type.dtype == acc and mma.operands[2].type.dtype == acc
        back_to = [op for op in _ops(k) if op.kind == OpKind.CONVERT and op.operands[0] is mma.result
                   and op.result.type.dtype == DTYPES[{"float16": "f16", "bfloat16": "bf16", "int8": "i8"}[dt]]]
        assert bool(back_to) == back  # cast back to the operand dtype (cuTile Python's astype(result, common))
    e = _refused(tmp_path, LOAD + "r = ct.matmul(t, t)\n" + STORE)
    assert "ct.matmul" in e.message and "2-D" in e.message
    with pytest.raises(errors.CtrsError) as ei:
        _lower(tmp_path, "u = ct.load(x, index=(0, 0), shape=(T, T))\nct.store(y, index=(0, 0), tile=ct.matmul(u, u))")
    assert "dtype-generic" in ei.value.message


def test_full_of_a_constant_fill(tmp_path):
    """ct.full((T,), N, dtype=ct.int32) with a ct.Constant N: the const generic's value broadcast (the reference's
    splat constant); another dtype would cast it at run time where the reference folds: refused."""
    k = _lower(tmp_path, "i = ct.arange(T, dtype=ct.int32)\nr = ct.where(i < 3, i, ct.full((T,), N, dtype=ct.int32))\n"
               "ct.scatter(y, i, ct.astype(r, y.dtype))", params="y, N: ct.Constant[int], T: ct.Constant[int]")
    sym = next(op for op in _ops(k) if op.kind == OpKind.CONST_SYM and op.attrs["sym"] == "N")
    assert any(op.kind == OpKind.TO_TILE and op.operands[0] is sym.result for op in _ops(k))
    with pytest.raises(errors.CtrsError) as e:
        _lower(tmp_path, LOAD + "r = t + ct.full((T,), N, dtype=ct.float32)\n" + STORE,
               params="x, y, N: ct.Constant[int], T: ct.Constant[int]")
    assert "ct.Constant fill" in e.value.message


def test_static_assert_on_constants_emits_nothing(tmp_path):
    """ct.static_assert(A == B) of two ct.Constant values: no IR (the reference checks it at compile time); a
    note says the port does not check it; a runtime condition is still refused."""
    k = _lower(tmp_path, "ct.static_assert(T == N, 'T must be N')\n" + LOAD + "r = t\n" + STORE,
               params="x, y, N: ct.Constant[int], T: ct.Constant[int]")
    assert not any(op.kind in (OpKind.CMPI, OpKind.CONST_SYM) for op in _ops(dce.run(k)))
    assert any("static_assert(T == N)" in text for _, _, text in k.notes)
    e = _refused(tmp_path, "ct.static_assert(ct.bid(0) == 0)\n" + LOAD + "r = t\n" + STORE)
    assert "not a compile-time constant" in e.message
