"""passes/padfold.py: a rank-1 gather the front end padded with a select (its element type a generic of its own)
is one padded load_ptr_tko again once the entry makes the type concrete, as the reference's; IR-equivalent. The
select form compiled differently (TileGym's attention backward dK/dV: the q-block loop not pipelined, 0.75-0.90x on
the H200)."""

from __future__ import annotations

import pytest

from ctrs import pipeline
from ctrs.ir.ops import OpKind
from ctrs.passes.util import walk_blocks
from ctrs.spec import load_specs

from .conftest import DATA, assert_port_equivalent, translate_data

KERNEL = "pad_fold"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("pf"), [KERNEL])[KERNEL]


def test_gathers_are_padded_again():
    seen = False
    for k in pipeline.lower(DATA / f"{KERNEL}.py"):
        ops = [op for b in walk_blocks(k.body) for op in b.ops]
        gathers = [op for op in ops if op.kind == OpKind.GATHER]
        assert gathers and not any(op.attrs.get("unpadded") for op in gathers), k.name
        assert not any(op.kind == OpKind.SELECT for op in ops), k.name
        seen = True
    assert seen


def test_port_spells_the_padding_in_the_load(port):
    text = port.read_text()
    assert "select(L_m0" not in text
    assert text.count("Some(L_m0), Some(L_zero)") == 9  # every entry (3 x 3 dtypes)


@pytest.mark.parametrize("spec", load_specs(str(DATA / f"{KERNEL}.json")), ids=lambda s: s.name)
def test_padded_port_is_ir_equivalent(port, spec):
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, spec)
