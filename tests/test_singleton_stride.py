"""Strides of a size-1 axis (spec.port_strides, ffi.rs ``TensorDesc::view_strides``): cuTile Python states
``assume div_by<16 bytes>`` on every dynamic stride of a singleton axis of a tensor view, whatever its value (the
stride is irrelevant to addressing: the axis' one index is 0). The port's launcher hands cutile 16 bytes' worth of
elements there for any stride, so cutile's launch-derived divisor is the reference's fact
(tests/data/view_singleton_stride.py: a batch-1 view at an odd row pitch, EQUIVALENT with no assume finding)."""

from __future__ import annotations

import pytest

from ctrs import spec as specmod

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = "view_singleton_stride"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("vss"), [KERNEL])[KERNEL]


def test_any_stride_of_a_singleton_axis_is_16_bytes():
    assert specmod.port_strides(specmod.ArrayArg("x", "float16", (1, 5, 64), (321, 64, 1))) == (8, 64, 1)
    assert specmod.port_strides(specmod.ArrayArg("x", "float32", (1, 3, 32), (6, 32, 1))) == (4, 32, 1)
    assert specmod.port_strides(specmod.ArrayArg("x", "float16", (2, 5, 64), (321, 64, 1))) == (321, 64, 1)
    six = specmod.ArrayArg("x", "float16", (1, 1, 1, 1, 1, 3), (3, 3, 3, 3, 3, 1))  # rank > 5: as is
    assert specmod.port_strides(six) == (3, 3, 3, 3, 3, 1)


def test_ffi_view_stride_ignores_the_stride_of_a_singleton_axis(port):
    ffi = (port.parent / "ffi.rs").read_text()
    assert "if n <= 5 && self.shape[i] == 1 && elem_bytes > 0 && elem_bytes < 16 && 16 % elem_bytes == 0 {" in ffi


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_singleton_stride_port_is_ir_equivalent(port, name, spec):
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, spec)
