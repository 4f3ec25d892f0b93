"""Compile-time float expressions of ct.Constant[float] parameters (ir/floatexpr.py, docs/porting.md).

cuTile Python computes ``1.0 / (1.0 - RATE)`` and ``RATE >= 1.0`` in double precision at compile time and encodes
the double as a constant of the dtype it meets, rounded once. The port gets them as host-computed const generics:
tests/data/const_float_fold.py must be IR-equivalent at every spec, including RATE = 0.8 (f32 arithmetic gives
5.0000005, the double rounded to f32 is 5.0), RATE = 0.15 (likewise off by one ulp) and RATE = 1.0 (the other arm).
"""

from __future__ import annotations

import math
import struct
import subprocess

import pytest

from ctrs.ir.floatexpr import FORMATS, FloatExpr, f32_bits, round_to

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = "const_float_fold"

_VALUES = [0.1, 1 / 3, 5.0, 1 / (1 - 0.8), 1 / (1 - 0.15), 65504.0, 65519.99, 65520.0, 1e-8, 6e-8, 2.0 ** -24 * 1.5,
           -0.1, 1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8, 1.0 + 2 ** -11, 3.4e38, 3.5e38, 1e-40, 1e-46, 0.0, -0.0, math.inf]


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("cff"), [KERNEL])[KERNEL]


def _f32_arith(rate: float) -> float:
    f = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]  # noqa: E731
    return f(1.0 / f(1.0 - f(rate)))


def test_round_to_is_cutile_constant_encoding():
    from cuda.tile._bytecode import float as ctfloat  # the reference's constant encoding
    from cuda.tile._bytecode.type import SimpleType


    for dt, st in (("f16", SimpleType.F16), ("bf16", SimpleType.BF16), ("f32", SimpleType.F32)):
        for v in _VALUES:
            ref = ctfloat.float_from_bits(ctfloat.float_to_bits(v, st), st)
            ours = round_to(dt, v)
            assert struct.pack("<d", ours) == struct.pack("<d", ref), (dt, v, ours, ref)



def test_generic_values_are_double_precision():
    e = FloatExpr("round", ("f32", FloatExpr.binary("/", FloatExpr.num(1.0), FloatExpr.binary(
        "-", FloatExpr.num(1.0), FloatExpr.sym("RATE")))))
    assert e.generic_value({"RATE": 0.8}) == f32_bits(5.0) != f32_bits(_f32_arith(0.8))
    assert e.generic_value({"RATE": 0.15}) != f32_bits(_f32_arith(0.15))
    assert e.generic_value({"RATE": 1.0}) == f32_bits(math.inf)  # the arm the reference drops: IEEE, no raise
    ge = FloatExpr.binary(">=", FloatExpr.sym("RATE"), FloatExpr.num(1.0))
    assert [ge.generic_value({"RATE": r}) for r in (0.99, 1.0, 2.5)] == [0, 1, 1]
    mixed = FloatExpr("round", ("f16", FloatExpr.binary("*", FloatExpr.isym("N"), FloatExpr.sym("S"))))
    assert mixed.generic_value({"N": 3, "S": 0.1}) == f32_bits(round_to("f16", 3 * 0.1))
    for x in (e, ge, mixed, FloatExpr("neg", (FloatExpr.sym("LO"),))):
        assert FloatExpr.from_python(x.python()) == x


def test_host_rounding_agrees(port, tmp_path):
    """ffi.rs's ctrs_round_float (the C entry's computation) gives the bits ctrs check and the reference use."""
    ffi = (port.parent / "ffi.rs").read_text()
    assert "RATE: f64" in ffi and "ctrs_round_float(" in ffi
    start = ffi.index("    pub fn ctrs_round_float")
    body = ffi[start:ffi.index("\n    }\n", start) + 7]
    cases = [(v, dt) for v in _VALUES for dt in FORMATS]
    main = "fn main() {\n" + "".join(
        f"    println!(\"{{}}\", ctrs_round_float(f64::from_bits({struct.unpack('<Q', struct.pack('<d', v))[0]:#x}u64), "
        f"{FORMATS[dt][0]}, {FORMATS[dt][1]}, {FORMATS[dt][2]}).to_bits() as i32);\n" for v, dt in cases) + "}\n"
    (tmp_path / "r.rs").write_text(body + "\n" + main)
    subprocess.run(["rustc", "-O", "-o", str(tmp_path / "r"), str(tmp_path / "r.rs")], check=True)
    out = subprocess.run([str(tmp_path / "r")], check=True, capture_output=True, text=True).stdout.split()
    assert [int(x) for x in out] == [f32_bits(round_to(dt, v)) for v, dt in cases]


def test_port_folds_per_launch(port):
    text = port.read_text()
    assert "if RATE_GE_1 == 1i32" in text and "const C1_DIV_1_MINUS_RATE_F16: i32" in text
    assert "1.0f32 - " not in text and "cmpf(rate_f" not in text  # no run-time f32 arithmetic on the constant


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_float_const_fold_is_ir_equivalent(port, name, spec):
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, spec)
