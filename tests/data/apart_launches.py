"""Arrays whose dtype variables no use forces together (docs/ir.md "Array dtype variables"; written for this repo):
every tile is cast to f32 before it meets another and every store casts to its array's own dtype, so a launch may
pass the half-precision activations beside f32 decay / carry arrays. Without specs the port has one type generic E;
with a spec passing them in different dtypes (tests/data/apart_launches.json) they keep generics of their own."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def decayed_carry(x, w, decay, carry, scale, y, carry_out, N: ConstInt):
    # seven arrays, seven free dtype variables
    row = ct.bid(0)
    xt = ct.astype(ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    wt = ct.astype(ct.load(w, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    d = ct.astype(ct.load(decay, index=(row,), shape=(1,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    c = ct.astype(ct.load(carry, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    s = ct.astype(ct.load(scale, index=(row,), shape=(1,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    nc = c * ct.reshape(d, (1, 1)) + xt * wt
    ct.store(y, index=(row, 0), tile=ct.astype(nc * ct.reshape(s, (1, 1)), y.dtype))
    ct.store(carry_out, index=(row, 0), tile=ct.astype(nc, carry_out.dtype))


@ct.kernel
def met_by_use(a, b, c, out, N: ConstInt):
    # a and b meet in `at + bt` (one variable by that use, whatever a spec passes them in); c and out are free
    row = ct.bid(0)
    at = ct.load(a, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    bt = ct.load(b, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    ct.store(a, index=(row, 0), tile=at + bt)
    ct.store(out, index=(row, 0), tile=ct.astype(ct.load(c, index=(row, 0), shape=(1, N),
                                                         padding_mode=ct.PaddingMode.ZERO), out.dtype))
