"""Typed cuTile front end: parameters, kernel hints, if statements / conditional expressions, assignments and
helpers across modules, on the IR alone (no cargo, no cuda-tile). IR equivalence of the kernels in tests/data
and fixtures that use them: tests/test_ir_pipeline.py TYPED_IR and the `ctrs check` tests of their fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends.cutile.module import ModuleInfo
from ctrs.emitters import ir_rust, spelling
from ctrs.frontends import cutile as fe
from ctrs.ir.ops import Kernel, OpKind, walk
from ctrs.ir.types import BOOL, F32, I32, ScalarType
from ctrs.passes import constfold, run_pipeline

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def _lower(path: Path) -> list[Kernel]:
    info = ModuleInfo(path, path.read_text())
    return fe.lower_file(info).kernels


def _src(tmp_path: Path, body: str, params: str, name: str = "k.py", head: str = "") -> Path:
    p = tmp_path / name
    p.write_text(f"import cuda.tile as ct\n{head}\n\n@ct.kernel\ndef k({params}):\n" +
                 "".join(f"    {line}\n" for line in body.strip().splitlines()))
    return p


def _ifs(k: Kernel):
    return [op for op in walk(k.body) if op.kind == OpKind.IF]


LOAD = "t = ct.astype(ct.load(x, index=(r, 0), shape=(1, T)), ct.float32)"
STORE = "ct.store(y, index=(r, 0), tile=ct.astype(t, y.dtype))"


# -- parameters ----------------------------------------------------------------------------------------------

@pytest.mark.model
def test_parameters_by_annotation_and_use(tmp_path):
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0) + m\n{LOAD}\nt = t * s + c\n{STORE}",
                       "x: ct.Array, y, n: int, m, s: float, c: ct.Constant[float], T: ct.Constant[int], "
                       "F: ct.Constant[bool]"))
    kinds = {p.name: (p.kind, p.value.type if p.value is not None else None) for p in k.params}
    assert kinds == {"x": ("array", kinds["x"][1]), "y": ("array", kinds["y"][1]), "n": ("scalar", ScalarType(I32)),
                     "m": ("scalar", ScalarType(I32)), "s": ("scalar", ScalarType(F32)),
                     "c": ("fconst", ScalarType(F32)), "T": ("constant", None), "F": ("constant", None)}
    assert [(g.name, g.note) for g in k.generics if g.origin == "constant"] == [
        ("T", "ct.Constant"), ("F", "ct.Constant[bool]")]
    # a ct.Constant[float] is an i32 const generic of its f32 bits (no float const generics in Rust)
    assert [(g.name, g.kind) for g in k.generics if g.origin == "float_bits"] == [("c", "const")]
    assert any("ct.Constant[float] c -> i32 const generic of its f32 bits" in t
               for _, kind, t in k.notes if kind == "float-bits")
    notes = [t for _, kind, t in k.notes if kind == "demotion"]
    assert any("unannotated 'm' is used only as an integer" in t for t in notes)
    # a runtime f32 meeting a tile is a 0-d tile: reshape + broadcast, as cuTile Python does
    (e,) = run_pipeline(k, ["f32"])
    rs = ir_rust.emit_kernel(e, "k.py")
    assert "s: f32" in [f"{p.name}: {p.dtype}" for p in rs.params]
    assert [(p.name, p.kind, p.bits) for p in rs.params if p.bits] == [("c", "scalar", True)]  # the host's f32


@pytest.mark.model
def test_unused_unannotated_parameter_is_kept_as_an_unused_array(tmp_path):
    """cuTile Python passes a parameter the body never names too: the port keeps it in its signature (a rank-1
    array nothing reads), not a blocker."""
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\n{STORE}", "x, y, z, T: ct.Constant[int]"))
    z = next(p for p in k.params if p.name == "z")
    assert z.kind == "array" and z.value.type.rank == 1


@pytest.mark.model
def test_kernel_hints_reach_the_entry(tmp_path):
    src = _src(tmp_path, f"r = ct.bid(0)\n{LOAD}\n{STORE}", "x, y, T: ct.Constant[int]", head="OCC = 3")
    src.write_text(src.read_text().replace("@ct.kernel\n", "@ct.kernel(occupancy=ct.ByTarget(sm_90=OCC, default=1), "
                                                           "num_ctas=2)\n"))
    (k,) = _lower(src)
    assert k.hints == {"num_cta_in_cga": 2, "occupancy": 3}
    rs = translate.translate_source(src)["kernel.rs"]
    assert "#[cutile::entry(optimization_hints = (sm_90 = (num_cta_in_cga = 2, occupancy = 3,),))]" in rs
    src.write_text(src.read_text().replace("num_ctas=2", "num_stages=2"))
    with pytest.raises(errors.CtrsError) as e:
        _lower(src)
    assert e.value.code == errors.KERNEL_HINT


# -- if statements -------------------------------------------------------------------------------------------

@pytest.mark.model
def test_constant_flag_if_folds_per_entry(tmp_path):
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif not F:\n    t = t * 2.0\nif N == 2:\n    t = t + 1.0\n"
                                 f"{STORE}", "x, y, T: ct.Constant[int], F: ct.Constant[bool], N: ct.Constant[int]"))
    a, b = _ifs(k)
    assert (a.attrs, b.attrs) == ({"flag": "F", "test": ("eq", 1)}, {"flag": "N", "test": ("eq", 2)})
    assert not a.regions[0].ops[:-1] and a.regions[1].ops[:-1]  # `not F`: the arms are swapped
    assert [r.type for r in a.results] == [a.regions[0].ops[-1].operands[0].type]
    k.variant = (("F", 0), ("N", 3))
    constfold.run(k)
    assert not _ifs(k) and [op.kind for op in walk(k.body)].count(OpKind.MULF) == 1
    rs = translate.translate_source(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif F:\n    t = t * 2.0\n{STORE}",
                                         "x, y, T: ct.Constant[int], F: ct.Constant[bool]"))["kernel.rs"]
    assert "        if F == 1i32 {\n" in rs and "        } else {\n            t_1 = t;\n" in rs


@pytest.mark.model
def test_compile_time_conditions_fold(tmp_path):
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif USE and T > 4:\n    t = t * 2.0\nelse:\n"
                                 f"    t = ct.exp(t)\nu = t if not USE else t + 1.0\n{STORE}",
                       "x, y, T: ct.Constant[int]", head="USE = False"))
    assert not _ifs(k)
    assert [op.attrs.get("fn") for op in walk(k.body) if op.kind == OpKind.MATH] == ["exp"]


@pytest.mark.model
def test_runtime_if_and_or_not(tmp_path):
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif r < n and not r == 3:\n    t = t * 2.0\n"
                                 f"k2 = r + 1 if r < n else r\n{STORE}", "x, y, n: int, T: ct.Constant[int]"))
    cond_and, main, sel = _ifs(k)
    assert cond_and.operands[0].type == ScalarType(BOOL) and [r.type for r in cond_and.results] == [ScalarType(BOOL)]
    assert [o.kind for o in cond_and.regions[0].ops] == [OpKind.CONSTANT, OpKind.CMPI, OpKind.CONSTANT, OpKind.XORI,
                                                          OpKind.YIELD]
    assert main.operands == cond_and.results and "flag" not in main.attrs
    assert [r.type for r in sel.results] == [ScalarType(I32)]
    rs = translate.translate_source(DATA / "cf_typed_runtime.py")["kernel.rs"]
    # an i32 comparison of two Rust scalars stays a Rust expression (rules/ir.toml [scalar] cmpi)
    assert "        let cond: bool = bid < n;\n        let mut t_1: Tile<f32, { [1, TILE] }> = t;\n" \
           "        if cond {\n" in rs


@pytest.mark.model
def test_runtime_if_diagnostics(tmp_path):
    with pytest.raises(errors.CtrsError) as e:
        _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif r < n:\n    t = ct.astype(t, ct.float16)\n{STORE}",
                    "x, y, n: int, T: ct.Constant[int]"))
    assert e.value.code == errors.IR_UNSUPPORTED and "runtime if" in e.value.message and e.value.loc.line == 8
    with pytest.raises(errors.CtrsError) as e:
        _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif r < n:\n    w = t\nt = w\n{STORE}",
                    "x, y, n: int, T: ct.Constant[int]"))
    assert "'w' is bound in one arm of a runtime if only" in e.value.message


@pytest.mark.model
def test_structural_flags_become_entries():
    ks = _lower(DATA / "cf_variant.py")
    assert [(k.name, k.python_name, k.variant) for k in ks] == [
        ("cf_variant__ROWS_0", "cf_variant", (("ROWS", 0),)), ("cf_variant__ROWS_1", "cf_variant", (("ROWS", 1),))]
    assert all("ROWS" not in [p.name for p in k.params] for k in ks)
    ks = _lower(DATA / "cf_split.py")  # a name bound in one arm only and read later
    assert [k.name for k in ks] == ["cf_split__HAS_BIAS_0", "cf_split__HAS_BIAS_1"]


@pytest.mark.model
def test_int_flag_entries_keep_other_values_generic(tmp_path):
    ks = _lower(_src(tmp_path, "r = ct.bid(0)\nif R == 1:\n    t = ct.load(x, index=(r, 0), shape=(1, T))\nelse:\n"
                               "    t = ct.load(x, index=(r, 0), shape=(R, T))\nct.store(y, index=(r, 0), tile=t)",
                     "x, y, R: ct.Constant[int], T: ct.Constant[int]"))
    assert [(k.name, [p.name for p in k.params]) for k in ks] == [("k__R_1", ["x", "y", "T"]),
                                                                   ("k__R_2", ["x", "y", "R", "T"])]


@pytest.mark.model
def test_specialise_splits_a_flag_an_fma_crosses():
    entries = pipeline.lower(DATA / "ops_fma_const_if.py")
    assert [(e.name, e.variant) for e in entries] == [("fma_if__FLAG_0", (("FLAG", 0),)),
                                                      ("fma_if__FLAG_1", (("FLAG", 1),))]
    for e in entries:
        assert not _ifs(e) and [op.kind for op in walk(e.body)].count(OpKind.FMA) == 1
    lines = translate.explain_lines(DATA / "ops_fma_const_if.py")
    assert any("entry fma_if__FLAG_1 <- FLAG=1 (an fma contraction crosses its constant ifs" in ln for ln in lines)


# -- assignments ---------------------------------------------------------------------------------------------

@pytest.mark.model
def test_tuple_unpacking_annotated_and_augmented_assignments(tmp_path):
    (k,) = _lower(_src(tmp_path, "r, c = ct.bid(0), 0\nb: int = 8\nb //= 3\nb <<= 1\nb **= 2\nr += b\n"
                                 "t = ct.load(x, index=(r, c), shape=(1, T))\nt *= 2.0\nt -= 1.0\n"
                                 "ct.store(y, index=(r, c), tile=t)", "x, y, T: ct.Constant[int]"))
    consts = [op.attrs["value"] for op in walk(k.body) if op.kind == OpKind.CONSTANT and op.result.type == ScalarType(I32)]
    assert 16 in consts  # ((8 // 3) << 1) ** 2, folded at translate time
    assert [op.kind for op in walk(k.body) if op.kind in (OpKind.MULF, OpKind.SUBF)] == [OpKind.MULF, OpKind.SUBF]


# -- helpers across modules ----------------------------------------------------------------------------------

@pytest.mark.model
def test_helpers_and_constants_from_other_modules(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "util.py").write_text("import cuda.tile as ct\n\nSCALE = 4.0\n\n\ndef twice(t):\n    return t * 2.0, t\n")
    (pkg / "sub" / "more.py").write_text("import cuda.tile as cuda_tile\nfrom ..util import SCALE\n\n\n"
                                         "@cuda_tile.function\ndef expo(t):\n    return cuda_tile.exp(t) * SCALE\n")
    src = _src(pkg / "sub", f"r = ct.bid(0)\n{LOAD}\na, b = twice(t)\n"
                            "ct.store(y, index=(r, 0), tile=ct.astype(expo(a) + b + OFF, y.dtype))",
               "x, y, T: ct.Constant[int]", head="from pkg.util import twice\nfrom .more import expo\n"
                                                 "from ..util import SCALE as OFF")
    (k,) = _lower(src)
    ops = list(walk(k.body))
    assert [op.attrs.get("fn") for op in ops if op.kind == OpKind.MATH] == ["exp"]
    assert sorted(op.attrs["value"] for op in ops if op.kind == OpKind.CONSTANT and op.result.type.dtype == F32) \
        == [2.0, 4.0, 4.0]
    mul = next(op for op in ops if op.kind == OpKind.MULF)
    assert Path(mul.loc.file).name == "util.py" and mul.loc.line == 7  # located in the helper's own module
    assert [t for _, kind, t in k.notes if kind == "inline"] == ["helper twice() (line 6 of util.py) inlined",
                                                                 "helper expo() (line 6 of more.py) inlined"]


@pytest.mark.model
def test_loop_carries_names_bound_by_unpacking_and_ifs(tmp_path):
    (k,) = _lower(_src(tmp_path, "r = ct.bid(0)\nacc = ct.zeros((1, T), dtype=ct.float32)\nm = acc\n"
                                 "for j in range(4):\n    t = ct.astype(ct.load(x, index=(r, j), shape=(1, T)), ct.float32)\n"
                                 "    if F:\n        t = t * 2.0\n    acc, m = acc + t, t\n"
                                 "ct.store(y, index=(r, 0), tile=ct.astype(acc + m, y.dtype))",
                       "x, y, T: ct.Constant[int], F: ct.Constant[bool]"))
    (loop,) = [op for op in walk(k.body) if op.kind == OpKind.FOR]
    assert [a.hint for a in loop.regions[0].args[1:]] == ["acc", "m"]
    assert any(op.kind == OpKind.IF and op.attrs["flag"] == "F" for op in walk(loop.regions[0]))


@pytest.mark.model
def test_specialise_splits_a_flag_whose_arm_the_reference_hoists(tmp_path):
    src = _src(tmp_path, "r = ct.bid(0)\nacc = ct.zeros((1, T), dtype=ct.float32)\nfor j in range(4):\n"
                         "    t = ct.astype(ct.load(x, index=(r, j), shape=(1, T)), ct.float32)\n"
                         "    if F:\n        t = t * 2.0\n    acc = acc + t\n"
                         "ct.store(y, index=(r, 0), tile=ct.astype(acc, y.dtype))",
               "x, y, T: ct.Constant[int], F: ct.Constant[bool]")
    entries = pipeline.lower(src)  # the constant 2.0 of the arm is loop-invariant: hoisted once F is folded
    assert [e.name for e in entries] == ["k__F_0", "k__F_1"] and not any(_ifs(e) for e in entries)
    (e,) = pipeline.lower(DATA / "cf_typed_loop_if.py")  # `t = ct.exp(t)` depends on the loop: one entry
    assert len([op for op in _ifs(e) if "flag" in op.attrs]) == 1


@pytest.mark.model
def test_kernel_return(tmp_path):
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\n{STORE}\nreturn", "x, y, T: ct.Constant[int]"))
    assert [op.kind for op in walk(k.body)][-1] == OpKind.YIELD
    with pytest.raises(errors.CtrsError) as e:
        _lower(_src(tmp_path, f"r = ct.bid(0)\nfor j in range(n):\n    if r >= j:\n        return\n{LOAD}\n{STORE}",
                    "x, y, n: int, T: ct.Constant[int]"))  # an early return outside a loop: test_ir_early_return.py
    assert e.value.code == errors.IR_NESTED_RETURN and "a return inside a kernel body" in e.value.message
    assert "src/compiler/compile_block.rs" in e.value.hint
    assert (e.value.loc.line, e.value.loc.col) == (9, 13)


def _fors(k: Kernel):
    return [op for op in walk(k.body) if op.kind == OpKind.FOR]


@pytest.mark.model
def test_loop_split_follows_the_reference(tmp_path):
    """passes/loopsplit.py: cuTile Python's loop_split conditions (one top-level runtime if per step-1 loop, on
    the induction variable against a value defined before the loop) and its two loops."""
    body = ("r = ct.bid(0)\nacc = ct.zeros((1, T), dtype=ct.float32)\nfor j in range({rng}):\n"
            "    t = ct.astype(ct.load(x, index=(r, j), shape=(1, T)), ct.float32)\n"
            "    if {cond}:\n        acc = acc + t\n{more}"
            "ct.store(y, index=(r, 0), tile=ct.astype(acc, y.dtype))")
    params = "x, y, n: int, T: ct.Constant[int]"

    def final(cond, rng="4", more=""):
        (k,) = pipeline.lower(_src(tmp_path, body.format(cond=cond, rng=rng, more=more), params))
        return k

    k = final("j < n")
    a, b = _fors(k)
    assert not _ifs(k) and a.results[0] is b.operands[3]  # the first loop's carried value starts the second
    mini, maxi = (op for op in k.body.ops if op.kind in (OpKind.MINI, OpKind.MAXI))
    assert mini.kind == OpKind.MINI and a.operands[1] is mini.result and b.operands[0] is maxi.result
    assert [o.kind for o in a.regions[0].ops][-2] == OpKind.ADDF  # j < n: the first loop keeps the then arm
    assert [o.kind for o in b.regions[0].ops] == [OpKind.YIELD]  # the second: the empty else arm (dce'd load)
    k = final("n >= j")  # flipped to j <= n: split at n + 1
    assert any(op.kind == OpKind.ADDI for op in k.body.ops) and len(_fors(k)) == 2
    assert len(_fors(final("r < n"))) == 1  # a loop-invariant test: no split
    assert len(_fors(final("j < n", rng="0, 8, 2"))) == 1  # step 2: no split
    two = "    if j > n:\n        acc = acc * 2.0\n"
    assert len(_fors(final("j < n", more=two))) == 1 and len(_ifs(final("j < n", more=two))) == 2  # two: none
    with pytest.raises(errors.CtrsError) as e:  # a ct.Constant step: the reference splits for S == 1 only
        _lower(_src(tmp_path, body.format(cond="j < n", rng="0, 8, S", more=""), params + ", S: ct.Constant[int]"))
    assert e.value.code == errors.IR_LOOP_SPLIT_STEP and e.value.loc.line == 10


@pytest.mark.model
def test_if_on_constant_arithmetic_is_a_const_expression_if(tmp_path):
    """`if S & 1:` / `if 4 - S == 1:` / `if S % 4 == 0` on a ct.Constant S: cuTile Python folds the condition per
    launch; the port's if tests the expression over the const generics (cutile folds it alike), with Python's
    floor `%` / `//` spelled for Rust; constfold folds it when an entry fixes S. A shift (cutile's bounds analysis
    does not track it) stays CTRS-E324."""
    cases = {"S & 1": ("S & 1", "(S & 1i32) != 0i32", {1: True, 2: False}),
             "4 - S == 1": ("(4 - S) == 1", "(4i32 - S) == 1i32", {3: True, 2: False}),
             "S % 4 == 0": ("(S % 4) == 0", "(((S % 4i32) + 4i32) % 4i32) == 0i32", {8: True, -4: True, 6: False}),
             "-S // 3 < -1": ("(-S // 3) < -1", "(((0i32 - S) - ((((0i32 - S) % 3i32) + 3i32) % 3i32)) / 3i32) "
                              "< -1i32", {4: True, 3: False})}
    for cond, (text, rust, values) in cases.items():
        (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif {cond}:\n    t = t * 2.0\n{STORE}",
                           "x, y, S: ct.Constant[int], T: ct.Constant[int]"))
        (iff,) = _ifs(k)
        assert iff.attrs["flag"] == text and not iff.operands, cond
        assert spelling.const_expr(iff.attrs["expr"]) == rust, cond
        for s, taken in values.items():
            assert iff.attrs["expr"].evaluate({"S": s}) is taken, (cond, s)
            assert eval(cond, {"S": s}) == taken  # Python's semantics, which the Rust spelling reproduces
    with pytest.raises(errors.CtrsError) as e:
        _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif (S << 1) > 3:\n    t = t * 2.0\n{STORE}",
                    "x, y, S: ct.Constant[int], T: ct.Constant[int]"))
    assert e.value.code == errors.IR_CONST_CONDITION and e.value.loc.line == 8


@pytest.mark.model
def test_const_expression_if_folds_in_an_entry_and_refuses_a_crossed_fma(tmp_path):
    """constfold keeps the taken arm of an expression if whose symbols an entry fixes; an fma contraction that
    would cross such an if (the reference contracts after folding) is CTRS-E390."""
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif S % 2 == 0:\n    t = t * 2.0\n{STORE}",
                       "x, y, S: ct.Constant[int], T: ct.Constant[int]"))
    k.variant = (("S", 4),)
    assert not _ifs(constfold.run(k)) and any(op.kind == OpKind.MULF for op in walk(k.body))
    src = _src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nu = t * 3.0\nif S & 1:\n    u = u + t\nt = u\n{STORE}",
               "x, y, S: ct.Constant[int], T: ct.Constant[int]")
    with pytest.raises(errors.CtrsError) as e:
        pipeline.lower(src)
    assert e.value.code == errors.IR_CONST_EXPR_FMA and e.value.loc.line == 9
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif S == 1:\n    t = t * 2.0\n{STORE}",
                       "x, y, S: ct.Constant[int], T: ct.Constant[int]"))
    assert [op.attrs.get("flag") for op in _ifs(k)] == ["S"]
    (k,) = _lower(_src(tmp_path, f"r = ct.bid(0)\n{LOAD}\nif r * S > 3:\n    t = t * 2.0\n{STORE}",
                       "x, y, S: ct.Constant[int], T: ct.Constant[int]"))  # a runtime value in it: a runtime if
    assert len(_ifs(k)) == 1 and "flag" not in _ifs(k)[0].attrs


@pytest.mark.model
def test_loop_split_candidate_under_a_constant_flag_is_refused(tmp_path):
    """`if F == 1:` then `if j < n:` in a loop: the reference folds F, then splits the loop where the inner if is
    left at the body's top level; the port keeps one loop, so the kernel is refused (CTRS-E325)."""
    body = ("r = ct.bid(0)\nacc = ct.zeros((1, T), dtype=ct.float32)\nfor j in range(4):\n"
            "    t = ct.astype(ct.load(x, index=(r, j), shape=(1, T)), ct.float32)\n"
            "    if F == 1:\n        if j < n:\n            acc = acc + t\n"
            "ct.store(y, index=(r, 0), tile=ct.astype(acc, y.dtype))")
    with pytest.raises(errors.CtrsError) as e:
        pipeline.lower(_src(tmp_path, body, "x, y, n: int, F: ct.Constant[int], T: ct.Constant[int]"))
    assert e.value.code == errors.IR_LOOP_SPLIT_FLAG and e.value.loc.line == 10


def test_const_expression_ifs_are_ir_equivalent(tmp_path):
    """tests/data/cf_const_expr.py: `if STAGE & 1`, `if HEADS % GROUP == 0`, `if HEADS == GROUP_SIZE`, a
    conditional expression on `HEADS // GROUP_SIZE > 1`, `TILE * 2 != HEADS and STAGE - 1 >= 0`, and
    `check_bounds=ct.cdiv(N, TILE) * TILE != N` (and `TILE != N`) on a gather inside a loop and on a scatter:
    the port's ifs on const-generic expressions fold in cutile as the reference folds them, for every spec (both
    arms taken)."""
    from ctrs.spec import load_specs  # noqa: PLC0415

    from .conftest import assert_port_equivalent, translate_data  # noqa: PLC0415

    kernel = DATA / "cf_const_expr.py"
    assert translate.translate_module(kernel).pipeline == pipeline.PIPELINE_NAME
    kernel_rs = translate_data(tmp_path, ["cf_const_expr"])["cf_const_expr"]
    assert "if (((HEADS % 16i32) + 16i32) % 16i32) == 0i32 {" in kernel_rs.read_text()
    for s in load_specs(str(DATA / "cf_const_expr.json")):
        assert_port_equivalent(kernel, kernel_rs, s)


@pytest.mark.model
def test_cdiv_check_and_float_constant_dispatcher(tmp_path):
    """`check = ct.cdiv(N, T) * T != N` as check_bounds= inside a loop is an expression if (ct.cdiv spelled with
    Python's rounding); the C dispatcher of the per-dtype entries takes a ct.Constant[float] (a runtime f32 of
    the entries) as f32, not as an i32 constant (ffi.rs did not compile: E0308)."""
    body = ("r = ct.bid(0)\noffs0 = ct.arange(T, dtype=ct.int32)\nnum = ct.cdiv(N, T)\ncheck = num * T != N\n"
            "acc = ct.full((T,), 0.0, dtype=ct.float32)\nfor j in range(0, num):\n"
            "    acc += ct.astype(ct.gather(x, (r, j * T + offs0), check_bounds=check), ct.float32)\n"
            "ct.scatter(y, (r, offs0), ct.astype(acc * EPS, y.dtype))")
    src = _src(tmp_path, body, "x, y, EPS: ct.Constant[float], N: ct.Constant[int], T: ct.Constant[int]")
    (k,) = _lower(src)
    (iff,) = _ifs(k)
    e = iff.attrs["expr"]
    assert iff.attrs["flag"] == "(ct.cdiv(N, T) * T) != N"
    assert [e.evaluate({"N": n, "T": 64}) for n in (96, 128, 1, 64)] == [True, False, True, False]
    assert spelling.const_expr(e) == "((0i32 - (((0i32 - N) - ((((0i32 - N) % T) + T) % T)) / T)) * T) != N"
    ffi = translate.translate_source(src)["ffi.rs"]
    start = ffi.index('pub unsafe extern "C" fn ctrs_k(')
    sig = ffi[start:ffi.index(") -> i32", start)]
    assert "EPS: f64," in sig and "N: i32," in sig and "EPS: i32" not in sig  # the launch's double


def test_half_precision_float_constants_are_ir_equivalent(tmp_path):
    """tests/data/ir_half_consts2.py (tanh-gelu constants 0.044715, 0.7978845608028654 meeting f16 / bf16 / f32
    tiles): a half-type constant the crate cannot spell is `constant_f32` with the Python float's shortest
    decimal, which the cuTile JIT rounds once into the tile's dtype, as the reference does."""
    from ctrs.spec import load_specs  # noqa: PLC0415

    from .conftest import assert_port_equivalent, translate_data  # noqa: PLC0415

    kernel = DATA / "ir_half_consts2.py"
    assert translate.translate_module(kernel).pipeline == pipeline.PIPELINE_NAME
    kernel_rs = translate_data(tmp_path, ["ir_half_consts2"])["ir_half_consts2"]
    rs = kernel_rs.read_text()
    assert "let c: Tile<bf16, { [] }> = constant_f32(0.044714998453855515f32, const_shape![]);" in rs  # its f32
    assert "constant(0.044714998453855515f32, const_shape![])" in rs  # f32: the f32 literal, as before
    assert ir_rust.half_constant(float("inf"), ir_rust.DTypeParam("E")) is None
    for s in load_specs(str(DATA / "ir_half_consts2.json")):
        assert_port_equivalent(kernel, kernel_rs, s)


def test_zero_d_tiles_as_bounds_and_conditions_are_ir_equivalent(tmp_path):
    """tests/data/cf_tile0_bounds.py: a 0-d tile (`ct.minimum(ct.reshape(..., ()), n)`) compared in an
    if-condition and divided into a loop bound is the scalar it is in cuTile Python (tile_to_scalar is a cast,
    no op); an if arm whose value is a for loop's result assigns it (the arm used to drop the loop's result)."""
    from ctrs.spec import load_specs  # noqa: PLC0415

    from .conftest import assert_port_equivalent, translate_data  # noqa: PLC0415

    kernel = DATA / "cf_tile0_bounds.py"
    assert translate.translate_module(kernel).pipeline == pipeline.PIPELINE_NAME
    kernel_rs = translate_data(tmp_path, ["cf_tile0_bounds"])["cf_tile0_bounds"]
    rs = kernel_rs.read_text()
    assert "                acc_2 = acc_2 + t_c;\n            }\n            acc_1 = acc_2;\n        } else {" in rs
    for s in load_specs(str(DATA / "cf_tile0_bounds.json")):
        assert_port_equivalent(kernel, kernel_rs, s)


def test_constant_fill_of_an_index_arrays_dtype_is_ir_equivalent(tmp_path):
    """tests/data/ir_int_fill.py: `ct.full((1,), BLOCK, dtype=c.dtype)` of a gathered int32 array's dtype
    variable is lowered once per element type, i32 first (the only dtype a ct.Constant fill is exact in); the
    i32 entry is IR-equivalent (raw-pointer assume warnings only)."""
    from ctrs.spec import load_specs  # noqa: PLC0415

    from .conftest import assert_port_equivalent, translate_data  # noqa: PLC0415

    kernel = DATA / "ir_int_fill.py"
    mod = translate.translate_module(kernel)
    assert mod.pipeline == pipeline.PIPELINE_NAME
    assert "ir_int_fill_i32" in [k.name for k in mod.kernels]
    kernel_rs = translate_data(tmp_path, ["ir_int_fill"])["ir_int_fill"]
    for s in load_specs(str(DATA / "ir_int_fill.json")):
        assert_port_equivalent(kernel, kernel_rs, s)


@pytest.mark.model
def test_compile_time_numbers_a_loop_changes_are_carried(tmp_path):
    # `k = 0` .. `k += 1`: an i32 iter_arg (cuTile Python carries it); `step = 2` re-bound to the same value and
    # `TILE`-valued `w` the body does not change stay compile-time (no iter_arg, folded where used)
    body = """
r = ct.bid(0)
k = 0
step = 2
w = T
for j in range(4):
    t = ct.load(x, index=(r, k * step), shape=(1, T))
    ct.store(y, index=(r, k), tile=t)
    k += 1
    step = 2
"""
    (k,) = _lower(_src(tmp_path, body, "x, y, T: ct.Constant[int]"))
    (loop,) = [op for op in walk(k.body) if op.kind == OpKind.FOR]
    init = loop.operands[3:]
    assert [v.type for v in init] == [ScalarType(I32)] and [r.hint for r in loop.results] == ["k"]
    (add,) = [op for op in walk(loop.regions[0]) if op.kind == OpKind.ADDI]
    assert add.operands[0] is loop.regions[0].args[1]  # k + 1 reads the carried k, not the folded 0
    # a number the body turns into a tile changes type: refused (cuTile Python keeps one type per loop variable)
    bad = _src(tmp_path, "acc = 0\nfor j in range(4):\n    acc = acc + ct.astype(ct.load(x, index=(j,), shape=(T,)), "
                         "ct.float32)\n"
                         "ct.store(y, index=(0,), tile=acc)", "x, y, T: ct.Constant[int]", "bad.py")
    with pytest.raises(errors.CtrsError, match="changes type in the loop body"):
        _lower(bad)
