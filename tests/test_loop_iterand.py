"""A loop over constant bounds (tests/data/loop_extract.py): cutile bounds the iterand of a loop whose bounds its
JIT knows (``assume bounded<0, N-1>``), which the reference's loop index never carries and which keeps tileiras
from folding the unrolled index (the extract at it goes through local memory: 256 stores in the SASS of the
bf16 spec, none in the reference's). The port starts such bounds from a zero the JIT does not know
(``[api.unbounded_loop_zero]``): IR-equivalent, and no assume on the loop index."""

from __future__ import annotations

import re

import pytest

from ctrs import spec as specmod
from ctrs import translate
from ctrs.verify import ir_rs

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNELS = ["loop_extract"]
_ITERAND_ASSUME = re.compile(r"assume bounded<[-0-9]+, [-0-9?]+>, %loopIdx\b")


@pytest.fixture(scope="module")
def ports(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("iterand"), KERNELS)


@pytest.mark.parametrize("name,spec", list(data_cases(KERNELS)))
def test_port_is_ir_equivalent(ports, name, spec):
    assert_port_equivalent(DATA / f"{name}.py", ports[name], spec)


@pytest.mark.parametrize("name,spec", list(data_cases(KERNELS)))
def test_the_loop_index_carries_no_assume(ports, name, spec):
    (gen,) = ir_rs.compile_ports(ports[name], [(spec, "mix_rows")])
    assert "for %loopIdx" in gen.text
    assert not _ITERAND_ASSUME.search(gen.text), gen.text


def test_the_plain_range_would_carry_it(ports, tmp_path):
    """The same port with the plain `0i32..N` range: cutile puts the assume on the index (the defect the
    spelling avoids; when a cutile release stops doing so, this test tells)."""
    rs = ports["loop_extract"].read_text()
    plain = re.sub(r"let (j_zero_t|j_zero): [^\n]*\n\s*", "", rs).replace("j_zero..(j_zero + N)", "0i32..N")
    assert plain != rs and "j_zero" not in plain
    path = tmp_path / "kernel.rs"
    path.write_text(plain)
    spec = next(s for s in specmod.load_specs(str(DATA / "loop_extract.json")) if s.name == "f32_n4")
    (gen,) = ir_rs.compile_ports(path, [(spec, "mix_rows")])
    assert _ITERAND_ASSUME.search(gen.text)


@pytest.mark.model
def test_the_zero_is_spelled_once_per_loop():
    rs = translate.translate_source(DATA / "loop_extract.py")["kernel.rs"]
    assert rs.count("tile_to_scalar(") == 1 and "for j in j_zero..(j_zero + N) {" in rs
