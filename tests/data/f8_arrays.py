# ctrs test kernel written for this repo: arrays of float8_e4m3fn as kernel parameters (an fp8 product with a
# per-row f32 scale; `a` gathered with an fp8 padding value, which makes its dtype
# concrete), so the port's C ABI borrows fp8 tensors (cuda_core's f8e4m3fn newtype).
"""c[m, n] = (a @ bᵀ)[m, n] * s[m], a and b float8_e4m3fn, the product accumulated in f32."""

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def f8_scaled_mm(a, b, s, c, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    i = ct.bid(0)
    j = ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    rows = i * TM + ct.arange(TM, dtype=ct.int32)
    for k in range(ct.cdiv(a.shape[1], TK)):
        cols = k * TK + ct.arange(TK, dtype=ct.int32)
        x = ct.gather(a, (rows[:, None], cols[None, :]), padding_value=ct.float8_e4m3fn(0.0))
        y = ct.load(b, index=(j, k), shape=(TN, TK), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.permute(y, (1, 0)), acc=acc)
    scale = ct.load(s, index=(i,), shape=(TM,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(c, index=(i, j), tile=ct.astype(acc * scale[:, None], c.dtype))
