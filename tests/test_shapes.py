"""Fuzz plans from host calls (transpiler/gpu/shapes.py): extents of a call expression, tied groups, seeded
hypothesis draws, and -- through ``ctrs specs``' capture -- grids and constants recomputed by the host code."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ctrs.workflow import capture
from ctrs import errors
from ctrs.gpu import shapes

ROOT = Path(__file__).resolve().parent.parent
CAP = ROOT / "tests" / "data" / "capture"
try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="capture runs host code on CPU torch: pip install -e '.[specs]'")


def test_extents_of_factories_tuples_and_data():
    call = ("norm(torch.randn(256, 768, dtype=torch.float16), (768,), torch.randn(768), 1e-5, "
            "torch.randint(0, 8, (64, 2)), torch.tensor([512, 512]), torch.empty((3, 5)), 128)")
    got = [(x.value, x.array) for x in shapes.extents(call)]
    # randn sizes, the normalized-shape tuple, randint's size tuple (not its bounds 0, 8), empty's size tuple;
    # torch.tensor data and the bare scalar 128 are not extents
    assert got == [(256, 0), (768, 0), (768, 1), (768, 2), (64, 3), (2, 3), (3, 4), (5, 4)]
    assert {b: len(g) for b, g in shapes.extent_groups(call).items()} == {2: 1, 3: 1, 5: 1, 64: 1, 256: 1, 768: 3}
    assert shapes.largest_array(call) == 256 * 768


def test_with_sizes_rewrites_tied_extents_only():
    call = "f(torch.randn(256, 768, dtype=torch.float16), (768,), torch.randn(768), eps=768.0, n=256)"
    assert shapes.with_sizes(call, {768: 1000, 256: 3}) == \
        "f(torch.randn(3, 1000, dtype=torch.float16), (1000,), torch.randn(1000), eps=768.0, n=256)"
    assert shapes.with_sizes(call, {}) == call
    assert shapes.largest_array(call, {768: 1000, 256: 3}) == 3000


def test_draws_are_seeded_distinct_bounded_and_new():
    call = "relu(torch.randn(256, 2048, dtype=torch.float32))"
    a = shapes.draw(call, 8, tiles=[1024], max_elements=1 << 16, seed=3)
    assert a == shapes.draw(call, 8, tiles=[1024], max_elements=1 << 16, seed=3)  # same seed, same list
    assert a != shapes.draw(call, 8, tiles=[1024], max_elements=1 << 16, seed=4)
    assert len(a) == 8 and len({json.dumps(d, sort_keys=True) for d in a}) == 8
    for d in a:
        assert set(d) == {256, 2048} and d != {256: 256, 2048: 2048}
        assert d[256] * d[2048] <= 1 << 16 and all(1 <= v <= shapes.size_limit(b) for b, v in d.items())
    assert shapes.label(shapes.extent_groups(call), {256: 17, 2048: 1023}) == "17x1023"


def test_nothing_to_draw_and_bad_expression():
    assert shapes.draw("f(None, 0.5)", 4) == []
    # explicit data (varlen lengths) may describe sizes the draw cannot see: such a call is not drawn
    varlen = "f(torch.randn(1, 8, 768, 64), q_lens=torch.tensor([256, 512]))"
    assert shapes.data_calls(varlen) == ["torch.tensor([256, 512])"] and shapes.draw(varlen, 4) == []
    with pytest.raises(errors.CtrsError) as e:
        shapes.extents("relu(torch.randn(256,")
    assert e.value.code == "CTRS-E360"


def test_tile_constants_are_power_of_two_ints():
    spec = {"args": {"x": {"shape": [3]}, "BLOCK": 1024, "N": 1000, "FLAG": True, "ONE": 1, "EPS": 0.5}}
    assert shapes.tile_constants(spec) == [1024]


@needs_torch
@pytest.mark.parametrize("call, grid, consts", [
    # cdiv grid from two tile sizes
    ("scale(torch.empty(200, 300, dtype=torch.float16))",
     lambda r, c: [str(-(-r // 64)), str(-(-c // 128)), "1"], lambda r, c: {"BM": 64, "BN": 128}),
    # persistent grid min(SMs, rows); the tile a next power of two of the row, clamped to [16, 1024]
    ("triple_rows(torch.empty(1000, 48))",
     lambda r, c: [str(min(132, r)), "1", "1"], lambda r, c: {"TILE": min(1024, max(16, 1 << (c - 1).bit_length()))}),
])
def test_drawn_calls_recompute_grid_and_constants(call, grid, consts):
    """The plan's promise: a drawn call, captured again, launches what the host code computes at the drawn sizes."""
    draws = shapes.draw(call, 5, tiles=[64, 128], max_elements=1 << 20, seed=1)
    assert len(draws) == 5
    r0, c0 = (x.value for x in shapes.extents(call))  # rows, columns of x
    for d in draws:
        specs, _ = capture.capture_file(CAP / "host_patterns.py", [shapes.with_sizes(call, d)])
        (s,) = specs
        rows, cols = d[r0], d[c0]
        assert s.args["x"].shape == (rows, cols) and s.args["y"].shape == (rows, cols)
        assert list(s.grid) == grid(rows, cols)
        assert {n: a.value for n, a in s.args.items() if isinstance(a, capture.specmod.ConstArg)} == consts(rows, cols)


def test_h200_shape_specs_pick_the_kernel_and_name_roles(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import h200_tilegym  # noqa: PLC0415

    def spec(name, kernel="k", n=1):
        return {"name": name, "kernel": kernel, "args": {"x": {"dtype": "float16", "shape": [n]}}, "grid": ["1"]}

    (tmp_path / "op.json").write_text(json.dumps({
        "file": "op.py", "rejected": [],
        "bench": [{"call": "b", "specs": [spec("k__big", n=9), spec("other__big", "other"), spec("k__proven")]}],
        "tests": [{"call": "t", "specs": [spec("k__small", n=2), spec("k__big", n=9), spec("k__small", n=3)]}],
        "fuzz": [{"call": "f", "base": "k__proven", "spec": spec("k__proven@3x5", n=15)}]}))
    monkeypatch.setattr(h200_tilegym, "SHAPES", tmp_path)
    bench, numerics = h200_tilegym.shape_specs("op.py", "k", [spec("k__proven")])
    assert [s["name"] for s in bench] == ["k__big"]  # a proven spec is timed already; other kernels left out
    # k__big: timed, so not repeated; a second k__small with other arrays keeps its own (suffixed) name
    names = [s["name"] for s in numerics]
    assert names[0] == "k__small@test" and names[2] == "k__proven@3x5" and len(names) == 3
    assert names[1].startswith("k__small_") and names[1].endswith("@test") and len(names[1]) == len("k__small_") + 8 + 5
    assert h200_tilegym.shape_specs("missing.py", "k", []) == ([], [])
    # caps: a spread of each list; a config timed already is left out of the benchmark sizes
    assert h200_tilegym.shape_specs("op.py", "k", [spec("k__proven")], timed={"k__big"})[0] == []
    capped = h200_tilegym.shape_specs("op.py", "k", [spec("k__proven")], caps={"tests": 1, "drawn": 0})[1]
    assert [s["name"] for s in capped] == ["k__small@test"]
    assert h200_tilegym.spread(list(range(10)), 4) == [0, 3, 6, 9] and h200_tilegym.spread([1, 2], 5) == [1, 2]
