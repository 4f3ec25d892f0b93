"""The typed tile IR on its own (no cargo, no cuda-tile): typing/promotion, verifier, printer, every pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, ir, pipeline
from ctrs.frontends.cutile.module import ModuleInfo
from ctrs.frontends import cutile as fe
from ctrs.ir import typing as irtyping
from ctrs.ir.ops import Block, Kernel, Op, OpKind, Param, walk
from ctrs.ir.types import BF16, BOOL, F16, F32, I32, ScalarType, Sym, TileType, TokenType, ViewType
from ctrs.passes import constfold, dce, fma, hoist, specialise, tokens

pytestmark = pytest.mark.model  # model-only: no cargo, no cuda-tile (tests/conftest.py guard)

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def _lower(path: Path) -> list[Kernel]:
    info = ModuleInfo(path, path.read_text())
    return fe.lower_file(info).kernels


def _src(tmp_path: Path, body: str, params: str = "x, y, T: ct.Constant[int]") -> Path:
    p = tmp_path / "k.py"
    p.write_text(f"import cuda.tile as ct\n\n\n@ct.kernel\ndef k({params}):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def _kinds(k: Kernel) -> list[str]:
    return [op.kind.mnemonic for op in walk(k.body)]


# -- types and promotion ---------------------------------------------------------------------------

def test_promotion_rules():
    assert irtyping.promote(F16, F32) == F32
    with pytest.raises(irtyping.PromotionError):  # cuTile Python 1.7.0: f16 with bf16 needs an explicit cast
        irtyping.promote(F16, BF16)
    assert irtyping.promote(I32, F16) == F16  # float beats int
    assert irtyping.promote(BOOL, I32) == I32
    with pytest.raises(irtyping.Unify):
        irtyping.promote(ir.DTypeParam("E"), ir.DTypeParam("F"))  # two dtype variables meeting are one
    assert irtyping.literal_dtype(F16, 2) == F16 and irtyping.literal_dtype(F16, 0.5) == F16
    assert irtyping.literal_dtype(I32, 0.5) == F32  # a float number meeting an int tile: f32 (tests/test_ir_ops.py)
    assert irtyping.default_dtype(3) == I32 and irtyping.default_dtype(3.0) == F32
    assert irtyping.broadcast_shapes((1, Sym("T")), (4, 1)) == (4, Sym("T"))
    assert irtyping.broadcast_shapes((Sym("T"),), (2, 1)) == (2, Sym("T"))
    with pytest.raises(irtyping.PromotionError):
        irtyping.broadcast_shapes((2,), (3,))
    assert irtyping.fold("//", 7, -2) == -4 and irtyping.fold("%", 7, -2) == -1 and irtyping.fold("/", 1, 0) is None


def test_front_end_typing(tmp_path):
    (k,) = _lower(_src(tmp_path, """
pid = ct.bid(0)
t = ct.load(x, index=(pid,), shape=(T,))
f = ct.astype(t, ct.float16)
g = f * 2 + ct.full((T,), 1, dtype=ct.float32)
ct.store(y, index=(pid,), tile=ct.astype(g, y.dtype))
"""))
    ops = list(walk(k.body))
    const2 = next(o for o in ops if o.kind == OpKind.CONSTANT and o.attrs["value"] == 2)
    assert const2.result.type == TileType(F16, ())  # a Python int meeting an f16 tile: a 0-d f16 constant...
    reshape = next(o for o in ops if const2.result in o.operands)
    bcast = next(o for o in ops if reshape.result in o.operands)
    assert (reshape.kind, reshape.result.type) == (OpKind.RESHAPE, TileType(F16, (1,)))  # ...reshaped, broadcast
    assert (bcast.kind, bcast.result.type) == (OpKind.BROADCAST, TileType(F16, (Sym("T"),)))
    add = next(o for o in ops if o.kind == OpKind.ADDF)
    assert add.result.type == TileType(F32, (Sym("T"),))  # f16 meets f32: f32
    conv = [o for o in ops if o.kind == OpKind.CONVERT]
    assert [str(o.result.type) for o in conv] == ["tile<Txf16>", "tile<Txf32>", "tile<Tx!E>"]


def test_store_binds_the_array_dtype(tmp_path):
    # cuTile Python's ct.store casts only to a dtype the tile promotes to (implicit_cast): an f32 tile stored into
    # y makes y f32 in every launch that compiles; x keeps its own variable E
    (k,) = _lower(_src(tmp_path, "t = ct.load(x, index=(0,), shape=(T,))\n"
                                 "ct.store(y, index=(0,), tile=ct.astype(t, ct.float32))\n"
                                 "ct.store(z, index=(0,), tile=t)\n"
                                 "ct.store(y, index=(1,), tile=t)", "x, y, z, T: ct.Constant[int]"))
    assert [str(p.value.type) for p in k.params if p.kind == "array"] == ["array<?x!E>", "array<?xf32>", "array<?x!E>"]
    assert [g.name for g in k.generics if g.kind == "type"] == ["E"]
    stores = [o for o in walk(k.body) if o.kind == OpKind.STORE_VIEW]
    assert [str(o.operands[1].type) for o in stores] == ["tile<Txf32>", "tile<Tx!E>", "tile<Txf32>"]  # E -> f32 cast


def test_store_dtype_conflict(tmp_path):
    with pytest.raises(errors.CtrsError) as ei:  # f16 and bf16 never promote to one another: no launch compiles
        _lower(_src(tmp_path, "t = ct.load(x, index=(0,), shape=(T,))\n"
                              "ct.store(y, index=(0,), tile=ct.astype(t, ct.float16))\n"
                              "ct.store(y, index=(0,), tile=ct.astype(t, ct.bfloat16))"))
    assert ei.value.code == errors.IR_DTYPE_CONFLICT and (ei.value.loc.line, ei.value.loc.col) == (8, 5)


def test_front_end_refuses_outside_subset_with_location(tmp_path):
    with pytest.raises(errors.CtrsError) as ei:
        _lower(_src(tmp_path, "t = ct.load(x, index=(ct.bid(0),), shape=(T,))\n"
                              "ct.store(y, index=(0,), tile=ct.exp2(t) @ t)"))
    e = ei.value
    assert e.code == errors.IR_UNSUPPORTED and (e.loc.line, e.loc.col) == (7, 34)  # the `ct.exp2(t) @ t` expression


# -- printer ---------------------------------------------------------------------------------------

def test_printer_matmul_frontend():
    (k,) = _lower(FIXTURES / "matmul" / "kernel.py")
    text = ir.print_kernel(k)
    lines = text.splitlines()
    assert lines[0] == ("kernel @matmul<E: dtype, TM: const, TN: const, TK: const, CAST_TF32: const>"
                        "(%A: array<?x?x!E>, %B: array<?x?x!E>, %C: array<?x?x!E>) {")
    assert "  %row = block_id {axis = 0} : i32  loc(kernel.py:15:11)" in lines
    assert "  %acc = constant {value = 0.0} : tile<TMxTNxf32>  loc(kernel.py:18:11)" in lines
    assert ("  %acc_1 = for %k = %c to %k_tiles step %c_1 iter_args(%acc_2 = %acc) -> (tile<TMxTNxf32>) {"
            "  loc(kernel.py:20:5)") in lines
    assert "    %a_1 = convert %a : tile<TMxTKx?CAST_TF32(tf32|!E)>  loc(kernel.py:23:13)" in lines
    assert "    %acc_3 = mma %a_1, %b_1, %acc_2 : tile<TMxTNxf32>  loc(kernel.py:25:15)" in lines
    assert "    yield %acc_3 : tile<TMxTNxf32>" in lines
    assert _kinds(k) == ["block_id", "block_id", "make_view", "num_tiles", "constant", "constant", "constant", "for",
                         "make_view", "load_view", "make_view", "load_view", "convert", "convert", "mma", "yield",
                         "convert", "make_view", "store_view", "yield"]


def test_emit_model_cli_stage_and_bad_stage():
    text = pipeline.emit_model(FIXTURES / "vector_add" / "kernel.py", "final")
    assert text.startswith("// stage: final\nkernel @vector_add<E: dtype, TILE: const>(")
    assert "  %t = addf %lhs, %rhs : tile<TILEx!E>  loc(kernel.py:13:36)" in text
    with pytest.raises(errors.CtrsError) as ei:
        pipeline.emit_model(FIXTURES / "vector_add" / "kernel.py", "nope")
    assert ei.value.code == errors.IR_STAGE


# -- verifier --------------------------------------------------------------------------------------

def _kernel(ops: list[Op], params: list[Param] | None = None) -> Kernel:
    return Kernel("k", params or [], [], Block([], [*ops, Op(OpKind.YIELD, [], [])]))


def test_verifier_rejects_type_mismatch_with_location():
    loc = ir.Loc("k.py", 9, 5)
    a = ir.Value(TileType(F32, (4,)), "a")
    b = ir.Value(TileType(F16, (4,)), "b")
    ops = [Op(OpKind.CONSTANT, [], [a], {"value": 1.0}), Op(OpKind.CONSTANT, [], [b], {"value": 1.0}),
           Op(OpKind.ADDF, [a, b], [ir.Value(TileType(F32, (4,)))], loc=loc)]
    with pytest.raises(errors.CtrsError) as ei:
        ir.verify(_kernel(ops))
    assert ei.value.one_line().startswith("k.py:9:5: error[CTRS-E120]: IR verifier: addf: %b")


def test_verifier_rejects_use_before_definition():
    a = ir.Value(TileType(F32, (4,)), "a")
    late = Op(OpKind.CONSTANT, [], [a], {"value": 1.0})
    use = Op(OpKind.NEGF, [a], [ir.Value(a.type)], loc=ir.Loc("k.py", 3, 1))
    with pytest.raises(errors.CtrsError) as ei:
        ir.verify(_kernel([use, late]))
    assert ei.value.code == errors.IR_VERIFY_DOMINANCE and ei.value.loc.line == 3


def test_verifier_rejects_unstable_loop_carried_type():
    i32 = ScalarType(I32)
    c0, c1 = ir.Value(i32), ir.Value(i32)
    init = ir.Value(TileType(F32, (4,)))
    iv, arg = ir.Value(i32), ir.Value(TileType(F32, (4,)))
    half = ir.Value(TileType(F16, (4,)))
    body = Block([iv, arg], [Op(OpKind.CONVERT, [arg], [half]), Op(OpKind.YIELD, [half], [])])
    loop = Op(OpKind.FOR, [c0, c1, c1, init], [ir.Value(init.type)], loc=ir.Loc("k.py", 4, 5), regions=[body])
    ops = [Op(OpKind.CONSTANT, [], [c0], {"value": 0}), Op(OpKind.CONSTANT, [], [c1], {"value": 1}),
           Op(OpKind.CONSTANT, [], [init], {"value": 0.0}), loop]
    with pytest.raises(errors.CtrsError) as ei:
        ir.verify(_kernel(ops))
    assert ei.value.code == errors.IR_VERIFY_CARRIED and "carried value 0 changes type" in ei.value.message


def test_verifier_rejects_store_into_read_only_view():
    arr = ir.Value(ir.ArrayType(F32, 1), "x")
    view = ir.Value(ViewType(F32, (4,)))
    t = ir.Value(TileType(F32, (4,)))
    i = ir.Value(ScalarType(I32))
    ops = [Op(OpKind.MAKE_VIEW, [arr], [view], {"tile": (4,), "padding": "none", "mutable": False}),
           Op(OpKind.CONSTANT, [], [t], {"value": 0.0}), Op(OpKind.CONSTANT, [], [i], {"value": 0}),
           Op(OpKind.STORE_VIEW, [view, t, i], [])]
    with pytest.raises(errors.CtrsError) as ei:
        ir.verify(_kernel(ops, [Param("x", "array", arr)]))
    assert ei.value.code == errors.IR_VERIFY_TYPE and "not a mutable view" in ei.value.message


# -- passes ----------------------------------------------------------------------------------------

def test_specialise_splits_dtype_choice_into_const_flag_if():
    (k,) = _lower(FIXTURES / "matmul" / "kernel.py")
    k = constfold.run(specialise.split_choices(k))
    ir.verify(k)
    loop = next(o for o in k.body.ops if o.kind == OpKind.FOR)
    iff = next(o for o in loop.regions[0].ops if o.kind == OpKind.IF)
    assert iff.attrs == {"flag": "CAST_TF32"}
    then, other = ([o.kind.mnemonic for o in r.ops] for r in iff.regions)
    assert then == ["convert", "convert", "mma", "yield"]  # tf32 casts in the flag's arm
    assert other == ["mma", "yield"]  # E -> E casts folded away
    assert str(iff.regions[0].ops[0].result.type) == "tile<TMxTKxtf32>"


def test_specialise_element_entries_only_when_contraction_needs_them():
    (rope,) = _lower(FIXTURES / "rope_f16" / "kernel.py")
    entries = specialise.element_entries(rope, ["f32", "f16"])
    assert [e.name for e in entries] == ["rope_half_f32", "rope_half_f16"]
    assert str(entries[1].params[0].value.type) == "array<?x?xf16>" and all(g.name != "E" for g in entries[1].generics)
    (va,) = _lower(FIXTURES / "vector_add" / "kernel.py")
    assert specialise.element_entries(va, ["f32", "f16"]) == [va]


def test_fma_contracts_like_the_reference():
    (rope,) = _lower(FIXTURES / "rope_f16" / "kernel.py")
    k = fma.run(specialise.element_entries(rope, ["f16"])[0])
    ir.verify(k)
    ops = [o for o in k.body.ops if o.kind in (OpKind.MULF, OpKind.NEGF, OpKind.FMA, OpKind.ADDF, OpKind.SUBF)]
    # x1*c - x2*s -> fma(x1, c, negf(x2*s));  x2*c + x1*s -> fma(x2, c, x1*s)
    assert [o.kind.mnemonic for o in ops] == ["mulf", "negf", "fma", "mulf", "fma"]
    f1, f2 = ops[2], ops[4]
    assert [v.hint for v in f1.operands[:2]] == ["x1", "c"] and f1.operands[2] is ops[1].result
    assert [v.hint for v in f2.operands[:2]] == ["x2", "c"] and f2.operands[2] is ops[3].result
    (generic,) = _lower(FIXTURES / "rope_f16" / "kernel.py")
    assert OpKind.FMA not in {o.kind for o in walk(fma.run(generic).body)}  # a dtype parameter never contracts


def test_hoist_keeps_loop_step_and_moves_invariants():
    (k,) = _lower(FIXTURES / "persistent_matmul" / "kernel.py")
    loop = next(o for o in k.body.ops if o.kind == OpKind.FOR)
    step = loop.operands[2]
    k = hoist.run(k)
    ir.verify(k)
    loop = next(o for o in k.body.ops if o.kind == OpKind.FOR)
    assert loop.operands[2] is step and next(o for o in k.body.ops if step in o.results).kind == OpKind.NUM_BLOCKS
    top = [o.kind.mnemonic for o in k.body.ops]
    assert top.count("make_view") == 6  # the loop's A/B/C views left both loops
    assert "cmpi" in top  # `n_tiles < 0` of the `%` fix-up is invariant, as in the reference
    inner = next(o for o in loop.regions[0].ops if o.kind == OpKind.FOR)
    assert [o.kind.mnemonic for o in inner.regions[0].ops] == ["load_view", "load_view", "convert", "convert", "mma",
                                                               "yield"]


def test_constfold_and_dce():
    i32 = ScalarType(I32)
    a, b, s, dead = ir.Value(i32), ir.Value(i32), ir.Value(i32), ir.Value(TileType(F32, (2,)))
    x = ir.Value(TileType(F32, (2,)))
    same = ir.Value(TileType(F32, (2,)))
    arr = ir.Value(ir.ArrayType(F32, 1), "y")
    view = ir.Value(ViewType(F32, (2,), mutable=True))
    ops = [Op(OpKind.CONSTANT, [], [a], {"value": 3}), Op(OpKind.CONSTANT, [], [b], {"value": 4}),
           Op(OpKind.MULI, [a, b], [s]), Op(OpKind.CONSTANT, [], [x], {"value": 1.0}),
           Op(OpKind.CONVERT, [x], [same]), Op(OpKind.NEGF, [x], [dead]),
           Op(OpKind.MAKE_VIEW, [arr], [view], {"tile": (2,), "padding": "none", "mutable": True}),
           Op(OpKind.STORE_VIEW, [view, same, s], [])]
    k = _kernel(ops, [Param("y", "array", arr)])
    k = dce.run(constfold.run(k))
    ir.verify(k)
    kinds = [o.kind.mnemonic for o in k.body.ops]
    assert kinds == ["constant", "constant", "make_view", "store_view", "yield"]  # 3 and 4 folded, then dead
    store = k.body.ops[-2]
    assert store.operands[1] is x  # the f32 -> f32 cast folded away
    folded = next(o for o in k.body.ops if store.operands[2] in o.results)
    assert folded.kind == OpKind.CONSTANT and folded.attrs["value"] == 12
    assert OpKind.NEGF not in {o.kind for o in k.body.ops}  # unused: removed


def test_const_flag_if_folds_per_variant():
    (k,) = _lower(FIXTURES / "matmul" / "kernel.py")
    k = specialise.split_choices(k)
    k.variant = (("CAST_TF32", 0),)
    k = constfold.run(k)
    assert OpKind.IF not in {o.kind for o in walk(k.body)} and OpKind.CONVERT in {o.kind for o in walk(k.body)}
    ir.verify(k)


def test_tokens_thread_stores_not_indexed_by_the_loop(tmp_path):
    (k,) = _lower(FIXTURES / "persistent_matmul" / "kernel.py")
    k = tokens.run(hoist.run(k))
    ir.verify(k)
    loop = next(o for o in k.body.ops if o.kind == OpKind.FOR)
    assert [str(r.type) for r in loop.results] == ["token"]  # C[row, col]: row/col derived from the index
    assert k.body.ops[k.body.ops.index(loop) - 1].kind == OpKind.ARRAY_TOKEN
    store = next(o for o in loop.regions[0].ops if o.kind == OpKind.STORE_VIEW)
    assert store.attrs["ordered"] and store.operands[-1] is loop.regions[0].args[-1]
    assert loop.regions[0].ops[-1].operands == store.results
    (copy,) = _lower(_src(tmp_path, """
for i in range(ct.bid(0), ct.num_tiles(x, axis=0, shape=(T,)), ct.num_blocks(0)):
    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,)))
"""))
    copy = tokens.run(copy)
    assert not any(isinstance(v.type, TokenType) for o in walk(copy.body) for v in o.results)  # y[i]: unordered

