"""The typed-IR Triton front end (transpiler/frontends/triton/): which Triton fixtures take it (a ratchet), the
port's parameters agree with the host side's map, ``--emit model`` prints their IR, and the pure pointer-expression
analysis (pointers.py) decides partition views. No cargo, no cuda-tile: IR equivalence of the moved fixtures is
tests/test_triton.py::test_triton_ir_equivalent (it translates through the default, typed, path).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends import triton as fe_triton
from ctrs.frontends.triton import pointers as P
from ctrs.ir import Sym

pytestmark = pytest.mark.model  # model-only: no cargo, no cuda-tile (tests/conftest.py guard)

ROOT = Path(__file__).resolve().parent.parent
# A ratchet: exactly the Triton fixtures that translate through the typed IR. A fixture leaving it is a regression;
# one joining it fails until it is added here, after its IR-equivalence tests passed on the typed path.
TYPED_TRITON = {
    "fixtures/triton_attention/kernel.py",
    "fixtures/triton_autotune_add/kernel.py",
    "fixtures/triton_control/kernel.py",
    "fixtures/triton_derived_dims/kernel.py",
    "fixtures/triton_desc_scale/kernel.py",
    "fixtures/triton_dropout/kernel.py",
    "fixtures/triton_erf/kernel.py",  # numerics: the H200 run (no cuTile counterpart; ports build)
    "fixtures/triton_flag_split/kernel.py",  # numerics: the H200 run (no cuTile counterpart; ports build)
    "fixtures/triton_helper_returns/kernel.py",  # numerics: the H200 run (no cuTile counterpart; ports build)
    "fixtures/triton_joins/kernel.py",  # numerics: the H200 run (no cuTile counterpart; ports build)
    "fixtures/triton_flat_gather/kernel.py",
    "fixtures/triton_gather2d/kernel.py",  # no cuTile Python counterpart: tests/test_triton_memory.py
    "fixtures/triton_layer_norm/kernel.py",
    "fixtures/triton_layer_norm_loop/kernel.py",
    "fixtures/triton_matmul/kernel.py",
    "fixtures/triton_matmul_advance/kernel.py",
    "fixtures/triton_matmul_ptr2d/kernel.py",
    "fixtures/triton_math_helpers/kernel.py",
    "fixtures/triton_rms_norm/kernel.py",
    "fixtures/triton_scalar_if/kernel.py",  # numerics: the H200 run (no cuTile counterpart; ports build)
    "fixtures/triton_row_softmax/kernel.py",
    "fixtures/triton_strided_gather/kernel.py",
    "fixtures/triton_vector_add/kernel.py",
}


def _triton_files() -> list[Path]:
    return [p for p in sorted((ROOT / "fixtures").glob("triton_*/kernel.py")) if fe_triton.source.is_triton_file(p)]


def test_typed_triton_ratchet():
    typed, text = set(), set()
    for p in _triton_files():
        rel = str(p.relative_to(ROOT))
        try:
            mod = translate.translate_module(p)
        except errors.CtrsError:
            continue
        if not mod.kernels:
            continue  # a diagnostic fixture (triton_unsupported): every kernel refused
        (typed if mod.pipeline == pipeline.PIPELINE_NAME else text).add(rel)
    assert typed == TYPED_TRITON, f"joined: {sorted(typed - TYPED_TRITON)}; left: {sorted(TYPED_TRITON - typed)}"
    assert not text, f"fixtures on the rewrite path: {sorted(text)}"  # every Triton fixture is typed


@pytest.mark.parametrize("rel", sorted(TYPED_TRITON))
def test_port_parameters_match_the_host_map(rel):
    """The host side (wrapper, ffi, analysis.json) comes from host.mine_sites: the typed kernel must
    keep exactly the parameters that map names, in order, with the same constexpr flags."""
    path = ROOT / rel
    mod = translate.translate_module(path)
    from ctrs.frontends.triton import host  # noqa: PLC0415 - a typed port's host map, as translate.port_files reads it

    sites = host.mine_sites(path, host.typed_map)
    for k in mod.kernels:
        py = k.python_name or k.name
        fixed = {f for f, _v in k.variant} - {p.name for p in k.params}  # a structural entry's folded flags
        assert [[p.name, p.kind == "constant"] for p in k.params] == [e for e in sites["kernels"][py]
                                                                      if e[0] not in fixed]


def test_emit_model_prints_triton_ir():
    text = pipeline.emit_model(ROOT / "fixtures" / "triton_vector_add" / "kernel.py", "frontend")
    assert "kernel @vector_add<E: dtype, TILE: const>(%x: array<?x!E>, %y: array<?x!E>, %z: array<?x!E>)" in text
    assert "%pid = block_id {axis = 0} : i32  loc(kernel.py:16:11)" in text
    assert "%lhs = load_view %px, %pid : tile<TILEx!E>  loc(kernel.py:19:11)" in text
    assert "store_view %pz, %out, %pid  loc(kernel.py:21:5)" in text
    final = pipeline.emit_model(ROOT / "fixtures" / "triton_matmul" / "kernel.py", "final")
    assert "num_tiles %pA {axis = 1} : i32" in final  # tl.cdiv(K, TK) with K = A.shape[1]
    assert "if const CAST_TF32 -> (tile<TMxTNxf32>)" in final  # tf32 inputs for f32 (Triton's default)
    assert "muli" not in final  # pid * TM only located the block: dce removed it


def test_pointer_steps_and_late_extents(tmp_path):
    """matmul_ptr2d: `a_ptrs += TK * stride_ak` moves the tile index with the loop variable, `rk < K - k * TK` is the
    shifted range's mask, and `tl.cdiv(K, TK)` before those masks becomes the tile count of A's axis 1."""
    final = pipeline.emit_model(ROOT / "fixtures" / "triton_matmul_ptr2d" / "kernel.py", "final")
    assert "%tiles = num_tiles %pA {axis = 1} : i32" in final
    assert "%a = load_view %pA_1, %pid_m, %k : tile<TMxTKx!E>" in final
    assert "%b = load_view %pB, %k, %pid_n : tile<TKxTNx!E>" in final
    with pytest.raises(errors.CtrsError) as ei:  # the loop counts iterations only from 0 in steps of 1
        _lower_text(tmp_path, tmp_kernel("""
    rk = tl.arange(0, TK)
    p = A + rk
    for k in range(1, 4):
        x = tl.load(p)
        p += TK * s
"""))
    assert ei.value.code == errors.IR_UNSUPPORTED and "start at 0 with step 1" in ei.value.message


def tmp_kernel(body: str) -> str:
    return ("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
            "def k(A, s, TK: tl.constexpr):" + body)


def _lower_text(tmp_path: Path, src: str):
    p = tmp_path / "k.py"
    p.write_text(src)
    return fe_triton.lower_file(p)


def test_emit_model_of_a_file_outside_the_subset_is_e124():
    with pytest.raises(errors.CtrsError) as ei:
        pipeline.emit_model(ROOT / "fixtures" / "triton_unsupported" / "kernel.py")
    assert ei.value.code == errors.IR_UNSUPPORTED and "tl.randn" in ei.value.message
    assert ei.value.loc.line > 0 and ei.value.loc.col > 0


def test_explain_keeps_the_parameter_notes():
    lines = translate.explain_lines(ROOT / "fixtures" / "triton_matmul_advance" / "kernel.py")
    text = "\n".join(lines)
    assert "'K' is the extent A.shape[1]: parameter dropped, read from the tensor" in text
    assert "'stride_am' is a block pointer stride" in text
    assert ": matmul: generic: const CAST_TF32: i32 <- A.dtype == f32 (host-computed flag)" in text


# ---------------------------------------------------------------------------------------------- pointers.py


class V:
    """An opaque IR value (the analysis compares offsets by identity)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


TILE, BM, BN = Sym("TILE"), Sym("BM"), Sym("BN")


def test_block_offset_range_is_a_1d_view():
    pid = V("pid")
    offs = P.Range(TILE).shifted(pid)  # pid * TILE + tl.arange(0, TILE)
    acc = P.access(P.Ptr("x").plus(P.Ptr(None, (P.Term(rng=offs),))), P.Mask((P.MaskPart(offs, "n", "param"),)))
    assert (acc.base, acc.index, acc.shape, acc.tshape) == ("x", ((pid,),), (TILE,), (TILE,))
    assert acc.extents == (("n", "param", 0),) and acc.strides == ()


def test_row_times_stride_plus_range_is_a_row_view():
    row = V("row")
    cols = P.Range(TILE)
    p = P.Ptr("x", (P.Term(idx=row, stride="stride_x"), P.Term(rng=cols)))
    acc = P.access(p, P.Mask((P.MaskPart(cols, "n_cols", "param"),)))
    assert acc.index == ((row,), ()) and acc.shape == (1, TILE) and acc.tshape == (TILE,)
    assert acc.extents == (("n_cols", "param", 1),) and acc.strides == (("stride_x", 0),)


def test_2d_broadcast_ranges_order_dims_by_stride():
    pm, pn = V("pid_m"), V("pid_n")
    rm = P.Range(BM).shifted(pm).placed(0, 2)  # offs_m[:, None]
    rn = P.Range(BN).shifted(pn).placed(1, 2)  # offs_n[None, :]
    p = P.Ptr("a", (P.Term(rng=rn), P.Term(rng=rm, stride="stride_am")))
    mask = P.Mask((P.MaskPart(rm, "M", "param"), P.MaskPart(rn, "N", "param")))
    acc = P.access(p, mask)
    assert acc.index == ((pm,), (pn,)) and acc.shape == (BM, BN) and acc.tshape == (BM, BN)
    assert acc.extents == (("M", "param", 0), ("N", "param", 1)) and acc.strides == (("stride_am", 0),)


def test_whole_blocks_fold_into_the_tile_index():
    k = V("k")
    r = P.Range(TILE)
    p = P.Ptr("x", (P.Term(rng=r), P.Term(idx=V("k_times_tile"), tiles=k, block=TILE)))
    assert P.access(p, None).index == ((k,),)


@pytest.mark.parametrize(("ptr", "mask", "why"), [
    (P.Ptr("x", (P.Term(rng=P.Range(TILE)), P.Term(idx=V("off")))), None, "not a whole number of blocks"),
    (P.Ptr("x", (P.Term(rng=P.Range(TILE)), P.Term(rng=P.Range(TILE)))), None, "two tile offsets on one axis"),
    (P.Ptr("x", (P.Term(rng=P.Range(BM).placed(0, 2)), P.Term(rng=P.Range(BN).placed(1, 2), stride="s"))), None,
     "transposed"),
    (P.Ptr("x", (P.Term(rng=P.Range(TILE).shifted(V("pid"))),)),
     P.Mask((P.MaskPart(P.Range(TILE), "n", "param"),)), "mask is not on this access"),
    (P.Ptr(None, (P.Term(rng=P.Range(TILE)),)), None, "not a pointer parameter"),
    (P.Ptr("x", (P.Term(idx=V("i")),)), None, "single element"),
    (P.Ptr("x", (P.Term(rng=P.Range(BM).placed(1, 2)),)), None, "a tile axis without offsets"),
])
def test_accesses_that_are_not_views(ptr, mask, why):
    with pytest.raises(P.NotView) as ei:
        P.access(ptr, mask)
    assert why in ei.value.why


def test_two_pointers_do_not_add():
    with pytest.raises(P.NotView):
        P.Ptr("x").plus(P.Ptr("y"))


def test_tile_index_of_block_pointer_offsets():
    i = V("i")
    off = V("i_times_bm")
    scaled = {off: (i, BM)}
    assert P.tile_index(0, BM, scaled) == 0
    assert P.tile_index(BM, BM, scaled) == 1
    assert P.tile_index(off, BM, scaled) is i
    assert P.tile_index(off, 1, scaled) is off
    with pytest.raises(P.NotView):
        P.tile_index(off, BN, scaled)


def test_control_flow_on_the_typed_path():
    """tests/data/triton_control.py: an early return runs the rest under the negated condition, a bool constexpr
    and an int constexpr compared with literals are const-generic ifs (elif nests), a float comparison is a
    runtime if, and a flag whose arms give a name different types splits the kernel into one entry per value."""
    final = pipeline.emit_model(ROOT / "tests" / "data" / "triton_control.py", "final")
    assert "%ncond = xori %m, %c : bool  loc(triton_control.py:14:8)" in final
    assert "if %ncond {  loc(triton_control.py:14:5)" in final
    assert "%v_1 = if const NEG eq 1 -> (tile<BLOCKxf32>) {" in final
    assert "%v_3 = if const MODE eq 1 -> (tile<BLOCKxf32>) {" in final
    assert "%v_5 = if const MODE eq 2 -> (tile<BLOCKxf32>) {" in final
    assert "%m_1 = cmpf %s, %c_3 {ordering = ordered, predicate = gt} : bool  loc(triton_control.py:24:8)" in final
    # y is stored .to(y.dtype.element_ty): x and y keep a type generic each (dtypes.keep_apart)
    assert "kernel @split_upcast__UPCAST_0<E: dtype, E1: dtype, BLOCK: const>" in final
    assert "kernel @split_upcast__UPCAST_1<E: dtype, E1: dtype, BLOCK: const>" in final
    assert "kernel @pick__MODE_1<E: dtype, E1: dtype, BLOCK: const>(%x: array<?x!E>, %y: array<?x!E1>, %s: f32) " \
        "variant {MODE = 1}" in final
    assert "kernel @pick__MODE_2<E: dtype, E1: dtype, BLOCK: const, MODE: const>" in final  # any MODE but 1
    assert "%sel = if %m -> (f32) {  loc(triton_control.py:47:9)" in final
    assert "%abs = absf %v : tile<BLOCKxf32>  loc(triton_control.py:48:9)" in final


def test_keep_going_reports_every_blocker_and_emits_the_others(tmp_path, monkeypatch):
    """A Triton file keeps going as a cuTile one: every blocker of a refused kernel (one per construct, none for
    what a failed statement left undefined), the other kernels emitted, errors.Refused (CTRS-E240) at the end."""
    src = (ROOT / "fixtures" / "triton_vector_add" / "kernel.py").read_text()
    src += ('\n\n@triton.jit\ndef two_gaps(x, y, n, TILE: tl.constexpr):\n    offs = tl.program_id(0) * TILE + '
            'tl.arange(0, TILE)\n    v = tl.histogram(tl.load(x + offs, mask=offs < n), 8)\n    w = v * 2\n'
            '    u = tl.fancy(offs)\n    tl.store(y + offs, w, mask=offs < n)\n')
    f = tmp_path / "k.py"
    f.write_text(src)
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    mod = translate.translate_module(f)
    assert [k.name for k in mod.kernels] == ["vector_add"]
    lines = mod.refused.lines()
    n = src[:src.index("def two_gaps")].count("\n") + 1
    assert [ln.split(": error[")[0].rsplit(":", 2)[1:] for ln in lines[:-1]] == [[str(n + 2), "9"], [str(n + 4), "9"]]
    assert "call 'tl.histogram'" in lines[0] and "call 'tl.fancy'" in lines[1]
    assert lines[-1].endswith("1 of 2 kernels translated; 1 refused (two_gaps) (hint: each blocker has its own line; "
                              "ctrs translate --dry-run lists them without writing)")
    files, refused = translate.port_files(f)
    assert refused.code == errors.KERNELS_REFUSED and "vector_add" in files["kernel.rs"]


def test_scalars_meeting_floats():
    """tests/data/triton_scalars.py: an int constexpr (a mask bound) dividing a float is itof of the const generic;
    float constexprs are runtime f32 parameters; an int argument that meets a float before the mask that makes it
    an extent is itof of the extent, read at the kernel's start; tl.sigmoid is 1 / (1 + exp(-x))."""
    final = pipeline.emit_model(ROOT / "tests" / "data" / "triton_scalars.py", "final")
    assert ("kernel @row_stats<E: dtype, N: const, BLOCK: const>(%X: array<?x?x!E>, %Y: array<?x?x!E>, "
            "%W: array<?x!E>, %eps: f32, %scale: f32) {") in final
    assert final.index("%n = array_dim %Y {axis = 1} : i32") < final.index("%row = block_id")
    assert "%n_1 = convert %n : f32" in final
    assert "%N_f = convert %n_2 : f32" in final
    assert "%exp_t = math %neg {fn = exp} : tile<1xBLOCKxf32>" in final


def test_a_kernel_with_structural_entries_gets_the_typed_host_map():
    """tests/data/triton_control.py `pick` (a constexpr choosing between two floats: structural entries): its port
    is written with the typed lowering's launch map."""
    files = translate.translate_source(ROOT / "tests" / "data" / "triton_control.py")
    import json

    ana = json.loads(files["analysis.json"])
    assert [p["name"] for p in ana["triton"]["pick"]["params"]] == ["x", "y", "n", "s", "BLOCK", "MODE"]
    assert ana["triton"]["pick"]["params"][2] == {"name": "n", "kind": "shape", "array": "x", "dim": 0}
    assert "pub fn pick__MODE_1<" in files["kernel.rs"]
