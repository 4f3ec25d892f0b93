# ctrs test data written for this repo: an f32 accumulator plus a product of two arrays of the input dtype
# (`acc + scale * x`, a skip connection after an f32 matmul). cuTile Python types `scale * x` in the arrays'
# dtype and promotes it to f32 for the add; at f32 there is no promotion and its fuse_mul_addsub makes one fma.
# The port's product is generic until the specialise pass makes an entry per dtype (the mulf feeds the add
# through the promotion), so the f32 entry contracts as the reference does.
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def skip_add(a, x, scale, out, TILE: ConstInt):
    r = ct.bid(0)
    t = ct.load(a, index=(r, 0), shape=(TILE, TILE), padding_mode=ct.PaddingMode.ZERO)
    xt = ct.load(x, index=(r, 0), shape=(TILE, TILE), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.full((TILE, TILE), 0.0, dtype=ct.float32)
    acc = ct.mma(t, xt, acc)
    s = ct.load(scale, index=(0,), shape=(1,))
    acc = acc + s * xt
    ct.store(out, index=(r, 0), tile=ct.astype(acc, out.dtype))
