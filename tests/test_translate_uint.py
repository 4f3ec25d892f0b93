"""ctrs translate: unsigned integer tiles (the integer side of tl.rand's Philox port).

tests/data/expr_uint.py (bitcasts int32 <-> uint32, uint32 constants above 2**31, exti to uint64, an unsigned
shift, an alias of a loop-carried value) is IR-equivalent to cuTile Python; a wrapping integer narrowing, which
cutile 0.3.1 cannot write, is one coded diagnostic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, translate

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNELS = ["expr_uint"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    return translate_data(tmp_path_factory.mktemp("uint"), KERNELS)


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(KERNELS)))
def test_uint_ir_equivalent(translated, kernel, spec):
    assert_port_equivalent(DATA / f"{kernel}.py", translated[kernel], spec)


def test_uint_generated_forms(translated):
    k = translated["expr_uint"].read_text()
    # 0xCD9E8D57 does not fit i32: the same bits as an i32 constant, bitcast to u32 after its splat (the JIT folds
    # constant -> reshape -> broadcast into the reference's one splat constant only without a bitcast inside)
    assert "let c_bits: Tile<i32, { [] }> = constant(-845247145i32, const_shape![]);" in k
    assert "let c_r_b_1: Tile<u32, { [TILE] }> = bitcast(c_r_b_bits);" in k
    loop = k.split("for _ in 0i32..3i32 {")[1]
    assert loop.index("g = h_1 + ") < loop.index("h_1 = h_2;")  # prev = h: read before h is updated
    assert "exti(h_1)" in k and "bitcast(offs)" in k  # astype u32 -> u64 zero-extends (no convert_tile from u32)


_BAD = '''import cuda.tile as ct


@ct.kernel
def k(x, y, TILE: ct.Constant[int]):
    w = ct.astype(ct.bitcast(ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32), ct.uint32), ct.uint64)
    {stmt}
'''


@pytest.mark.parametrize(("stmt", "code", "words"), [
    ("v = ct.astype(w * 3, ct.uint32)", errors.IR_WRAPPING_NARROWING,
     "no rule for ct.astype from u64 to u32 (a wrapping truncation)"),
    ("v = ct.astype(w >> 16, ct.uint32)", errors.IR_WRAPPING_NARROWING,
     "no rule for ct.astype from u64 to u32 (a wrapping truncation)"),
    ("v = ct.bitcast(w, ct.int32)", errors.IR_BITCAST_WIDTH, "no rule for ct.bitcast from u64 to i32"),
])
def test_narrowing_diagnostics(tmp_path, stmt, code, words):
    """A narrowing that may wrap is one coded blocker at its line, the kernel's only one (its unused parameters x, y
    are kept as unused arrays): translate raises it; nothing is written."""
    src = tmp_path / "bad.py"
    src.write_text(_BAD.replace("{stmt}", stmt))
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate(src, tmp_path / "out")
    e = ei.value
    assert not isinstance(e, errors.Refused) and e.loc.line == 7
    assert e.code == code and words in e.message and e.hint, e.one_line()
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("shifted", ["w >> 32", "ct.bitwise_rshift(w, 40)"])
def test_narrowing_a_shifted_value_is_translated(tmp_path, shifted):
    """An unsigned ``x >> k`` by a constant k >= the bits dropped fits: trunci with the no-unsigned-wrap flag
    (cutile writes trunci only with an overflow flag; rules/ir.toml trunci)."""
    src = tmp_path / "ok.py"
    body = (f"v = ct.astype({shifted}, ct.uint32)\n"
            "    t = ct.astype(ct.load(x, index=(ct.bid(0),), shape=(TILE,)), ct.float32)\n"
            "    ct.store(y, index=(ct.bid(0),), tile=t + ct.astype(ct.bitcast(v, ct.int32), ct.float32))")
    src.write_text(_BAD.replace("{stmt}", body))
    k = next(p for p in translate.translate(src, tmp_path / "out") if p.name == "kernel.rs").read_text()
    assert "trunci(" in k and "overflow::NoUnsignedWrap" in k
