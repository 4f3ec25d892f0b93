"""Triton memory constructs of the unsloth corpus (issue 18, branch unsloth-mem): rank-n gathers/scatters with
symbolic extents (unpadded load_ptr_tko + select), pointer subtraction, integer widening / narrowing tiles, the
CUDA build's torch.version.hip, tl.range hints, tl.atomic_* (atomic_rmw of a flat array). Model-only tests, plus one harness compile of fixtures/triton_gather2d (there is
no cuTile Python counterpart of these kernels: the port's Tile IR is checked for the ops it must hold; numerics
are the H200 run's, from the fixture's specs.json)."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from ctrs import errors, pipeline, spec as specmod, translate
from ctrs.verify import ir_rs
from ctrs.frontends import triton as fe_triton

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "triton_gather2d"
from .conftest import write_triton as _write


def _model(path: Path) -> str:
    return pipeline.emit_model(path, "frontend")


def _kernel(text: str, name: str) -> str:
    return text.split(f"kernel @{name}<", 1)[1].split("\nkernel @", 1)[0]


def test_rank2_gather_with_symbolic_extents_is_unpadded_then_selected():
    text = _kernel(_model(FIXTURE / "kernel.py"), "dequant_blocks")
    gather = next(ln for ln in text.splitlines() if "= gather %x" in ln)
    assert "shape = [BLOCK, BLOCK]" in gather and "unpadded = true" in gather and "has_mask = true" in gather
    assert ": tile<BLOCKxBLOCKx!E>" in gather
    # the padding is a select of the mask over the raw gather (Triton's other=), not a padding operand
    assert "%v_in = select %mask_2, %v_in_raw, %x_zero_t_r_b : tile<BLOCKxBLOCKx!E>" in text
    scatter = next(ln for ln in text.splitlines() if "scatter %y" in ln)
    assert "shape = [BLOCK, BLOCK]" in scatter and "reshape" not in scatter
    # int64 lane offsets narrowed to i32 as a no-wrap convert (the offsets index the array)
    assert re.search(r"%offs_\d+ = convert %\w+ \{no_wrap = true\} : tile<(1x)?BLOCKx(BLOCKx)?i32>", text)


def test_rows_with_a_constexpr_stride_are_a_rows_by_block_gather():
    text = _kernel(_model(FIXTURE / "kernel.py"), "rows_scale")
    assert "shape = [ROWS, BLOCK], unpadded = true} : tile<ROWSxBLOCKx!E>" in text
    assert "scatter %Y" in text and "shape = [ROWS, BLOCK]}" in text
    assert "load_view %pW" in text or "load_view" in text  # W + cols stays a partition view


def test_static_rank2_gather_is_still_flattened(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n):
            r = tl.arange(0, 4)
            c = tl.arange(0, 8)
            offs = r[:, None].to(tl.int64) * n + c[None, :]
            v = tl.load(x + offs, mask=offs < n * 4, other=1.0)
            tl.store(y + offs, v, mask=offs < n * 4)
        """)
    text = _model(p)
    assert "shape = [32]" in text and "unpadded" not in text and "select" not in text


def test_pointer_minus_an_offset_is_one_more_negated_summand():
    text = _kernel(_model(FIXTURE / "kernel.py"), "last_of_block")
    assert "= gather %x, " in text and "shape = []" in text
    assert "mini" in text and "constant {value = -1}" in text


def test_pointer_minus_a_runtime_value_negates_it(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, lag, B: tl.constexpr):
            pid = tl.program_id(0)
            v = tl.load(x + pid - lag)
            tl.store(y + pid, v)
        """)
    text = _model(p)
    assert "negi %lag" in text and "= gather %x" in text


@pytest.mark.parametrize(("expr", "why"), [("x - y", "a pointer minus a pointer"),
                                           ("x - tl.arange(0, B)", "a pointer minus a range of offsets")])
def test_pointer_minus_what_has_no_offset_is_refused(tmp_path, expr, why):
    p = _write(tmp_path, f"""
        @triton.jit
        def k(x, y, B: tl.constexpr):
            v = tl.load({expr})
            tl.store(y + tl.arange(0, B), v)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.TRITON_POINTER_DIFF == "CTRS-E421" and why in e.value.message
    assert e.value.loc.line == 6


def test_module_global_from_torch_version_hip_folds_to_false(tmp_path):
    p = _write(tmp_path, """
        import torch
        HIP = tl.constexpr(bool(torch.version.hip))

        @triton.jit
        def k(x, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=offs < n)
            if HIP:
                v = tl.exp(v)
            tl.store(x + offs, v, mask=offs < n)
        """)
    mod, notes = fe_triton.lower_file(p)
    assert any(t == "module constant 'HIP' = False folded (Triton reads it at compile time)"
               for _l, _k, _kind, t in notes)
    assert "math" not in _model(p)  # the HIP arm is gone


def test_port_spells_rank2_gathers_and_int_resizes(tmp_path):
    port = translate.translate(FIXTURE / "kernel.py", tmp_path / "port")[0]
    rs = port.read_text()
    # rank 2: the front end's unpadded load + select, folded into the padded load with the padding tile
    # (passes/padfold.py; cast_tile_const: docs/cutile-defects.md)
    assert "Some(mask_2), Some(cast_tile_const(x_zero_t_r_b)), Some(get_tensor_token(x)), Latency::<0>) };" in rs
    assert "select(mask_2" not in rs
    assert re.search(r": Tile<i64, \{ \[1, BLOCK\] \}> = exti\(\w+\);", rs)  # .to(tl.int64): exti, not convert_tile
    assert re.search(r"trunci\(\w+, overflow::NoSignedWrap\)", rs)


def test_fixture_compiles_to_tile_ir_with_rank2_pointer_ops(tmp_path):
    """The cutile JIT (the default target's harness) takes every entry of the specs: the rank-2 load_ptr_tko
    with its padding tile and the rank-2 store_ptr_tko are valid Tile IR."""
    port = translate.translate(FIXTURE / "kernel.py", tmp_path / "port")[0]
    specs = specmod.load_specs(str(FIXTURE / "specs.json"))
    assert len({s.kernel for s in specs}) == 4 and all(
        sum(s.kernel == k for s in specs) >= 2 for k in {s.kernel for s in specs})
    res = ir_rs.compile_ports(port, [(s, s.rust["entry"]) for s in specs])
    by = {s.name: r.text for s, r in zip(specs, res)}
    assert re.search(r"load_ptr_tko weak %\w+, %\w+, %\w+ token=%\w+ : tile<128x128xptr<bf16>>, tile<128x128xi1>, "
                     r"tile<128x128xbf16> -> tile<128x128xbf16>", by["dequant_bf16_4096x2048"])
    assert not re.search(r"select %\w+, %result", by["dequant_bf16_4096x2048"])  # no select of the loaded tile
    assert "tile<8x4096xptr<f32>>, tile<8x4096xi1>, tile<8x4096xf32> -> tile<8x4096xf32>" in by["rows_f32_333x3000"]
    assert "store_ptr_tko" in by["rows_f32_333x3000"] and "exti" in by["dequant_f32_1000x3000"]
    assert "atomic_rmw_tko relaxed device %9, addf, %6, %5 token=%1 : tile<2048xptr<bf16>>, tile<2048xbf16>, " \
           "tile<2048xi1> -> tile<2048xbf16>" in by["colsum_bf16_300x2000"]


def test_tl_range_num_stages_is_load_latency_other_hints_dropped(tmp_path):
    """A tl.range loop summing ROWS x COLS blocks of a flat array (unsloth's partial-sum idiom)."""
    p = _write(tmp_path, """
        @triton.jit
        def k(partials, out, n_programs, n_cols, R: tl.constexpr, C: tl.constexpr):
            cols = tl.program_id(0) * C + tl.arange(0, C)
            acc = tl.zeros((R, C), dtype=tl.float32)
            for start in tl.range(0, n_programs, R, num_stages=3):
                rows = start + tl.arange(0, R)
                mask = (rows < n_programs)[:, None] & (cols < n_cols)[None, :]
                acc += tl.load(partials + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0)
            tl.store(out + cols, tl.sum(acc, axis=0), mask=cols < n_cols)
        """)
    mod, notes = fe_triton.lower_file(p)
    assert ("hint", "tl.range(num_stages=3) -> latency=3 on the loads of this loop (Triton-TileIR maps num_stages "
            "1:1 to load latency)") in {(k, t) for _l, _x, k, t in notes}
    text = _model(p)  # rows step by whole R-blocks: a 2-D view of partials, loaded in the loop with latency 3
    assert "= for %start = " in text and "load_view %ppartials, %start_t, %pid {latency = 3} : tile<RxCx!E>" in text
    q = tmp_path / "k.py"
    q.write_text(q.read_text().replace("num_stages=3", "num_stages=3, loop_unroll_factor=2"))
    _mod, notes = fe_triton.lower_file(q)
    assert ("hint", "tl.range(loop_unroll_factor=..) dropped (no cuTile counterpart)") in {
        (k, t) for _l, _x, k, t in notes}


def test_tl_range_with_another_keyword_is_refused(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr):
            for i in tl.range(0, n, B, bogus=2):
                tl.store(x + i + tl.arange(0, B), tl.zeros((B,), dtype=tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "bogus" in e.value.message and e.value.loc.line == 6


def test_atomic_add_is_an_atomic_rmw_of_the_flat_array():
    text = _kernel(_model(FIXTURE / "kernel.py"), "col_sums_atomic")
    # out: an array (its only access is the atomic); its dtype apart from X's, whose tile is cast to f32 explicitly
    # before the sums meet out (dtypes.keep_apart: the update is converted to out's type as Triton casts it)
    assert "(%X: array<?x?x!E>, %out: array<?x!E1>)" in text
    line = next(ln for ln in text.splitlines() if "= atomic_rmw %out" in ln)
    assert "mode = add" in line and "memory_order = relaxed" in line and "memory_scope = device" in line
    assert "has_mask = true" in line and "check_bounds = false" in line and ": tile<BLOCKx!E1>" in line


@pytest.mark.parametrize(("call", "order", "scope"), [
    ("tl.atomic_add(c + offs, v)", "acq_rel", "device"),
    ("tl.atomic_add(c + offs, v, sem='release', scope='cta')", "release", "block"),
    ("tl.atomic_add(c + offs, v, mask=offs < n, sem='acquire', scope='sys')", "acquire", "sys")])
def test_atomic_orders_and_scopes(tmp_path, call, order, scope):
    p = _write(tmp_path, f"""
        @triton.jit
        def k(c, n, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = offs.to(tl.float32)
            old = {call}
        """)
    line = next(ln for ln in _model(p).splitlines() if "atomic_rmw %c" in ln)
    assert "mode = add" in line and f"memory_order = {order}" in line and f"memory_scope = {scope}" in line


def test_atomic_max_of_the_float_element_type_is_refused(tmp_path):
    """The arrays share the element type E (f32 / f16 / bf16 entries): of cuTile's atomics only add takes all."""
    p = _write(tmp_path, """
        @triton.jit
        def k(c, B: tl.constexpr):
            tl.atomic_max(c + tl.arange(0, B), tl.zeros((B,), dtype=tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "tl.atomic_max on the float element type E (f16 / bf16 entries have no max atomic)" in e.value.message


def test_atomic_with_an_unknown_sem_is_refused(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(c, B: tl.constexpr):
            tl.atomic_add(c + tl.arange(0, B), 1.0, sem="seq_cst")
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "sem= must be one of 'acq_rel', 'acquire', 'release', 'relaxed'" in e.value.message


def test_mask_or_a_constexpr_flag_is_a_bool_mask(tmp_path):
    """``(offs < n) | EVEN`` (unsloth's EVEN_K idiom): the flag is ``EVEN != 0``, the mask stays a bool tile."""
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y, n, EVEN: tl.constexpr, B: tl.constexpr):
            offs = tl.program_id(0) * B + tl.arange(0, B)
            v = tl.load(x + offs, mask=(offs < n) | EVEN, other=0.0)
            tl.store(y + offs, v, mask=(offs < n) & True)
        """)
    text = _model(p)
    assert "%even_set = cmpi %even, %c {predicate = ne} : bool" in text
    assert "= ori %mask, %even_set_tile_r_b : tile<Bxbool>" in text
    assert "has_mask = true" in text and "= gather %x" in text


def test_descriptor_block_shape_names_host_variables_passed_as_constexprs(tmp_path):
    """``TensorDescriptor.from_tensor(A, [BLOCK_M, block_k])`` with the launch passing ``BK=block_k``: the block
    shape is (BLOCK_M, BK) (unsloth's fp8 TMA GEMM); a host name no launch passes as a constexpr stays unknown."""
    p = _write(tmp_path, """
        from triton.tools.tensor_descriptor import TensorDescriptor

        @triton.jit
        def k(a_desc, Y, stride_y, BLOCK_M: tl.constexpr, BK: tl.constexpr):
            pid = tl.program_id(0)
            a = a_desc.load([pid * BLOCK_M, 0]).to(tl.float32)
            rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
            tl.store(Y + rows, tl.sum(a, axis=1))

        def launch(A, Y, block_k):
            BLOCK_M = 64
            a_desc = TensorDescriptor.from_tensor(A, [BLOCK_M, block_k])
            k[(A.shape[0] // BLOCK_M,)](a_desc, Y, Y.stride(0), BLOCK_M=BLOCK_M, BK=block_k)
        """)
    text = _model(p)
    assert "load_view %pa_desc" in text and ": tile<BLOCK_MxBKx!E>" in text
    q = tmp_path / "k.py"
    q.write_text(q.read_text().replace("BK=block_k)", "BK=128)"))
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(q)
    assert "tensor descriptor parameter 'a_desc': block shape unknown" in e.value.message


def test_descriptor_extent_computed_once_bounds_the_descriptor_not_the_tensor(tmp_path):
    """grouped GEMM's ``TOTAL_TOKENS = NUM_TOKENS * TOPK`` extent bounds this descriptor only (it was taken as
    x_ptr.shape[0], with a note: a tensor with more rows read them where the descriptor reads zeros): a masked
    gather of the flat x_ptr, ``0 <= row < TOTAL`` and ``0 <= col < K``, the row stride K a value."""
    p = _write(tmp_path, """
        @triton.jit
        def k(x_ptr, y_ptr, NUM_TOKENS, TOPK: tl.constexpr, K: tl.constexpr, BM: tl.constexpr, BK: tl.constexpr):
            TOTAL = NUM_TOKENS * TOPK
            x_desc = tl.make_tensor_descriptor(x_ptr, shape=[TOTAL, K], strides=[K, 1], block_shape=[BM, BK])
            pid = tl.program_id(0)
            t = x_desc.load([pid * BM, 0]).to(tl.float32)
            tl.store(y_ptr + pid * BM + tl.arange(0, BM), tl.sum(t, axis=1))
        """)
    mod, notes = fe_triton.lower_file(p)
    said = {t for _l, _k, _kind, t in notes}
    assert "tl.make_tensor_descriptor(x_ptr) with its own bounds -> a masked gather / scatter of the flat x_ptr " \
           "per access (descriptors.py)" in said
    assert not any("is x_ptr.shape[0]" in t for t in said)
    x = next(q for q in mod.kernels[0].params if q.name == "x_ptr")
    assert x.value.type.rank == 1 and "NUM_TOKENS" in [q.name for q in mod.kernels[0].params]
    text = _model(p)
    assert "gather %x_ptr" in text and "load_view %px_ptr" not in text
    assert text.count("cmpi %dpos") >= 2 or text.count("= cmpi") >= 4


def test_descriptor_extent_a_loop_reassigns_is_a_masked_scatter(tmp_path):
    """``shape=[m_end, N]`` made in the per-expert loop (it was CTRS-E420): each store is a scatter masked by
    that iteration's ``m_end`` (read where the store is: no statement between re-binds it)."""
    p = _write(tmp_path, """
        @triton.jit
        def k(y_ptr, sizes, N: tl.constexpr, NE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
            m_end = 0
            for e in range(NE):
                m_end = m_end + tl.load(sizes + e).to(tl.int32)
                y_desc = tl.make_tensor_descriptor(y_ptr, shape=[m_end, N], strides=[N, 1], block_shape=[BM, BN])
                y_desc.store([0, 0], tl.zeros((BM, BN), dtype=tl.float32))
        """)
    text = _model(p)
    assert "scatter %y_ptr" in text and "has_mask = true" in text
    assert "scf.for" in text or " for " in text


def test_descriptor_access_after_its_extent_is_reassigned_is_refused(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(y_ptr, sizes, N: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
            hi = tl.load(sizes)
            y_desc = tl.make_tensor_descriptor(y_ptr, shape=[hi, N], strides=[N, 1], block_shape=[BM, BN])
            hi = hi * 2
            y_desc.store([0, 0], tl.zeros((BM, BN), dtype=tl.float32))
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.TRITON_DESC_STALE == "CTRS-E710"
    assert "after 'hi' (an extent or stride of the descriptor made on line 7) may have been reassigned (line 8)" \
        in e.value.message
    assert (e.value.loc.line, e.value.loc.col) == (9, 5)


def test_every_spec_feeds_the_triton_kernel_and_the_port():
    """The H200 run's inputs (gpu.triton_args for the Triton original, gpu.triton_port_inputs for the port) come
    from each spec of fixtures/triton_gather2d with the launch map of its kernel; the grid is the spec's."""
    import json  # noqa: PLC0415

    from ctrs.gpu import proof as gpu  # noqa: PLC0415

    from .test_gpu_triton_cpu import fake_desc, fake_tensors  # noqa: PLC0415

    files = translate.translate_source(FIXTURE / "kernel.py")
    analysis, wrapper = json.loads(files["analysis.json"]), files["wrapper.py"]
    assert sorted(analysis["triton"]) == ["col_sums_atomic", "dequant_blocks", "last_of_block", "rows_scale"]
    for spec in specmod.load_specs(str(FIXTURE / "specs.json")):
        tmap = gpu.triton_map(analysis, spec.kernel)
        t = fake_tensors(spec)
        params = analysis["triton"][spec.kernel]["params"]
        assert len(gpu.triton_args(tmap, spec, t, make_desc=fake_desc)) == len(params)
        inputs, consts = gpu.triton_port_inputs(tmap, spec, t)
        kept = [p["name"] for p in params if p["kind"] in ("array", "descriptor", "scalar")]
        assert len(inputs) == len(kept)
        assert f"def {spec.kernel}({', '.join(kept)}, *, {', '.join(consts)}, grid):" in wrapper


@pytest.mark.parametrize("offsets", ["offs[:, None] * 2 + offs[None, :]", "offs[:, None] + offs[None, :] * n"])
def test_2d_element_wise_loads_are_gathers_and_their_stores_must_match(tmp_path, offsets):
    """A computed (``* 2``) or transposed (``offs[None, :] * n``) 2-D offset tile: a T x T gather of the flat x; stored
    through T x T pointers it is a scatter, through T pointers (Triton would broadcast the pointers, several values
    per address) it is refused."""
    ok = _write(tmp_path, f"""
        @triton.jit
        def k(x, y, n, T: tl.constexpr):
            offs = tl.program_id(0) * T + tl.arange(0, T)
            v = tl.load(x + ({offsets}))
            tl.store(y + ({offsets}), v * 2)
        """)
    text = _model(ok)
    assert "= gather %x" in text and "shape = [T, T], unpadded = true" in text and "scatter %y" in text
    bad = _write(tmp_path, f"""
        @triton.jit
        def k(x, y, n, T: tl.constexpr):
            offs = tl.program_id(0) * T + tl.arange(0, T)
            v = tl.load(x + ({offsets}))
            tl.store(y + offs, v, mask=offs < n)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(bad)
    assert "tl.store of a T x T tile through T pointers" in e.value.message and e.value.loc.line == 8
