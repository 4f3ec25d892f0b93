"""Float constants in an array's element type (written for this repo): a tile of the launch's dtype times Python
floats (0.5, 0.044715, sqrt(2/pi)), so an f16 / bf16 launch has half-type constants cutile's constant() cannot
spell (0 / 1 / inf only): the port spells them through constant_f32, one rounding like the reference's."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def tanh_gelu(x, y, TILE: ConstInt):
    i = ct.bid(0)
    v = ct.load(x, (i,), (TILE,))
    u = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    ct.store(y, (i,), 0.5 * v * (1.0 + ct.tanh(u)))


@ct.kernel
def scaled(x, y, TILE: ConstInt):
    i = ct.bid(0)
    v = ct.load(x, (i,), (TILE,))
    ct.store(y, (i,), v * 1.4142135623730951 - 3.0)
