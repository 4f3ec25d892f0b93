"""Python `while` loops (issue 18, branch while18): the typed IR's WHILE op (cond and body regions over the carried
values), the Triton front end's lowering of it, the verifier, the printer, and the Rust emitter's `while` over a
`let mut` test the body recomputes last (cutile-compiler 0.5.0 compiles a Rust `while` to a Tile IR `loop`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, pipeline, translate
from ctrs.frontends import triton as fe_triton
from ctrs.ir.verify import verify as ir_verify
from ctrs.ir.ops import OpKind, walk
from ctrs.ir.types import BOOL, ScalarType

from .conftest import write_triton as _write

DATA = Path(__file__).parent / "data" / "triton_while"


def _typed(monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")


def _whiles(path):
    entries = fe_triton.lower_file(path)[0].kernels
    return [op for k in entries for op in walk(k.body) if op.kind == OpKind.WHILE], entries


@pytest.mark.model
def test_while_carries_what_the_body_rebinds(monkeypatch):
    _typed(monkeypatch)
    whiles, entries = _whiles(DATA / "kernel.py")
    assert len(whiles) == len(entries) == 1  # x_ptr of a generic element type
    w = whiles[0]
    cond, body = w.regions
    assert [a.hint for a in body.args] == ["acc", "start"]  # sorted names the body assigns
    assert [v.type for v in w.operands] == [a.type for a in cond.args] == [r.type for r in w.results]
    assert cond.ops[-1].operands[0].type == ScalarType(BOOL)
    assert len(body.ops[-1].operands) == 2 and body.ops[-1].operands[1] is not body.args[1]  # start changes


@pytest.mark.model
def test_while_is_printed_and_spelled(monkeypatch, tmp_path):
    _typed(monkeypatch)
    text = pipeline.emit_model(DATA / "kernel.py", "frontend")
    assert "= while iter_args(%acc_1 = %acc, %start_1 = %start) -> (tile<1024xf32>, i32)" not in text  # BLOCK generic
    assert "while iter_args(" in text and "} do (" in text
    port = translate.translate(DATA / "kernel.py", tmp_path / "port")[0].read_text()
    body = port.split("pub fn while_sum_kernel_f32")[1].split("pub fn ")[0]
    assert "let mut cond: bool = true;" in body
    assert body.count("cond = ") == 2  # before the loop and last in its body
    assert "while cond {" in body
    assert "start_1 = start_2;" in body and "acc_1 = acc_1 + x;" in body


@pytest.mark.model
def test_verifier_rejects_a_while_whose_carried_value_changes_type(monkeypatch):
    _typed(monkeypatch)
    whiles, entries = _whiles(DATA / "kernel.py")
    w = whiles[0]
    ir_verify(entries[0])  # as lowered: fine
    w.results[0], w.results[1] = w.results[1], w.results[0]
    with pytest.raises(errors.CtrsError) as e:
        ir_verify(entries[0])
    assert e.value.code == errors.IR_VERIFY_CARRIED


@pytest.mark.model
def test_while_with_a_compile_time_test_or_else_is_refused(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr):
            i = 0
            while B > 4:
                i += 1
            tl.store(x + tl.arange(0, B), tl.zeros((B,), dtype=tl.float32) + i)
        """)
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.WHILE_UNSUPPORTED == "CTRS-E711" and e.value.loc.line == 7
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr):
            i = 0
            while i < n:
                i += 1
            else:
                i = 2
            tl.store(x + tl.arange(0, B), tl.zeros((B,), dtype=tl.float32) + i)
        """, "k2.py")
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.WHILE_UNSUPPORTED


def test_while_port_compiles_to_a_tile_ir_loop(monkeypatch, tmp_path):
    """The port of the while kernel compiles with cutile (cargo + the cutile JIT, both entries): a Tile IR ``loop``
    carrying the accumulator, the test and the offset, whose head breaks with them when the test fails."""
    from ctrs import spec as specmod  # noqa: PLC0415
    from ctrs.verify import ir_rs  # noqa: PLC0415

    _typed(monkeypatch)
    kernel_rs = translate.translate(DATA / "kernel.py", tmp_path / "port")[0]
    specs = specmod.load_specs(str(DATA / "while_specs.json"))
    res = ir_rs.compile_ports(kernel_rs, [(specs[0], "while_sum_kernel_f32"), (specs[1], "while_sum_kernel_f16")])
    for r, block in zip(res, (1024, 256)):
        head = r.text[r.text.index("loop iter_values("):]
        assert head.startswith(f"loop iter_values(%arg7 = %cst_0_f32, %arg8 = %3, %arg9 = %2) : tile<{block}xf32>, "
                               "tile<i1>, tile<i32>")
        assert head.split("\n")[1].strip() == "if %arg8 {"
        assert f"break %arg7, %arg8, %arg9 : tile<{block}xf32>, tile<i1>, tile<i32>" in head.split("\n")[3]


_GUARDED = """
    @triton.jit
    def k(x, y, K, BLOCK: tl.constexpr, FLAG: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        p = x + offs
        for k in range(0, K, BLOCK):
            if not FLAG:
                acc += tl.load(p, mask=k + offs < K, other=0.0)
            {READ}
            if not FLAG:
                p += BLOCK
        tl.store(y + offs, acc)
    """


@pytest.mark.model
def test_pointer_moved_under_a_flag_in_a_stepped_loop_is_an_advance(monkeypatch, tmp_path):
    """unsloth's grouped GEMM: `for k in range(0, K, BLOCK)` with `if not USE_TMA: p += BLOCK` (unit stride): the
    pointer at iteration k is its entry plus k // BLOCK whole blocks, a view tile index."""
    _typed(monkeypatch)
    p = _write(tmp_path, _GUARDED.replace("{READ}", "pass"))
    port = translate.translate(p, tmp_path / "port")[0].read_text()
    assert "for k in (0i32..K).step_by(BLOCK as usize) {" in port
    assert "let k_t_1: Tile<i32, { [] }> = divi(k_t, BLOCK_t, rounding::NegativeInf);" in port
    assert "load_view_tko(&px, [k_t_1_s]," in port


@pytest.mark.model
def test_pointer_moved_under_a_flag_but_read_outside_it_is_refused(monkeypatch, tmp_path):
    _typed(monkeypatch)
    p = _write(tmp_path, _GUARDED.replace("{READ}", "acc += tl.load(p)"))
    with pytest.raises(errors.CtrsError) as e:
        fe_triton.lower_file(p)
    assert e.value.code == errors.IR_UNSUPPORTED and "moved under a tl.constexpr test" in e.value.message
    assert e.value.loc.line == 14


@pytest.mark.model
def test_strided_loop_without_advances_needs_no_iteration_count(monkeypatch, tmp_path):
    """`for t in range(pid, n, NUM_SMS)` (unsloth's dW kernel) moves no pointer: no iteration count is made."""
    _typed(monkeypatch)
    p = _write(tmp_path, """
        @triton.jit
        def k(x, n, B: tl.constexpr, NUM_SMS: tl.constexpr):
            for t in range(tl.program_id(0), n, NUM_SMS):
                tl.store(x + t * B + tl.arange(0, B), tl.zeros((B,), dtype=tl.float32))
        """)
    port = translate.translate(p, tmp_path / "port")[0].read_text()
    assert ".step_by(NUM_SMS as usize) {" in port
