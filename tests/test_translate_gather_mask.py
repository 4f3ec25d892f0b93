"""ctrs translate: the ``mask=`` keyword of ct.gather / ct.scatter (frontends/cutile/memory.py ``_mask``).

cuTile Python 1.7.0 (``_process_custom_mask``) broadcasts a bool mask (tile or scalar) to the index shape
and ANDs it with the bounds mask -- ``andi(bounds, mask)`` -- or uses it alone with check_bounds=False.
Each kernel under tests/data/ops_gather_mask*.py is translated with rules only and must be IR-equivalent
(diff-ir exit 0) to cuTile Python's reference for every spec next to it; unsupported mask forms give one
coded diagnostic.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ctrs import errors, translate

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNELS = ["ops_gather_mask", "ops_gather_mask_bcast"]


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> dict[str, Path]:
    return translate_data(tmp_path_factory.mktemp("gather_mask"), KERNELS)


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(KERNELS)))
def test_gather_mask_ir_equivalent(translated, kernel, spec):
    assert_port_equivalent(DATA / f"{kernel}.py", translated[kernel], spec)


def test_gather_mask_generated_forms(translated):
    k = translated["ops_gather_mask"].read_text()
    body = k.split("pub fn gmask_f32<")[1].split("pub fn ")[0]
    # mask + bounds: andi(bounds, user mask); check_bounds=False: the user mask alone
    assert "let x_mask_1: Tile<bool, { [TILE] }> = andi(x_mask, m);" in body
    assert "Some(x_mask_1), Some(x_zero)" in body and "Some(x_mask_3), Some(x_pad)" in body
    assert "f32::NEG_INFINITY" in body
    assert "load_ptr_tko(x_ptrs_2, ordering::Weak, None::<scope::TileBlock>, Some(m), Some(x_zero_1)" in body
    assert "let y_mask_1: Tile<bool, { [TILE] }> = andi(y_mask, m);" in body
    b = translated["ops_gather_mask_bcast"].read_text()
    body = b.split("pub fn gmask_scalar_f32<")[1].split("pub fn ")[0]
    # a bool scalar mask: scalar_to_tile, then reshape + broadcast to the index shape (none for a 0-d gather)
    # (the typed-IR path's spelling: the mask is lifted like any runtime scalar meeting a tile)
    assert "let on_tile_r_b: Tile<bool, { [TILE] }> = on_tile_r.broadcast(const_shape![TILE]);" in body
    assert "andi(x_mask, on_tile_r_b)" in body and "andi(x_mask_2, on_tile_1)" in body
    assert "Some(on_tile_r_b_1)" in body  # scatter with check_bounds=False


def test_translate_is_deterministic(tmp_path):
    a = translate.translate(DATA / "ops_gather_mask.py", tmp_path / "a")
    b = translate.translate(DATA / "ops_gather_mask.py", tmp_path / "b")
    ka = next(p for p in a if p.name == "kernel.rs").read_bytes()
    kb = next(p for p in b if p.name == "kernel.rs").read_bytes()
    assert ka == kb


_BAD = '''import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def k(x, y, TILE: ConstInt):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    {stmt}
    ct.scatter(y, offs, ct.gather(x, offs))
'''


@pytest.mark.parametrize(("stmt", "code", "col", "words"), [
    # a constant mask: outside the typed front end's subset (CTRS-E124; the text model said CTRS-E100)
    ("v = ct.gather(x, offs, mask=True)", errors.IR_UNSUPPORTED, 33, "ct.gather(mask=..) given the constant True"),
    ("ct.scatter(y, offs, 1.0, mask=False)", errors.IR_UNSUPPORTED, 35, "ct.scatter(mask=..) given the constant False"),
    ("v = ct.gather(x, offs, mask=offs)", errors.TRANSLATE_TYPE, 33, "mask must be bool, got a tile of type i32"),
    ("v = ct.gather(x, offs, mask=ct.full((TILE, TILE), True, dtype=ct.bool_))", errors.TRANSLATE_TYPE, 33,
     "mask of shape (TILE, TILE) does not broadcast to the index shape (TILE)"),
    ("v = ct.gather(x, ct.bid(0), mask=offs < 3)", errors.TRANSLATE_TYPE, 38,
     "mask of shape (TILE) does not broadcast to the index shape ()"),
])
def test_gather_mask_diagnostics(tmp_path, stmt, code, col, words):
    src = tmp_path / "bad_mask.py"
    src.write_text(_BAD.replace("{stmt}", stmt))
    with pytest.raises(errors.CtrsError) as ei:
        translate.translate(src, tmp_path / "out")
    e = ei.value
    assert e.code == code and words in e.message, e.one_line()
    assert (e.loc.line, e.loc.col) == (9, col) and e.hint
    assert not (tmp_path / "out").exists()  # nothing written
    assert "\n" not in e.one_line()


def test_mask_none_is_no_mask(tmp_path):
    """``mask=None`` (the default spelled out) lowers exactly like no mask."""
    outs = []
    for i, stmt in enumerate(("v = ct.gather(x, offs, mask=None)\n    ct.scatter(y, offs, v, mask=None)",
                              "v = ct.gather(x, offs)\n    ct.scatter(y, offs, v)")):
        d = tmp_path / str(i)
        d.mkdir()
        (d / "k.py").write_text(_BAD.replace("{stmt}", stmt))
        files = translate.translate(d / "k.py", d / "out")
        outs.append(next(p for p in files if p.name == "kernel.rs").read_text())
    assert outs[0] == outs[1]
