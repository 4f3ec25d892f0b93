# ctrs test data written for this repo: a kernel using helpers of its own package; host code imports torch.
import cuda.tile as ct
import torch

from hostpkg.utils import OFFSET, next_power_of_2
from .utils import offset_tile

ConstInt = ct.Constant[int]


@ct.kernel
def add_one(x, y, TILE: ConstInt):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(pid,), tile=offset_tile(t, OFFSET))


def add_one_host(x):
    y = torch.empty_like(x)
    tile = next_power_of_2(min(x.shape[0], 1024))
    ct.launch(torch.cuda.current_stream(), (ct.cdiv(x.shape[0], tile),), add_one, (x, y, tile))
    return y
