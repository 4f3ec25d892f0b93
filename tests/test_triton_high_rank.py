"""Tiles of rank > 6 in the typed Triton front end (issue 18, branch ptr18; frontends/triton/high_rank.py): a reshape
to rank 7+, permuted, reshaped back to rank <= 6 is spelled as rank <= 6 reshapes and permutes (cutile 0.5.0 stops
at rank 6); anything else done with such a tile is refused (CTRS-E721) citing the crate."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from ctrs import errors, pipeline, spec as specmod, translate
from ctrs.frontends.triton.high_rank import _regroup, _size, plan
from ctrs.verify import ir_rs

from .conftest import write_triton as _write

DATA = Path(__file__).resolve().parent / "data"
KERNEL = DATA / "triton_high_rank.py"


def _chain(shape: tuple, perm: tuple) -> np.ndarray | None:
    """The plan run on numpy: the elements of arange reshaped / permuted as the port does, flattened."""
    steps = plan(shape, perm)
    if steps is None:
        return None
    x = np.arange(int(np.prod(shape)))
    for groups, after in steps:
        assert len(groups) <= 6
        x = x.reshape([_size(shape, g) for g in groups])
        firsts = [g[0] for g in groups]
        x = x.transpose(tuple(firsts.index(g[0]) for g in _regroup(after, groups)))
    return x.reshape(-1)


@pytest.mark.model
@pytest.mark.parametrize("seed", range(4))
def test_plan_moves_every_element_as_the_rank_7_permute(seed):
    rng = random.Random(seed)
    cases = [((3, 8, 4, 4, 2, 2, 2), (3, 5, 1, 0, 6, 2, 4))]  # unsloth's marlin repack (int4_packed.py)
    for _ in range(50):
        n = rng.choice((7, 8))
        shape = tuple(rng.choice((2, 3)) for _ in range(n))
        cases.append((shape, tuple(rng.sample(range(n), n))))
    for shape, perm in cases:
        got = _chain(shape, perm)
        want = np.arange(int(np.prod(shape))).reshape(shape).transpose(perm).reshape(-1)
        assert got is not None and (got == want).all(), (shape, perm)


@pytest.mark.model
def test_symbolic_axes_are_never_merged():
    shape = ("R", 2, 2, 2, 2, 2, 2)
    for groups, _after in plan(shape, (0, 2, 4, 6, 1, 3, 5)):
        assert all(len(g) == 1 for g in groups if 0 in g)


@pytest.mark.model
def test_rank_8_shuffle_is_two_rank_6_permutes(monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    text = pipeline.emit_model(KERNEL, "frontend")
    assert "reshape %v {shape = [ROWS, 2, 4, 2, 2, 8]} : tile<ROWSx2x4x2x2x8x!E>" in text
    assert len(re.findall(r" = permute ", text)) == 2
    assert "%out_2 = reshape %out_1 {shape = [ROWS, 256]} : tile<ROWSx256x!E>" in text
    assert not re.search(r"tile<(\w+x){7,}", text)  # no tile of rank 7+


@pytest.mark.model
def test_other_use_of_a_rank_7_tile_is_refused_with_the_crate_citation(monkeypatch, tmp_path):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")
    p = _write(tmp_path, """
        @triton.jit
        def k(x, y):
            offs = tl.arange(0, 128)
            h = tl.reshape(tl.load(x + offs), (2, 2, 2, 2, 2, 2, 2))
            tl.store(y + offs, tl.reshape(h * 2.0, (128,)))
        """)
    with pytest.raises(errors.CtrsError) as e:
        translate.translate(p, tmp_path / "port")
    blockers = list(getattr(e.value, "blockers", None) or [e.value])
    b = next(b for b in blockers if b.code == errors.TRITON_TILE_RANK)
    assert b.loc.line == 8 and "src/_core.rs:668" in b.message  # at the use (h * 2.0)


def test_port_compiles_without_a_rank_7_tile(tmp_path):
    port = translate.translate(KERNEL, tmp_path / "port")[0]
    specs = specmod.load_specs(str(DATA / "triton_high_rank.json"))
    res = ir_rs.compile_ports(port, [(s, s.rust["entry"]) for s in specs])
    for r in res:
        assert len(re.findall(r"= permute ", r.text)) == 2
        assert not re.search(r"tile<(\d+x){7,}", r.text)
