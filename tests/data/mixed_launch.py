"""Arrays a use makes one dtype variable, launched with different dtypes (written for this repo; docs/ir.md "Array
dtype variables"): ``xt * g`` unifies ``x`` and ``gate`` in the generic typing, and ``out`` receives their product.
cuTile Python types each array by its tensor, so a launch with bf16 ``x`` beside f32 ``gate`` promotes the product
to f32 (as TileGym's mamba2 chunk-state kernels mix bf16 activations and f32 gates). With such a launch among its
specs (tests/data/mixed_launch.json) the port gets an entry of that launch's concrete dtypes."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gated_rows(x, gate, acc, out, N: ConstInt):
    row = ct.bid(0)
    xt = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    g = ct.load(gate, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    a = ct.load(acc, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    y = xt * g + a
    ct.store(out, index=(row, 0), tile=ct.astype(y, out.dtype))


@ct.kernel
def gated_pick(idx, x, gate, out, N: ConstInt):
    # idx's element is a row index (an integer entry per index dtype, dtypes.candidates); the lowering of the
    # generic typing stops there, so x meets gate (one variable) only in the entries that fix idx
    row = ct.bid(0)
    i = ct.gather(idx, row)
    xt = ct.load(x, index=(i, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    g = ct.load(gate, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    ct.store(out, index=(row, 0), tile=ct.astype(xt * g, out.dtype))
