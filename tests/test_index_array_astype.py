"""An index array cast to an integer (``ct.load(Start, ..).astype(np.int32)``) beside data arrays: the cast is
per launch in the reference (nothing for int32, ftoi for a float), so the array keeps a dtype variable of its own,
lowered per dtype (int32 first), instead of joining the data arrays' E (frontends/cutile/dtypes.py). Its extent-1
axis has a unit stride that cuTile Python keeps dynamic (16-byte divisible) and passes as the constant 1: the port's
launcher hands cutile a 16-byte stride there (spec.port_strides, ffi.rs view_strides) and ircanon reads the
reference's constant as the stride argument (tests/data/index_array_astype.py: EQUIVALENT)."""

from __future__ import annotations

import pytest

from ctrs import spec as specmod
from ctrs.verify import ircanon

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = "index_array_astype"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("iaa"), [KERNEL])[KERNEL]


def test_index_array_has_its_own_entry(port):
    text = port.read_text()
    assert "pub fn shifted_sum_i32<E: ElementType" in text
    assert "Start: &Tensor<i32, { [-1] }>" in text and "X: &Tensor<E, { [-1] }>" in text


def test_unit_stride_of_a_singleton_axis_is_dynamic():
    a = specmod.ArrayArg("s", "int32", (1,), (1,))
    assert specmod.port_strides(a) == (4,)  # 16 bytes of int32
    assert specmod.port_strides(specmod.ArrayArg("x", "bfloat16", (4, 1), (1, 1))) == (1, 8)
    assert specmod.port_strides(specmod.ArrayArg("x", "float32", (4,), (1,))) == (1,)


def test_reference_unit_stride_constant_reads_as_argument():
    entry = ircanon.Op("entry", [], [], ["%p", "%s0", "%t0"], "entry @k ( %def : tile < ptr < i32 > > , "
                       "%def : tile < i32 > , %def : tile < i32 > )")
    view = ircanon.Op("make_tensor_view", ["%v"], ["%p", "%c"], [],
                      "make_tensor_view % , shape = [ 1 ] , strides = [ % ] : tile < i32 > -> "
                      "tensor_view < 1xi32 , strides = [ ? ] >")
    out = ircanon._dynamic_unit_dims(view, entry, {"%p": 0}, lambda n: n == "%c")
    assert out.uses == ["%p", "%s0", "%t0"] and "tensor_view < ?xi32" in out.sig
    kept = ircanon._dynamic_unit_dims(view, entry, {"%p": 0}, lambda n: False)  # another stride value: kept
    assert kept.uses == ["%p", "%s0", "%c"]


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_index_array_port_is_ir_equivalent(port, name, spec):
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, spec)


GATHER2 = "gather_two_dtype_vars"


@pytest.fixture(scope="module")
def gather_port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("g2"), [GATHER2])[GATHER2]


def test_every_gathered_dtype_variable_is_made_concrete(gather_port):
    """Not only E: the weight's E1 too (a generic E1 gather did not compile in cutile's JIT: CTRS-E021)."""
    text = gather_port.read_text()
    assert "fn scaled_gather_f16_f32<" in text and "fn scaled_gather_bf16_bf16<" in text
    assert "tile_to_scalar" in text and ": E1 = tile_to_scalar" not in text and "E1" not in text


@pytest.mark.parametrize("name,spec", list(data_cases([GATHER2])))
def test_two_gathered_dtype_variables_port_is_ir_equivalent(gather_port, name, spec):
    assert_port_equivalent(DATA / f"{GATHER2}.py", gather_port, spec)


NEG = "neg_const"


def test_negi_of_a_splat_constant_folds():
    splat = {"%w": ("i32", "64"), "%m": ("i32", "-2147483648")}

    def fold(use):
        return ircanon._fold_int(ircanon.Op("negi", ["%r"], [use], [], "negi % : tile < i32 >"), splat)

    assert fold("%w") == ("i32", "-64", "tile < i32 >")
    assert fold("%m") == ("i32", "-2147483648", "tile < i32 >")  # wraps as the hardware
    assert fold("%other") is None


@pytest.fixture(scope="module")
def neg_port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("neg"), [NEG])[NEG]


@pytest.mark.parametrize("name,spec", list(data_cases([NEG])))
def test_negated_constant_port_is_ir_equivalent(neg_port, name, spec):
    assert "negi(" in neg_port.read_text()
    assert_port_equivalent(DATA / f"{NEG}.py", neg_port, spec)
