"""ctrs translate: memory constructs (frontends/cutile/memory.py).

* ``ct.load(.., order=..)`` -> partition views with ``dim_map`` (identity orders dropped, stores too);
* padding / latency / allow_tma given by names, helpers, module constants and ct.Constant parameters;
* ct.gather / ct.scatter on 2-D / 3-D arrays -> raw-pointer entries (``x: *mut E`` + shape/stride i32s);
  view ops on such arrays go through ``make_tensor_view`` of those arguments;
* the facts the reference assumes (passes/assume.py): a raw entry's extents and strides ``>= 0``, a one-element
  pointer's ``div_by<element bytes>``; the FFI refuses a launch that breaks one (-7, CTRS-E443).

Each kernel under tests/data/mem_*.py is translated with rules only and must be IR-equivalent
(diff-ir exit 0) to cuTile Python's reference for every spec next to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, spec as specmod, targets, translate

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data
KERNELS = ["mem_order", "mem_hints", "mem_gather2d", "mem_gather0d", "mem_mixed", "mem_scalar1d", "mem_assume",
           "mem_assume_lit"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    return translate_data(tmp_path_factory.mktemp("mem"), KERNELS)


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(KERNELS)))
def test_mem_ir_equivalent(translated, kernel, spec):
    # mem_mixed mixed / bcast: an array both viewed and pointer-indexed (a raw entry) keeps its accesses unordered
    # (passes/memtokens.py leaves it alone, docs/ir.md pass 9): the diff shows it as IRD-TOKEN-ORDER
    known = frozenset({"IRD-TOKEN-ORDER"}) if spec.kernel in ("mixed", "bcast") else frozenset()
    assert_port_equivalent(DATA / f"{kernel}.py", translated[kernel], spec, known)


def test_mem_generated_forms(translated):
    order = translated["mem_order"].read_text()
    assert "padding::Zero, const_array![1, 0], get_tensor_token(a)" in order
    assert "padding::None, const_array![0, 2, 1], get_tensor_token(x)" in order
    assert order.count("const_array!") == 2  # identity orders (load and store) are dropped
    hints = translated["mem_hints"].read_text()
    assert "padding::Zero" in hints and "padding::NegInf" in hints and "Some(3i32)" in hints
    assert "Some(LAT)" in hints and "if USE_TMA == 1i32 {" in hints and "tma::Disabled" in hints
    g = translated["mem_gather2d"].read_text()
    assert ("pub unsafe fn row_scale_f32<const TN: i32, const X_UNIT0: i32, const X_UNIT1: i32, const Y_UNIT0: i32, "
            "const Y_UNIT1: i32>(") in g  # a flag per extent a bounds mask reads (unit extents)
    assert "x: *mut f32,\n        x_shape_0: i32,\n        x_shape_1: i32,\n        x_stride_0: i32," in g
    assert "pointer_to_tile(x)" in g and "new_token_unordered()" in g and "get_tensor_token(x)" not in g
    assert "(0i32..x_shape_2).step_by(TN as usize)" in g  # x.shape[2] of a raw array is its entry param
    mixed = translated["mem_mixed"].read_text()
    assert "make_tensor_view(x_vbase, x_dims, x_strides, x_vtok)" in mixed
    assert "Array::<{ [-1, -1, 1] }> { dims: &[x_stride_0, x_stride_1] }" in mixed
    assert "x_view.partition_permuted(const_shape![1, TD, TQ], const_array![0, 2, 1])" in mixed
    assert "y_view.partition_full_mut(" in mixed


def test_raw_entry_ffi_call(translated):
    """The port crate's FFI launches a raw-pointer entry with the descriptor's pointer, shape and strides."""
    ffi = (translated["mem_gather2d"].parent / "ffi.rs").read_text()
    assert ("row_scale_f32(t_x.device_pointer(), d_x.shape[0] as i32, d_x.shape[1] as i32, d_x.strides[0] as i32, "
            "d_x.strides[1] as i32, t_y.device_pointer(),") in ffi


def test_translate_is_deterministic(tmp_path):
    a = translate.translate(DATA / "mem_gather2d.py", tmp_path / "a")
    b = translate.translate(DATA / "mem_gather2d.py", tmp_path / "b")
    ka = next(p for p in a if p.name == "kernel.rs").read_bytes()
    kb = next(p for p in b if p.name == "kernel.rs").read_bytes()
    assert ka == kb


@pytest.mark.parametrize(("kernel", "line", "words"), [
    ("mem_bad_unpadded", 12, "without padding_mode=ZERO"),
])
def test_mem_diagnostics(tmp_path, kernel, line, words):
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate(DATA / f"{kernel}.py", tmp_path / "out")
    # an unpadded view of a raw array: the cutile limit (CTRS-E370)
    assert ei.value.code == {"mem_bad_unpadded": errors.IR_RAW_VIEW_PADDING}[kernel]
    assert ei.value.loc.line == line and words in ei.value.message


def test_raw_pointer_entry_hints():
    """spec.rust_request: `<array>_shape_<i>` / `<array>_stride_<i>` get that dim's DivHint, `*mut` the pointer's."""
    s = specmod.load_specs(str(DATA / "mem_gather2d.json"))[2]  # x: float32 [4, 30, 1000]
    entry = specmod.RustEntry("m", "col_sum_f32", [("TN", "i32")],
                              [("x", "ptr"), ("x_shape_0", "int"), ("x_shape_1", "int"), ("x_shape_2", "int"),
                               ("x_stride_0", "int"), ("x_stride_1", "int"), ("x_stride_2", "int"), ("x_other_0", "int")],
                              {"x": "*mut f32"}, 1)
    req = specmod.rust_request(s, entry, "sm_90")
    assert req["scalar_hints"] == {"x": 16, "x_shape_0": 4, "x_shape_1": 2, "x_shape_2": 8,
                                   "x_stride_0": 16, "x_stride_1": 8, "x_stride_2": 1}
    assert specmod.derived_dim(s, "x_stride_0") == 30000 and specmod.derived_dim(s, "y_shape_0") is None


def test_assumed_facts_are_stated(translated):
    """passes/assume.py: the raw entry's extents / strides the body reads are shadowed by `>= 0` assumes (not the
    last stride: the constant 1), the 0-d gather / scatter pointers get div_by<element bytes>, and the FFI checks
    both before a launch."""
    rs = translated["mem_assume"].read_text()
    f32 = rs[rs.index("fn row_norm_f32"):rs.index("fn row_norm_f16")]
    for name in ("x_shape_0", "x_shape_1", "x_stride_0", "out_shape_0", "out_shape_1", "out_stride_0"):
        mut = "mut " if "_shape_" in name else ""  # an extent is the constant 1 under its unit flag (reassigned)
        assert f"let {mut}{name}: i32 = unsafe {{ assume_bounds_lower::<_, 0>({name}) }};" in f32
    assert "assume_bounds_lower::<_, 0>(x_stride_1)" not in rs
    assert "let scale_ptrs_1: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(scale_ptrs) };" in f32
    assert "let stats_ptrs_1: PointerTile<*mut f32, { [] }> = unsafe { assume_div_by::<_, 4>(stats_ptrs) };" in f32
    assert f32.count("assume_div_by") == 2  # the 2-D gather / scatter pointer tiles get none (as the reference)
    assert "unsafe { assume_div_by::<_, 2>(scale_ptrs) }" in rs[rs.index("fn row_norm_f16"):]  # f16: 2 bytes
    ffi = (translated["mem_assume"].parent / "ffi.rs").read_text()
    body = ffi[ffi.index("fn ctrs_row_norm_f32("):ffi.index("fn ctrs_row_norm_f16(")]
    assert "if d_x.strides[..2].iter().any(|&s| s < 0) {" in body
    assert "if d_scale.ptr % 4 != 0 {" in body and "if d_stats.ptr % 4 != 0 {" in body
    assert "d_scale.strides[..1]" not in body  # a &Tensor: cutile's prologue states its facts


def test_assumed_facts_not_spelled_for_0_3_1(tmp_path):
    """cutile 0.3.1's profile spells no assume: the port states none, and its FFI checks none."""
    with targets.using("0.3.1"):
        files = translate.translate(DATA / "mem_assume.py", tmp_path / "p")
    rs = next(p for p in files if p.name == "kernel.rs").read_text()
    ffi = next(p for p in files if p.name == "ffi.rs").read_text()
    assert "assume_div_by" not in rs and "assume_bounds_lower" not in rs and "ASSUMPTION_BROKEN; //" not in ffi
    assert "let x_shape_0" not in rs and "pointer_to_tile(x)" in rs  # still the raw entry, nothing shadowed


def test_ffi_refuses_broken_assumptions(translated):
    """The built cdylib, called without a GPU: a misaligned 0-d gather pointer and a negative raw stride are
    refused (-7) before anything else; the same launch with the facts holding gets to device init (-4)."""
    import cffi  # noqa: PLC0415
    from pathlib import Path as _P  # noqa: PLC0415

    from ctrs.workflow import check  # noqa: PLC0415

    port = translated["mem_assume"].parent
    lib_path = check.build_crate(port)
    ffi = cffi.FFI()
    cdef = (port / "wrapper.py").read_text().split('CDEF = """', 1)[1].split('"""', 1)[0]
    ffi.cdef(cdef)
    lib = ffi.dlopen(str(lib_path))

    def desc(shape, ptr=1 << 20):
        d = ffi.new("TensorDesc *")
        d.ptr, d.ndim, d.dtype = ptr, len(shape), 0
        for i, n in enumerate(shape):
            d.shape[i] = n
        d.strides[0] = 1 if len(shape) == 1 else shape[1]
        if len(shape) == 2:
            d.strides[1] = 1
        return d

    x, out, scale, stats = desc([64, 256]), desc([64, 256], 1 << 21), desc([64], 1 << 22), desc([64], 1 << 23)
    call = lib.ctrs_row_norm_f32
    ok = call(x, scale, out, stats, 256, 64, 1, 1, 0, 0)
    if not _P("/dev/nvidia0").exists():
        assert ok == -4  # every fact holds: the launch gets to device init
    scale.ptr = (1 << 22) + 2  # f32 elements 2-byte aligned: the 0-d gather's div_by<4> would be false
    assert call(x, scale, out, stats, 256, 64, 1, 1, 0, 0) == -7
    scale.ptr = 1 << 22
    x.strides[0] = -256  # a negative raw stride: `x_stride_0 >= 0` would be false
    assert call(x, scale, out, stats, 256, 64, 1, 1, 0, 0) == -7


def test_literal_index_facts_are_stated(translated):
    """passes/assume.py "Literal indices": a one-element gather / scatter at an all-literal index states
    gcd(16, offset divisibility * element bytes) (offset 0: 16; int32 index 2: 8; an odd index or a 2-D index with a
    literal 1 on the last axis: the element size), and the FFI requires each array's largest such K."""
    rs = translated["mem_assume_lit"].read_text()
    f16 = rs[rs.index("fn head_count_i32_f16"):rs.index("fn head_count_i32_bf16")]
    assert "let counts_ptrs_1: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 16>(counts_ptrs) };" in f16
    assert "let counts_ptrs_3: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 8>(counts_ptrs_2) };" in f16
    assert "unsafe { assume_div_by::<_, 2>(pair_ptrs) }" in f16 and "unsafe { assume_div_by::<_, 2>(grid2_ptrs) }" in f16
    assert "let flags_ptrs_1: PointerTile<*mut i32, { [] }> = unsafe { assume_div_by::<_, 16>(flags_ptrs) };" in f16
    ffi = (translated["mem_assume_lit"].parent / "ffi.rs").read_text()
    body = ffi[ffi.index("fn ctrs_head_count_i32_f16("):ffi.index("fn ctrs_head_count_i32_bf16(")]
    assert "if d_counts.ptr % 16 != 0 {" in body and "if d_flags.ptr % 16 != 0 {" in body
    assert "if d_pair.ptr % 2 != 0 {" in body and "if d_grid2.ptr % 2 != 0 {" in body


@pytest.mark.parametrize("spec", [s for s in specmod.load_specs(str(DATA / "mem_assume_lit.json"))], ids=lambda s: s.name)
def test_literal_index_facts_match_the_reference(translated, spec):
    """The facts of the literal-index pointers are the reference's (its IR states div_by<16> / <8> on them): the
    diff is EQUIVALENT without an assume finding (no IRD-ASSUME-DIV tolerated, unlike a runtime index)."""
    from ctrs.verify import ir_ref, ir_rs, irdiff  # noqa: PLC0415

    ref = ir_ref.compile_reference(DATA / "mem_assume_lit.py", spec)
    assert "assume div_by<16>" in ref.text and "assume div_by<8>" in ref.text
    (gen,) = ir_rs.compile_ports(translated["mem_assume_lit"], [(spec, spec.rust["entry"])])
    rep = irdiff.diff(ref.text, gen.text, "ref", "gen")
    assert rep.equivalent and not [f for f in rep.findings if f.severity != irdiff.INFO], rep.render()
