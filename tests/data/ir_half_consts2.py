# ctrs test kernel (written for this repo): float constants meeting half-precision tiles (tanh-gelu style).
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def ir_half_consts(x, y, TILE: ConstInt):
    v = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    r = 0.5 * v * (1.0 + ct.astype(ct.tanh(ct.astype(inner, ct.float32)), v.dtype))
    r = ct.maximum(r, -1.0e4)
    ct.store(y, index=(ct.bid(0),), tile=r - 0.1)
