"""The typed cuTile front end's memory constructs (frontends/cutile/memory.py, ir_rust.py pointer_chain):
ct.gather / ct.scatter / ct.atomic_* on 1-D arrays, ct.load / ct.store options, A.shape / A.ndim, and the
refusals cutile 0.3.1 forces (CTRS-E231 lists of arrays); rank >= 2 gathers (unpadded load + select,
CTRS-E230 retired).

The tests/data/ir_*.py kernels translate on the typed path and are IR-equivalent to cuTile Python's reference
for every spec next to them (cargo); the rest are model-only (IR text, Rust text, diagnostics)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.ir.ops import Block, Op, OpKind
from ctrs.ir.verify import verify_block
from ctrs.ir.types import ArrayType, I32, ScalarType, TileType
from ctrs.ir.values import Value
from ctrs.spec import load_specs

from .conftest import DATA, FIXTURES, assert_equivalent_report

KERNELS = ["ir_gather_forms", "ir_atomics", "ir_load_options", "ir_strides", "ir_gather_pads"]


def _rust(name: str) -> str:
    return translate.translate_source(DATA / f"{name}.py")["kernel.rs"]


@pytest.mark.parametrize("name", KERNELS)
def test_typed_memory_kernels_are_ir_equivalent(tmp_path, name):
    kernel = DATA / f"{name}.py"
    mod = translate.translate_module(kernel)
    assert mod.pipeline == pipeline.PIPELINE_NAME  # the typed path, not the text-model fallback
    files = translate.translate(kernel, tmp_path / name)
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    specs = load_specs(str(DATA / f"{name}.json"))
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust.get("entry") or s.kernel) for s in specs])
    for s, gen in zip(specs, gens):
        ref = ir_ref.compile_reference(kernel, s)
        assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), kernel_rs)


def test_rank2_gather_fixture_is_ir_equivalent(tmp_path):
    """fixtures/gather_rank2: rank-2 gathers with bounds checks, a user mask and paddings (the front end's unpadded
    load + select folded by passes/padfold.py into the padded load with the padding tile, cast_tile_const: the
    reference's op) are IR-equivalent for every spec; the raw-pointer ports (2-D arrays) state no alignment /
    bounds facts of their extents (assert_equivalent_report), flat_tiles (a 1-D &Tensor with a 2-D index tile) is
    EQUIVALENT outright."""
    kernel = FIXTURES / "gather_rank2" / "kernel.py"
    files = translate.translate(kernel, tmp_path / "port")
    kernel_rs = next(p for p in files if p.name == "kernel.rs")
    rs = kernel_rs.read_text()
    # the rank-2 loads: the padding tile (5 dtype entries each: f32, f16, bf16 and the integer element entries
    # i32, i64 (tests/test_int_elements.py); x_mask: masked_block's second and flat_tiles'), no select left
    assert [rs.count(f"Some({m}), Some(cast_tile_const(") for m in ("table_mask", "keep_b", "x_mask")] == [5, 5, 10]
    assert rs.count("select(") == 0 and rs.count("pub fn cast_tile_const<") == 1
    specs = load_specs(str(FIXTURES / "gather_rank2" / "specs.json"))
    gens = ir_rs.compile_ports(kernel_rs, [(s, s.rust["entry"]) for s in specs])
    for s, gen in zip(specs, gens):
        assert "select" not in gen.text  # the reference's padded load
        if s.kernel == "flat_tiles":
            assert irdiff.diff(ir_ref.compile_reference(kernel, s).text, gen.text, "ref", "gen").verdict() == \
                "EQUIVALENT"
        assert_equivalent_report(irdiff.diff(ir_ref.compile_reference(kernel, s).text, gen.text, "ref", "gen"),
                                 kernel_rs)


# -- model-only ---------------------------------------------------------------------------------------------

@pytest.mark.model
def test_gather_ir_carries_the_decisions():
    text = pipeline.emit_model(DATA / "ir_gather_forms.py", "frontend")
    gathers = [ln for ln in text.splitlines() if " = gather " in ln]
    assert len(gathers) == 7  # four in gather_forms, one in gather_pad_const, two in rows2d
    assert "check_bounds = true, has_mask = true" in gathers[0]          # mask=idx < LIMIT
    assert "check_bounds = false, has_mask = true" in gathers[1]         # check_bounds=HALF != 64 folded
    assert "index = [0]" in gathers[2] and "latency = 3" in gathers[2]   # a literal index: a 0-d gather
    assert ": tile<!E>" in gathers[2] and ": tile<TILEx!E>" in gathers[0]
    assert "constant {value = -inf} : tile<!E>" in text                  # -math.inf padding
    assert "cmpi %idx" in text and "predicate = ge" in text


@pytest.mark.model
def test_gather_rust_spells_the_pointer_chain():
    rs = _rust("ir_gather_forms")
    assert "let x_mask_1: Tile<bool, { [TILE] }> = andi(x_mask, m);" in rs  # bounds and user mask
    assert "Some(m_1), Some(x_zero)" in rs                                  # no bounds mask: the user's alone
    assert "let x_idx_2: Tile<u64, { [] }> = constant(0u64, const_shape![]);" in rs
    assert "Latency::<3>" in rs and "constant(f32::NEG_INFINITY, const_shape![])" in rs
    assert "let y_idx: Tile<u64, { [R, C] }> = exti(t_2);" in rs             # a rank-2 index tile, scattered
    assert "iota(const_shape![TILE])" in rs and "let iota:" not in rs        # a value never shadows a cutile fn


@pytest.mark.model
def test_nd_gather_is_a_raw_entry():
    """cutile 0.3.1's &Tensor has no strides: an N-d pointer op makes the array a raw entry parameter."""
    rs = _rust("ir_gather_forms")
    assert ("pub unsafe fn rows2d_f32<const TM: i32, const TN: i32, const X_UNIT0: i32, const X_UNIT1: i32, "
            "const Y_UNIT0: i32, const Y_UNIT1: i32>(\n        x: *mut f32,\n        x_shape_0: i32,") in rs
    # a size-1 extent is the constant 1 under its flag (the host's: x.shape[0] == 1), as ct.launch makes it
    assert "if X_UNIT0 == 1i32 {\n            x_shape_0 = 1i32;\n        } else {\n            x_shape_0 = x_shape_0;" in rs
    assert "let x_dim1_tile: Tile<i32, { [] }> = scalar_to_tile(x_shape_1);" in rs  # x.shape[1] of a raw entry
    assert "let x_o0: Tile<u64, { [TN] }> = x_i0b * x_s0b;" in rs                 # a scalar row times its stride
    assert "let x_o1: Tile<u64, { [TN] }> = x_i1 * constant(1u64, const_shape![TN]);" in rs  # unit last stride
    assert "pointer_to_tile(x)" in rs and "let y_tok0: Token = new_token_unordered();" in rs
    assert "let x_i1_1: Tile<u64, { [] }> = constant(0u64, const_shape![]);" in rs  # (r, 0): a 0-d gather


@pytest.mark.model
def test_strides_make_a_raw_entry():
    rs = _rust("ir_strides")
    assert "x_stride_0: i32,\n        x_stride_1: i32,\n        y: &Tensor<f32, { [-1] }>," in rs  # y stays a tensor
    assert "let t: i32 = r * x_stride_0;" in rs
    assert "scalar_to_tile(1i32)" in rs  # the last-axis stride: the unit the reference specialises it to


@pytest.mark.model
def test_raw_array_read_by_a_view_too_reads_its_tensor_view(tmp_path, monkeypatch):
    """A raw entry has no &Tensor to make a partition view of: the emitter spells cutile's prologue
    (make_tensor_view of its pointer, extents and strides) and partitions that tensor."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\nConstInt = ct.Constant[int]\n\n\n@ct.kernel\n"
                 "def k(x, T: ConstInt):\n    v = ct.gather(x, (ct.bid(0), ct.arange(T, dtype=ct.int32)))\n"
                 "    ct.store(x, (0, 0), ct.reshape(v, (1, T)))\n")
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    rs = translate.translate_source(p)["kernel.rs"]
    assert "let x_view: Tensor<f32, { [-1, -1] }> = unsafe { make_tensor_view(x_vbase, x_dims, x_strides, x_vtok) };" in rs
    assert "unsafe { x_view.partition_full_mut(const_shape![1, T]) };" in rs


@pytest.mark.model
def test_unpadded_view_of_a_raw_array_is_refused(tmp_path, monkeypatch):
    """cutile's JIT reads a local tensor through .partition (zero padding) only: another padding is CTRS-E370."""
    e = _typed(tmp_path, monkeypatch, "def k(x, y, T: ConstInt):\n"
               "    ct.store(y, (0,), ct.load(x, (x.strides[0],), (T,)))\n")
    assert e.code == errors.IR_RAW_VIEW_PADDING and (e.loc.line, e.loc.col) == (8, 23) and "padding_mode=ZERO" in e.message


@pytest.mark.model
def test_atomics_rust():
    rs = _rust("ir_atomics")
    assert "atomic_rmw_tko(acc_ptrs, v, atomic::AddF, ordering::Relaxed, scope::Device, Some(acc_mask)," in rs
    assert "atomic::AddF, ordering::AcqRel, scope::TileBlock," in rs
    assert "atomic::AddF, ordering::AcqRel, scope::Device, None," in rs      # check_bounds=False
    assert "pub fn float_atomic_add_bf16<" in rs                             # addf needs a concrete element


@pytest.mark.model
def test_load_options_rust():
    rs = _rust("ir_load_options")
    assert "padding::NegZero, const_array![1, 0], get_tensor_token(a)" in rs
    for pad in ("Zero", "PosInf", "NegInf", "Nan", "None"):
        assert f"padding::{pad}, dim_map::Identity" in rs
    assert "[i, j], ordering::Weak, scope::TileBlock, Some(4i32), tma::Enabled)" in rs
    assert "scope::TileBlock, None, tma::Disabled)" in rs and "Some(2i32), tma::Enabled)" in rs
    assert "let corner: Tile<E, { [] }> = corner_1.reshape(const_shape![]);" in rs
    assert "scope::TileBlock, Some(4i32), tma::Disabled) };" in rs            # the store's hints
    assert "let y_dim0: i32 = y_shape[0];" in rs                              # y.shape[-1] of a 1-d array
    assert "let t_1: i32 = t + 1i32;" in rs                                   # + x.ndim folded to 1


@pytest.mark.model
def test_element_meeting_a_concrete_dtype_lowers_per_element_type():
    """bf16_consts multiplies the gathered E tile by a bf16 ct.full: the result dtype depends on E (bf16 * bf16 is
    bf16, f16 * bf16 is f32), so the kernel is lowered once per element type, each entry concrete."""
    text = pipeline.emit_model(Path(__file__).resolve().parent.parent / "fixtures" / "bf16_consts" / "kernel.py",
                               "frontend")
    heads = [ln for ln in text.splitlines() if ln.startswith("kernel @")]
    # f16 meets bf16: cuTile Python refuses the promotion (ir/typing.py), so there is no f16 entry
    assert [h.split("<")[0] for h in heads] == ["kernel @bf16_block_softmax_f32", "kernel @bf16_block_softmax_bf16"]
    # x is concrete per entry; y only receives ct.astype(.., y.dtype): a dtype variable of its own, generic beside
    # it (frontends/cutile/dtypes.py)
    assert all("%x: array<?x!E>" not in h and "%y: array<?x!E>" in h for h in heads)
    assert "mulf %v, %c : tile<TILExbf16>" in text


def _blockers(tmp_path: Path, monkeypatch, body: str) -> list[errors.CtrsError]:
    """Every blocker of the typed path (it keeps going after one) for a one-kernel file."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\nConstInt = ct.Constant[int]\n\n\n@ct.kernel\n" + body)
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    try:
        mod = translate.translate_module(p)
    except errors.CtrsError as e:
        return [e]
    assert mod.refused is not None, "the typed path took the kernel"
    (blockers,) = mod.refused.kernels.values()
    return blockers


def _typed(tmp_path: Path, monkeypatch, body: str) -> errors.CtrsError:
    return _blockers(tmp_path, monkeypatch, body)[0]


def test_rank2_gather_is_unpadded_then_selected_on_its_bounds_mask(tmp_path, monkeypatch):
    """A rank-2 ct.gather (cutile cannot pass a rank >= 2 padding value): the bounds mask as IR (index widened to
    u64, ``< extent`` per axis, and'ed with the user's mask), an unpadded gather on it, and the select of the
    padding (Builder.gather_select, shared with the Triton front end)."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\nConstInt = ct.Constant[int]\n\n\n@ct.kernel\n"
                 "def k(x, y, T: ConstInt):\n"
                 "    i = ct.reshape(ct.arange(T, dtype=ct.int32), (T, 1))\n"
                 "    v = ct.gather(x, (i, 2), mask=i > 0, padding_value=-1.0)\n"
                 "    ct.scatter(y, (i, 0), v)\n")
    text = pipeline.emit_model(p, "frontend")
    (gather,) = [ln for ln in text.splitlines() if " = gather " in ln]
    assert "unpadded = true" in gather and "check_bounds = false" in gather and "has_mask = true" in gather
    assert "%x_i0 = convert %i : tile<Tx1xu64>" in text and "%x_i1 = constant {value = 2} : tile<Tx1xu64>" in text
    assert "%x_m1 = cmpi %x_i1, %x_n1_r_b {predicate = lt} : tile<Tx1xbool>" in text  # u64: unsigned
    assert "%x_mask_1 = andi %x_mask, %m" in text  # the bounds mask and the user's
    assert "%v = select %x_mask_1, %v_raw, %x_pad_t_r_b : tile<Tx1x!E>" in text


@pytest.mark.model
def test_list_of_arrays_is_refused_naming_the_missing_api(tmp_path, monkeypatch):
    bs = _blockers(tmp_path, monkeypatch, "def k(As, out, T: ConstInt):\n"
                   "    for g in range(len(As)):\n"
                   "        ct.store(out, (g,), ct.load(As[g], (0,), (T,)))\n")
    (e,) = [b for b in bs if b.code == errors.IR_ARRAY_LIST]
    assert e.code == errors.IR_ARRAY_LIST and (e.loc.line, e.loc.col) == (8, 20)
    # a ctrs gap, said as such: the crate functions that would spell the reference's list are named
    assert "compile_entry_param_type" in e.message and "'As'" in e.message and "ctrs has no rule" in e.message
    assert "int_to_ptr" in e.message and "Lists of arrays" in e.message


@pytest.mark.parametrize(("body", "words"), [
    ("def k(x, T: ConstInt):\n    ct.atomic_max(x, ct.arange(T, dtype=ct.int32), 1)\n", "no max atomic"),
    ("def k(x, T: ConstInt):\n    ct.atomic_cas(x, 0, 0, 1)\n", "ct.atomic_cas on an array of !E"),
    ("def k(x, y, T: ConstInt):\n    n = ct.bid(0)\n    ct.scatter(y, ct.arange(T, dtype=ct.int32), ct.gather(x, 0, check_bounds=n != 4))\n",
     "check_bounds= must be a translate-time constant"),
])
@pytest.mark.model
def test_outside_the_typed_subset_falls_back(tmp_path, monkeypatch, body, words):
    e = _typed(tmp_path, monkeypatch, body)
    assert e.code == errors.IR_UNSUPPORTED and words in e.message, e.message


@pytest.mark.model
def test_verifier_checks_pointer_ops():
    x = Value(ArrayType(I32, 1), "x")
    idx = Value(TileType(I32, (4,)), "i")
    pad = Value(TileType(I32, ()), "p")
    ok = Op(OpKind.GATHER, [x, idx, pad], [Value(TileType(I32, (4,)))],
            {"index": (None,), "shape": (4,), "check_bounds": True, "has_mask": False})
    verify_block(Block([], [ok]), {x.id, idx.id, pad.id})
    bad = Op(OpKind.GATHER, [x, idx, pad], [Value(TileType(I32, (8,)))],
             {"index": (None,), "shape": (4,), "check_bounds": True, "has_mask": False})
    with pytest.raises(errors.CtrsError) as ei:
        verify_block(Block([], [bad]), {x.id, idx.id, pad.id})
    assert ei.value.code == errors.IR_VERIFY_TYPE
    scalar_idx = Op(OpKind.SCATTER, [x, Value(ScalarType(I32)), Value(TileType(I32, ()))], [],
                    {"index": (None,), "shape": (), "check_bounds": False, "has_mask": False})
    verify_block(Block([], [scalar_idx]), {v.id for v in scalar_idx.operands})


# -- kernels-memory: non-literal gather paddings, bool -> int casts ---------------------------------------------

@pytest.mark.model
def test_gather_paddings_rust():
    """ir_gather_pads: a ct.Constant padding is the const generic (the ids array specialised to i32, the dtype the
    padding meets), a runtime 0-d value its scalar, cast to the array dtype; a bool tile cast to i32 is exti."""
    rs = _rust("ir_gather_pads")
    assert "pub fn histogram_pad_sym_i32<" in rs and "pub fn histogram_pad_sym_f32<" not in rs
    assert "let ids_pad: i32 = tile_to_scalar(num_tile);" in rs
    assert "let hits: Tile<i32, { [TILE, BINS] }> = exti(m_1);" in rs
    assert "pub fn pad_runtime_bf16<" in rs and "let x_pad: bf16 = tile_to_scalar(first);" in rs
    assert "let ids_pad: i32 = tile_to_scalar(bid_tile);" in rs
    # an index tile loaded from an array of a launch dtype: that array int32 (its float entries cannot index)
    assert [ln.split("<")[0].strip() for ln in rs.splitlines() if "pub fn gather_by_table" in ln] == [
        "pub fn gather_by_table_i32_f32", "pub fn gather_by_table_i32_f16", "pub fn gather_by_table_i32_bf16",
        "pub fn gather_by_table_i32_i32", "pub fn gather_by_table_i32_i64"]  # x, y: integer element entries too


@pytest.mark.parametrize(("body", "code", "words"), [
    ("def k(x, T: ConstInt):\n    i = ct.arange(T, dtype=ct.int32)\n"
     "    ct.scatter(x, i, ct.gather(x, i, padding_value=ct.full((T,), 1.0, dtype=ct.float32)))\n",
     errors.IR_GATHER_PAD_TILE, "padding_value of type tile<Txf32>"),
    ("def k(x, T: ConstInt):\n    i = ct.arange(T, dtype=ct.int32)\n"
     "    ct.scatter(x, i, ct.full((T,), 1.0, dtype=ct.float32))\n    ct.scatter(x, i, ct.gather(x, i, padding_value=T))\n",
     errors.IR_UNSUPPORTED, "padding_value=T (a ct.Constant) for an array of f32"),
])
@pytest.mark.model
def test_gather_padding_refusals(tmp_path, monkeypatch, body, code, words):
    e = _typed(tmp_path, monkeypatch, body)
    assert e.code == code and words in e.message, e.message
    assert (e.loc.line, e.loc.col) != (0, 0)


@pytest.mark.parametrize("body", [
    "def k(x, y, T: ConstInt):\n    s = x.slice(axis=0, start=4, stop=4 + T)\n"
    "    ct.store(y, (0,), ct.load(s, (0,), (T,)))\n",                   # x used only through its slice
    "def k(x, y, T: ConstInt):\n    s = x.slice(axis=0, start=4, stop=4 + T)\n"
    "    ct.store(y, (0,), ct.load(s, (0,), (T,)) + ct.load(x, (0,), (T,)))\n",  # x also an array of its own
])
@pytest.mark.model
def test_array_slice_is_refused_with_its_own_code(tmp_path, monkeypatch, body):
    bs = _blockers(tmp_path, monkeypatch, body)
    (e,) = [b for b in bs if b.code == errors.IR_ARRAY_SLICE]
    assert (e.loc.line, e.loc.col) == (8, 9) and "'x.slice(..)'" in e.message
    assert "array_slice_impl" in e.hint and "make_tensor_view" in e.hint
    assert not [b for b in bs if "call 'x.slice'" in b.message]  # one reason, not a generic E124 beside it


@pytest.mark.model
def test_crate_refusals_name_cutile_0_5_0(tmp_path, monkeypatch):
    bs = _blockers(tmp_path, monkeypatch, "def k(As, out, T: ConstInt):\n"
                   "    ct.store(out, (0,), ct.load(As[0], (0,), (T,)))\n")
    (e,) = [b for b in bs if b.code == errors.IR_ARRAY_LIST]
    assert "cutile 0.5.0 has every op" in e.message and "ListTy" in e.message


def test_unused_parameter_is_an_unused_rank1_array(tmp_path, monkeypatch):
    """A parameter the body never names (TileGym moe's a_scale_ptr): cuTile Python passes the launch's array all
    the same, so the port keeps it in the signature as an unused rank-1 array (a note says so); one that is named
    but neither read as an array nor used as a number is still refused."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\nConstInt = ct.Constant[int]\n\n\n@ct.kernel\n"
                 "def k(x, scale, y, T: ConstInt):\n"
                 "    ct.store(y, (ct.bid(0),), ct.load(x, (ct.bid(0),), (T,)))\n")
    mod = translate.translate_module(p)
    assert mod.refused is None
    rs = translate.translate_source(p)["kernel.rs"]
    assert "scale: &Tensor<E, { [-1] }>," in rs
    notes = {d.text for d in mod.decisions if d.kind == "unused"}
    assert notes == {"parameter 'scale' is never read: an unused rank-1 array argument"}
    bs = _blockers(tmp_path, monkeypatch, "def k(x, s, y, T: ConstInt):\n    t = s\n"
                   "    ct.store(y, (0,), ct.load(x, (0,), (T,)))\n")
    assert any("parameter 's': neither an array" in b.message for b in bs)


def test_dtype_constructor_padding_lowers_per_that_dtype(tmp_path):
    """``padding_value=ct.float8_e4m3fn(0.0)`` (TileGym's fp8 matmul): cuTile Python casts the typed constant to
    the array dtype, so for an array of a dtype variable the kernel is lowered per dtype, that dtype first (the
    rules' element dtypes do not hold it); in the f8 entry the padding is the number 0 of f8e4m3fn."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\nConstInt = ct.Constant[int]\n\n\n@ct.kernel\n"
                 "def k(x, y, T: ConstInt):\n"
                 "    i = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)\n"
                 "    v = ct.gather(x, i, padding_value=ct.float8_e4m3fn(0.0))\n"
                 "    ct.scatter(y, i, ct.astype(v, ct.float32))\n")
    text = pipeline.emit_model(p, "frontend")
    heads = [ln.split("<")[0] for ln in text.splitlines() if ln.startswith("kernel @")]
    assert heads[0] == "kernel @k_f8e4m3fn"
    assert "%x_zero_t = constant {value = 0.0} : tile<f8e4m3fn>" in text


def _xw_port(tmp_path, body: str):
    """A kernel `k(x, w, y, T)` with this body, translated: (its .py, the port's kernel.rs, its text)."""
    p = tmp_path / "k.py"
    p.write_text("import cuda.tile as ct\n\nConstInt = ct.Constant[int]\n\n\n@ct.kernel\n"
                 "def k(x, w, y, T: ConstInt):\n" + body)
    kernel_rs = next(f for f in translate.translate(p, tmp_path / "port") if f.name == "kernel.rs")
    return p, kernel_rs, kernel_rs.read_text()


def _xw_f16_f32(kernel_rs, w_len: int):
    """The f16 x / f32 w, y spec of `_xw_port`'s kernel (w of w_len elements) and the port's Tile IR for it."""
    (spec,) = load_specs(json.dumps({"name": "f16_f32", "kernel": "k", "grid": [4], "args": {
        "x": {"dtype": "float16", "shape": [1000]}, "w": {"dtype": "float32", "shape": [w_len]},
        "y": {"dtype": "float32", "shape": [1000]}, "T": 256}, "rust": {"entry": "k_f16_f32"}}))
    (gen,) = ir_rs.compile_ports(kernel_rs, [(spec, "k_f16_f32")])
    return spec, gen


def test_gather_of_a_second_dtype_generic_is_padded_once_concrete(tmp_path):
    """A 1-D gather from an array of a second dtype variable (E1: kept apart from E because its tiles meet f32):
    the front end lowers it as the unpadded load + select of the padding tile (cutile cannot spell a generic
    padding scalar), per-dtype entries make it concrete and passes/padfold.py makes it one padded load again, as
    the reference's (TileGym layer_norm's w / b gathers); IR-equivalent."""
    p, kernel_rs, rs = _xw_port(tmp_path, "    i = ct.bid(0) * T + ct.arange(T, dtype=ct.int32)\n"
                                          "    a = ct.astype(ct.gather(x, i), ct.float32)\n"
                                          "    ct.scatter(y, i, a * ct.gather(w, i, padding_value=0))\n")
    # per-dtype entries for w too (passes/specialise.py element_entries: a gather needs its type concrete)
    assert "pub fn k_f16_f32<" in rs and "select(w_m0" not in rs
    assert "Some(w_m0), Some(w_zero), Some(get_tensor_token(w))" in rs
    spec, gen = _xw_f16_f32(kernel_rs, 1000)
    assert_equivalent_report(irdiff.diff(ir_ref.compile_reference(p, spec).text, gen.text, "ref", "gen"), kernel_rs)


def test_scalar_gather_of_a_second_dtype_generic_is_one_padded_load(tmp_path):
    """The 0-d form of the test above (`ct.gather(w, (row,), padding_value=0).item()`, unsloth's cross-entropy
    backward reads its saved logsumexp so): the unpadded load's mask is a 0-d i1 tile (`tile<i1>`), still a mask
    the verifier folds with the select into the reference's padded load (it once read any mask type but `..xi1` as a
    padding without a mask and dropped it: IRD-TYPE / IRD-MEMORY load_ptr_tko, a false alarm)."""
    p, kernel_rs, rs = _xw_port(tmp_path, "    row = ct.bid(0)\n"
                                          "    i = row * T + ct.arange(T, dtype=ct.int32)\n"
                                          "    a = ct.astype(ct.gather(x, i), ct.float32)\n"
                                          "    s = ct.gather(w, (row,), padding_value=0).item()\n"
                                          "    ct.scatter(y, i, a * s)\n")
    # folded (passes/padfold.py) into the padded load with its 0-d padding tile (cast_tile_const: a generic E1's
    # padding, which tile_to_scalar cannot make)
    assert "pub fn k_f16_f32<" in rs and "Some(w_m0), Some(cast_tile_const(" in rs
    assert "let w_m0: Tile<bool, { [] }> = " in rs
    spec, gen = _xw_f16_f32(kernel_rs, 4)
    ref = ir_ref.compile_reference(p, spec).text
    assert "tile<ptr<f32>>, tile<i1>, tile<f32> -> tile<f32>" in ref  # the reference's padded 0-d load
    assert_equivalent_report(irdiff.diff(ref, gen.text, "ref", "gen"), kernel_rs)
