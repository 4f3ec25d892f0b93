"""Names bound only under some tl.constexpr flag values (frontends/triton/flag_names.py, CTRS-E713) and pointers
moved in a loop by a scalar step (frontends/triton/addresses.py: scalar_step): issue 18, real-world Triton."""

from __future__ import annotations

import re

import pytest

from ctrs import errors, pipeline
from ctrs.frontends import triton as fe_triton

from .conftest import write_triton as _write

# a descriptor made under DESC only, a row base bound only when not PX: the launch PX=1, DESC=1 reads `base`
# where nothing bound it (Triton cannot compile it); every other combination is an entry
FLAGGED = """
    @triton.jit
    def k(x_ptr, y_ptr, N: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, DESC: tl.constexpr = False,
          PX: tl.constexpr = False):
        pid = tl.program_id(0)
        if DESC:
            x_desc = tl.make_tensor_descriptor(x_ptr, shape=[N, N], strides=[N, 1], block_shape=[BM, BN])
        offs = tl.arange(0, BM)
        if PX:
            rows = tl.load(y_ptr + offs).to(tl.int32)
        else:
            base = pid * BM
            if not DESC:
                rows = base + offs
        if not DESC:
            x = tl.load(x_ptr + rows[:, None] * N + tl.arange(0, BN)[None, :])
        else:
            x = x_desc.load([base, 0])
        tl.store(y_ptr + (pid * BM + offs)[:, None] * N + tl.arange(0, BN)[None, :], x)
    """


def test_a_flag_combination_reading_an_unbound_name_has_no_entry(tmp_path):
    mod, _notes = fe_triton.lower_file(_write(tmp_path, FLAGGED))
    assert sorted(k.name for k in mod.kernels) == ["k__DESC_0__PX_0_i32", "k__DESC_0__PX_1_i32", "k__DESC_1__PX_0_i32"]
    assert {k.variant for k in mod.kernels} == {(("DESC", 0), ("PX", 0)), (("DESC", 0), ("PX", 1)),
                                                (("DESC", 1), ("PX", 0))}
    for k in mod.kernels:  # each entry notes the combination left out
        skipped = {(line, t) for line, kind, t in k.notes if kind == "variant" and t.startswith("no entry")}
        assert skipped == {(20, "no entry for PX=1, DESC=1: 'base' read where no statement bound it (with DESC=1, "
                            "PX=1): Triton does not compile this launch either")}
    # the descriptor entry reads x's rows from `base` = pid * BM on
    text = pipeline.emit_model(tmp_path / "k.py", "frontend")
    desc = text.split("kernel @k__DESC_1__PX_0_i32<", 1)[1].split("\nkernel @", 1)[0]
    assert re.search(r"%base = muli %pid, %\w+ : i32", desc)
    assert re.search(r"%dpos = addi %offs_\w+, %base_tile_r_b : tile<BMx1xi32>", desc)  # rows base + [0, BM)


def test_a_kernel_reading_a_name_before_binding_it_is_refused_with_e713(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(y_ptr, B: tl.constexpr):
            offs = tl.arange(0, B)
            tl.store(y_ptr + offs, v)
            v = tl.zeros((B,), dtype=tl.float32)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.TRITON_UNBOUND_IN_ENTRY == "CTRS-E713"
    assert e.value.message.startswith("'v' read where no statement bound it: Triton does not compile")
    assert (e.value.loc.line, e.value.loc.col) == (7, 28)


def test_an_unknown_name_is_not_e713(tmp_path):
    p = _write(tmp_path, """
        @triton.jit
        def k(y_ptr, B: tl.constexpr):
            tl.store(y_ptr + tl.arange(0, B), nowhere)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.IR_UNSUPPORTED and "name 'nowhere'" in e.value.message


STEPPED = """
    @triton.jit
    def k(w_ptr, y_ptr, N: tl.constexpr, K: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        offs_k = tl.program_id(0) * BK + tl.arange(0, BK)
        w_ptrs = w_ptr + tl.arange(0, BN)[:, None] * K + offs_k[None, :]
        acc = tl.zeros((BK,), dtype=tl.float32)
        for n in range(0, N, BN):
            acc += tl.sum(tl.load(w_ptrs).to(tl.float32), axis=0)
            w_ptrs += STEP
        tl.store(y_ptr + offs_k, acc)
    """


def test_a_pointer_moved_by_a_scalar_product_of_constexprs(tmp_path):
    """`w_ptrs += BN * K`: iteration n // BN reads BN * K elements further on, a gather of the flat array."""
    p = _write(tmp_path, STEPPED.replace("STEP", "BN * K"))
    text = pipeline.emit_model(p, "frontend")
    step = re.search(r"%(\w+) = muli %(\w+), %(\w+) : i32  loc\(k.py:11:19\)", text)
    assert step is not None  # BN * K, computed once before the loop
    body = text.split("= for %n", 1)[1]
    it = re.search(r"%(\w+) = divi %n\w*, %\w+ \{rounding = negative_inf\}", body).group(1)
    assert f"muli %{it}, %{step.group(1)} : i32" in body
    assert "gather %w_ptr" in body


def test_a_pointer_moved_by_a_runtime_scalar(tmp_path):
    p = _write(tmp_path, STEPPED.replace("w_ptr, y_ptr,", "w_ptr, y_ptr, s,").replace("STEP", "s * 2"))
    text = pipeline.emit_model(p, "frontend")
    body = text.split("= for %n", 1)[1]
    assert "gather %w_ptr" in body and re.search(r"muli %n_t\w*, %\w+ : i32", body)


def test_a_step_the_loop_rebinds_is_still_refused(tmp_path):
    p = _write(tmp_path, STEPPED.replace("w_ptr, y_ptr,", "w_ptr, y_ptr, s,").replace(
        "w_ptrs += STEP", "st = st + 1\n            w_ptrs += st").replace("acc = tl.zeros", "st = tl.program_id(1) * 2\n        acc = tl.zeros"))
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert "a pointer moved in a loop by other than" in e.value.message and e.value.loc.line == 13


def test_a_combination_with_an_unbound_read_and_another_blocker_has_no_entry(tmp_path):
    """PX=1, DESC=1 reads `base` unbound and gathers a register tile (CTRS-E743): Triton compiles no launch of it, so
    the other blocker does not refuse the kernel; the note names the unbound read."""
    body = FLAGGED.replace("            x = x_desc.load([base, 0])\n",
                           "            x = x_desc.load([base, 0])\n            if PX:\n"
                           "                x = tl.gather(x, rows[:, None] + tl.zeros((BM, BN), dtype=tl.int32), 0)\n")
    assert body != FLAGGED
    mod, _notes = fe_triton.lower_file(_write(tmp_path, body))
    assert sorted(k.name for k in mod.kernels) == ["k__DESC_0__PX_0_i32", "k__DESC_0__PX_1_i32", "k__DESC_1__PX_0_i32"]
    skipped = [t for _l, kind, t in mod.kernels[0].notes if kind == "variant" and t.startswith("no entry")]
    assert skipped == ["no entry for PX=1, DESC=1: 'base' read where no statement bound it (with DESC=1, PX=1): "
                       "Triton does not compile this launch either"]


def test_a_bool_tile_bound_in_both_arms_of_a_runtime_if_has_a_true_placeholder(tmp_path):
    """The port declares an if's result before the if (`let mut`, overwritten in both arms); a bool tile's
    placeholder is `true` (`0bool` is no Rust literal: the dX port's row mask did not compile)."""
    from ctrs import translate  # noqa: PLC0415

    p = _write(tmp_path, """
        @triton.jit
        def k(x_ptr, y_ptr, n, B: tl.constexpr):
            offs = tl.arange(0, B)
            if n > 4:
                m = offs < n
            else:
                m = offs < 4
            tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)
        """)
    rs = translate.translate(p, tmp_path / "port")[0].read_text()
    assert re.search(r"let mut m_\d+: Tile<bool, \{ \[B\] \}> = constant\(true, const_shape!\[B\]\);", rs), rs
    assert "0bool" not in rs
