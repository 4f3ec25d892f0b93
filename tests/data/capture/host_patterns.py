# ctrs test data written for this repo: kernels whose host code computes its constants like real wrappers do.
"""Host-code patterns `ctrs specs` must run: tuple unpacking, a module-level helper computing the tile size
(next power of two), min/max/cdiv, device properties (SM count), an autotune config list
(cuda.tile.tune.exhaustive_search and cuda.tile_experimental.autotune_launch)."""

from types import SimpleNamespace

import cuda.tile as ct
import torch
from cuda.tile.tune import exhaustive_search

ConstInt = ct.Constant[int]
CONFIGS = [SimpleNamespace(BM=32, BN=64), SimpleNamespace(BM=64, BN=64)]


def next_power_of_2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def row_tile(n_cols: int) -> int:
    """The tile width: the row rounded up to a power of two, at least 16, at most 1024."""
    return min(1024, max(16, next_power_of_2(n_cols)))


@ct.kernel
def scale2d(x, y, BM: ConstInt, BN: ConstInt):
    bm = ct.bid(0)
    bn = ct.bid(1)
    t = ct.load(x, index=(bm, bn), shape=(BM, BN), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(bm, bn), tile=t + t)


@ct.kernel
def row_double(x, y, TILE: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(row, 0), tile=t + t)


@ct.kernel
def rows_persistent(x, y, n_rows: int, TILE: ConstInt):
    for row in range(ct.bid(0), n_rows, ct.num_blocks(0)):
        t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
        ct.store(y, index=(row, 0), tile=t + t)


def scale(x):
    """Tuple unpacking of the tile sizes."""
    y = torch.empty_like(x)
    bm, bn = 64, 128
    grid = (ct.cdiv(x.shape[0], bm), ct.cdiv(x.shape[1], bn), 1)
    ct.launch(torch.cuda.current_stream(), grid, scale2d, (x, y, bm, bn))
    return y


def double_rows(x):
    """Tile from a module-level helper: next power of two, min/max."""
    y = torch.empty_like(x)
    TILE = row_tile(x.shape[1])
    ct.launch(torch.cuda.current_stream(), (x.shape[0],), row_double, (x, y, TILE))
    return y


def triple_rows(x):
    """A persistent grid sized by the device's SM count."""
    y = torch.empty_like(x)
    n_sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    grid = (min(n_sms, x.shape[0]), 1, 1)
    ct.launch(torch.cuda.current_stream(), grid, rows_persistent, (x, y, x.shape[0], row_tile(x.shape[1])))
    return y


def scale_tuned(x):
    """An autotuned launch: one spec per config, then the launch of the best one."""
    y = torch.empty_like(x)
    stream = torch.cuda.current_stream()
    res = exhaustive_search(CONFIGS, stream,
                            lambda c: (ct.cdiv(x.shape[0], c.BM), ct.cdiv(x.shape[1], c.BN), 1),
                            scale2d, lambda c: (x, y, c.BM, c.BN))
    best = res.best.config
    ct.launch(stream, (ct.cdiv(x.shape[0], best.BM), ct.cdiv(x.shape[1], best.BN), 1), scale2d,
              (x, y, best.BM, best.BN))
    return y


def scale_tuned_experimental(x):
    """The cuda.tile_experimental autotuner (its search space a callable), with an occupancy hint."""
    from cuda.tile_experimental import autotune_launch

    y = torch.empty_like(x)
    autotune_launch(torch.cuda.current_stream(),
                    grid_fn=lambda c: (ct.cdiv(x.shape[0], c.BM), ct.cdiv(x.shape[1], c.BN), 1),
                    kernel=scale2d, args_fn=lambda c: (x, y, c.BM, c.BN),
                    hints_fn=lambda c: {"occupancy": 2}, search_space=lambda: CONFIGS)
    return y
