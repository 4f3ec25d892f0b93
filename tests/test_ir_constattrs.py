"""Op attributes known per specialisation (issue 12): latency= / allow_tma= / check_bounds= given by ct.Constant
parameters or by comparisons of them, on the typed cuTile front end (frontends/cutile/memory.py per_flag,
control.py const_test / flag_arms) and the emitter (ir_rust.py: ``Some(LAT)``, ``if TILE != N``).

tests/data/ir_const_attrs.py is IR-equivalent to cuTile Python's reference for specs with different constant
values (cargo); the rest are model-only."""

from __future__ import annotations

import dataclasses

import pytest

from ctrs.workflow import check
from ctrs import errors, pipeline, translate
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.emitters import render_host
from ctrs.ir.ops import Block, Kernel, Op, OpKind
from ctrs.ir.types import I32, ScalarType, Sym
from ctrs.ir.values import Loc, Value
from ctrs.passes import constfold
from ctrs import spec as spec_mod
from ctrs.spec import ConstArg, load_specs

from .conftest import DATA, assert_equivalent_report

KERNEL = DATA / "ir_const_attrs.py"


def _rust() -> str:
    return translate.translate_source(KERNEL)["kernel.rs"]


def _entries(kernel, specs) -> list[tuple]:
    fks = render_host.ffi_kernels(translate.translate_module(kernel))
    out = []
    for s in specs:
        fk = check.entry_for(s, fks)
        out.append((s, s.rust.get("entry") or (fk.name if fk is not None else s.kernel)))
    return out


def test_const_attrs_are_ir_equivalent(tmp_path):
    assert translate.translate_module(KERNEL).pipeline == pipeline.PIPELINE_NAME
    files = translate.translate(KERNEL, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / "ir_const_attrs.json"))
    for kernel in ("lat_generic", "bounds_flag", "bounds_pred", "tma_flag", "hinted", "folded_tests"):
        consts = {tuple(sorted((n, a.value) for n, a in s.args.items() if isinstance(a, ConstArg)))
                  for s in specs if s.kernel == kernel}
        assert len(consts) >= 2
    jobs = _entries(KERNEL, specs)
    # the launch hints of the autotuned spec dropped: the port keeps its decorator's (the diff must say so)
    tuned = next(s for s in specs if s.name == "hint_autotuned")
    dropped = dataclasses.replace(tuned, name="hint_dropped", hints={})
    gens = ir_rs.compile_ports(kernel_rs, [*jobs, (dropped, "hinted")])
    for (s, _), gen in zip(jobs, gens):
        ref = ir_ref.compile_reference(KERNEL, s)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)
    report = irdiff.diff(ir_ref.compile_reference(KERNEL, tuned).text, gens[-1].text, "ref", "gen")
    assert [f.code for f in report.findings if f.severity == irdiff.CRITICAL] == ["IRD-HINT-ENTRY"]


# -- model-only ---------------------------------------------------------------------------------------------

@pytest.mark.model
def test_latency_of_a_constant_is_spelled_as_the_generic():
    text = pipeline.emit_model(KERNEL, "frontend")
    assert "if const LAT ge 1" in text
    assert sum("latency = LAT" in ln for ln in text.splitlines()) == 2  # the load and the store
    rs = _rust()
    assert "[i, 0i32], ordering::Weak, scope::TileBlock, Some(LAT), tma::Enabled);" in rs
    assert "scope::TileBlock, Some(LAT), tma::Enabled) };" in rs


@pytest.mark.model
def test_check_bounds_and_allow_tma_of_constants_are_folded_ifs():
    rs = _rust()
    assert "if CHECK == 1i32 {" in rs      # check_bounds=CHECK (a ct.Constant[bool])
    assert "if TILE != N {" in rs          # check = TILE != N (two ct.Constant ints)
    assert "if USE_TMA == 1i32 {" in rs    # allow_tma=USE_TMA
    assert "None, tma::Disabled);" in rs and "None, tma::Enabled);" in rs
    text = pipeline.emit_model(KERNEL, "frontend")
    gathers = [ln for ln in text.splitlines() if " = gather " in ln]
    assert [("check_bounds = true" in g, "check_bounds = false" in g) for g in gathers] == \
        [(True, False), (False, True)] * 2  # each ct.gather lowered once per value, in the two arms


@pytest.mark.model
def test_generic_latency_of_a_gather_is_refused(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, y, TILE: ct.Constant[int], LAT: ct.Constant[int]):\n"
                   "    offs = ct.arange(TILE, dtype=ct.int32)\n"
                   "    ct.scatter(y, offs, ct.gather(x, offs, latency=LAT))\n")
    with pytest.raises(errors.CtrsError) as e:
        pipeline.lower(src)
    assert e.value.code == errors.IR_UNSUPPORTED and "Latency<const CYCLES: u32>" in e.value.message
    assert e.value.loc.line == 7


def _if_on(flag: str, value) -> tuple[Kernel, Value]:
    loc = Loc("k.py", 1, 1)
    arms = []
    for v in (1, 2):
        c = Value(ScalarType(I32), "c")
        arms.append(Block([], [Op(OpKind.CONSTANT, [], [c], {"value": v}, loc), Op(OpKind.YIELD, [c], [], loc=loc)]))
    r = Value(ScalarType(I32), "r")
    iff = Op(OpKind.IF, [], [r], {"flag": flag, "test": ("ne", value)}, loc, arms)
    k = Kernel("k", [], [], Block([], [iff, Op(OpKind.YIELD, [], [], loc=loc)]), loc)
    return k, r


@pytest.mark.model
def test_constfold_folds_a_test_of_two_constants_only_when_both_are_fixed():
    k, _ = _if_on("TILE", Sym("N"))
    k.variant = (("TILE", 128),)
    assert constfold.run(k).body.ops[0].kind == OpKind.IF  # N is not fixed: the JIT folds it
    k, _ = _if_on("TILE", Sym("N"))
    k.variant = (("TILE", 128), ("N", 128))
    assert [op.kind for op in constfold.run(k).body.ops] == [OpKind.CONSTANT, OpKind.YIELD]
    assert constfold.run(k).body.ops[0].attrs["value"] == 2  # TILE != N is false: the else arm



@pytest.mark.model
def test_launch_hints_of_a_spec_are_compile_options():
    """A spec's "hints" (an autotune config / replace_hints of the launch) reach the compile harness as cutile's
    CompileOptions, which override the entry's optimization_hints as replace_hints overrides the decorator."""
    specs = {s.name: s for s in load_specs(str(DATA / "ir_const_attrs.json"))}
    assert spec_mod.compile_options(specs["hint_decorator"]) == {}
    assert spec_mod.compile_options(specs["hint_autotuned"]) == {"num_cta_in_cga": 2, "occupancy": 1}
    assert spec_mod.compile_options(specs["hint_occ4"]) == {"num_worker_warps_per_cta": 8, "occupancy": 4}
    rs = _rust()
    assert "sm_90 = (occupancy = 2" in rs  # the decorator's hint stays the entry's default


@pytest.mark.model
def test_compile_time_tests_that_are_not_numbers_fold():
    """``x.dtype == ct.float32`` on the element type E: one entry per element type, where it folds; ``y is not
    None`` of an array folds to True; ct.static_assert of ct.Constant ints is left to cuTile Python's launch;
    ct.bid(axis=0) takes its keyword."""
    text = pipeline.emit_model(KERNEL, "final")
    heads = [ln.split("<")[0] for ln in text.splitlines() if ln.startswith("kernel @folded_tests")]
    assert heads == ["kernel @folded_tests_f32", "kernel @folded_tests_f16", "kernel @folded_tests_bf16"]
    bodies = text.split("kernel @folded_tests_")[1:]
    assert "mulf %t, %t" in bodies[0] and "addf" not in bodies[0]
    assert all("addf %t, %t" in b.split("kernel @")[0] and "mulf" not in b.split("kernel @")[0] for b in bodies[1:])
    assert "cmpi" not in bodies[0].split("kernel @")[0]  # the static_assert leaves nothing behind


@pytest.mark.model
def test_a_failing_or_runtime_static_assert_is_still_refused(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, TILE: ct.Constant[int]):\n"
                   "    ct.static_assert(ct.bid(0) == 1)\n    ct.store(x, (0,), ct.load(x, (0,), (TILE,)))\n")
    with pytest.raises(errors.CtrsError) as e:
        pipeline.lower(src)
    assert "not a compile-time constant" in e.value.message and e.value.loc.line == 6


@pytest.mark.model
def test_port_takes_launch_hints_per_launch():
    """On the GPU the port receives a spec's hints per launch: wrapper.set_launch_hints -> the C entry
    ctrs_set_launch_hints (this thread's next launches) -> cutile CompileOptions on the launcher."""
    files = translate.translate_source(KERNEL)
    ffi, wrapper = files["ffi.rs"], files["wrapper.py"]
    assert 'pub extern "C" fn ctrs_set_launch_hints(' in ffi
    assert "Some(o) => op.compile_options(o)," in ffi and "o.num_cta_in_cga = (ctas > 0).then_some(ctas);" in ffi
    assert "int32_t ctrs_set_launch_hints(int32_t occupancy, int32_t num_ctas, int32_t num_worker_warps);" in wrapper
    assert "def set_launch_hints(occupancy: int = 0, num_ctas: int = 0, num_worker_warps: int = 0" in wrapper


@pytest.mark.model
def test_a_comparison_in_a_loop_is_a_constant_if_in_the_loop(tmp_path):
    """check_bounds= given by a ct.Constant comparison inside a loop: the gather in both arms of a constant if in
    the loop body (IR-equivalent: tests/data/cf_const_expr.py cf_flag_check, tests/test_ir_control.py)."""
    from ctrs.ir.ops import OpKind, walk  # noqa: PLC0415
    from ctrs.ir.types import Sym  # noqa: PLC0415

    src = tmp_path / "k.py"
    src.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef k(x, y, N: ct.Constant[int], T: ct.Constant[int]):\n"
                   "    offs = ct.arange(T, dtype=ct.int32)\n    for j in range(4):\n"
                   "        ct.scatter(y, j * T + offs, ct.gather(x, j * T + offs, check_bounds=N != T))\n")
    k = pipeline.lower(src)[0]  # (one entry per element type: the gather reads a raw pointer)
    (loop,) = [op for op in k.body.ops if op.kind == OpKind.FOR]
    (iff,) = [op for op in walk(loop.regions[0]) if op.kind == OpKind.IF]
    assert iff.attrs["flag"] == "N" and iff.attrs["test"] == ("ne", Sym("T"))
    checks = [op.attrs["check_bounds"] for r in iff.regions for op in r.ops if op.kind == OpKind.GATHER]
    assert checks == [True, False]
