"""ct.Constant[float] parameters and ``/ N`` of a ct.Constant[int]: cuTile Python folds the value into an f32
constant; cutile has no float const generics, so the port takes an i32 const generic holding the f32 bits and
bitcasts it at entry, and converts an int const generic with ``itof``. ircanon reads ``bitcast`` / ``itof`` /
``ftof`` of a splat constant as the float constant it evaluates to, and compares float constants by value
(tests/data/float_const_bits.py: EQUIVALENT for its specs; a port with other bits stays critical)."""

from __future__ import annotations

import struct

import pytest

from ctrs import spec as specmod
from ctrs.verify import ircanon
from ctrs.verify import ir_ref
from ctrs.verify import ir_rs
from ctrs.verify import irdiff

from .conftest import DATA, assert_equivalent_report, assert_port_equivalent, data_cases, translate_data

KERNEL = "float_const_bits"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("fcb"), [KERNEL])[KERNEL]


def _bits(v: float) -> int:
    return struct.unpack("<i", struct.pack("<f", v))[0]


def test_float_literals_compare_by_value():
    assert ircanon._float_literal("f32", "1.000000e-01") == "1.000000e-01"
    assert ircanon._float_literal("f32", "0x3DCCCCCD") == "1.000000e-01"  # the bits of 0.1f
    assert ircanon._float_literal("f16", "9.997550e-02") == ircanon._float_text(struct.unpack("<e", struct.pack(
        "<e", 0.1))[0])  # the printer's f16 digits, read as the f16 they name
    assert ircanon._float_literal("bf16", "1.001360e-05") == "1.001358e-05"
    assert ircanon._float_literal("i32", "7") == "7" and ircanon._float_literal("f32", "inf") == "inf"
    assert ircanon._round_to("bf16", 1.0 + 2 ** -8) == 1.0  # a tie rounds to even
    assert ircanon._round_to("bf16", 1.0 + 3 * 2 ** -8) == 1.0 + 2 ** -6


def test_casts_of_splat_constants_fold():
    splat = {"%b": ("i32", str(_bits(1e-5))), "%n": ("i32", "3"), "%u": ("i32", "-1"), "%f": ("f32", "1.000000e-01")}

    def fold(sig, use):
        return ircanon._fold_float(ircanon.Op(sig.split()[0], ["%r"], [use], [], sig), splat)

    assert fold("bitcast % : tile < i32 > -> tile < f32 >", "%b") == ("f32", "1.000000e-05", "tile < f32 >")
    assert fold("itof % signed : tile < i32 > -> tile < f16 >", "%n") == ("f16", "3.000000e+00", "tile < f16 >")
    assert fold("itof % unsigned : tile < i32 > -> tile < f32 >", "%u") == ("f32", "4.294967e+09", "tile < f32 >")
    bf = ircanon._float_text(ircanon._round_to("bf16", 0.1))
    assert fold("ftof % : tile < f32 > -> tile < bf16 >", "%f")[1] == bf
    assert fold("bitcast % : tile < i32 > -> tile < f16 >", "%b") is None  # not the same width: not a reinterpretation
    assert fold("itof % signed : tile < i32 > -> tile < f32 >", "%missing") is None


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_constant_float_port_is_ir_equivalent(port, name, spec):
    text = port.read_text()
    assert "const EPS: i32" in text and "const SHIFT: i32" in text and "EPS: f32" not in text
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, spec)


def test_other_bits_are_critical(port):
    spec = next(s for s in specmod.load_specs(str(DATA / f"{KERNEL}.json")) if s.name == "f32_eps1em5")
    ref = ir_ref.compile_reference(DATA / f"{KERNEL}.py", spec)
    (gen,) = ir_rs.compile_ports(port, [(spec, "scale_shift")])
    assert f"constant <i32: {_bits(1e-5)}>" in gen.text and "bitcast" in gen.text
    assert_equivalent_report(irdiff.diff(ref.text, gen.text, "ref", "gen"), port)
    wrong = gen.text.replace(f"<i32: {_bits(1e-5)}>", f"<i32: {_bits(2e-5)}>")  # eps 2e-5
    rep = irdiff.diff(ref.text, wrong, "ref", "gen")
    assert rep.verdict() == "CRITICAL", rep.render()


def _undefined_names(source: str) -> set[str]:
    """Names a function of ``source`` reads that nothing defines (not a local, parameter, module global or builtin)."""
    import builtins
    import symtable

    top = symtable.symtable(source, "wrapper.py", "exec")
    known = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()} | set(dir(builtins))
    out: set[str] = set()
    todo = list(top.get_children())
    while todo:
        t = todo.pop()
        todo.extend(t.get_children())
        out |= {s.get_name() for s in t.get_symbols() if s.is_global() and s.is_referenced() and s.get_name() not in known}
    return out


def test_wrapper_passes_a_float_constant_on_every_path(port):
    """The wrapper's launch paths pass a ct.Constant[float] to the C entry as a checked float (``_v_EPS``): every
    name they read is defined (a run of TileGym's rms_norm / layer_norm / dropout ports on the H200 died on
    ``NameError: _v_EPS`` in the per-signature fast path)."""
    src = (port.parent / "wrapper.py").read_text()
    assert _undefined_names(src) == set()
    assert '_v_EPS = EPS if EPS.__class__ is float else _float("scale_shift: EPS", EPS)' in src
