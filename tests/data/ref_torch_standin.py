# ctrs test kernel written for this repo: a kernel file that imports torch for annotations and a dtype.
"""The reference module of a kernel file that imports torch: `x: torch.Tensor` annotations and `torch.float32`
in the kernel body. Without torch installed, ctrs check compiles the reference with the torch stand-in
(verify/refmodule: Tensor and the dtypes, as cuda.tile's)."""

import torch

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def scaled_rows(x: torch.Tensor, y: torch.Tensor, TILE: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.astype(t, torch.float32) * 2.0
    ct.store(y, index=(row, 0), tile=ct.astype(acc, y.dtype))
