"""Arrays whose dtype variables no use forces together (docs/ir.md "Array dtype variables"; written for this repo):
a gated state update reading half-precision activations beside f32 gate / state arrays, each array cast to f32
on load, the result cast to each output's own dtype; and a three-array kernel whose variables stay one E."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gated_update(q, kk, gate, beta, state, out, new_state, T: ConstInt):
    # seven arrays, seven dtype variables: every tile is cast to f32 before it meets another, every store casts to
    # its array's dtype, so a launch may pass any of them in its own dtype (TileGym's gated-delta-rule kernels:
    # bf16 q / k / v beside f32 gate and state)
    b = ct.bid(0)
    qt = ct.astype(ct.load(q, index=(b, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    kt = ct.astype(ct.load(kk, index=(b, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    g = ct.astype(ct.load(gate, index=(b,), shape=(1,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    be = ct.astype(ct.load(beta, index=(b,), shape=(1,), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    s = ct.astype(ct.load(state, index=(b, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    decay = ct.exp(ct.reshape(g, (1, 1)))
    s2 = s * decay + ct.reshape(be, (1, 1)) * kt
    ct.store(out, index=(b, 0), tile=ct.astype(s2 * qt, out.dtype))
    ct.store(new_state, index=(b, 0), tile=ct.astype(s2, new_state.dtype))


@ct.kernel
def three_arrays(x, w, y, T: ConstInt):
    # three independent dtype variables: fewer than APART_FEWEST_CUTILE, so one generic E as every port before
    b = ct.bid(0)
    xt = ct.astype(ct.load(x, index=(b, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    wt = ct.astype(ct.load(w, index=(b, 0), shape=(1, T), padding_mode=ct.PaddingMode.ZERO), ct.float32)
    ct.store(y, index=(b, 0), tile=ct.astype(xt * wt, y.dtype))
